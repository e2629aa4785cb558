"""`dicekeeper tournament` keeps each game's score history only when it draws the plot."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.cli import main
from device.commands import tournament
from engine.rules import find_rules
from engine.strategy import find_strategy
from engine.strategy_core import Strategy


def _entrants() -> list[tuple[str, Strategy]]:
    return [("greedy", find_strategy("greedy")), ("cautious", find_strategy("greedy:0.9"))]


def test_without_the_plot_no_score_history_is_kept() -> None:
    standings, _ = tournament.run_tournament(find_rules("greed"), _entrants(), 20, 1)
    assert sum(s.wins + s.ties for s in standings) >= 20
    assert [s.trajectories for s in standings] == [[], []]


def test_with_the_plot_every_games_score_history_is_kept() -> None:
    standings, _ = tournament.run_tournament(
        find_rules("greed"),
        _entrants(),
        20,
        1,
        keep_trajectories=True,
    )
    assert [len(s.trajectories) for s in standings] == [20, 20]
    assert all(t and t[-1] >= 0 for s in standings for t in s.trajectories)


@pytest.mark.parametrize("plot", [False, True])
def test_the_command_keeps_history_only_for_plot(
    plot: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    kept: list[bool] = []
    real = tournament.run_tournament

    def spy(*args: object, keep_trajectories: bool = False, **kwargs: object) -> object:
        kept.append(keep_trajectories)
        return real(*args, keep_trajectories=keep_trajectories, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tournament, "run_tournament", spy)
    png = tmp_path / "plot.png"
    argv = ["tournament", "--rules", "greed", "--players", "greedy,greedy:0.9", "--games", "4"]
    assert main([*argv, "--plot", str(png)] if plot else argv) == 0
    assert kept == [plot]
    assert png.exists() is plot
    assert "greedy" in capsys.readouterr().out
