"""The game at the table: the engine's state, advanced only after each event is safely stored.

A `Session` owns the current game: its rules, its `GameState`, which seats are computer players,
and the store. `Session.apply(*events)` first computes the next state (an illegal request raises
and changes nothing), then writes the events to the store in one transaction (a full disk raises
`StoreFull` and changes nothing), and only then adopts the new state, so what the screen shows has
always been written. `Session.resume` replays the unfinished game from the store.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from device.rules_file import find_rules_or_file, rules_file_text
from device.store import GameStore, StoredGame, StoreError
from engine.errors import DicekeeperError
from engine.events import Corrected, Event, PlayerAdded, event_from_json
from engine.rules import Rules
from engine.rules_toml import parse_rules
from engine.state import GameState, Phase, apply

__all__ = ["Seat", "Session", "rules_for", "stored_rules"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat of a new game: a name, and the strategy spec when a computer plays it."""

    name: str
    strategy: str | None = None

    @property
    def is_computer(self) -> bool:
        """Whether a computer player sits here."""
        return self.strategy is not None


def stored_rules(stored: StoredGame) -> Rules:
    """The rule set a stored game was started with: the rule file kept with it, else the rule
    set it names, with its target. Raises the engine's errors, `KeyError`, `ValueError` or
    `TypeError` for a start record that does not say."""
    target = int(str(stored.start.get("target", 0)))
    text = stored.start.get("rules_file")
    if isinstance(text, str):  # a rule file's rules, kept with the game
        return parse_rules(text, origin=f"saved game {stored.id}").with_target(target)
    return rules_for(str(stored.start["rules"]), target)


def rules_for(name: str, target: int = 0) -> Rules:
    """The rule set ``name`` (or rules file path) with ``target`` (0: its own).

    Raises the engine's `UnknownRules`, or `InvalidRules` for a bad rules file.
    """
    rules = find_rules_or_file(name)
    return rules.with_target(target) if target and target != rules.target else rules


@dataclass(slots=True)
class Session:
    """The current game, its computer seats, and where it is stored."""

    store: GameStore
    game_id: int
    state: GameState
    computers: dict[str, str] = field(default_factory=dict)
    """Computer players' names -> strategy specs."""
    notice: str = ""
    """A message to show once (e.g. the saved game could not be resumed)."""

    @classmethod
    def new(cls, store: GameStore, rules: Rules, seats: Sequence[Seat]) -> Session:
        """Start and store a new game with ``seats`` in order (any unfinished game is abandoned)."""
        state = GameState.new(rules)
        events: list[Event] = []
        for seat in seats:
            event = PlayerAdded(seat.name)
            state = apply(state, event)
            events.append(event)
        computers = {s.name: s.strategy for s in seats if s.strategy is not None}
        game_id = store.start_game(
            _start_record(rules, computers), [_dump(event) for event in events]
        )
        return cls(store, game_id, state, computers)

    @classmethod
    def resume(cls, store: GameStore) -> Session | None:
        """The unfinished game in ``store`` replayed to where it stopped, or None if there is none.

        A game whose records no longer replay is set aside alone (`GameStore.quarantine`: kept,
        never resumed, the finished games untouched) and None is returned; ``store.notice`` then
        says so.
        """
        stored = store.unfinished()
        if stored is None:
            return None
        if stored.is_damaged:
            reason = f"the saved game {stored.id} could not be resumed ({stored.damage})"
            store.quarantine(stored.id, reason)
            return None
        try:
            rules = stored_rules(stored)
            computers = {str(k): str(v) for k, v in _mapping(stored.start.get("computers")).items()}
            state = GameState.new(rules)
            for text in stored.events:
                state = apply(state, event_from_json(json.loads(text)))
        except (DicekeeperError, KeyError, ValueError, TypeError, RecursionError) as exc:
            store.quarantine(stored.id, f"the saved game {stored.id} could not be resumed ({exc})")
            return None
        return cls(store, stored.id, state, computers)

    @property
    def rules(self) -> Rules:
        """The rules of the game."""
        return self.state.rules

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.state.phase is Phase.OVER

    def seats(self) -> tuple[Seat, ...]:
        """The players in order as seats (for a new game with the same people)."""
        return tuple(Seat(p.name, self.computers.get(p.name)) for p in self.state.players)

    def is_computer(self, name: str | None) -> bool:
        """Whether ``name`` is a computer player."""
        return name is not None and name in self.computers

    def apply(self, *events: Event, computers: Mapping[str, str] | None = None) -> GameState:
        """Validate, store, then adopt ``events`` (all or none); returns the new state.

        ``computers`` replaces the computer seats in the same transaction. Raises the engine's
        `IllegalRequest` (nothing stored) or `StoreFull`/`StoreError` (state unchanged).
        """
        state = self.state
        for event in events:
            state = apply(state, event)
        new_computers = dict(self.computers if computers is None else computers)
        start = None if computers is None else _start_record(self.rules, new_computers)
        was_over, is_over = self.state.phase is Phase.OVER, state.phase is Phase.OVER
        # A corrected throw may change how a finished game ended, or reopen it.
        corrected = any(isinstance(e, Corrected) for e in events)
        try:
            self.store.append_many(
                self.game_id,
                [_dump(e) for e in events],
                start=start,
                result=result_of(state) if is_over and (corrected or not was_over) else None,
                reopen=was_over and not is_over,
            )
        except StoreError as exc:  # shown at the table too; the journal keeps it (a full disk)
            log.warning("%s", exc)
            raise
        self.state, self.computers = state, new_computers
        return state


def result_of(state: GameState) -> dict[str, object]:
    """The stored result of a finished game: rules, winners, and every player's total."""
    return {
        "rules": state.rules.name,
        "target": state.rules.target,
        "winners": [p.name for p in state.winners],
        "scores": {p.name: p.total for p in state.players},
        "turns": {p.name: p.turns for p in state.players},
    }


def _start_record(rules: Rules, computers: Mapping[str, str]) -> dict[str, object]:
    record: dict[str, object] = {
        "rules": rules.name,
        "target": rules.target,
        "computers": dict(computers),
    }
    text = rules_file_text(rules)
    if text is not None:
        record["rules_file"] = text
    return record


def _dump(event: Event) -> str:
    return json.dumps(event.to_json(), sort_keys=True)


def _mapping(value: object) -> Mapping[str, object]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise TypeError(f"expected a mapping, got {value!r}")
    return value


def names(seats: Iterable[Seat]) -> tuple[str, ...]:
    """The names of ``seats``."""
    return tuple(seat.name for seat in seats)
