"""The terminal display, the memory display and fanning out to several displays."""

from __future__ import annotations

import dataclasses
import io

import pytest

from hardware import MultiDisplay, open_display, open_displays
from hardware.display import MemoryDisplay
from hardware.terminal import render_text
from hardware.view import TableView
from tests.hardware import sample_views


def test_text_of_a_turn() -> None:
    text = render_text(sample_views.mid_turn())
    lines = text.splitlines()
    assert lines[0] == "== dicekeeper · Greed =="
    assert lines[1].startswith("> Anna") and lines[1].endswith("2350")
    assert "not on the board yet" in lines[3]
    assert "dice: [1] [5] [5] [3] [4] [2]" in text
    assert ">15 = 150" in text and " 155 = 200" in text
    assert "350 this turn" in text


def test_text_of_rolling_bust_and_winner() -> None:
    assert "[?] [?] [?] [?]  (rolling)" in render_text(sample_views.rolling())
    assert 'Bob: "Fortune favours' in render_text(sample_views.rolling())
    bust = render_text(sample_views.bust())
    assert "BUST! 450 points lost" in bust and "! expected 3 dice, I see 4" in bust
    assert "*** Daniel wins with 4100 ***" in render_text(sample_views.game_over())
    assert "> rules: Greed" in render_text(sample_views.menu())


def test_terminal_prints_only_changes() -> None:
    stream = io.StringIO()
    with open_display("terminal", stream=stream) as display:
        view = sample_views.mid_turn()
        display.show(view)
        display.show(view)
        display.show(dataclasses.replace(view, turn_total=400))
    display.show(view)  # closed
    assert stream.getvalue().count("== dicekeeper") == 2
    assert "400 this turn" in stream.getvalue()


class Broken(MemoryDisplay):
    def show(self, view: TableView) -> None:
        raise OSError("cable out")


def test_multi_display_shows_on_all_even_if_one_fails() -> None:
    first, second = MemoryDisplay(), MemoryDisplay()
    multi = MultiDisplay([first, Broken(), second])
    with pytest.raises(OSError, match="cable out"):
        multi.show(sample_views.bust())
    assert first.last == second.last == sample_views.bust()
    multi.close()
    assert first.is_closed and second.is_closed
    assert "BUST" in second.text


def test_open_displays_closes_what_it_opened_when_one_fails() -> None:
    with pytest.raises(Exception, match="unknown display backend 'hologram'"):
        open_displays(["memory", "hologram"])
    with open_displays(["memory", ("terminal", {"stream": io.StringIO()})]) as multi:
        assert len(multi.displays) == 2


def test_terminal_marks_alerts_but_not_news() -> None:
    news = dataclasses.replace(sample_views.mid_turn(), message="Ann banks 350", alert=False)
    assert "* Ann banks 350" in render_text(news)
    assert "! Ann banks 350" in render_text(dataclasses.replace(news, alert=True))
