"""`dicekeeper tournament --rules NAME --players LIST --games N --seed S [--json] [--plot PNG]`.

Plays N games between computer players through the real `engine.game.Game`, rotating the seats
so that every player goes first equally often, and prints each player's wins with a 95% Wilson
confidence interval and the mean number of turns per game (``--json``: ``{"rules": NAME,
"games": N, "players": [{"name", "wins", "win_rate", "ci95": [LO, HI], "ties"}, ...],
"mean_turns": FLOAT, "seed": S, "target": T}``). ``--plot`` draws score trajectories with Pillow.
``optimal`` uses the cached table (see `dicekeeper strategy --solve`), solving small tables on
demand (`device.tables.DiskTables`: pig to 100, greed to 5,000), else it plays ``expert`` (a
warning on stderr). Progress goes to stderr: a bar on a terminal, a line every 30 s elsewhere.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from device.commands.outputs import output_image
from device.commands.score import add_rules_option, resolve_rules
from device.tables import DiskTables
from engine.errors import DicekeeperError
from engine.rules import Rules
from engine.strategy import find_strategy
from engine.strategy_core import Strategy
from engine.strategy_play import GameResult, play_game, wilson

log = logging.getLogger(__name__)


class BadTournament(DicekeeperError, ValueError):
    """Tournament options that cannot make a tournament."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``tournament`` command."""
    parser = subparsers.add_parser(
        "tournament",
        help="many simulated games between computer players",
        description="Simulated games between computer players, seats rotating: win rates.",
    )
    add_rules_option(parser)
    parser.add_argument(
        "--players",
        required=True,
        metavar="LIST",
        help='comma-separated strategies, e.g. "greedy:0.3,greedy:0.8,expert,optimal"',
    )
    parser.add_argument("--games", type=int, default=100, metavar="N", help="games to play")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the dice")
    parser.add_argument("--target", type=int, metavar="POINTS", help="another target score")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--plot",
        metavar="FILE.png",
        help="draw score trajectories into this image (checked before playing; overwritten)",
    )
    parser.set_defaults(func=run)


def rules_with_target(rules: Rules, target: int | None) -> Rules:
    """``rules`` with ``target`` (if given and valid)."""
    if target is None:
        return rules
    if target < 1:
        raise BadTournament(f"target {target!r} must be a whole number >= 1")
    return rules.with_target(target)


class ProgressBar:
    """Progress on ``stream``: a one-line bar redrawn on a terminal (or when forced); elsewhere (a
    pipe, a log, the journal) a line ``LABEL: DONE/TOTAL (P%)`` every ``interval`` seconds of
    ``clock``, and one at the end if any was written."""

    def __init__(
        self,
        stream: TextIO,
        *,
        label: str = "",
        width: int = 30,
        force: bool = False,
        interval: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.stream = stream
        self.label = label
        self.width = width
        self.enabled = force or stream.isatty()
        self.interval = interval
        self._clock = clock
        self._shown = -1
        self._last_line = clock()
        self._lines = 0
        self._latest = (0, 0)

    def update(self, done: int, total: int) -> None:
        """Show ``done`` of ``total`` (redrawn only when the bar changes)."""
        if total <= 0:
            return
        self._latest = (done, total)
        if not self.enabled:
            now = self._clock()
            if now - self._last_line >= self.interval:
                self._last_line = now
                self._write_line(done, total)
            return
        filled = self.width * done // total
        percent = 100 * done // total
        if percent == self._shown:
            return
        self._shown = percent
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total}")
        self.stream.flush()

    def _write_line(self, done: int, total: int) -> None:
        label = f"{self.label}: " if self.label else ""
        self.stream.write(f"{label}{done}/{total} ({100 * done // total}%)\n")
        self.stream.flush()
        self._lines += 1

    def close(self) -> None:
        """End the line (a terminal), or write the last count if progress lines were written."""
        if self.enabled and self._shown >= 0:
            self.stream.write("\n")
            self.stream.flush()
        elif not self.enabled and self._lines and self._latest[1] > 0:
            self._write_line(*self._latest)
            self._lines = 0


