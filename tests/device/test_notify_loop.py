"""systemd notifications (only under systemd), the main loop with a fake clock, and `history`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from device.cli import main
from device.loop import run_loop
from device.notify import Notifier
from device.session import Seat, Session, rules_for
from device.store import GameStore
from engine.events import Banked, Thrown
from hardware.buttons import Button
from tests.device.harness import config, open_rig

MAX_STEPS = 1000
"""A bound on every loop these tests drive: far more than a stop needs (under 200 steps)."""


class Sink:
    def __init__(self) -> None:
        self.messages: list[str] = []

    def notify(self, state: str) -> None:
        self.messages.append(state)


def test_nothing_is_sent_without_notify_socket() -> None:
    sink = Sink()
    notifier = Notifier({}, connect=lambda: sink)
    notifier.ready()
    notifier.watchdog(0.0)
    notifier.stopping()
    assert not notifier.is_enabled and sink.messages == []


def test_ready_and_watchdog_at_half_the_interval() -> None:
    sink = Sink()
    env = {"NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "30000000"}
    notifier = Notifier(env, connect=lambda: sink)
    notifier.ready("playing greed")
    for now in (0.0, 5.0, 14.9, 15.0, 29.0, 30.0):
        notifier.watchdog(now)
    assert sink.messages == [
        "READY=1\nSTATUS=playing greed",
        "WATCHDOG=1",
        "WATCHDOG=1",
        "WATCHDOG=1",
    ]


@pytest.mark.timeout(60)
def test_the_loop_steps_until_shut_down_and_pings_the_watchdog(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 1, 5, 2]]))
    sink = Sink()
    notifier = Notifier({"NOTIFY_SOCKET": "x", "WATCHDOG_USEC": "1000000"}, connect=lambda: sink)
    clock = rig.clock

    def sleep(seconds: float) -> None:
        clock[0] += seconds

    with rig.table:
        rig.buttons.press(Button.ROLL)  # Ann throws
        steps = run_loop(
            rig.table.controller,
            clock=lambda: clock[0],
            sleep=sleep,
            rate=20,
            notifier=notifier,
            stop=lambda c: c.state.phase.value == "decide",
            max_steps=MAX_STEPS,  # a bug in the loop fails here instead of hanging the suite
        )
        assert rig.table.controller.state.turn.total == 1050
        assert 0 < steps < 200
        assert sink.messages.count("WATCHDOG=1") == pytest.approx(clock[0] / 0.5, abs=1.5)
        rig.table.controller.is_shut_down = True
        stopped = run_loop(
            rig.table.controller, clock=lambda: clock[0], sleep=sleep, max_steps=MAX_STEPS
        )
        assert stopped == 0


@pytest.mark.timeout(60)
def test_the_loop_ends_after_max_steps_when_nothing_stops_it(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed"))
    clock = rig.clock

    def sleep(seconds: float) -> None:
        clock[0] += seconds

    with rig.table:
        steps = run_loop(rig.table.controller, clock=lambda: clock[0], sleep=sleep, max_steps=7)
        assert steps == 7
        assert clock[0] == pytest.approx(7 / 20, abs=0.06)  # paced at the rate, by the fake sleep


@pytest.mark.timeout(60)
@pytest.mark.parametrize("after", [0, 1, 5])
def test_the_loop_stops_as_soon_as_stop_says_so(tmp_path: Path, after: int) -> None:
    rig = open_rig(config(tmp_path, rules="greed"))
    clock = rig.clock
    asked: list[int] = []

    def stop(controller: object) -> bool:
        asked.append(len(asked))
        return len(asked) > after

    def sleep(seconds: float) -> None:
        clock[0] += seconds

    with rig.table:
        steps = run_loop(
            rig.table.controller,
            clock=lambda: clock[0],
            sleep=sleep,
            stop=stop,
            max_steps=MAX_STEPS,
        )
    assert steps == after
    assert len(asked) == after + 1  # asked before every step, and once more to stop


def test_history_lists_finished_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg_file = tmp_path / "config.toml"
    cfg_file.write_text(f'[state]\ndirectory = "{tmp_path}"\n')
    assert main(["history", "--config", str(cfg_file)]) == 0
    assert "no finished games yet" in capsys.readouterr().out
    with GameStore.in_directory(tmp_path) as store:
        session = Session.new(store, rules_for("greed", 300), [Seat("Ann"), Seat("Bob")])
        session.apply(Thrown("Ann", (1, 1, 1, 2, 3)), Banked("Ann", 1000))
        session.apply(Thrown("Bob", (2, 2, 3, 4, 6)))
        assert session.is_over
    assert main(["history", "--config", str(cfg_file), "--json"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    result = json.loads(line)["result"]
    assert result["winners"] == ["Ann"] and result["scores"] == {"Ann": 1000, "Bob": 0}
    assert main(["history", "--config", str(cfg_file)]) == 0
    assert "greed: Ann won (Ann 1000, Bob 0)" in capsys.readouterr().out


def test_a_saved_game_that_no_longer_replays_is_set_aside(tmp_path: Path) -> None:
    with GameStore.in_directory(tmp_path) as store:
        done = store.start_game({"rules": "greed"}, ['{"type": "player-added", "name": "Ann"}'])
        store.finish(done, {"rules": "greed", "winners": ["Ann"], "scores": {"Ann": 10_000}})
        session = Session.new(store, rules_for("greed"), [Seat("Ann")])
        store.append(session.game_id, json.dumps({"type": "thrown", "player": "Zed", "dice": [1]}))
    with GameStore.in_directory(tmp_path) as store:
        assert Session.resume(store) is None
        assert "could not be resumed" in store.notice and "set aside" in store.notice
        assert [game.id for game in store.history()] == [done]
    assert not any(".corrupt-" in p.name for p in tmp_path.iterdir())


def test_a_corrupt_store_is_reported_on_the_screen(tmp_path: Path) -> None:
    cfg = config(tmp_path, rules="greed", script=[[1, 1, 1, 5, 2]])
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "dicekeeper.sqlite3").write_bytes(b"not a database" * 64)
    rig = open_rig(cfg)
    with rig.table:
        view = rig.step()
        assert "could not be read" in view.message and "moved to" in view.message
        assert [p.name for p in view.players] == ["Ann", "Bob"]


def test_shut_down_from_the_menu_powers_off_when_configured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    import device.commands.run as run_command
    from device.controller import Controller

    marker = tmp_path / "powered-off"
    monkeypatch.setattr(
        run_command, "POWER_OFF", [sys.executable, "-c", f"open({str(marker)!r}, 'w')"]
    )

    def menu_shut_down(controller: Controller, **kwargs: object) -> int:
        controller.is_shut_down = controller.wants_power_off = True
        return 1

    monkeypatch.setattr(run_command, "run_loop", menu_shut_down)
    cfg = tmp_path / "config.toml"
    base = f'[camera]\nread_truth = true\n[state]\ndirectory = "{tmp_path}"\n'
    cfg.write_text(base + '[[display]]\nkind = "terminal"\n')
    assert main(["run", "--config", str(cfg)]) == 0
    assert not marker.exists()  # system.shutdown = "exit" (the default)
    cfg.write_text(base + '[[display]]\nkind = "terminal"\n[system]\nshutdown = "poweroff"\n')
    assert main(["run", "--config", str(cfg)]) == 0
    assert marker.exists()
