"""The small I2C OLED (SSD1306/SH1106, 128×64): the compact `render_oled` screen and its display.

`render_oled` is pure: it draws a `TableView` onto a Pillow ``ImageDraw`` (1-bit, white on black).
`OledDisplay` hands it to any luma device through luma's ``canvas`` (tests use luma's ``dummy``).
"""

from __future__ import annotations

import logging
import re
import warnings
from dataclasses import replace
from functools import cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from hardware.backends import Closing
from hardware.display import Display, NullDisplay
from hardware.errors import DisplayUnavailable, InvalidOption
from hardware.view import PIP_GRID, Phase, Picture, TableView

log = logging.getLogger(__name__)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
WHITE = 255
BLACK = 0
DIE = 14
"""The side of a die glyph in pixels."""


@cache
def font(size: int) -> Font:
    """Pillow's built-in font at ``size`` pixels (no font file needed)."""
    return ImageFont.load_default(size=size)


def draw_die(draw: ImageDraw.ImageDraw, x: int, y: int, value: int | None) -> None:
    """A die glyph at (x, y): white with black pips, or an outline with a "?" while undefined."""
    box = (x, y, x + DIE - 1, y + DIE - 1)
    if value is None:
        draw.rounded_rectangle(box, radius=2, outline=WHITE)
        draw.text((x + DIE // 2, y + DIE // 2 + 1), "?", fill=WHITE, font=font(10), anchor="mm")
        return
    draw.rounded_rectangle(box, radius=2, fill=WHITE)
    for column, row in PIP_GRID[value]:
        px, py = x + 2 + 4 * column, y + 2 + 4 * row
        draw.rectangle((px, py, px + 1, py + 1), fill=BLACK)


_MEASURE = ImageDraw.Draw(Image.new("1", (1, 1)))


_PLAIN = str.maketrans({"—": "-", "–": "-", "“": '"', "”": '"', "’": "'", " ": "  "})
"""Characters the built-in font lacks at OLED sizes, and what to draw instead. Its space is two
pixels wide, next to letters that fill their cells on a 1-bit image: "Expert wins!" read as
"Expertwins!", so each space is drawn twice."""


def _length(text: str, size: int) -> float:
    """The width of ``text`` as drawn on a 1-bit image (unsmoothed glyphs are wider)."""
    return _MEASURE.textlength(text, font=font(size))


def _fit(text: str, size: int, width: int) -> str:
    """``text`` cut with an ellipsis so that it fits ``width`` pixels."""
    text = text.translate(_PLAIN)
    if _length(text, size) <= width:
        return text
    while text and _length(text + "..", size) > width:
        text = text[:-1]
    return text + ".."


def _wrap(text: str, size: int, width: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` pixels (long words are cut later)."""
    lines: list[str] = []
    for word in text.split():
        if lines and _length(f"{lines[-1]} {word}".translate(_PLAIN), size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def _draw_totals(draw: ImageDraw.ImageDraw, view: TableView, width: int, y: int) -> None:
    """Every player's total in equal columns: as much of the name as fits, the total right."""
    count = max(len(view.players), 1)
    cell = width // count
    size = 10 if count <= 3 else 9
    for index, player in enumerate(view.players):
        is_last = index == count - 1
        left = index * cell + (1 if index else 0)
        right = width - 2 if is_last else (index + 1) * cell - 4
        total = str(player.total)
        room = right - left - _length(total, size) - 1
        name = player.name.translate(_PLAIN)
        while name and _length(name, size) > room:
            name = name[:-1].rstrip()
        draw.text((left, y), name, fill=WHITE, font=font(size), anchor="lm")
        draw.text((right, y), total, fill=WHITE, font=font(size), anchor="rm")
        if not is_last:
            draw.line((right + 3, y - 3, right + 3, y + 3), fill=WHITE)


def render_oled(view: TableView, draw: ImageDraw.ImageDraw, *, width: int = 128) -> None:
    """Draw ``view`` compactly for a 128×64 monochrome OLED.

    Top bar (inverted): whose turn and their total, the winner, or MENU. Then the dice as pip glyphs
    with the selected keep underlined and the turn total beside them; the selected keep; the message
    (or the prompt); at the bottom every player's total. A problem too long for one row takes the
    prompt's row, and the totals' when two are not enough (`alert_rows`). While the camera is being
    calibrated (the view holds its picture or its checks), the calibration's own layout
    (`_draw_calibrating`).
    """
    winner = view.winner_player
    calibrating = view.picture is not None or bool(view.checks)
    draw.rectangle((0, 0, width - 1, 11), fill=WHITE)
    left, right = top_bar(view)
    right = _fit(right, 11, width // 2)  # a rules file may name its rules at length
    draw.text((width - 2, 6), right, fill=BLACK, font=font(11), anchor="rm")
    room = width - 6 - int(_length(right, 11))
    draw.text((2, 6), _fit(left, 11, room), fill=BLACK, font=font(11), anchor="lm")

    if calibrating:
        _draw_calibrating(draw, view, width)
        return
    if view.phase is Phase.MENU:
        first = min(max(view.menu_selected - 1, 0), max(len(view.menu) - 4, 0))
        for row, item in enumerate(view.menu[first : first + 4]):
            y = 14 + 12 * row
            if first + row == view.menu_selected:
                draw.rectangle((0, y, width - 1, y + 11), outline=WHITE)
            draw.text((4, y + 6), _fit(item, 10, width - 8), fill=WHITE, font=font(10), anchor="lm")
        return
    if view.phase is Phase.CORRECTING:
        _draw_correcting(draw, view, width)
        return
    if winner is not None:
        ranked = sorted(view.players, key=lambda player: -player.total)[:3]
        for row, player in enumerate(ranked):
            y = 19 + 11 * row
            draw.text((0, y), f"{row + 1}.", fill=WHITE, font=font(10), anchor="lm")
            name = _named(view, view.players.index(player))
            draw.text((12, y), name, fill=WHITE, font=font(10), anchor="lm")
            draw.text((width - 1, y), str(player.total), fill=WHITE, font=font(10), anchor="rm")
        draw.line((0, 53, width - 1, 53), fill=WHITE)
        draw.text((0, 59), _fit(view.prompt, 10, width), fill=WHITE, font=font(10), anchor="lm")
        return

    underline = view.selected_positions
    for index, value in enumerate(view.dice[:6]):
        x = index * (DIE + 1)
        draw_die(draw, x, 14, value)
        if index in underline:
            draw.line((x, 14 + DIE + 1, x + DIE - 1, 14 + DIE + 1), fill=WHITE)
    total_text = "BUST" if view.phase is Phase.BUST else f"+{view.turn_total}"
    if view.dice or view.turn_total or view.phase is Phase.BUST:
        draw.text((width - 1, 21), total_text, fill=WHITE, font=font(13), anchor="rm")
    else:
        _draw_web(draw, view, width)
    _draw_rows(draw, view, width)


def top_bar(view: TableView) -> tuple[str, str]:
    """The inverted top bar's left and right text: whose dice lie in the tray and their total
    (the player of the throw shown, who is the current player unless their turn just ended and
    their dice still lie there), the winner, MENU, CORRECT DICE or CALIBRATE."""
    if view.picture is not None or view.checks:
        to_fix = sum(check.startswith("FIX ") for check in view.checks)
        return "CALIBRATE", "" if not view.checks else f"{to_fix} to fix" if to_fix else "all ok"
    if view.phase is Phase.MENU:
        return "MENU", f"code {view.pair_code}" if view.pair_code else ""
    if view.phase is Phase.CORRECTING:
        return "CORRECT DICE", f"{(view.cursor or 0) + 1}/{len(view.dice)}"
    winner = view.winner_player
    if winner is not None:
        return f"{winner.name} wins!", str(winner.total)
    shown = view.current if view.tray_owner is None or not view.dice else view.tray_owner
    if shown is not None:
        player = view.players[shown]
        cpu = " (cpu)" if player.is_computer else ""
        return f"{player.name}{cpu}", str(player.total)
    return view.title, view.rules


def _fit_named(text: str, size: int, width: int, names: list[str]) -> str:
    """``text`` fitted to ``width`` as `_fit` does, but when the cut would lose a player's name
    it loses words before the name instead ("the simulated .. for Expert")."""
    cut = _fit(text, size, width)
    if cut == text.translate(_PLAIN):
        return cut
    for name in sorted(names, key=len, reverse=True):
        at = text.find(name)
        if name and at > 0 and name.translate(_PLAIN) not in cut.removesuffix(".."):
            tail = text[at:]
            words = text[:at].split()
            while words and _length(f"{' '.join(words)} .. {tail}".translate(_PLAIN), size) > width:
                words.pop()
            if words:
                return f"{' '.join(words)} .. {tail}".translate(_PLAIN)
            return _fit(tail, size, width)
    return cut


def _named(view: TableView, seat: int) -> str:
    """A player's name on the game's last screen, with the accuracy of their decisions beside it
    once the review is made ("Ann 97%")."""
    player = view.players[seat]
    accuracy = view.review[seat][0] if seat < len(view.review) else ""
    if not accuracy:
        return _fit(player.name, 10, 70)
    return f"{_fit(player.name, 10, 70 - int(_length(' ' + accuracy, 10)))} {accuracy}"


def text_rows(view: TableView, width: int = 128) -> list[tuple[int, int, str]]:
    """The rows of text under the dice of the table (or of the correction) as drawn: each row's
    centre, font size and text, cut to ``width``. A problem (``view.alert``) too long for one row
    gets the rows of `alert_rows` in place of the prompt (it names the buttons itself); a third
    row covers the totals."""
    if view.message and view.alert:
        size, problem = alert_rows(view.message, width)
        if len(problem) > 1:
            return [
                (y, size, _fit(row, size, width))
                for y, row in zip(ALERT_ROWS, problem, strict=False)
            ]
    rows: list[tuple[int, int, str]] = []
    if view.phase is Phase.CORRECTING:
        message = view.message.removeprefix("correcting ")
        if message:
            rows.append((39, 10, _fit(message, 10, width)))
        return [*rows, (48, 9, _fit(CORRECTING_KEYS, 9, width))]
    option = view.selected_option
    if option is not None:
        counter = f" ({view.selected + 1}/{len(view.options)})" if len(view.options) > 1 else ""
        lines = [f"keep {''.join(map(str, option.dice))} = {option.score}{counter}"]
    elif view.kept:
        lines = [f"kept {''.join(map(str, view.kept))}"]
    else:
        lines = []
    last = view.prompt or view.hint or view.remark
    if view.message and (view.alert or view.phase is Phase.BUST):
        lines = [view.message, last]  # a problem or the bust's reason first; then the prompt
    elif lines:
        lines = [lines[0], last]
    elif _length(last.translate(_PLAIN), 10) > width:
        parts = [part.strip() for part in last.split("  ") if part.strip()]
        # a long prompt (the pass offer) over both rows, a button's clause on each
        lines = parts if len(parts) == 2 else _wrap(last, 10, width)
    else:
        lines = [view.message or view.tray_label, last]
    names = [player.name for player in view.players]
    for y, line in zip(ALERT_ROWS[:2], lines, strict=False):
        size = 10 if _length(line.translate(_PLAIN), 10) <= width else 9
        rows.append((y, size, _fit_named(line, size, width, names)))
    return rows


def _draw_rows(draw: ImageDraw.ImageDraw, view: TableView, width: int) -> None:
    """The `text_rows` under the dice; under a line the totals, unless a row covers them."""
    rows = text_rows(view, width)
    for y, size, text in rows:
        draw.text((0, y), text, fill=WHITE, font=font(size), anchor="lm")
    if all(y < TOTALS_LINE for y, _, _ in rows):
        draw.line((0, TOTALS_LINE, width - 1, TOTALS_LINE), fill=WHITE)
        _draw_totals(draw, view, width, 59)


ALERT_ROWS = (35, 46, 57)
"""The centres of the rows under the dice: two above the line over the totals, and a third in
the totals' place for a problem too long for two."""
TOTALS_LINE = 53
"""The line over the players' totals."""
_ASIDE = re.compile(r"\s*\([^()]*\)")
"""An aside in parentheses ("(cocked or covered)"), dropped when a problem is too long."""


def alert_rows(message: str, width: int = 128) -> tuple[int, list[str]]:
    """The font size and the rows (one to three) in which the OLED shows the problem ``message``.

    The fewest rows, at 10 pixels when they hold it, else 9, with the message whole; when three
    rows do not hold it, the message without its asides in parentheses; when that is still too
    long, the way out (after " — ", else after the first ": ") gets the last two rows and what is
    wrong the first, " .." marking each cut (the rows still to be drawn through `_fit`)."""
    count = len(ALERT_ROWS)
    for text in dict.fromkeys((message, _ASIDE.sub("", message))):
        fitting = [
            (len(rows), -size, rows)
            for size in (10, 9)
            if len(rows := _wrap(text, size, width)) <= count
            and all(_length(row.translate(_PLAIN), size) <= width for row in rows)
        ]
        if fitting:
            _, size, rows = min(fitting, key=lambda fit: fit[:2])
            return -size, rows
    text = _ASIDE.sub("", message)
    separator = " — " if " — " in text else ": "
    head, found, tail = text.partition(separator)
    if not (found and head.strip() and tail.strip()):
        return 9, _rows(text, count, 9, width)
    tail_rows = _rows(tail, count - 1, 9, width)
    return 9, [*_rows(head + separator.rstrip(), count - len(tail_rows), 9, width), *tail_rows]


def _draw_web(draw: ImageDraw.ImageDraw, view: TableView, width: int) -> None:
    """Where phones find the scoreboard and the pairing code, in the dice's rows while the tray
    is empty: the address (without "http://") on one line, the code under it."""
    if view.web:
        address = view.web.removeprefix("http://")
        draw.text((0, 18), _fit(address, 10, width), fill=WHITE, font=font(10), anchor="lm")
    if view.pair_code:
        code = f"code {view.pair_code}"
        draw.text((0, 28), _fit(code, 10, width), fill=WHITE, font=font(10), anchor="lm")


CORRECTING_KEYS = "SEL:next ROLL:+1 STOP:ok"
"""The buttons while correcting, short enough for the OLED's width at 9 pixels."""


def _draw_correcting(draw: ImageDraw.ImageDraw, view: TableView, width: int) -> None:
    """The dice being corrected: the die being set underlined (two rows thick), a die marked
    "not a die" crossed out; what is being set, the buttons, the totals; a problem too long for
    one row in the rows of `alert_rows` instead of the buttons (`text_rows`)."""
    for index, value in enumerate(view.dice[:6]):
        x = index * (DIE + 1)
        draw_die(draw, x, 14, value)
        if index in view.struck:
            draw.rectangle((x, 14, x + DIE - 1, 14 + DIE - 1), fill=BLACK, outline=WHITE)
            draw.line((x + 2, 16, x + DIE - 3, 14 + DIE - 3), fill=WHITE)
            draw.line((x + 2, 14 + DIE - 3, x + DIE - 3, 16), fill=WHITE)
        if index == view.cursor:
            draw.rectangle((x, 14 + DIE + 1, x + DIE - 1, 14 + DIE + 2), fill=WHITE)
    _draw_rows(draw, view, width)


CALIBRATING_ROWS = (17, 27, 37)
"""Where the calibration's message (or what to fix) is drawn: three rows."""
CALIBRATING_KEYS_ROWS = (49, 59)
"""Where the calibration's prompt is drawn, a clause on each row, under a line."""


def _rows(text: str, count: int, size: int, width: int) -> list[str]:
    """``text`` wrapped into at most ``count`` rows of ``width`` pixels, ".." marking a cut
    (each row still to be drawn through `_fit`)."""
    rows = _wrap(text, size, width)
    if len(rows) > count:
        rows = [*rows[: count - 1], rows[count - 1] + " .."]
    return rows


def _to_fix(check: str) -> str:
    """A check to fix as the OLED says it: its name and what to do, the advice after its last
    colon ("FIX light: add light above the tray ...")."""
    name, _, advice = check.partition(": ")
    return f"{name}: {advice.rsplit(': ', 1)[-1]}"


def _draw_calibrating(draw: ImageDraw.ImageDraw, view: TableView, width: int) -> None:
    """The calibration: in three rows the checks to fix, in the order of ``view.checks`` (each
    gets a row, the first one the rows left over), else the message; under a line the prompt,
    a clause (two spaces apart) on each of two rows when each fits, else wrapped."""
    to_fix = [_to_fix(check) for check in view.checks if check.startswith("FIX ")]
    rows: list[str] = []
    for index, check in enumerate(to_fix):
        room = len(CALIBRATING_ROWS) - len(rows) - (len(to_fix) - index - 1)
        rows.extend(_rows(check, max(room, 1), 10, width))
    if not to_fix:
        rows = _rows(view.message, len(CALIBRATING_ROWS), 10, width)
    for y, row in zip(CALIBRATING_ROWS, rows, strict=False):
        draw.text((0, y), _fit(row, 10, width), fill=WHITE, font=font(10), anchor="lm")
    draw.line((0, 43, width - 1, 43), fill=WHITE)
    clauses = [part.strip() for part in view.prompt.split("  ") if part.strip()]
    if len(clauses) != len(CALIBRATING_KEYS_ROWS) or any(
        _length(clause.translate(_PLAIN), 10) > width for clause in clauses
    ):
        clauses = _rows(view.prompt, len(CALIBRATING_KEYS_ROWS), 10, width)
    for y, clause in zip(CALIBRATING_KEYS_ROWS, clauses, strict=False):
        draw.text((0, y), _fit(clause, 10, width), fill=WHITE, font=font(10), anchor="lm")


_A_PICTURE = Picture(np.zeros((1, 1, 3), np.uint8))
"""What the OLED keeps of a camera picture: that there is one (the calibration's layout), the
same object whatever the picture, so a new frame of the live view redraws nothing."""


class OledDisplay(Closing):
    """Shows views on a luma device (an SSD1306/SH1106 or luma's ``dummy``).

    When the OLED stops answering (a loose wire), `show` raises `DisplayUnavailable`; with
    ``tolerate_errors`` it logs one warning instead and keeps trying on the next view, so a flaky
    OLED never stops the game.
    """

    def __init__(self, device: object, *, tolerate_errors: bool = False) -> None:
        self.device = device
        self.tolerate_errors = tolerate_errors
        self.is_failing = False
        self._last: TableView | None = None
        self._is_closed = False

    def show(self, view: TableView) -> None:
        """Draw ``view`` unless it is the one already shown (a camera picture, which the OLED
        does not draw, makes no difference)."""
        if view.picture is not None:
            view = replace(view, picture=_A_PICTURE)
        if self._is_closed or view == self._last:
            return
        from luma.core.render import canvas

        try:
            with canvas(self.device) as draw:
                render_oled(view, draw, width=self.device.width)  # type: ignore[attr-defined]
        except OSError as error:
            problem = DisplayUnavailable(f"the OLED stopped answering ({error}): check the wiring")
            if not self.tolerate_errors:
                raise problem from error
            if not self.is_failing:
                log.warning("%s; the game goes on without it", problem)
            self.is_failing = True
            return
        self.is_failing = False
        self._last = view

    def close(self) -> None:
        """Blank the OLED and release it (idempotent)."""
        if not self._is_closed:
            self._is_closed = True
            try:
                self.device.cleanup()  # type: ignore[attr-defined]
            except OSError as error:
                log.warning("the OLED did not close cleanly: %s", error)


def open_oled(
    *,
    driver: str = "ssd1306",
    port: int = 1,
    address: int = 0x3C,
    rotation: int = 0,
    width: int = 128,
    height: int = 64,
    device: object | None = None,
    fallback: bool = True,
) -> Display:
    """An `OledDisplay` on an I2C OLED, or on ``device`` when given (e.g. luma's ``dummy``).

    When no OLED answers and ``fallback`` is true it warns and returns a `NullDisplay`, so a table
    without the OLED still works, and later I/O errors are logged, not raised; otherwise it raises
    `DisplayUnavailable`.
    """
    if device is not None:
        return OledDisplay(device, tolerate_errors=fallback)
    if rotation not in (0, 1, 2, 3):
        raise InvalidOption(f"OLED rotation must be 0, 1, 2 or 3 (quarter turns), not {rotation!r}")
    from luma.core.error import Error as LumaError
    from luma.core.interface.serial import i2c
    from luma.oled import device as oled_devices

    drivers = {"ssd1306": oled_devices.ssd1306, "sh1106": oled_devices.sh1106}
    if driver not in drivers:
        raise InvalidOption(f"unknown OLED driver {driver!r}: choose one of 'sh1106', 'ssd1306'")
    try:
        serial = i2c(port=port, address=address)
        made = drivers[driver](serial, width=width, height=height, rotate=rotation)
    except (LumaError, OSError) as error:
        problem = DisplayUnavailable(
            f"no {driver} OLED at I2C port {port}, address {address:#04x} ({error}): is I2C "
            "enabled (sudo raspi-config nonint do_i2c 0), the display wired, the user in the i2c "
            "group? `i2cdetect -y 1` lists the addresses that answer"
        )
        if not fallback:
            raise problem from error
        warnings.warn(f"{problem}; carrying on without the OLED", RuntimeWarning, stacklevel=2)
        log.warning("%s; carrying on without the OLED", problem)
        return NullDisplay(reason=str(problem))
    return OledDisplay(made, tolerate_errors=fallback)
