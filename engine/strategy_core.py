"""What every computer player shares: the `Strategy` protocol and the `Situation` it reads.

A strategy answers the game's questions for the current player: which legal keep to set aside
(`choose_keep`), whether to throw the remaining dice or bank (`wants_to_roll`), under passing rules
whether to take the passed dice (`wants_pass`), and a line for the screen (`remark`). It is given
the `Game` (or its frozen `GameState`) and reads it through a `Situation`, a small frozen value that
tests can also build by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from engine.errors import DicekeeperError
from engine.game import Game
from engine.players import TurnOutcome
from engine.rules import Rules
from engine.scoring import Keep
from engine.state import GameState, Phase

GameLike = Game | GameState
"""What a strategy is asked about: a `Game`, or a `GameState` (the table's session and the solvers
hold only the state). `Situation.of` reads the state either way; a strategy needs nothing else."""


class UnknownStrategy(DicekeeperError, LookupError):
    """A strategy spec that names no strategy, or a greedy dial out of range."""


class NoDecision(DicekeeperError, ValueError):
    """A strategy was asked a question the game is not asking now (e.g. a keep with no options)."""


@dataclass(frozen=True, slots=True)
class Situation:
    """The current player's view of the game, in points.

    ``scores``: every player's banked total, in turn order; ``me``: the index of the player to
    decide. ``turn_total``, ``dice_left``: the turn so far and the dice the next throw would have
    (after hot dice, all of them). ``options``: the legal keeps of the last throw (KEEP phase).
    ``entered``: whether each player has banked a turn. ``is_starter``: whether ``me`` started
    the game; ``ends_round``: whether the starter plays next (``me`` closes the round).
    ``final_round``: someone reached the target, so this is ``me``'s last turn.
    ``recent_busts``: busts among ``me``'s last three turns. ``passed``: (points, dice) on offer.
    ``inherited``: the part of the turn total taken over from a pass.
    """

    rules: Rules
    scores: tuple[int, ...]
    me: int
    turn_total: int = 0
    dice_left: int = 0
    options: tuple[Keep, ...] = ()
    entered: tuple[bool, ...] = ()
    is_starter: bool = True
    ends_round: bool = False
    final_round: bool = False
    recent_busts: int = 0
    passed: tuple[int, int] | None = None
    can_bank: bool = True
    inherited: int = 0

    @property
    def my_score(self) -> int:
        """The deciding player's banked total."""
        return self.scores[self.me]

    @property
    def has_entered(self) -> bool:
        """Whether the deciding player has entered (banked a turn)."""
        return self.entered[self.me] if self.entered else self.my_score > 0

    @property
    def leader(self) -> int:
        """The best total among the other players (0 when playing alone)."""
        others = [s for i, s in enumerate(self.scores) if i != self.me]
        return max(others, default=0)

    @property
    def opponents(self) -> int:
        """How many other players there are."""
        return len(self.scores) - 1

    def opponent_entered(self) -> bool:
        """Whether the (best-placed) opponent has entered."""
        others = [i for i in range(len(self.scores)) if i != self.me]
        if not others:
            return True
        best = max(others, key=lambda i: self.scores[i])
        return self.entered[best] if self.entered else self.scores[best] > 0

    @classmethod
    def of(cls, game: GameLike) -> Situation:
        """The current player's situation in ``game`` (a `Game` or its `GameState`)."""
        state = game.state if isinstance(game, Game) else game
        player = state.current_player
        if player is None:
            raise NoDecision(f"no player to decide for (phase {state.phase.value!r})")
        me = state.players.index(player)
        recent = sum(1 for r in player.history[-3:] if r.outcome is TurnOutcome.BUST)
        passed = (state.passed.points, state.passed.dice) if state.passed is not None else None
        can_bank = state.rules.bank_enters(
            state.turn.total, entered=player.has_entered, inherited=state.turn.inherited
        )
        return cls(
            rules=state.rules,
            scores=tuple(p.total for p in state.players),
            me=me,
            turn_total=state.turn.total,
            dice_left=state.turn.dice_left,
            options=state.options if state.phase is Phase.KEEP else (),
            entered=tuple(p.has_entered for p in state.players),
            is_starter=player.name == state.starter,
            ends_round=state.players[(me + 1) % len(state.players)].name == state.starter,
            final_round=state.is_final_round,
            recent_busts=recent,
            passed=passed,
            can_bank=can_bank,
            inherited=state.turn.inherited,
        )

    def after_keep(self, keep: Keep) -> Situation:
        """The situation once ``keep`` is set aside (turn total up, dice left down or hot dice)."""
        left = self.dice_left - len(keep.dice)
        if left == 0 and self.rules.hot_dice:
            left = self.rules.dice
        total = self.turn_total + keep.score
        return Situation(
            rules=self.rules,
            scores=self.scores,
            me=self.me,
            turn_total=total,
            dice_left=left,
            options=(),
            entered=self.entered,
            is_starter=self.is_starter,
            ends_round=self.ends_round,
            final_round=self.final_round,
            recent_busts=self.recent_busts,
            passed=None,
            can_bank=self.rules.bank_enters(
                total, entered=self.has_entered, inherited=self.inherited
            ),
            inherited=self.inherited,
        )


