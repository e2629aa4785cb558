"""A refused throw on the OLED: the table's own refusals (too few, too many, unreadable dice) are
laid out whole under the dice, so "hold STOP" (the way to set the dice without throwing again)
is on the screen. PNGs go to $DICEKEEPER_SHOTS when set."""

from __future__ import annotations

from pathlib import Path

import pytest
from luma.core.device import dummy
from PIL import Image

from device.prompts import count_message, unreadable_message
from hardware.oled import ALERT_ROWS, OledDisplay, _length, text_rows
from hardware.view import TableView
from tests.device.harness import config, open_rig
from tests.hardware.test_correction_screens import shots


def drawn(view: TableView) -> str:
    """The words the OLED draws under the dice, one space apart."""
    return " ".join(" ".join(text for _, _, text in text_rows(view)).split())


def said(message: str) -> str:
    """``message`` as the OLED spells it: a plain dash, single spaces."""
    return " ".join(message.replace("—", "-").split())


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        (count_message(6, 5), count_message(6, 5)),
        (count_message(6, 1), count_message(6, 1)),
        (count_message(5, 6), count_message(5, 6)),
        (unreadable_message(1), unreadable_message(1).removesuffix(" (cocked or covered)")),
        (unreadable_message(2), unreadable_message(2).removesuffix(" (cocked or covered)")),
    ],
    ids=["too-few", "many-too-few", "too-many", "unreadable", "two-unreadable"],
)
def test_a_refusal_is_drawn_whole_over_the_prompt(message: str, shown: str) -> None:
    view = TableView(dice=(1, 1, 5, 2, 3), message=message, alert=True, prompt="ROLL: throw 6")
    rows = text_rows(view)
    assert drawn(view) == said(shown)  # no word lost; the prompt gives way (the message says it)
    assert [y for y, _, _ in rows] == list(ALERT_ROWS[: len(rows)])
    assert all(_length(text, size) <= 128 for _, size, text in rows)
    assert all(size >= 9 for _, size, _ in rows)


@pytest.mark.parametrize(
    ("rules", "script", "unreadable", "needle"),
    [
        ("farkle", [[1, 1, 5, 2, 3], [2, 3, 4, 6, 6, 2]], set(), "I see 5"),
        ("greed", [[1, 1, 1, 5, 2], [2, 2, 3, 4, 6]], {2}, "could not be read"),
    ],
    ids=["too-few", "unreadable"],
)
def test_the_table_shows_hold_stop_after_a_refused_throw(
    tmp_path: Path, rules: str, script: list[list[int]], unreadable: set[int], needle: str
) -> None:
    rig = open_rig(config(tmp_path, rules=rules, script=script))
    rig.oracle.unreadable = unreadable
    with rig.table:
        view = rig.until(lambda v: needle in v.message)
    assert "hold STOP" in drawn(view)
    device = dummy(width=128, height=64, mode="1")
    with OledDisplay(device) as display:
        display.show(view)
        image: Image.Image = device.image.copy()
    assert not all(image.getpixel((x, 53)) for x in range(128))  # a third row over the totals
    folder = shots()
    if folder is not None:
        big = image.resize((512, 256), Image.Resampling.NEAREST)
        big.save(folder / f"oled-refused-{needle.replace(' ', '-')}.png")
