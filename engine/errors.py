"""The one base of every exception dicekeeper raises, shared by all four packages.

This module is standard library only and imports nothing else from the project, so `vision` and
`hardware` may import it without depending on the rules engine.
"""

from __future__ import annotations


class DicekeeperError(Exception):
    """Base of all of dicekeeper's own errors.

    Leaves also inherit the fitting builtin, e.g.
    ``class InvalidThrow(DicekeeperError, ValueError)``, and their messages quote the bad input
    with ``!r``.
    """


class UnknownRules(DicekeeperError, LookupError):
    """A rule set name that is not in the registry; the message lists the known names."""


class InvalidRules(DicekeeperError, ValueError):
    """A rule set definition (TOML or constructor arguments) with a bad key or value."""


class InvalidThrow(DicekeeperError, ValueError):
    """Dice values the rule set's dice cannot show, or the wrong number of dice."""


class IllegalRequest(DicekeeperError, ValueError):
    """A request the game cannot accept in its current state; the game is left unchanged."""


class WrongPhase(IllegalRequest):
    """A request made in a phase that does not allow it (e.g. banking before throwing)."""


class IllegalKeep(IllegalRequest):
    """Dice to set aside that were not thrown or do not form a scoring keep."""


class EntryThresholdNotMet(IllegalRequest):
    """Banking a first score below the rule set's entry threshold."""


class GameOver(IllegalRequest):
    """A request made after the game has ended."""


class PlayerError(IllegalRequest):
    """Adding or removing a player that cannot be added or removed now."""


class InvalidEvent(DicekeeperError, ValueError):
    """A serialised event (JSON) that does not describe a known, well-formed event."""
