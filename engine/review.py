"""After the game, a review: every decision against the best one, the win-chance curve, the luck.

``review_game(rules, events, table=...)`` replays a game's events (`engine.events`; a corrected
throw counts as corrected, a restart starts the review again) and, for every decision with more
than one choice (which dice to keep together with rolling on or banking; rolling on or banking
where the rules set the dice aside; taking passed dice or throwing fresh), values every choice
and the one made:

- **optimal** (two players and the solved table of the rules, `engine.solver_optimal`): the
  chance of winning after the choice, playing optimally from there on. On a player's last turn
  (the final round) the chance is exact: passing the leader wins, banking short of it loses.
- **expected points** (three or more players, or no solved table; the review's ``note`` says
  why): the expected points of the turn after the choice, from `expert`'s exact turn table
  (`engine.strategy_expert`; a player still to enter plays its entry table). On a last turn
  the chance to pass the leader; a bank that wins at once is worth 1 against rolling on
  (at most the chance not to bust) and 0 for any other choice.

The table is never solved here: the caller passes one or None.

A decision's ``loss`` is the best choice's value minus the made choice's: win chance lost
(0.02 = 2 percentage points), or for expected points that difference as a share of
``max(best value, the expected points of a fresh turn)``. A loss of at least ``mistake``
(default 0.02) is a mistake, of at least ``blunder`` (0.05) a blunder.

A player's **accuracy** is ``100 × mean(kept)`` over their decisions, where ``kept`` is the share
of the best choice's value the made choice kept: ``made / best`` for chances (1 when the best is
0), ``1 - loss`` for expected points. 100 is a game of best choices only.

The **curve** (optimal only) is every player's chance of winning at the start of each turn (turn
0: before the first; after the last, 1 for a sole winner). A player's **swings** are their three
turns that changed their chance of winning most (expected points: their turns that scored
furthest from the expected points of a turn). **Luck** is `engine.review_luck`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.events import Banked, Corrected, Event, Kept, PassDeclined, PassTaken, Restarted, Thrown
from engine.players import TurnOutcome
from engine.review_luck import Luck, entry_threshold, throw_odds
from engine.review_values import (
    BANK,
    DECLINE,
    ROLL,
    TAKE,
    Choice,
    Evaluator,
    OptimalEvaluator,
    PointsEvaluator,
)
from engine.rules import Rules
from engine.scoring import Keep, score_throw
from engine.solver_optimal import OptimalTable, rules_fingerprint
from engine.state import GameState, Phase, apply
from engine.strategy_core import Situation

__all__ = [
    "BLUNDER",
    "MISTAKE",
    "Choice",
    "Decision",
    "PlayerReview",
    "Review",
    "Swing",
    "review_game",
    "review_json",
]

MISTAKE = 0.02
BLUNDER = 0.05


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: the game's turn number (1-based, every player's turns counted), whose, the
    throw decided on (``()`` for passed dice), the turn total before it, the choice made and the
    best, what the values measure (``"win"``: a chance of winning; ``"reach"``: the chance to
    pass the leader; ``"points"``: expected points of the turn), the loss and its severity
    (``""``, ``"mistake"``, ``"blunder"``)."""

    turn: int
    player: str
    thrown: tuple[int, ...]
    turn_total: int
    made: Choice
    best: Choice
    measure: str
    loss: float
    kept: float
    severity: str = ""

    def value_text(self, value: float) -> str:
        """A value as the measure reads: "41 %" or "352 points"."""
        if self.measure == "points":
            return f"{value:.0f} points"
        return f"{100 * value:.0f} %"

    def line(self) -> str:
        """ "keep 1 1 and roll 4: 41 % — you kept 1 and banked 350: 33 %" (best first)."""
        best, made = self.best, self.made
        return (
            f"{best.describe()}: {self.value_text(best.value)} — you {made.describe(past=True)}: "
            f"{self.value_text(made.value)}"
        )


@dataclass(frozen=True, slots=True)
class Swing:
    """One turn that moved a player's chance (or scored far from the expected points): its
    turn number, the value before and after, and what happened."""

    turn: int
    before: float
    after: float
    what: str

    @property
    def change(self) -> float:
        """After minus before."""
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class PlayerReview:
    """One player's figures: decisions, mistakes, blunders, accuracy (0-100), swings, luck."""

    name: str
    decisions: int
    mistakes: int
    blunders: int
    accuracy: float
    swings: tuple[Swing, ...]
    luck: Luck


