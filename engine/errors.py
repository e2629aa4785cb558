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
