"""The game state as a frozen value, and the pure transition ``apply(state, event) -> state``.

`engine.game.Game` is the friendly facade; this module holds the rules of play. A transition either
returns a new state or raises an `IllegalRequest` leaf, so a rejected request changes nothing.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field, replace

from engine.dice import Throw
from engine.errors import (
    EntryThresholdNotMet,
    GameOver,
    IllegalKeep,
    IllegalRequest,
    InvalidThrow,
    PlayerError,
    WrongPhase,
)
from engine.events import (
    Banked,
    Corrected,
    Event,
    Kept,
    PassDeclined,
    PassTaken,
    PlayerAdded,
    PlayerRemoved,
    Restarted,
    Thrown,
    TurnSkipped,
)
from engine.players import Player, TurnOutcome, TurnRecord
from engine.rules import EndRule, Rules
from engine.scoring import Keep, Scoring, score_throw


class Phase(enum.Enum):
    """What the game waits for."""

    THROW = "throw"  # the current player throws `GameState.dice_to_throw` dice
    KEEP = "keep"  # the current player sets aside scoring dice of the last throw
    DECIDE = "decide"  # the current player throws the remaining dice again or banks
    PASS = "pass"  # house rules: take the dice the previous player passed, or throw fresh
    OVER = "over"  # the game has ended; only restart is accepted


@dataclass(frozen=True, slots=True)
class Passed:
    """Dice and turn total a player left behind on banking, on offer to the next player."""

    player: str
    dice: int
    points: int


@dataclass(frozen=True, slots=True)
class Turn:
    """The current turn: its throws, the dice set aside (since the start or the last hot dice),
    the turn total, the dice to throw next, points taken over from a pass, and while the phase is
    KEEP the scoring of the last throw."""

    dice_left: int
    throws: tuple[Throw, ...] = ()
    set_aside: tuple[int, ...] = ()
    total: int = 0
    inherited: int = 0
    hot_dice: int = 0
    scoring: Scoring | None = None

    @property
    def has_started(self) -> bool:
        """True once the player has thrown or taken over passed dice."""
        return bool(self.throws) or self.inherited > 0


@dataclass(frozen=True, slots=True)
class OpenThrow:
    """The last throw while it may still be corrected: who threw, its dice, the state before."""

    player: str
    dice: tuple[int, ...]
    before: GameState = field(repr=False)


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything about a game at one moment; a read-only snapshot a screen can render."""

    rules: Rules
    players: tuple[Player, ...] = ()
    current: int | None = None
    starter: str | None = None
    phase: Phase = Phase.THROW
    turn: Turn = Turn(dice_left=0)
    passed: Passed | None = None
    final_round_by: str | None = None
    last_turn: tuple[str, TurnRecord] | None = None
    open_throw: OpenThrow | None = None
    """The last throw while it may still be corrected (until the next decision or throw)."""
    won_by: str | None = None
    """Who won at once with a throw of the rules' ``instant_win`` (the game is then over)."""

    @classmethod
    def new(cls, rules: Rules) -> GameState:
        """An empty game under ``rules`` (add players to start)."""
        return cls(rules, turn=Turn(dice_left=rules.dice))

    @property
    def current_player(self) -> Player | None:
        """Whose turn it is (None with no players or when the game is over)."""
        return None if self.current is None else self.players[self.current]

    @property
    def dice_to_throw(self) -> int:
        """How many dice the next throw of this turn has."""
        return self.turn.dice_left

    @property
    def dice(self) -> tuple[int | None, ...]:
        """Every die of the current turn: the values set aside, then the last throw's values while
        the player chooses what to keep, else None for each die in the cup (still to throw)."""
        aside = self.turn.set_aside
        if self.phase is Phase.KEEP and self.last_throw is not None:
            return (*aside, *self.last_throw.values)
        return (*aside, *(None,) * self.turn.dice_left)

    @property
    def options(self) -> tuple[Keep, ...]:
        """The legal keeps of the last throw while the phase is KEEP, best first; else ()."""
        return self.turn.scoring.options if self.turn.scoring is not None else ()

    @property
    def last_throw(self) -> Throw | None:
        """The latest throw of the current turn, if any."""
        return self.turn.throws[-1] if self.turn.throws else None

    @property
    def can_correct(self) -> bool:
        """True while the last throw may still be corrected (until the next decision or throw)."""
        return self.open_throw is not None

    @property
    def is_final_round(self) -> bool:
        """True once someone reached the target: the remaining turns are the last ones."""
        return self.final_round_by is not None

    @property
    def can_bank(self) -> bool:
        """True if banking now would be accepted."""
        player = self.current_player
        return (
            self.phase is Phase.DECIDE
            and player is not None
            and self.rules.bank_enters(
                self.turn.total, entered=player.has_entered, inherited=self.turn.inherited
            )
        )

    @property
    def winners(self) -> tuple[Player, ...]:
        """The players with the highest total once the game is over (several on a tie); else ()."""
        if self.phase is not Phase.OVER or not self.players:
            return ()
        if self.won_by is not None:
            return (self.player(self.won_by),)
        best = max(player.total for player in self.players)
        return tuple(player for player in self.players if player.total == best)

    def player(self, name: str) -> Player:
        """The player called ``name``; `PlayerError` listing the names if there is none."""
        for player in self.players:
            if player.name == name:
                return player
        names = ", ".join(repr(p.name) for p in self.players) or "none"
        raise PlayerError(f"no player {name!r}: players are {names}")