@dataclass(frozen=True, slots=True)
class Review:
    """A game's review: see the module docstring."""

    rules: str
    target: int
    evaluator: str
    note: str
    mistake: float
    blunder: float
    players: tuple[PlayerReview, ...]
    decisions: tuple[Decision, ...]
    curve: tuple[tuple[float, ...], ...] = ()
    """Per turn start (0 = before the first turn), each player's chance in `curve_players`
    order; empty unless the optimal table valued the game."""
    curve_players: tuple[str, ...] = ()
    """Whose chances the curve holds, in order."""
    hot_dice: bool = True
    turns: int = 0

    def player(self, name: str) -> PlayerReview:
        """The review of the player called ``name`` (KeyError if none)."""
        for player in self.players:
            if player.name == name:
                return player
        raise KeyError(name)

    @property
    def mistakes(self) -> tuple[Decision, ...]:
        """The decisions marked mistakes or blunders, in game order."""
        return tuple(d for d in self.decisions if d.severity)


# --- replay ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Step:
    before: GameState
    event: Event
    after: GameState


def _steps(rules: Rules, events: Iterable[Event]) -> list[_Step]:
    """The game's events applied one by one (raising what `apply` raises), corrections folded
    into the throws they correct, from the last restart on."""
    state = GameState.new(rules)
    steps: list[_Step] = []
    for event in events:
        after = apply(state, event)
        if isinstance(event, Restarted):
            steps = []
        elif isinstance(event, Corrected):
            last = steps.pop()
            steps.append(_Step(last.before, Thrown(event.player, event.dice), after))
        else:
            steps.append(_Step(state, event, after))
        state = after
    return steps


@dataclass
class _Tally:
    decisions: list[Decision] = field(default_factory=list)
    luck: dict[str, Luck] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    turn_values: dict[str, list[tuple[int, float, float, str]]] = field(default_factory=dict)

    def seen(self, name: str) -> None:
        if name not in self.luck:
            self.luck[name] = Luck()
            self.order.append(name)
            self.turn_values[name] = []


def review_game(
    rules: Rules,
    events: Iterable[Event],
    *,
    table: OptimalTable | None = None,
    mistake: float = MISTAKE,
    blunder: float = BLUNDER,
) -> Review:
    """The review of the game ``events`` describe under ``rules`` (see the module docstring).

    ``table``: the solved optimal table of ``rules`` (None: expected points are used). Raises
    what replaying the events raises (`engine.errors.IllegalRequest`, `InvalidThrow`).
    """
    steps = _steps(rules, events)
    most = max((len(s.before.players) for s in steps), default=0)
    note = ""
    evaluator: Evaluator
    if table is not None and rules_fingerprint(table.rules) != rules_fingerprint(rules):
        table = None
    if most == 2 and table is not None:
        evaluator = OptimalEvaluator(rules, table)
    else:
        evaluator = PointsEvaluator(rules)
        if most > 2:
            note = (
                f"{most} players: the optimal tables are for two; decisions are valued by the "
                "expected points of the turn (expert's turn table)"
            )
        else:
            note = (
                f"no solved table for {rules.name} to {rules.target}: decisions are valued by "
                "the expected points of the turn (expert's turn table); solve it with "
                f"`dicekeeper strategy --rules {rules.name} --solve`"
            )
    tally = _Tally()
    curve: list[tuple[float, ...]] = []
    optimal = evaluator if isinstance(evaluator, OptimalEvaluator) else None
    turns = 0
    pending: tuple[GameState, tuple[int, ...]] | None = None  # a keep waiting for roll or bank
    names: tuple[str, ...] = ()
    for step in steps:
        before, event, after = step.before, step.event, step.after
        for player in after.players:
            tally.seen(player.name)
        plays = isinstance(event, Thrown | PassTaken | PassDeclined)
        if optimal is not None and plays and not curve and len(before.players) == 2:
            names = tuple(p.name for p in before.players)
            curve.append(_chances(optimal, before, names))
        if isinstance(event, Kept):
            pending = (before, event.dice)
            continue
        if isinstance(event, Thrown):
            _luck(tally, step)
        if isinstance(event, Thrown | Banked) and before.phase is Phase.DECIDE:
            state, keep = pending if pending is not None else (before, None)
            action = ROLL if isinstance(event, Thrown) else BANK
            _decide(tally, evaluator, state, keep, action, turns, mistake, blunder)
        elif isinstance(event, PassTaken | PassDeclined):
            action = TAKE if isinstance(event, PassTaken) else DECLINE
            _decide(tally, evaluator, before, None, action, turns, mistake, blunder)
        pending = None
        if after.last_turn is not None and after.last_turn is not before.last_turn:
            turns += 1
            _turn_ended(tally, evaluator, step, turns)
            if optimal is not None and curve:
                curve.append(_chances(optimal, after, names))
    players = tuple(_player(tally, name, bool(curve), curve, names) for name in tally.order)
    return Review(
        rules=rules.name,
        target=rules.target,
        evaluator=evaluator.name,
        note=note,
        mistake=mistake,
        blunder=blunder,
        players=players,
        decisions=tuple(tally.decisions),
        curve=tuple(curve),
        curve_players=names if curve else (),
        hot_dice=rules.hot_dice and rules.dice > 1,
        turns=turns,
    )


