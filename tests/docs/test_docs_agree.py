"""The docs and the tool agree: every style, rule set and command-line flag that README.md and
systemd/config.example.toml name is one the tool accepts."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from device.cli import build_parser
from device.config import SIMULATED_STYLES
from engine.rules import rules_names
from vision.render.style import PRESETS

ROOT = Path(__file__).parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
EXAMPLE = (ROOT / "systemd" / "config.example.toml").read_text(encoding="utf-8")


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def _readme_styles() -> list[str]:
    (row,) = (line for line in README.splitlines() if line.startswith("| `camera.style`"))
    return re.findall(r"`([a-z-]+)`", row.split("the look of the tray", 1)[1])


def _example_styles() -> list[str]:
    (line,) = (line for line in EXAMPLE.splitlines() if line.startswith("style ="))
    return line.split("simulated:", 1)[1].split("(", 1)[0].replace("|", " ").split()


def _readme_rule_sets() -> list[str]:
    start = README.index("- **Rule sets**:")
    return re.findall(r"`([a-z-]+)`", README[start : README.index("`dicekeeper rules`", start)])


def _example_rule_sets() -> list[str]:
    start = EXAMPLE.index("The rule set of a new game")
    said = EXAMPLE[start : EXAMPLE.index("\nrules =", start)]
    return re.findall(r"[a-z]+(?:-[a-z]+)*", said.split("(", 1)[1].split(":", 1)[0])


def _readme_invocations() -> list[tuple[str, list[str]]]:
    """Each ``dicekeeper COMMAND ...`` the README shows (code spans and code blocks) with the
    flags it gives."""
    found = []
    for text in re.findall(r"`(dicekeeper [^`]+)`", README) + re.findall(
        r"^(?:\.venv/bin/)?(dicekeeper [^#\n]+)", README, re.MULTILINE
    ):
        words = text.split()
        if len(words) > 1 and re.fullmatch(r"[a-z]+", words[1]):
            found.append((words[1], re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", text)))
    return found


def test_every_style_named_is_accepted() -> None:
    styles = _readme_styles() + _example_styles()
    assert set(_readme_styles()) == set(SIMULATED_STYLES) == set(_example_styles())
    assert set(PRESETS) <= set(SIMULATED_STYLES)
    demo = _commands()["demo"]
    for style in styles:
        assert demo.parse_args(["--style", style]).style == style


def test_every_rule_set_named_is_accepted() -> None:
    named = _readme_rule_sets()
    assert len(named) >= 10 and set(named) <= set(rules_names())
    assert _example_rule_sets() == named  # the example config lists the same, in order


def test_every_flag_the_readme_gives_a_command_is_one_it_takes() -> None:
    commands = _commands()
    invocations = _readme_invocations()
    assert {"demo", "calibrate", "tournament", "strategy"} <= {c for c, _ in invocations}
    for command, flags in invocations:
        assert command in commands, command
        known = {
            option for action in commands[command]._actions for option in action.option_strings
        }
        for flag in flags:
            assert flag in known, f"README: dicekeeper {command} {flag}"
