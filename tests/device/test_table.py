"""The controller at the table: wrong dice counts, unreadable dice, presses out of turn, a full
disk, a camera that goes away, the menu, and computer players. Each problem gives its message and
changes nothing in the game or the store."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.wiring import open_table
from engine.state import Phase as EnginePhase
from hardware.buttons import Button
from hardware.errors import CameraUnavailable, DisplayUnavailable
from hardware.simulated_camera import SimulatedCamera
from hardware.view import Phase, TableView
from tests.device.harness import Rig, config, fill_disk, is_waiting, open_rig


def stored_events(rig: Rig) -> tuple[str, ...]:
    game = rig.table.store.unfinished()
    assert game is not None
    return game.events


def test_wrong_number_of_dice_is_refused_with_a_message(tmp_path: Path) -> None:
    script = [[1, 1, 1, 2, 3, 4], [5, 2, 3, 4], [5, 2, 3]]
    rig = open_rig(config(tmp_path, rules="farkle", script=script))
    with rig.table:
        rig.until(is_waiting)
        rig.press(Button.ROLL)  # keeps 1 1 1, three dice to throw; the camera shows four
        before = (rig.table.controller.state, stored_events(rig))
        view = rig.until(lambda v: "I see" in v.message)
        assert view.message == "expected 3 dice, I see 4 — take the kept dice out of the tray"
        assert view.alert
        assert (rig.table.controller.state, stored_events(rig)) == before
        view = rig.until(is_waiting)  # the next throw has three dice
        assert view.dice == (5, 2, 3)
        assert view.turn_total == 1000


def test_too_few_dice_asks_for_all_of_them(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 5], [1, 1, 1, 5, 5]]))
    with rig.table:
        view = rig.until(lambda v: "I see" in v.message)
        assert view.message == (
            "expected 5 dice, I see 2 — throw all 5, or hold STOP to set the missing ones"
        )
        assert rig.table.controller.state.turn.throws == ()
        assert rig.until(is_waiting).turn_total == 1100


def test_an_unreadable_die_is_thrown_again(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 5, 2, 3, 4], [1, 1, 1, 2, 2]]))
    rig.oracle.unreadable = {1}
    with rig.table:
        view = rig.until(lambda v: "could not be read" in v.message)
        assert view.message == (
            "1 die could not be read — hold STOP to set it or throw it again (cocked or covered)"
        )
        assert rig.table.controller.state.turn.throws == ()
        assert stored_events(rig) == tuple(stored_events(rig)[:2])  # only the two players
        view = rig.until(is_waiting)
        assert view.dice == (1, 1, 1, 2, 2) and view.turn_total == 1000


def test_news_is_not_shown_as_a_problem(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 1, 2, 3]]))
    with rig.table:
        rig.until(is_waiting)
        view = rig.press(Button.STOP)  # banks 1000: news, not a problem
        assert "1000" in view.message and not view.alert


def test_presses_out_of_turn_change_nothing(tmp_path: Path) -> None:
    cfg = config(
        tmp_path, rules="farkle", players=["Ann", "cpu:expert"], script=[[2, 2, 3, 4, 6, 6]]
    )
    rig = open_rig(cfg, think_seconds=100.0, roll_seconds=100.0)
    with rig.table:
        state = rig.table.controller.state
        view = rig.press(Button.STOP)
        assert view.message == "nothing to bank yet: throw the dice first"
        view = rig.press(Button.SELECT)
        assert view.message == "nothing to choose now"
        assert rig.table.controller.state == state
        rig.until(lambda v: v.current == 1)  # Ann busts; the computer's turn
        state, events = rig.table.controller.state, stored_events(rig)
        for button in (Button.ROLL, Button.STOP, Button.SELECT):
            view = rig.press(button)
            assert view.message == "it is Expert's turn (computer): please wait"
        assert (rig.table.controller.state, stored_events(rig)) == (state, events)


def test_a_full_disk_is_reported_and_the_game_does_not_advance(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 1, 5, 2]]))
    with rig.table:
        rig.until(is_waiting)
        state, events = rig.table.controller.state, stored_events(rig)
        disk = fill_disk(rig)
        view = rig.press(Button.STOP)
        assert "is full" in view.message and "did not advance" in view.message
        assert view.players[0].total == 0 and view.turn_total == 1050
        assert rig.table.controller.state == state
        disk.full = False
        assert stored_events(rig) == events
        view = rig.press(Button.STOP)
        assert rig.totals() == {"Ann": 1050, "Bob": 0}
        assert len(stored_events(rig)) == len(events) + 1


def test_a_full_disk_during_a_throw_keeps_waiting_for_it(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 1, 5, 2]]))
    with rig.table:
        disk = fill_disk(rig)
        view = rig.until(lambda v: "is full" in v.message)
        assert rig.table.controller.state.turn.throws == ()
        disk.full = False
        view = rig.until(is_waiting)
        assert view.turn_total == 1050


def test_an_unplugged_camera_is_a_message_and_a_missing_one_an_error(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 1, 5, 2]]))
    with rig.table:
        camera = rig.table.camera
        assert isinstance(camera, SimulatedCamera)
        camera.unplug()
        view = rig.step(3)
        assert "no camera" in view.message and "plugged in" in view.message
        assert rig.table.controller.state.turn.throws == ()
        camera.replug()
        assert "no camera" not in rig.step().message
        assert rig.until(is_waiting).turn_total == 1050
    missing = config(tmp_path / "m", extra={"camera": {"backend": "opencv", "index": 63}})
    with pytest.raises(CameraUnavailable, match="no camera at index 63: is it plugged in"):
        open_table(missing)


def choose(rig: Rig, *labels: str) -> TableView:
    """Open the menu and choose ``labels`` in turn (a label opens a sub-menu or acts)."""
    view = rig.press(Button.MENU)
    for label in labels:
        rig.press(*[Button.SELECT] * view.menu.index(label))
        assert rig.view.menu[rig.view.menu_selected] == label
        view = rig.press(Button.ROLL)
    return view


def test_the_menu_adds_and_removes_players_and_changes_rules(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 1, 5, 2]] * 4))
    with rig.table:
        controller = rig.table.controller
        view = rig.press(Button.MENU)
        assert view.phase is Phase.MENU
        assert view.menu[:4] == (
            "Close menu",
            "Add player...",
            "Remove player...",
            "Rules (greed)...",
        )
        rig.press(Button.STOP)
        view = choose(rig, "Add player...")
        assert view.menu[:3] == ("Back", "Add Cleo", "Add guest 1")
        assert "Add computer Expert" in view.menu and "Add computer Bold" in view.menu
        view = rig.press(Button.SELECT, Button.ROLL)  # Add Cleo
        assert view.phase is not Phase.MENU and view.message == "Cleo joined"
        assert [p.name for p in controller.state.players] == ["Ann", "Bob", "Cleo"]
        choose(rig, "Add player...", "Add computer Expert")
        assert controller.session.computers == {"Expert": "expert"}
        choose(rig, "Remove player...", "Remove Bob")
        assert [p.name for p in controller.state.players] == ["Ann", "Cleo", "Expert"]
        resumed = rig.table.store.unfinished()
        assert resumed is not None and resumed.start["computers"] == {"Expert": "expert"}
        view = choose(rig, "Rules (greed)...", "Back")
        assert view.menu[0] == "Close menu"
        rig.press(Button.STOP)
        choose(rig, "Rules (greed)...", "Rules: farkle")
        assert controller.state.rules.name == "farkle"
        assert [p.name for p in controller.state.players] == ["Ann", "Cleo", "Expert"]
        view = choose(rig, "History")
        assert view.menu == ("Back", "No finished games yet")
        view = rig.press(Button.STOP)
        assert view.phase is not Phase.MENU
        assert not controller.wants_power_off
        choose(rig, "Shut down")
        assert controller.is_shut_down and controller.wants_power_off


def test_adding_a_player_during_a_turn_waits_for_the_next_round(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 1, 5, 2]]))
    with rig.table:
        rig.until(is_waiting)
        state = rig.table.controller.state
        choose(rig, "Add player...", "Add Cleo")
        assert rig.view.message == "Cleo joins at the start of the next round"
        assert rig.table.controller.state == state  # the turn goes on as it was


def test_computer_players_play_a_whole_game_with_virtual_dice(tmp_path: Path) -> None:
    cfg = config(
        tmp_path, rules="farkle", target=2000, players=["cpu:expert", "cpu:greedy:0.3", "cpu:bold"]
    )
    rig = open_rig(cfg)
    with rig.table:
        view = rig.until(lambda v: v.phase is Phase.GAME_OVER, limit=5000)
        state = rig.table.controller.state
        assert state.phase is EnginePhase.OVER
        assert max(p.total for p in state.players) >= 2000
        for player in state.players:
            assert player.total == sum(r.points for r in player.history)
        assert view.winner_player is not None
        (finished,) = rig.table.store.history()
        assert finished.result is not None
        assert finished.result["winners"] == [view.winner_player.name]


def test_a_restart_after_roll_still_waits_for_the_throw(tmp_path: Path) -> None:
    cfg = config(tmp_path, rules="farkle", script=[[1, 1, 1, 2, 3, 4]])
    rig = open_rig(cfg)
    with rig.table:
        rig.until(is_waiting)
        rig.press(Button.ROLL)  # keeps 1 1 1: the rest is to be thrown
    again = open_rig(cfg)  # a new process on the same store
    again.auto_roll = False
    with again.table:
        state = again.table.controller.state
        assert state.phase is EnginePhase.DECIDE and state.turn.total == 1000
        view = again.step()
        assert view.prompt == "ROLL: Ann throws 3 dice"  # the simulated camera waits for Ann


class BrokenOled:
    """A display that stopped answering."""

    def show(self, view: object) -> None:
        raise DisplayUnavailable("the OLED stopped answering: check the wiring")

    def close(self) -> None:
        pass

    def __enter__(self) -> BrokenOled:
        return self

    def __exit__(self, *args: object) -> None:
        self.close()


def test_a_failing_display_does_not_stop_the_table(tmp_path: Path) -> None:
    rig = open_rig(
        config(tmp_path, rules="greed", script=[[1, 1, 1, 5, 2]]), extra_displays=[BrokenOled()]
    )
    with rig.table:
        view = rig.until(is_waiting)
        assert view.turn_total == 1050
        assert "stopped answering" in rig.table.controller.display_error


def test_hints_show_what_expert_would_do_and_the_menu_switches_them(tmp_path: Path) -> None:
    cfg = config(
        tmp_path,
        rules="farkle",
        script=[[1, 1, 1, 2, 3, 4]],
        extra={"players": {"names": [], "hints": True}},
    )
    rig = open_rig(cfg)
    with rig.table:
        view = rig.until(is_waiting)
        assert view.hint.startswith("expert: keep ")
        assert view.hint.endswith(("then roll on", "then bank"))
        view = rig.press(Button.MENU)
        rig.press(*[Button.SELECT] * view.menu.index("Hints: hide"), Button.ROLL)
        assert rig.step().hint == ""


def test_a_screen_that_cannot_open_is_skipped_if_another_display_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-video-driver")
    cfg = config(
        tmp_path,
        script=[[1, 1, 1, 5, 2]],
        displays=[{"kind": "screen"}, {"kind": "terminal"}],
    )
    rig = open_rig(cfg)
    with rig.table:
        assert [type(d).__name__ for d in rig.table.display.displays] == ["MemoryDisplay"]
        assert rig.until(is_waiting).turn_total == 1050
    alone = config(tmp_path / "alone", displays=[{"kind": "screen"}])
    with pytest.raises(DisplayUnavailable):
        open_table(alone)


def test_a_person_can_throw_for_a_computer_player(tmp_path: Path) -> None:
    cfg = config(
        tmp_path,
        rules="greed",
        players=["cpu:expert", "Ann"],
        script=[[1, 1, 1, 5, 5]],
        computer_throws="person",
    )
    rig = open_rig(cfg, think_seconds=100.0)
    with rig.table:
        view = rig.step()
        assert view.prompt == "the simulated camera throws 5 dice for Expert"
        view = rig.until(lambda v: v.turn_total > 0)
        assert view.dice == (1, 1, 1, 5, 5) and view.turn_total == 1100
        assert rig.table.controller.state.turn.throws[0].values == (1, 1, 1, 5, 5)