@dataclass
class Standing:
    """One entrant's results."""

    name: str
    wins: int = 0
    ties: int = 0
    trajectories: list[list[int]] = field(default_factory=list)


def seat_names(specs: list[str]) -> list[str]:
    """Unique seat names for the specs (a repeated spec gets ``#2``, ``#3``...)."""
    names: list[str] = []
    for spec in specs:
        name, copy = spec, 2
        while name in names:
            name, copy = f"{spec}#{copy}", copy + 1
        names.append(name)
    return names


def run_tournament(
    rules: Rules,
    entrants: Sequence[tuple[str, Strategy]],
    games: int,
    seed: int,
    *,
    progress: ProgressBar | None = None,
    keep_trajectories: bool = False,
) -> tuple[list[Standing], float]:
    """Play ``games`` games, seats rotating; the standings and the mean turns per game.

    ``keep_trajectories`` keeps every game's score history in the standings (for `save_plot`;
    about 2 KB a game), else only wins and ties are kept.
    """
    rng = random.Random(seed)
    standings = {name: Standing(name) for name, _ in entrants}
    turns = 0
    for number in range(games):
        shift = number % len(entrants)
        seated = [*entrants[shift:], *entrants[:shift]]
        result = play_game(rules, seated, rng=rng)
        turns += result.turns
        _record(standings, result, keep_trajectories=keep_trajectories)
        if progress is not None:
            progress.update(number + 1, games)
    if progress is not None:
        progress.close()
    return list(standings.values()), turns / games if games else 0.0


def _record(standings: dict[str, Standing], result: GameResult, *, keep_trajectories: bool) -> None:
    if len(result.winners) == 1:
        standings[result.winners[0]].wins += 1
    else:
        for name in result.winners:
            standings[name].ties += 1
    if not keep_trajectories:
        return
    seats = len(result.seats)
    for seat, name in enumerate(result.seats):
        own = [totals[seat] for t, totals in enumerate(result.trajectory) if t % seats == seat]
        standings[name].trajectories.append(own)


def run(args: argparse.Namespace) -> int:
    """Play the tournament and print the standings."""
    rules = rules_with_target(resolve_rules(args.rules), args.target)
    if args.games < 1:
        raise BadTournament(f"--games {args.games!r} must be at least 1")
    specs = [s.strip() for s in args.players.split(",") if s.strip()]
    if len(specs) < 2:
        raise BadTournament(f"--players {args.players!r}: name at least two strategies")
    plot = output_image("--plot", Path(args.plot)) if args.plot else None

    def solving(solved: Rules) -> None:
        log.info("solving the optimal table for %s to %d...", solved.name, solved.target)

    tables = DiskTables(on_solve=solving, progress=ProgressBar(sys.stderr, label="solving").update)
    entrants = [
        (name, find_strategy(spec, tables=tables))
        for name, spec in zip(seat_names(specs), specs, strict=True)
    ]
    if "optimal" in specs and (len(specs) != 2 or tables(rules) is None):
        log.warning(
            "optimal: no table for this game (two players and a solved target needed); "
            "it plays expert"
        )
    bar = ProgressBar(sys.stderr, label="games") if args.games >= 50 else None
    standings, mean_turns = run_tournament(
        rules, entrants, args.games, args.seed, progress=bar, keep_trajectories=plot is not None
    )
    if plot is not None:
        save_plot(str(plot), rules, standings)
        log.info("score trajectories drawn in %s", plot)
    if args.json:
        rows = []
        for standing in standings:
            low, high = wilson(standing.wins, args.games)
            rows.append(
                {
                    "name": standing.name,
                    "wins": standing.wins,
                    "win_rate": round(standing.wins / args.games, 6),
                    "ci95": [round(low, 6), round(high, 6)],
                    "ties": standing.ties,
                }
            )
        print(
            json.dumps(
                {
                    "rules": rules.name,
                    "games": args.games,
                    "players": rows,
                    "mean_turns": round(mean_turns, 3),
                    "seed": args.seed,
                    "target": rules.target,
                }
            )
        )
        return 0
    print(
        f"{rules.name} to {rules.target}: {args.games} games, seed {args.seed}, "
        f"{mean_turns:.1f} turns per game"
    )
    for standing in standings:
        low, high = wilson(standing.wins, args.games)
        rate = standing.wins / args.games
        print(
            f"  {standing.name:<16} {standing.wins:>6} wins  {100 * rate:5.1f}%  "
            f"(95% CI {100 * low:.1f}-{100 * high:.1f}%)"
        )
    return 0


