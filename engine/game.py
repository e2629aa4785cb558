"""A game of Greed or Farkle, playable by itself: players, turns, requests, events, replay.

Public API (all in this module unless noted)::

    game = Game(rules, players=("Ann", "Bob"), rng=random.Random(7))   # first player starts
    game.rules -> Rules
    game.events -> tuple[Event, ...] # every accepted request, in order
    game.state -> GameState          # frozen snapshot (engine.state), safe to keep and render:
    game.state.phase -> Phase        # THROW, KEEP, DECIDE, PASS or OVER (see below)
    game.state.current_player -> Player | None   # Player(name, history), .total, .has_entered
    game.state.players -> tuple[Player, ...]     # in turn order; .starter: who started
    game.state.turn -> Turn          # .total, .set_aside, .throws, .scoring (phase KEEP)
    game.state.dice_to_throw, .last_throw, .dice (set aside, then thrown or None: in the cup)
    game.state.options -> tuple[Keep, ...]  # legal keeps of the last throw (phase KEEP), best first
    game.state.passed -> Passed | None      # dice and total on offer (phase PASS)
    game.state.is_final_round, .can_bank, .winners, .last_turn
    game.phase, game.options         # the same as game.state.phase, game.state.options

    game.add_player(name) / game.remove_player(name)   # between turns only
    game.throw(values=None)   # values: Throw, "11345", or ints; None draws from the rng
    game.keep(dice)           # set aside scoring dice (rules where the player chooses)
    game.bank()               # end the turn, adding the turn total
    game.take_passed() / game.decline_passed()         # house rules' passing
    game.next_player()        # end the current turn without scoring (forfeit / skip)
    game.correct(dice, by="buttons")  # the last throw showed these dice (until the next decision)
    game.restart()            # same players and order, empty histories
    game.apply(event)         # any request as its event (what replay does)
    Game.replay(rules, events, rng=None) -> Game        # rebuild from events (e.g. from SQLite)

The request/phase cycle of one turn::

    THROW --throw--> bust?  yes: turn recorded as bust, next player (THROW)
                     no, keep forced (greed, greed-koans): all scoring dice set aside -> DECIDE
                     no, player chooses (farkle, greed-house): KEEP --keep--> DECIDE
    DECIDE --throw--> (as THROW, with the dice left; all dice scored = hot dice, throw them all)
    DECIDE --bank--> turn recorded, next player: THROW, or PASS under passing rules
    PASS --take_passed--> THROW the passed dice building on the passed total
    PASS --decline_passed--> THROW all dice fresh
    any turn end may start the final round (target reached) or end the game (OVER)

Every request is validated first; a rejected one raises a leaf of `engine.errors.IllegalRequest`
(`WrongPhase`, `IllegalKeep`, `EntryThresholdNotMet`, `GameOver`, `PlayerError`) or `InvalidThrow`,
naming the problem, and leaves the game exactly as it was (the state is a frozen value replaced
only on success; the rng is drawn from only after the phase allows a throw). Every accepted request
appends one event (`engine.events`), which serialises with ``event.to_json()`` and parses back with
`engine.events.event_from_json`. A `Game` holds the rules, the rng and the events; everything
else is read from `state`. A strategy reads `state` (options, turn total, dice left, totals,
is_final_round) and answers with requests; `engine.state.apply` simulates without a `Game`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from engine.dice import Throw
from engine.errors import GameOver, PlayerError
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
from engine.players import TurnRecord
from engine.rules import Rules
from engine.scoring import Keep
from engine.state import GameState, Passed, Phase, apply, check_can_throw

__all__ = ["Game", "GameState", "Passed", "Phase"]


class Game:
    """One game under one rule set; see the module docstring for the request/phase cycle."""

    def __init__(
        self,
        rules: Rules,
        players: Iterable[str] = (),
        *,
        rng: random.Random | None = None,
    ) -> None:
        self.rules = rules
        self._rng = rng if rng is not None else random.Random()
        self._state = GameState.new(rules)
        self._events: list[Event] = []
        if isinstance(players, str):
            raise PlayerError(f"players must be a list of names, not the string {players!r}")
        for name in players:
            self.add_player(name)

    @classmethod
    def replay(
        cls, rules: Rules, events: Iterable[Event], *, rng: random.Random | None = None
    ) -> Game:
        """The game these events (from `Game.events`, possibly via JSON) describe."""
        game = cls(rules, rng=rng)
        for event in events:
            game.apply(event)
        return game

    def apply(self, event: Event) -> None:
        """Accept one event as a request (the basis of `replay`); if refused, nothing changes."""
        self._state = apply(self._state, event)
        self._events.append(event)

    # --- requests ----------------------------------------------------------------------------

    def add_player(self, name: str) -> None:
        """Add a player at the end of the turn order (between turns only)."""
        self.apply(PlayerAdded(name))

    def remove_player(self, name: str) -> None:
        """Remove a player and their history (between turns only); the turn order closes up."""
        self.apply(PlayerRemoved(name))

    def throw(self, values: Throw | str | Sequence[int] | None = None) -> Throw:
        """Throw the current player's dice: given values, or drawn from the rng when None."""
        name = self._current_name("throw")
        if values is None:
            check_can_throw(self._state, name)  # before drawing: a refusal leaves the rng as is
            thrown = Throw.random(self._rng, self._state.dice_to_throw, faces=self.rules.faces)
        elif isinstance(values, Throw):
            thrown = values
        elif isinstance(values, str):
            thrown = Throw.from_str(values)
        else:
            thrown = Throw(tuple(values))
        self.apply(Thrown(name, thrown.values))
        return thrown

    def keep(self, dice: Iterable[int] | str) -> Keep:
        """Set aside these scoring dice of the last throw; returns the keep with its score."""
        values = Throw.from_str(dice).values if isinstance(dice, str) else tuple(dice)
        scoring = self._state.turn.scoring
        self.apply(Kept(self._current_name("keep"), tuple(sorted(values))))
        assert scoring is not None  # accepted only in the KEEP phase
        found = scoring.find(values)
        assert found is not None
        return found

    def bank(self) -> TurnRecord:
        """Bank the turn total; returns the turn's record."""
        self.apply(Banked(self._current_name("bank"), self._state.turn.total))
        last = self._state.last_turn
        assert last is not None
        return last[1]

    def correct(
        self, dice: Throw | str | Sequence[int], *, by: str = "", read: Sequence[int] = ()
    ) -> Throw:
        """Put ``dice`` in place of the last throw, which was misread (before the table moves on).

        ``read`` is the reading as read (0 for an unreadable die; the last throw's dice when
        empty) and ``by`` who corrected. Raises `WrongPhase` once keeps were chosen, the turn
        was banked or the dice were thrown again.
        """
        if isinstance(dice, Throw):
            values = dice.values
        else:
            values = Throw.from_str(dice).values if isinstance(dice, str) else tuple(dice)
        last = self._state.open_throw
        name = last.player if last is not None else ""
        if not read and last is not None:
            read = last.dice
        self.apply(Corrected(name, tuple(read), values, by))
        return Throw(values)

    def take_passed(self) -> None:
        """Take over the passed dice and turn total (phase PASS)."""
        self.apply(PassTaken(self._current_name("take the pass")))

    def decline_passed(self) -> None:
        """Decline the passed dice and throw all dice fresh (phase PASS)."""
        self.apply(PassDeclined(self._current_name("decline the pass")))

    def next_player(self) -> None:
        """End the current turn without scoring and go to the next player."""
        self.apply(TurnSkipped(self._current_name("go to the next player")))

    def restart(self) -> None:
        """Start again with the same players in the same order and empty histories."""
        self.apply(Restarted())

    def _current_name(self, action: str) -> str:
        if self._state.phase is Phase.OVER:
            raise GameOver(f"cannot {action}: the game is over; only a restart is possible")
        player = self._state.current_player
        if player is None:
            raise PlayerError(f"cannot {action}: the game has no players")
        return player.name

    # --- views -------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The frozen snapshot of the whole game."""
        return self._state

    @property
    def events(self) -> tuple[Event, ...]:
        """Every accepted request, oldest first."""
        return tuple(self._events)
