"""Tests of the classes the judge's network is taught for rendered dice (make_proposal_crops.py):
an emblem in place of a six's pips is never a value."""

from __future__ import annotations

from training.make_crops import UNREADABLE
from training.make_proposal_crops import class_of
from vision.render import TrayStyle, render_tray


def test_an_emblem_six_is_unreadable_and_every_other_die_its_value() -> None:
    emblem = render_tray([6, 1, 4, None], seed=3, style=TrayStyle(schemes=("emblem-six",)))
    assert [class_of(d) for d in emblem.dice] == [UNREADABLE, 1, 4, UNREADABLE]
    gold = render_tray([6, 2], seed=3, style=TrayStyle(schemes=("red-on-clear",)))
    assert [class_of(d) for d in gold.dice] == [6, 2]