COLOURS = (
    (31, 119, 180),
    (214, 39, 40),
    (44, 160, 44),
    (148, 103, 189),
    (255, 127, 14),
    (140, 86, 75),
    (227, 119, 194),
    (127, 127, 127),
)


def save_plot(path: str, rules: Rules, standings: list[Standing], *, games: int = 12) -> None:
    """Draw the first ``games`` games' score trajectories per player (thin) and the mean (thick).

    Each entrant's mean is drawn narrower than the one before, so where two means coincide the
    later one runs inside the earlier (a stripe of each colour), never hiding it; the legend
    shows the same widths."""
    from PIL import Image, ImageDraw

    width, height, left, bottom, top, right = 900, 560, 70, 50, 30, 190
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    longest = max((len(t) for s in standings for t in s.trajectories[:games]), default=1)
    high = max([rules.target, *(max(t, default=0) for s in standings for t in s.trajectories)])
    plot_w, plot_h = width - left - right, height - top - bottom

    def point(turn: int, total: int) -> tuple[float, float]:
        x = left + plot_w * turn / max(longest, 1)
        y = top + plot_h * (1 - total / high)
        return (x, y)

    draw.rectangle((left, top, left + plot_w, top + plot_h), outline="black")
    goal = point(0, rules.target)[1]
    draw.line((left, goal, left + plot_w, goal), fill=(180, 180, 180))
    for tick in range(0, high + 1, tick_step(high)):
        y = point(0, tick)[1]
        draw.text((8, y - 6), str(tick), fill="black")
    step = max(1, longest // 10)
    for turn in range(0, longest + 1, step):
        x = point(turn, 0)[0]
        draw.line((x, top + plot_h, x, top + plot_h + 4), fill="black")
        draw.text((x - 4, top + plot_h + 6), str(turn), fill="black")
    draw.text((left + plot_w // 2 - 30, height - 22), "own turns", fill="black")
    draw.text((left, 8), f"{rules.name} to {rules.target}: score trajectories", fill="black")
    for number, standing in enumerate(standings):
        colour = COLOURS[number % len(COLOURS)]
        faint = tuple(int(c + (255 - c) * 0.6) for c in colour)
        for trajectory in standing.trajectories[:games]:
            points = [point(0, 0)] + [point(t + 1, v) for t, v in enumerate(trajectory)]
            draw.line(points, fill=faint, width=1)
        mean = _mean_trajectory(standing.trajectories, longest)
        thick = mean_width(number, len(standings))
        draw.line(
            [point(0, 0)] + [point(t + 1, v) for t, v in enumerate(mean)],
            fill=colour,
            width=thick,
            joint="curve",
        )
        y = top + 20 * number
        draw.line((width - right + 15, y + 6, width - right + 45, y + 6), fill=colour, width=thick)
        draw.text((width - right + 52, y), standing.name, fill="black")
    image.save(path)


def mean_width(number: int, count: int) -> int:
    """The width of entrant ``number``'s mean line out of ``count``: 3 pixels for the last, 3
    more for each before it (the first of three is 9)."""
    return 3 + 3 * (count - 1 - number)


def tick_step(high: int) -> int:
    """The score axis's step: the least of 1, 2, 5, 10, 20, 50... giving at most 7 ticks to
    ``high`` (2000 for 10,000, 500 for 3000, 20 for pig's 100)."""
    step = 1
    while step * 6 < high:
        step = step * 5 // 2 if str(step)[0] == "2" else step * 2
    return step


def _mean_trajectory(trajectories: list[list[int]], length: int) -> list[int]:
    """Mean total after each own turn, over the games still running at that turn."""
    mean = []
    for turn in range(length):
        values = [t[turn] for t in trajectories if len(t) > turn]
        if len(values) < max(1, len(trajectories) // 4):
            break
        mean.append(round(sum(values) / len(values)))
    return mean
