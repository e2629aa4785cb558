"""Rule files at the table and on the command line: names and paths alike, no dice, the listing."""

from __future__ import annotations

import json

import pytest

from device.cli import main


def test_score_with_no_dice_says_it_scores_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--rules", "greed-koans"]) == 0
    assert "no dice: a throw of no dice scores 0" in capsys.readouterr().out
    assert main(["score", "--rules", "greed-koans", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["best"], data["options"], data["bust"]) == (0, [], False)
