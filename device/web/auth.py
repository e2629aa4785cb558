"""Who may control the table from the web: the pairing code, tokens, and request rates.

The table shows a 4-digit code, drawn with `secrets` at each start. A phone that sends it gets a
token (`secrets.token_urlsafe`) valid for `TOKEN_SECONDS`, sent back as ``Authorization: Bearer``.
A wrong code counts against its address: `WRONG_CODES` wrong codes in a minute and that address
is refused (429) until the minute has passed, so trying all 10,000 codes takes about 33 hours
from one address; `WRONG_CODES_ALL` bounds the wrong codes of every address together. The clock
is injected (epoch seconds), so tests move time by hand.
"""

from __future__ import annotations

import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "TOKEN_SECONDS",
    "WRONG_CODES",
    "WRONG_CODES_ALL",
    "Pairing",
    "RateLimit",
    "Token",
    "TooMany",
    "WrongCode",
]

TOKEN_SECONDS = 12 * 3600.0
"""How long a token stays valid: an evening at the table."""
WRONG_CODES = 5
"""Wrong pairing codes one address may send in `CODE_WINDOW` seconds."""
WRONG_CODES_ALL = 30
"""Wrong pairing codes all addresses together may send in `CODE_WINDOW` seconds."""
CODE_WINDOW = 60.0
MAX_TOKENS = 256
"""Tokens kept at most; the oldest goes first."""


class WrongCode(Exception):
    """The pairing code sent is not the table's."""


class TooMany(Exception):
    """Too many requests (or wrong codes) from this address lately: try again later."""


@dataclass(frozen=True, slots=True)
class Token:
    """A pairing token and when it expires (epoch seconds)."""

    value: str
    expires: float


class RateLimit:
    """At most ``limit`` hits per ``seconds`` for each key (a sliding window)."""

    def __init__(self, limit: int, seconds: float, *, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.seconds = seconds
        self._clock = clock
        self._hits: dict[str, deque[float]] = {}

    def full(self, key: str) -> bool:
        """Whether ``key`` has used up its hits in the window."""
        return len(self._recent(key)) >= self.limit

    def hit(self, key: str) -> None:
        """Count one hit for ``key``."""
        self._recent(key).append(self._clock())

    def _recent(self, key: str) -> deque[float]:
        now = self._clock()
        if len(self._hits) > 4096:  # forget the addresses gone quiet
            for old in [k for k, v in self._hits.items() if not v or v[-1] <= now - self.seconds]:
                del self._hits[old]
        hits = self._hits.setdefault(key, deque())
        while hits and hits[0] <= now - self.seconds:
            hits.popleft()
        return hits


class Pairing:
    """The table's pairing code and the tokens given for it."""

    def __init__(
        self,
        *,
        code: str | None = None,
        clock: Callable[[], float] = time.time,
        lifetime: float = TOKEN_SECONDS,
    ) -> None:
        self.code = code if code is not None else f"{secrets.randbelow(10_000):04d}"
        self.lifetime = lifetime
        self._clock = clock
        self._tokens: dict[str, float] = {}
        self._wrong = RateLimit(WRONG_CODES, CODE_WINDOW, clock=clock)
        self._wrong_all = RateLimit(WRONG_CODES_ALL, CODE_WINDOW, clock=clock)

    def pair(self, code: str, address: str) -> Token:
        """A new token for the right ``code``; `WrongCode` or `TooMany` (``address`` is whom the
        wrong codes are counted against)."""
        if self._wrong.full(address) or self._wrong_all.full(""):
            raise TooMany("too many wrong codes: wait a minute")
        if not secrets.compare_digest(code.encode(), self.code.encode()):
            self._wrong.hit(address)
            self._wrong_all.hit("")
            raise WrongCode("wrong pairing code: it is shown on the table's screen")
        now = self._clock()
        self._tokens = {t: e for t, e in self._tokens.items() if e > now}
        while len(self._tokens) >= MAX_TOKENS:
            del self._tokens[next(iter(self._tokens))]
        token = Token(secrets.token_urlsafe(24), now + self.lifetime)
        self._tokens[token.value] = token.expires
        return token

    def is_valid(self, token: str) -> bool:
        """Whether ``token`` was given and has not expired."""
        expires = self._tokens.get(token)
        if expires is None:
            return False
        if expires <= self._clock():
            del self._tokens[token]
            return False
        return True
