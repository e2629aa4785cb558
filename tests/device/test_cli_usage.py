"""A command line the parser refuses is one line on stderr and exit status 2, like every other
bad input."""

from __future__ import annotations

import pytest

from device.cli import main


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["bogus"], "invalid choice: 'bogus'"),
        (["run", "--rate", "0"], "--rate"),
        (["strategy", "--solve", "--target", "1e30"], "'1e30' is not a whole number"),
        (["history", "--limit", "1e20"], "--limit"),
        (["read", "--expect", "31", "x.png"], "--expect"),
        (["score"], "required"),
    ],
)
def test_a_refused_command_line_is_one_line_and_exit_2(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and named in err, err
    assert err.startswith("dicekeeper") and "--help" in err and "usage:" not in err


def test_a_target_out_of_range_is_named_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["strategy", "--solve", "--rules", "greed", "--target", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--target 0: a target is from 1 to" in err