def apply(state: GameState, event: Event) -> GameState:
    """The state after ``event``; an `IllegalRequest` (state unchanged) if it is not allowed.

    A throw stays open to correction (`Corrected`) until the next event of any other kind.
    """
    if isinstance(event, Corrected):
        return _correct(state, event)
    after = _transition(state, event)
    if isinstance(event, Thrown):
        before = replace(state, open_throw=None)
        return replace(after, open_throw=OpenThrow(event.player, event.dice, before))
    return after if after.open_throw is None else replace(after, open_throw=None)


def _correct(state: GameState, event: Corrected) -> GameState:
    last = state.open_throw
    if last is None:
        raise WrongPhase(
            "cannot correct the throw: the table has moved on (keeps chosen, banked or thrown "
            "again since)"
        )
    if last.player != event.player:
        raise IllegalRequest(
            f"cannot correct a throw of {event.player!r}: the last throw was by {last.player!r}"
        )
    return apply(last.before, Thrown(event.player, event.dice))


def _transition(state: GameState, event: Event) -> GameState:
    if isinstance(event, Restarted):
        return _restart(state)
    if state.phase is Phase.OVER:
        raise GameOver(f"the game is over; only a restart is possible (not {event.type!r})")
    if isinstance(event, PlayerAdded):
        return _add_player(state, event.name)
    if isinstance(event, PlayerRemoved):
        return _remove_player(state, event.name)
    if isinstance(event, Thrown):
        return _throw(state, event)
    if isinstance(event, Kept):
        return _keep_chosen(state, event)
    if isinstance(event, Banked):
        return _bank(state, event)
    if isinstance(event, PassTaken | PassDeclined):
        return _answer_pass(state, event)
    if isinstance(event, TurnSkipped):
        _check_turn(state, event.player, set(Phase) - {Phase.OVER}, "go to the next player")
        return _end_turn(state, 0, TurnOutcome.SKIPPED)
    raise IllegalRequest(f"unsupported event {event!r}")


def _check_turn(state: GameState, name: str, phases: set[Phase], action: str) -> Player:
    player = state.current_player
    if player is None:
        raise PlayerError(f"cannot {action}: the game has no players")
    if name != player.name:
        raise IllegalRequest(f"cannot {action} for {name!r}: it is the turn of {player.name!r}")
    if state.phase not in phases:
        raise WrongPhase(f"cannot {action} now: {_waiting_for(state)}")
    return player


def _waiting_for(state: GameState) -> str:
    name = state.current_player.name if state.current_player else "?"
    return {
        Phase.THROW: f"waiting for {name!r} to throw {state.turn.dice_left} dice",
        Phase.KEEP: f"waiting for {name!r} to set aside scoring dice",
        Phase.DECIDE: f"waiting for {name!r} to throw again or bank",
        Phase.PASS: f"waiting for {name!r} to take or decline the passed dice",
        Phase.OVER: "the game is over",
    }[state.phase]


