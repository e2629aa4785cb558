"""`dicekeeper play --rules NAME --players "Ann,cpu:expert" [--seed S] [--target N]`: a game in the
terminal.

Virtual dice drawn by the engine; each human answers at the prompt what to keep and whether to go
on. An empty answer takes the default shown in brackets, ``q`` quits. A seat written ``cpu:SPEC``
(as in the configuration's ``game.players``) is a computer player that decides by itself. At the
end it prints each player's history and the winner(s).
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
from collections.abc import Callable, Mapping, Sequence

from device.commands.rules import summary
from device.commands.score import add_rules_option, format_dice, resolve_rules
from device.computer import display_name, find_computer
from device.config import COMPUTER_PREFIX, name_problem
from engine.errors import DicekeeperError, PlayerError
from engine.events import Thrown
from engine.game import Game, Phase
from engine.players import Player, TurnOutcome, TurnRecord
from engine.scoring import score_throw
from engine.strategy_core import Strategy

Reader = Callable[[str], str]
Writer = Callable[[str], None]

log = logging.getLogger(__name__)

MAX_LINE = 1000
"""The longest answer read at the prompt (an answer is a few characters)."""


class AnswerTooLong(DicekeeperError, ValueError):
    """A line of input far longer than any answer."""


def read_answer(prompt: str) -> str:
    """One answer from stdin after ``prompt``, read with a bound (`AnswerTooLong` past
    `MAX_LINE` characters); `EOFError` at the end of the input."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline(MAX_LINE + 1)
    if not line:
        raise EOFError
    if len(line) > MAX_LINE:
        raise AnswerTooLong(f"a line of input is longer than {MAX_LINE} characters: not an answer")
    return line.rstrip("\r\n")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` command."""
    parser = subparsers.add_parser(
        "play",
        help="play a game in the terminal with virtual dice",
        description="Play in the terminal with virtual dice. Empty answer = the default, q = quit.",
    )
    add_rules_option(parser)
    parser.add_argument(
        "--players",
        required=True,
        help='comma-separated names, "cpu:SPEC" for a computer player, e.g. "Ann,cpu:expert"',
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the virtual dice")
    parser.add_argument("--target", type=int, default=None, help="target score (default: rules)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Set up the game from the arguments and play it on stdin/stdout."""
    rules = resolve_rules(args.rules)
    if args.target is not None:
        rules = rules.with_target(args.target)
    entries = [entry.strip() for entry in args.players.split(",") if entry.strip()]
    if not entries:
        raise PlayerError(f"no player names in --players {args.players!r}")
    names, computers = seats(entries)
    game = Game(rules, names, rng=random.Random(args.seed))
    return TerminalGame(game, read=read_answer, write=print, computers=computers).play()


def seats(entries: Sequence[str]) -> tuple[list[str], dict[str, Strategy]]:
    """The seat names of ``--players`` and the computer players among them (``cpu:SPEC``, named
    like ``Expert``; a second of the same kind ``Expert 2``)."""
    names: list[str] = []
    computers: dict[str, Strategy] = {}
    for entry in entries:
        if entry.lower().startswith(COMPUTER_PREFIX):
            spec = entry[len(COMPUTER_PREFIX) :].strip()
            if not spec:
                raise PlayerError(f"--players: {entry!r} names no strategy (e.g. 'cpu:expert')")
            strategy = find_computer(spec)
            name, copy = display_name(spec), 2
            while name in names:
                name, copy = f"{display_name(spec)} {copy}", copy + 1
            computers[name] = strategy
        else:
            problem = name_problem(entry)
            if problem is not None:
                raise PlayerError(f"--players: the name {problem}")
            name = entry
        names.append(name)
    return names, computers


class _Quit(Exception):
    """The player typed q."""


class TerminalGame:
    """Drives a `Game` with questions on a terminal (``read``/``write`` injectable for tests)."""

    def __init__(
        self,
        game: Game,
        *,
        read: Reader,
        write: Writer,
        computers: Mapping[str, Strategy] | None = None,
    ) -> None:
        self.game = game
        self.read = read
        self.write = write
        self.computers = dict(computers or {})
        self._announced: tuple[str, int] | None = None

    def play(self) -> int:
        """Play to the end; 0 when the game ended or the player quit, 1 if input ran out."""
        rules = self.game.rules
        self.write(f"{rules.name}: {summary(rules)}")
        try:
            while self.game.state.phase is not Phase.OVER:
                self.step()
        except _Quit:
            self.write("Game abandoned.")
            self.write_scores()
            return 0
        except EOFError:
            log.error("input ended before the game did")
            return 1
        self.write_end()
        return 0

    def step(self) -> None:
        """Handle one request of the current phase."""
        state = self.game.state
        player = state.current_player
        if player is None:
            raise PlayerError("the game has no players")
        if self._announced != (player.name, player.turns):
            self._announced = (player.name, player.turns)
            self.write("")
            final = " (final round)" if state.is_final_round else ""
            self.write(f"== {player.name}'s turn{final}, total {player.total} ==")
            if len(state.players) > 1:
                self.write("   scores: " + ", ".join(f"{p.name} {p.total}" for p in state.players))
        strategy = self.computers.get(player.name)
        if strategy is not None:
            self.computer_step(player, strategy)
            return
        if state.phase in (Phase.THROW, Phase.DECIDE) and not self.decide(player):
            return
        phase = self.game.state.phase  # after the throw
        if phase is Phase.KEEP:
            self.choose_keep()
        elif phase is Phase.PASS:
            self.answer_pass()

    def decide(self, player: Player) -> bool:
        """Throw (or bank in DECIDE); False if the turn ended here."""
        state = self.game.state
        if state.phase is Phase.DECIDE:
            if state.dice_to_throw == state.rules.dice > 1 and not state.turn.set_aside:
                self.write("Hot dice: every die has scored, you may throw them all again.")
            default = "b" if state.can_bank else "t"
            choices = "[t]hrow or [b]ank" if state.dice_to_throw else "[b]ank"
            answer = self.ask(
                f"turn total {state.turn.total}, {_dice(state.dice_to_throw)} to throw: {choices}?",
                default,
            )
            if answer.startswith("b"):
                self.attempt(lambda: self.bank(player))
                return False
            if not answer.startswith("t"):
                self.write(f"please answer t or b, not {answer!r}")
                return False
        return self.throw(player)

    def throw(self, player: Player) -> bool:
        """Throw the dice for ``player`` and say what came; False if the turn ended (a bust)."""
        game = self.game
        before = game.state.last_turn
        thrown = game.throw()
        self.write(f"{player.name} throws {format_dice(thrown.values)}")
        state = game.state
        if state.last_turn is not before:
            self.write(f"  bust: {self.bust_reason()}, {player.name} loses the turn")
            return False
        if state.phase is Phase.DECIDE and game.rules.dice == 1:  # one die: it counts, roll on
            self.write(f"  turn total {state.turn.total}")
        elif state.phase is Phase.DECIDE:  # the rules set every scoring die aside
            aside = format_dice(state.turn.set_aside) if state.turn.set_aside else "every die"
            self.write(f"  set aside {aside}, turn total {state.turn.total}")
        return True

    def computer_step(self, player: Player, strategy: Strategy) -> None:
        """Let the computer player ``player`` answer the current request, saying what it did."""
        game = self.game
        state = game.state
        if state.phase is Phase.KEEP:
            keep = game.keep(strategy.choose_keep(state).dice)
            self.write(f"  {player.name} sets aside {format_dice(keep.dice)} for {keep.score}")
        elif state.phase is Phase.PASS:
            taken = strategy.wants_pass(state)
            self.write(f"  {player.name} {'takes the passed dice' if taken else 'throws fresh'}")
            if taken:
                game.take_passed()
            else:
                game.decline_passed()
        elif state.phase is Phase.DECIDE and state.can_bank and not strategy.wants_to_roll(state):
            remark = strategy.remark(state)
            if remark:
                self.write(f"  {player.name}: {remark}")
            self.bank(player)
        else:
            self.throw(player)

    def bust_reason(self) -> str:
        last = self.game.events[-1]
        if isinstance(last, Thrown) and score_throw(self.game.rules, last.dice).best:
            return f"a first roll must score {self.game.rules.entry_threshold} to enter"
        return "nothing scores"

    def bank(self, player: Player) -> None:
        record = self.game.bank()
        self.write(f"{player.name} banks {record.points}: total {record.total}")

    def choose_keep(self) -> None:
        game = self.game
        options = game.state.options
        for number, option in enumerate(options, start=1):
            self.write(f"  {number:>2}) keep {format_dice(option.dice):<12} {option.score:>5}")
        answer = self.ask(f"keep which (1-{len(options)})?", "1")
        if not (answer.isdigit() and 1 <= int(answer) <= len(options)):
            self.write(f"please answer a number from 1 to {len(options)}, not {answer!r}")
            return
        keep = game.keep(options[int(answer) - 1].dice)
        self.write(f"  set aside {format_dice(keep.dice)} for {keep.score}")

    def answer_pass(self) -> None:
        passed = self.game.state.passed
        assert passed is not None  # the PASS phase always offers dice
        answer = self.ask(
            f"{passed.player} passed {_dice(passed.dice)} with {passed.points} points: "
            "[t]ake them or throw [f]resh?",
            "f",
        )
        if answer.startswith("t"):
            self.game.take_passed()
        elif answer.startswith("f"):
            self.game.decline_passed()
        else:
            self.write(f"please answer t or f, not {answer!r}")

    def ask(self, question: str, default: str) -> str:
        answer = self.read(f"{question} [{default}] ").strip().lower() or default
        if answer == "q":
            raise _Quit
        return answer

    def attempt(self, request: Callable[[], None]) -> bool:
        """Make a request; on refusal print why and return False."""
        try:
            request()
        except DicekeeperError as exc:
            self.write(f"  not allowed: {exc}")
            return False
        return True

    def write_scores(self) -> None:
        for player in self.game.state.players:
            self.write(f"  {player.name:<12} {player.total:>6}")

    def write_history(self) -> None:
        """Every turn of every player: one row per turn number, ``points = total after``."""
        players = self.game.state.players
        width = max(14, *(len(p.name) + 2 for p in players))
        self.write(("turn " + "".join(f"{p.name:<{width}}" for p in players)).rstrip())
        for number in range(1, max(p.turns for p in players) + 1):
            cells = []
            for p in players:
                record = p.history[number - 1] if number <= p.turns else None
                text = f"{_record_text(record)} = {record.total}" if record else ""
                cells.append(f"{text:<{width}}")
            self.write(f"{number:>4} " + "".join(cells).rstrip())

    def write_end(self) -> None:
        game = self.game
        self.write("")
        self.write_history()
        self.write("")
        self.write("== Game over ==")
        for player in game.state.players:
            turns = ", ".join(_record_text(record) for record in player.history)
            self.write(f"  {player.name:<12} {player.total:>6}   {turns}")
        names = " and ".join(p.name for p in game.state.winners)
        verb = "wins" if len(game.state.winners) == 1 else "tie"
        self.write(f"{names} {verb} with {game.state.winners[0].total}.")


def _record_text(record: TurnRecord) -> str:
    if record.outcome is TurnOutcome.BANKED:
        return f"+{record.points}"
    return str(record.outcome.value)


def _dice(count: int) -> str:
    return f"{count} die" if count == 1 else f"{count} dice"