def _chances(
    evaluator: OptimalEvaluator, state: GameState, names: tuple[str, ...]
) -> tuple[float, ...]:
    """Each of ``names``'s chance of winning at the start of a turn (or at the end)."""
    if state.phase is Phase.OVER:
        winners = {p.name for p in state.winners}
        return tuple(1.0 / len(winners) if n in winners else 0.0 for n in names)
    mover = state.current_player
    assert mover is not None
    chance = evaluator.start_chance(state)
    return tuple(chance if n == mover.name else 1.0 - chance for n in names)


def _luck(tally: _Tally, step: _Step) -> None:
    before, event = step.before, step.event
    assert isinstance(event, Thrown)
    player = before.player(event.player)
    rules = before.rules
    threshold = entry_threshold(
        rules, first=not before.turn.has_started, entered=player.has_entered
    )
    odds = throw_odds(rules, len(event.dice), threshold=threshold)
    scoring = score_throw(rules, event.dice)
    bust = scoring.is_bust or scoring.best < threshold
    hot = not bust and any(len(k.dice) == len(event.dice) for k in scoring.options)
    tally.luck[event.player] = tally.luck[event.player].add(
        odds, bust=bust, hot=hot, points=0 if bust else scoring.best
    )


def _decide(
    tally: _Tally,
    evaluator: Evaluator,
    state: GameState,
    keep: tuple[int, ...] | None,
    action: str,
    turns: int,
    mistake: float,
    blunder: float,
) -> None:
    situation = Situation.of(state)
    if action in (TAKE, DECLINE):
        measure, choices = evaluator.pass_values(situation)
    else:
        afters: list[tuple[Keep | None, Situation]]
        if state.phase is Phase.KEEP:
            afters = [(k, situation.after_keep(k)) for k in situation.options]
        else:
            afters = [(None, situation)]
        measure, choices = evaluator.values(situation, afters)
    if len(choices) < 2:
        return
    wanted = tuple(sorted(keep)) if keep is not None else ()
    made = next((c for c in choices if c.keep == wanted and c.action == action), None)
    if made is None:
        return
    best = max(choices, key=lambda c: c.value)
    if best.value <= made.value:
        best = made
    scale = evaluator.scale(situation, best.value) if measure == "points" else 1.0
    loss = (best.value - made.value) / scale
    kept = made.value / best.value if best.value > 0 else 1.0
    if measure == "points":
        kept = max(0.0, 1.0 - loss)
    severity = "blunder" if loss >= blunder else "mistake" if loss >= mistake else ""
    player = state.current_player
    assert player is not None
    throw = state.last_throw
    thrown = throw.values if throw is not None and action not in (TAKE, DECLINE) else ()
    tally.decisions.append(
        Decision(
            turn=turns + 1,
            player=player.name,
            thrown=thrown,
            turn_total=state.turn.total,
            made=made,
            best=best,
            measure=measure,
            loss=loss,
            kept=kept,
            severity=severity,
        )
    )