def check_can_throw(state: GameState, name: str) -> Player:
    """The player ``name`` if they may throw now, else the `IllegalRequest` a throw would raise."""
    if state.phase is Phase.OVER:
        raise GameOver("the game is over; only a restart is possible (not 'thrown')")
    player = _check_turn(state, name, {Phase.THROW, Phase.DECIDE}, "throw")
    if state.turn.dice_left == 0:
        raise WrongPhase(
            f"cannot throw: all dice have scored and {state.rules.name!r} has no hot dice; bank"
        )
    return player


def _throw(state: GameState, event: Thrown) -> GameState:
    player = check_can_throw(state, event.player)
    rules, turn = state.rules, state.turn
    try:
        thrown = rules.check_throw(Throw(event.dice), count=turn.dice_left)
    except InvalidThrow as exc:
        raise InvalidThrow(f"{player.name!r} cannot throw {event.dice!r}: {exc}") from None
    scoring = score_throw(rules, thrown.values)
    first = not turn.has_started
    state = replace(state, turn=replace(turn, throws=(*turn.throws, thrown)))
    if rules.holds(thrown.values, rules.wipe_out):
        return _end_turn(state, 0, TurnOutcome.BUST, wiped=True)
    if rules.holds(thrown.values, rules.instant_win):
        won = _end_turn(state, turn.total + scoring.best, TurnOutcome.BANKED)
        return replace(won, phase=Phase.OVER, current=None, passed=None, won_by=player.name)
    if scoring.is_bust or (
        first and not rules.first_roll_enters(scoring.best, entered=player.has_entered)
    ):
        return _end_turn(state, 0, TurnOutcome.BUST)
    if rules.is_keep_forced and scoring.best_keep is not None:
        return _set_aside(state, scoring.best_keep)
    return replace(state, phase=Phase.KEEP, turn=replace(state.turn, scoring=scoring))


def _keep_chosen(state: GameState, event: Kept) -> GameState:
    _check_turn(state, event.player, {Phase.KEEP}, "set dice aside")
    scoring = state.turn.scoring
    assert scoring is not None  # the KEEP phase always has the last throw's scoring
    option = scoring.find(event.dice)
    if option is None:
        rest, missing = list(scoring.dice), []
        for value in event.dice:
            if value in rest:
                rest.remove(value)
            else:
                missing.append(value)
        why = f"{missing!r} not thrown" if missing else "not a scoring combination"
        legal = ", ".join(str(Throw(o.dice)) for o in scoring.options)
        raise IllegalKeep(
            f"cannot keep {event.dice!r} from the throw {str(Throw(scoring.dice))!r}: {why} "
            f"(legal keeps: {legal})"
        )
    return _set_aside(state, option)


def _set_aside(state: GameState, option: Keep) -> GameState:
    turn, rules = state.turn, state.rules
    left = turn.dice_left - len(option.dice)
    set_aside, hot = (*turn.set_aside, *option.dice), turn.hot_dice
    if left == 0 and rules.hot_dice:
        left, set_aside, hot = rules.dice, (), hot + 1
    turn = replace(
        turn,
        dice_left=left,
        set_aside=set_aside,
        total=turn.total + option.score,
        hot_dice=hot,
        scoring=None,
    )
    return replace(state, phase=Phase.DECIDE, turn=turn)


def _bank(state: GameState, event: Banked) -> GameState:
    player = _check_turn(state, event.player, {Phase.DECIDE}, "bank")
    total = state.turn.total
    if total < state.rules.bank_minimum:
        raise EntryThresholdNotMet(
            f"{player.name!r} cannot bank {total}: a bank needs at least "
            f"{state.rules.bank_minimum} under {state.rules.name!r}"
        )
    if not state.rules.bank_enters(
        total, entered=player.has_entered, inherited=state.turn.inherited
    ):
        raise EntryThresholdNotMet(
            f"{player.name!r} cannot bank {total}: the first score must be at least "
            f"{state.rules.entry_threshold} under {state.rules.name!r}"
        )
    if event.points != total:
        raise IllegalRequest(f"a bank of {event.points!r} does not match the turn total {total}")
    return _end_turn(state, total, TurnOutcome.BANKED)


