"""The view model every screen draws: plain data the device fills from the engine's state.

Screens (`render_*` functions) draw a `TableView` and nothing else, so a display never needs to know
the engine, and a test can build any situation by hand.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
from numpy.typing import NDArray

from engine.errors import DicekeeperError


class InvalidView(DicekeeperError, ValueError):
    """A `TableView` whose fields contradict each other (an index out of range, a die of 7...)."""


class Phase(StrEnum):
    """What the table is doing, which decides the layout and the prompt's emphasis."""

    SETUP = "setup"
    """No game yet (or players being added)."""
    WAITING = "waiting"
    """Waiting for the current player to throw the dice."""
    ROLLING = "rolling"
    """Dice are tumbling in the tray (undefined dice are drawn shaking)."""
    CHOOSING = "choosing"
    """The throw is read and scored: the player picks a keep, rolls on or banks."""
    BUST = "bust"
    """The throw scored nothing: the turn total is lost."""
    GAME_OVER = "game_over"
    """Somebody won (`TableView.winner`)."""
    MENU = "menu"
    """The menu (long press on SELECT) is open: `TableView.menu` lists its items."""
    CORRECTING = "correcting"
    """The players correct the dice as read: `TableView.cursor` is the die being set."""


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One player as the screens show them.

    ``history`` is the player's total after each of their finished turns (oldest first), used to
    draw the score chart; ``has_entered`` is False while a player has not yet reached a rule set's
    entry minimum ("on the board").
    """

    name: str
    total: int = 0
    history: tuple[int, ...] = ()
    is_computer: bool = False
    has_entered: bool = True


@dataclass(frozen=True, slots=True)
class OptionView:
    """One legal keep of the current throw: the dice set aside and the points they score."""

    dice: tuple[int, ...]
    score: int


@dataclass(frozen=True, slots=True, eq=False)
class Picture:
    """A camera picture for the big screen: ``pixels`` is rows × columns × 3 bytes in BGR order
    (as cameras give frames), already drawn on (the throwing area, the dice read boxed).

    Compared by identity, so a view holding one stays cheap to compare, copy and hash.
    """

    pixels: NDArray[np.uint8]

    def __post_init__(self) -> None:
        shape = self.pixels.shape
        if self.pixels.dtype != np.uint8 or len(shape) != 3 or shape[2] != 3 or 0 in shape:
            raise InvalidView(
                f"a picture must be rows × columns × 3 bytes (BGR), not {self.pixels.dtype} {shape}"
            )


PIP_GRID: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}
"""Where the pips of each face lie on a 3×3 grid (column, row): what every display draws."""


_BUTTON_WORD = re.compile(r"\b(?:hold )?(?:ROLL|STOP|SELECT)\b")
"""A button word in a prompt or a message (a long press is "hold STOP")."""


FrameBox = tuple[float, float, float, float]
"""A box in the camera's frame as fractions of its width and height: (x0, y0, x1, y1)."""


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything a screen shows about the table at one moment.

    ``dice`` are the dice of the current throw in the tray, ``None`` for a die still in the cup or
    tumbling (drawn shaking on the big screen); ``kept`` the dice already set aside this turn.
    ``options`` are the legal keeps, best first, with ``selected`` the highlighted one.
    ``current`` and ``winner`` are indexes into ``players`` (or None).
    ``prompt`` says what to do now ("ROLL: throw 6 dice"), ``message`` is an error or a notice
    ("expected 3 dice, I see 4"; "Ann banks 350") and ``alert`` whether it reports a problem;
    ``remark`` is a computer player's line of personality, ``hint`` an optional piece of advice
    (e.g. a strategy's suggestion). ``target`` is the winning score (0 when unknown), drawn as a
    line on the chart. ``menu`` and ``menu_selected`` describe the open menu. ``frame`` counts
    redraws, so an animation (shaking dice) moves even when nothing else changes.
    While correcting, ``cursor`` is the index into ``dice`` of the die being set, ``struck`` the
    indexes of dice marked "not a die", and a ``None`` die is one still unknown ("?").
    ``likely`` is, parallel to ``dice`` (or empty), the value the reader found likeliest for a die
    it could not read (None: no guess); it is set only where ``dice`` holds None for an unread die
    lying still (never for a die tumbling, read or struck), and screens show it as a suggestion
    beside the "?", never as a reading (`guess`).
    ``tray_label`` names the dice in the tray when they are not the current player's throw
    ("Ann's throw" after her turn ended, "passed on: 3 dice worth 300"); ``last_turn`` says how the
    previous turn ended ("Ann busts with 1 5 4 3 4: a first throw must score 300 to enter").
    ``web`` is where phones find the scoreboard ("http://192.168.1.5:8080", empty when the web
    page is off) and ``pair_code`` the short code a phone enters there to take control.
    ``picture`` is a camera picture (calibrating) that the big screen draws in the tray instead of
    the dice; the other displays ignore it. ``checks`` are lines listed beside it (the
    calibration's checks, "FIX ..." lines first), drawn on the big screen and the terminal.
    ``tray_owner`` is the index of the player whose throw lies in the tray when it is not the
    current player's (the turn it ended has passed on), so that a small display naming one
    player shows that player's name above those dice.
    ``keys`` pairs each button word with the key that presses it when the buttons are keys
    (("ROLL", "r"), ("hold SELECT", "m") ...; empty for push-buttons): the terminal and the big
    screen show the key beside the word (`with_keys`).
    ``review`` is, at the end of a game, each player's review in the order of ``players``: the
    accuracy of their decisions ("97%") and their biggest swing ("+31% on turn 15: banked 1150"),
    empty until the review is made (`device.review`).
    ``boxes`` are, for the first of ``dice`` (those the reader saw, in order), each die's box in
    the camera's frame as fractions of its width and height (x0, y0, x1, y1); the dice after
    them are ones it missed (no box), and a throw not read from the camera has none. The web
    page draws them on the tray's picture, where a missed die is pointed at.
    """

    title: str = "dicekeeper"
    rules: str = ""
    players: tuple[PlayerView, ...] = ()
    current: int | None = None
    phase: Phase = Phase.SETUP
    dice: tuple[int | None, ...] = ()
    kept: tuple[int, ...] = ()
    turn_total: int = 0
    options: tuple[OptionView, ...] = ()
    selected: int = 0
    prompt: str = ""
    message: str = ""
    alert: bool = False
    remark: str = ""
    winner: int | None = None
    hint: str = ""
    target: int = 0
    menu: tuple[str, ...] = field(default=())
    menu_selected: int = 0
    frame: int = 0
    cursor: int | None = None
    struck: frozenset[int] = frozenset()
    tray_label: str = ""
    last_turn: str = ""
    web: str = ""
    pair_code: str = ""
    picture: Picture | None = None
    checks: tuple[str, ...] = ()
    likely: tuple[int | None, ...] = ()
    keys: tuple[tuple[str, str], ...] = ()
    tray_owner: int | None = None
    review: tuple[tuple[str, str], ...] = ()
    boxes: tuple[FrameBox, ...] = ()

    def __post_init__(self) -> None:
        for name in ("current", "winner", "tray_owner"):
            index = getattr(self, name)
            if index is not None and not 0 <= index < len(self.players):
                raise InvalidView(
                    f"{name}={index!r} is not a player index ({len(self.players)} players)"
                )
        if self.options and not 0 <= self.selected < len(self.options):
            raise InvalidView(
                f"selected={self.selected!r} but there are {len(self.options)} options"
            )
        if self.menu and not 0 <= self.menu_selected < len(self.menu):
            raise InvalidView(
                f"menu_selected={self.menu_selected!r} but the menu has {len(self.menu)} items"
            )
        if self.cursor is not None and not 0 <= self.cursor < len(self.dice):
            raise InvalidView(f"cursor={self.cursor!r} but there are {len(self.dice)} dice")
        for value in (*self.dice, *self.kept, *(v for o in self.options for v in o.dice)):
            if value is not None and not 1 <= value <= 6:
                raise InvalidView(f"a die shows {value!r}: faces are 1 to 6")
        if self.likely and len(self.likely) != len(self.dice):
            raise InvalidView(f"{len(self.likely)} likeliest values for {len(self.dice)} dice")
        for index, guess in enumerate(self.likely):
            if guess is not None and (self.dice[index] is not None or not 1 <= guess <= 6):
                raise InvalidView(
                    f"likely[{index}]={guess!r}: a guess is 1 to 6 and only for a die not read"
                )

    def guess(self, index: int) -> int | None:
        """The likeliest value of die ``index`` when it was not read and the reader had a guess
        (None otherwise, and for a die tumbling or struck out): a suggestion to show beside its
        "?"."""
        if self.phase is Phase.ROLLING or index in self.struck:
            return None
        return self.likely[index] if 0 <= index < len(self.likely) else None

    def with_keys(self, text: str) -> str:
        """``text`` with the key beside each button word it names ("ROLL [r]: throw 6 dice",
        "hold SELECT [m] for the menu"); as it is when the buttons are no keys."""
        if not self.keys:
            return text
        keys = dict(self.keys)
        return _BUTTON_WORD.sub(
            lambda word: f"{word[0]} [{keys[word[0]]}]" if word[0] in keys else word[0], text
        )

    @property
    def current_player(self) -> PlayerView | None:
        """The player whose turn it is, if any."""
        return None if self.current is None else self.players[self.current]

    @property
    def winner_player(self) -> PlayerView | None:
        """The player who won, if the game is over."""
        return None if self.winner is None else self.players[self.winner]

    @property
    def selected_option(self) -> OptionView | None:
        """The highlighted keep, if there are options."""
        return self.options[self.selected] if self.options else None

    @property
    def selected_positions(self) -> frozenset[int]:
        """Indexes into ``dice`` of the dice the selected keep takes (to highlight them)."""
        option = self.selected_option
        if option is None:
            return frozenset()
        wanted = Counter(option.dice)
        positions = set()
        for index, value in enumerate(self.dice):
            if value is not None and wanted[value] > 0:
                wanted[value] -= 1
                positions.add(index)
        return frozenset(positions)

    @property
    def is_rolling(self) -> bool:
        """Whether any die of the throw is still undefined (in the cup or tumbling)."""
        return any(value is None for value in self.dice)
