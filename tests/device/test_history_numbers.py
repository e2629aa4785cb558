"""Finished games are numbered 1, 2, ... in the order they finished, in `dicekeeper history`
and the menu's History, whatever ids abandoned games used up in the store."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from device.menu import finished_count, history_items
from device.session import Seat, Session, rules_for
from device.store import GameStore

SEATS = (Seat("Ann"), Seat("Bob"))


def _store_with_abandoned_games(directory: Path) -> None:
    """Three games abandoned (ids 1-3), then two finished (ids 4 and 6, 5 abandoned)."""
    directory.mkdir()
    with GameStore.in_directory(directory) as store:
        for _ in range(3):
            Session.new(store, rules_for("greed"), SEATS)
        for winner in ("Ann", "Bob"):
            game = store.start_game({"rules": "greed"}, [])
            store.finish(game, {"rules": "greed", "winners": [winner], "scores": {winner: 5000}})
            Session.new(store, rules_for("greed"), SEATS)


def test_history_numbers_the_finished_games_from_one(tmp_path: Path) -> None:
    state = tmp_path / "state"
    _store_with_abandoned_games(state)
    with GameStore.in_directory(state) as store:
        games = store.history()
        assert [g.id for g in games] == [6, 4]  # the ids in the store
        assert finished_count(store) == 2
        labels = [item.label for item in history_items(games, finished_count(store))]
    assert labels[1:] == ["#2 greed: Bob won (Bob 5000)", "#1 greed: Ann won (Ann 5000)"]
    config = tmp_path / "config.toml"
    config.write_text(f'[state]\ndirectory = "{state}"\n')
    done = subprocess.run(
        [sys.executable, "-m", "device", "history", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert [line.split("  ", 1)[1] for line in lines] == labels[1:]
    limited = subprocess.run(
        [sys.executable, "-m", "device", "history", "--config", str(config), "--limit", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert limited.stdout.splitlines()[0].endswith("#2 greed: Bob won (Bob 5000)")


def test_score_names_the_impossible_die_as_typed(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "device", "score", "--rules", "greed", "1", "1", "7"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "dicekeeper score: die value '7' is impossible on 6-faced dice (allowed 1..6)"
    )