def _turn_ended(tally: _Tally, evaluator: Evaluator, step: _Step, turn: int) -> None:
    """Note, for the expected-points swings, how far the turn scored from a fresh turn's
    expected points."""
    assert step.after.last_turn is not None
    name, record = step.after.last_turn
    if record.outcome is TurnOutcome.BUST:
        lost = step.before.turn.total
        what = f"bust, losing {lost}" if lost else "bust"
    elif record.outcome is TurnOutcome.SKIPPED:
        what = "skipped"
    else:
        what = f"banked {record.points}"
    expected = 0.0
    if isinstance(evaluator, PointsEvaluator) and step.before.current_player is not None:
        situation = Situation.of(step.before)
        expected = evaluator.fresh_points(situation)
    tally.turn_values[name].append((turn, expected, float(record.points), what))


def _player(
    tally: _Tally,
    name: str,
    has_curve: bool,
    curve: list[tuple[float, ...]],
    names: tuple[str, ...],
) -> PlayerReview:
    decisions = [d for d in tally.decisions if d.player == name]
    accuracy = 100.0 * sum(d.kept for d in decisions) / len(decisions) if decisions else 100.0
    swings: list[Swing] = []
    for turn, expected, points, what in tally.turn_values[name]:
        if has_curve and name in names and turn < len(curve):
            seat = names.index(name)
            swings.append(Swing(turn, curve[turn - 1][seat], curve[turn][seat], what))
        elif not has_curve:
            swings.append(Swing(turn, expected, points, what))
    swings.sort(key=lambda s: -abs(s.change))
    return PlayerReview(
        name=name,
        decisions=len(decisions),
        mistakes=sum(d.severity == "mistake" for d in decisions),
        blunders=sum(d.severity == "blunder" for d in decisions),
        accuracy=accuracy,
        swings=tuple(swings[:3]),
        luck=tally.luck[name],
    )


# --- JSON ------------------------------------------------------------------------------------


def _choice_json(choice: Choice) -> dict[str, Any]:
    return {
        "keep": list(choice.keep),
        "action": choice.action,
        "dice": choice.dice,
        "total": choice.total,
        "value": round(choice.value, 6),
        "text": choice.describe(),
        "past": choice.describe(past=True),
    }


def review_json(review: Review) -> dict[str, Any]:
    """The review as plain JSON-ready data (the web API's and ``dicekeeper review --json``)."""
    return {
        "rules": review.rules,
        "target": review.target,
        "evaluator": review.evaluator,
        "note": review.note,
        "thresholds": {"mistake": review.mistake, "blunder": review.blunder},
        "turns": review.turns,
        "players": [
            {
                "name": p.name,
                "decisions": p.decisions,
                "mistakes": p.mistakes,
                "blunders": p.blunders,
                "accuracy": round(p.accuracy, 2),
                "swings": [
                    {
                        "turn": s.turn,
                        "before": round(s.before, 6),
                        "after": round(s.after, 6),
                        "change": round(s.change, 6),
                        "what": s.what,
                    }
                    for s in p.swings
                ],
                "luck": {
                    "throws": p.luck.throws,
                    "busts": p.luck.busts,
                    "expected_busts": round(p.luck.expected_busts, 4),
                    "hot_dice": p.luck.hot,
                    "expected_hot_dice": round(p.luck.expected_hot, 4),
                    "points": p.luck.points,
                    "expected_points": round(p.luck.expected_points, 2),
                    "line": p.luck.line(p.name, hot_dice=review.hot_dice),
                },
            }
            for p in review.players
        ],
        "decisions": [
            {
                "turn": d.turn,
                "player": d.player,
                "thrown": list(d.thrown),
                "turn_total": d.turn_total,
                "made": _choice_json(d.made),
                "best": _choice_json(d.best),
                "measure": d.measure,
                "loss": round(d.loss, 6),
                "severity": d.severity,
                "line": d.line(),
            }
            for d in review.decisions
        ],
        "curve": [[round(v, 6) for v in point] for point in review.curve],
        "curve_players": list(review.curve_players),
    }
