"""Who may control the table from the web: the pairing code, tokens, and request rates.

The table shows a 4-digit code, drawn with `secrets` at each start. A phone that sends it gets a
token (`secrets.token_urlsafe`) valid for `TOKEN_SECONDS`, sent back as ``Authorization: Bearer``.
Wrong codes are bounded two ways, neither of which can lock the right code out for everyone:

- per address (`address_key`: an IPv4-mapped IPv6 address as IPv4): `WRONG_CODES` wrong codes in
  `CODE_WINDOW` seconds and that address alone is refused (429) until the window has passed;
- per code: after `CODE_GUESSES` wrong codes against one code, from any addresses, the code is
  replaced by a new one `CODE_GROWTH` digits longer (up to `MAX_DIGITS`), which the table shows
  (``on_new_code``). So guessers, however many addresses they use, try at most `CODE_GUESSES`
  of the 10,000 four-digit codes (0.1 %), then of a million, and so on up to 10^12 per code.

The clock is injected (epoch seconds), so tests move time by hand.
"""

from __future__ import annotations

import ipaddress
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "CODE_GUESSES",
    "MAX_DIGITS",
    "TOKEN_SECONDS",
    "WRONG_CODES",
    "Pairing",
    "RateLimit",
    "Token",
    "TooMany",
    "WrongCode",
    "address_key",
]

TOKEN_SECONDS = 12 * 3600.0
"""How long a token stays valid: an evening at the table."""
WRONG_CODES = 5
"""Wrong pairing codes one address may send in `CODE_WINDOW` seconds."""
CODE_WINDOW = 60.0
CODE_GUESSES = 10
"""Wrong codes (from any addresses) after which the code is replaced by a longer one."""
FIRST_DIGITS = 4
CODE_GROWTH = 2
MAX_DIGITS = 12
MAX_KEYS = 4096
"""Addresses a `RateLimit` remembers at most."""
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


def address_key(address: str) -> str:
    """Whom a request counts against: its address, an IPv4-mapped IPv6 address as the IPv4 one.

    IPv6 addresses are not grouped by /64: on a LAN every phone shares the network's /64, so
    grouping would let one guesser lock out every IPv6 phone. An attacker who takes many IPv6
    addresses gets more tries per minute, but still at most `CODE_GUESSES` at each code.
    """
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ip)


def new_code(digits: int) -> str:
    """A random code of ``digits`` decimal digits."""
    return f"{secrets.randbelow(10**digits):0{digits}d}"


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
        if len(self._hits) > MAX_KEYS and key not in self._hits:  # forget the quiet ones
            for old in [k for k, v in self._hits.items() if not v or v[-1] <= now - self.seconds]:
                del self._hits[old]
            for old in list(self._hits)[: max(0, len(self._hits) - MAX_KEYS)]:
                del self._hits[old]  # still too many: the longest known go (memory stays bounded)
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
        on_new_code: Callable[[str], None] | None = None,
    ) -> None:
        self.code = code if code is not None else new_code(FIRST_DIGITS)
        self.lifetime = lifetime
        self.on_new_code = on_new_code
        """Called (on the web's thread) with the new code when too many wrong ones replaced it."""
        self.wrong = 0
        """Wrong codes sent against the current code."""
        self._clock = clock
        self._tokens: dict[str, float] = {}
        self._wrong = RateLimit(WRONG_CODES, CODE_WINDOW, clock=clock)

    def pair(self, code: str, address: str) -> Token:
        """A new token for the right ``code``; `WrongCode` or `TooMany` (``address`` is whom the
        wrong codes are counted against). The `CODE_GUESSES`-th wrong code replaces the code."""
        key = address_key(address)
        if self._wrong.full(key):
            raise TooMany("too many wrong codes from here: wait a minute")
        if not secrets.compare_digest(code.encode(), self.code.encode()):
            self._wrong.hit(key)
            self.wrong += 1
            if self.wrong >= CODE_GUESSES:
                self._replace_code()
                raise WrongCode(
                    "wrong pairing code; after too many wrong codes the table shows a new one"
                )
            raise WrongCode("wrong pairing code: it is shown on the table's screen")
        now = self._clock()
        self._tokens = {t: e for t, e in self._tokens.items() if e > now}
        while len(self._tokens) >= MAX_TOKENS:
            del self._tokens[next(iter(self._tokens))]
        token = Token(secrets.token_urlsafe(24), now + self.lifetime)
        self._tokens[token.value] = token.expires
        return token

    def _replace_code(self) -> None:
        digits = min(MAX_DIGITS, max(FIRST_DIGITS, len(self.code) + CODE_GROWTH))
        code = new_code(digits)
        while code == self.code:
            code = new_code(digits)
        self.code, self.wrong = code, 0
        if self.on_new_code is not None:
            self.on_new_code(code)

    def is_valid(self, token: str) -> bool:
        """Whether ``token`` was given and has not expired."""
        expires = self._tokens.get(token)
        if expires is None:
            return False
        if expires <= self._clock():
            del self._tokens[token]
            return False
        return True