def _answer_pass(state: GameState, event: PassTaken | PassDeclined) -> GameState:
    taking = isinstance(event, PassTaken)
    _check_turn(state, event.player, {Phase.PASS}, "take the pass" if taking else "decline it")
    passed, rules = state.passed, state.rules
    assert passed is not None  # the PASS phase always has the passed dice
    turn = (
        Turn(dice_left=passed.dice, total=passed.points, inherited=passed.points)
        if taking
        else Turn(dice_left=rules.dice)
    )
    return replace(state, phase=Phase.THROW, turn=turn, passed=None)


def _end_turn(
    state: GameState, points: int, outcome: TurnOutcome, *, wiped: bool = False
) -> GameState:
    """The turn ends banking ``points``, or bust (``wiped``: losing the whole score too)."""
    assert state.current is not None
    rules = state.rules
    player = state.players[state.current]
    if wiped:
        points = -player.total
    elif outcome is TurnOutcome.BUST:
        points = rules.bust_points(busts_in_a_row=_busts_in_a_row(player), total=player.total)
    player = player.with_turn(points, outcome)
    players = tuple(player if i == state.current else p for i, p in enumerate(state.players))
    final = state.final_round_by
    if final is None and outcome is TurnOutcome.BANKED and rules.reaches_target(player.total):
        final = player.name
    following = (state.current + 1) % len(players)
    over = final is not None and (
        rules.end is EndRule.IMMEDIATE
        or players[following].name == (state.starter if rules.end is EndRule.ROUND else final)
    )
    passed = None
    left = state.turn.dice_left
    offered = rules.passing and not over and outcome is TurnOutcome.BANKED and left > 0
    if offered and len(players) > 1:
        taker = players[following]
        if taker.has_entered or not rules.pass_to_entered:
            passed = Passed(player.name, left, points)
    return replace(
        state,
        players=players,
        current=None if over else following,
        phase=Phase.OVER if over else Phase.PASS if passed else Phase.THROW,
        turn=Turn(dice_left=rules.dice),
        passed=passed,
        final_round_by=final,
        last_turn=(player.name, player.history[-1]),
    )


def _busts_in_a_row(player: Player) -> int:
    count = 0
    for record in reversed(player.history):
        if not record.is_bust:
            break
        count += 1
    return count


def _check_between_turns(state: GameState, action: str) -> None:
    if state.phase in (Phase.KEEP, Phase.DECIDE) or state.turn.has_started:
        raise WrongPhase(f"cannot {action} during a turn: {_waiting_for(state)}")
    if state.final_round_by is not None:
        raise PlayerError(f"cannot {action} during the final round")


def _add_player(state: GameState, name: str) -> GameState:
    _check_between_turns(state, f"add the player {name!r}")
    if not name.strip() or name != name.strip():
        raise PlayerError(f"player name {name!r} must be non-empty without surrounding spaces")
    if any(p.name.casefold() == name.casefold() for p in state.players):
        raise PlayerError(f"there is already a player called {name!r}")
    players = (*state.players, Player(name))
    if state.current is None:
        return replace(state, players=players, current=len(players) - 1, starter=name)
    return replace(state, players=players)


def _remove_player(state: GameState, name: str) -> GameState:
    _check_between_turns(state, f"remove the player {name!r}")
    gone = state.players.index(state.player(name))
    players = state.players[:gone] + state.players[gone + 1 :]
    if not players:
        return replace(
            state, players=(), current=None, starter=None, passed=None, phase=Phase.THROW
        )
    assert state.current is not None
    starter = state.starter
    if starter == name:
        starter = players[gone % len(players)].name
    current, phase, passed = state.current, state.phase, state.passed
    if gone < current:
        current -= 1
    elif gone == current:
        current, phase, passed = gone % len(players), Phase.THROW, None
    return replace(
        state, players=players, current=current, starter=starter, phase=phase, passed=passed
    )


def _restart(state: GameState) -> GameState:
    players = tuple(Player(p.name) for p in state.players)
    names = [p.name for p in players]
    current = names.index(state.starter) if state.starter in names else (0 if names else None)
    fresh = GameState.new(state.rules)
    return dataclasses.replace(fresh, players=players, current=current, starter=state.starter)