class Strategy(Protocol):
    """A computer player's decisions; deterministic (any randomness from an injected rng)."""

    @property
    def name(self) -> str:
        """The spec that finds this strategy again (e.g. ``"greedy:0.3"``)."""
        ...

    def choose_keep(self, game: GameLike) -> Keep:
        """Which of the legal keeps of the last throw to set aside (phase KEEP)."""
        ...

    def wants_to_roll(self, game: GameLike) -> bool:
        """After the keep (phase DECIDE): throw the remaining dice (True) or bank (False)."""
        ...

    def wants_pass(self, game: GameLike) -> bool:
        """Passing rules (phase PASS): take the passed dice (True) or throw all dice fresh."""
        ...

    def remark(self, game: GameLike) -> str:
        """One short line for the screen about the current decision."""
        ...


class SituationStrategy:
    """Base of the built-in strategies: turns the game into a `Situation` and asks the subclass.

    Subclasses implement `keep_for`, `roll_for` and `pass_for` on situations; `wants_to_roll`
    answers False whenever banking is allowed and the situation says stop, and True when banking
    is not allowed (below the entry threshold) and dice are left.
    """

    name: str = ""

    def keep_for(self, situation: Situation) -> Keep:
        """The keep to set aside."""
        raise NotImplementedError

    def roll_for(self, situation: Situation) -> bool:
        """Whether to throw on (called only when both banking and throwing are possible)."""
        raise NotImplementedError

    def pass_for(self, situation: Situation) -> bool:
        """Whether to take the passed dice."""
        raise NotImplementedError

    def remark_for(self, situation: Situation) -> str:
        """A line for the screen."""
        return ""

    def choose_keep(self, game: GameLike) -> Keep:
        """See `Strategy.choose_keep`."""
        situation = Situation.of(game)
        if not situation.options:
            raise NoDecision("no keep to choose: the last throw offers no options now")
        return self.keep_for(situation)

    def wants_to_roll(self, game: GameLike) -> bool:
        """See `Strategy.wants_to_roll`."""
        return self.decide_roll(Situation.of(game))

    def decide_roll(self, situation: Situation) -> bool:
        """`wants_to_roll` on a situation, with the forced cases answered first."""
        if situation.dice_left == 0:
            return False
        if not situation.can_bank:
            return True
        return self.roll_for(situation)

    def wants_pass(self, game: GameLike) -> bool:
        """See `Strategy.wants_pass`."""
        situation = Situation.of(game)
        if situation.passed is None:
            return False
        return self.pass_for(situation)

    def remark(self, game: GameLike) -> str:
        """See `Strategy.remark`."""
        return self.remark_for(Situation.of(game))


def must_beat(situation: Situation) -> int | None:
    """On the deciding player's last turn, the total they must exceed; else None.

    That is the leader's total in the final round (or, under round-ending rules, when another
    player already reached the target).
    """
    if not situation.final_round:
        return None
    return situation.leader
