"""Rule sets from TOML files: reading them, the rules folders, and one resolver for names and paths.

`find_rules_or_file(name_or_path)` is what every command and the table use: a registered name
(built-in, shipped, or from a rules folder), else a path to a rules file, which is then registered
under its name so the menu and a resumed game find it. `register_rules_folders` registers every
``*.toml`` of the rules folders (``rules/`` beside the config file and in the state directory);
a file there that cannot be used (not a regular file, too large, not valid rules) is left out with
a warning, so one bad file never keeps the table from starting. Rules files are read with a size
bound (`MAX_RULES_BYTES`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from pathlib import Path

from device.bounded import FileUnusable, read_text_bounded
from engine.errors import InvalidRules
from engine.rules import Rules, find_rules, register_rules, rules_names
from engine.rules_toml import format_rules, parse_rules

log = logging.getLogger(__name__)

MAX_RULES_BYTES = 256 * 1024
"""The largest rules file read (the shipped ones are under 2 KB)."""
RULES_FOLDER = "rules"
"""The name of a rules folder, beside the config file and in the state directory."""

_from_files: dict[str, Path] = {}
"""Rule sets registered from files: name -> the file (a later file of that name replaces it)."""


def load_rules(path: str | Path) -> Rules:
    """Read a rule set from a TOML file; `InvalidRules` naming the file when it cannot be read."""
    try:
        text = read_text_bounded(path, MAX_RULES_BYTES, "rules file")
    except FileUnusable as exc:
        raise InvalidRules(str(exc)) from None
    except OSError as exc:
        raise InvalidRules(f"cannot read rules file {str(path)!r}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InvalidRules(f"rules file {str(path)!r} is not UTF-8 text") from None
    try:
        rules = parse_rules(text, origin=str(path))
    except RecursionError:
        raise InvalidRules(f"rules file {str(path)!r} is nested too deep") from None
    check_playable(rules, f"rules file {str(path)!r}")
    return rules


MAX_NAME = 64
"""The longest rule set name (it is shown on the screens and the OLED)."""


def check_playable(rules: Rules, origin: str) -> None:
    """`InvalidRules` (naming ``origin``) for rules a table cannot show or play: a name that is
    empty, longer than `MAX_NAME` or holds control characters (escape codes), or a
    ``bank_minimum`` above the target."""
    name = rules.name
    if not name or len(name) > MAX_NAME or not name.isprintable():
        shown = repr(name[:40]) + ("..." if len(name) > 40 else "")
        raise InvalidRules(f"{origin}: name {shown} must be 1 to {MAX_NAME} printable characters")
    if rules.bank_minimum > rules.target:
        raise InvalidRules(
            f"{origin}: bank_minimum = {rules.bank_minimum} is above the target "
            f"{rules.target}: no turn below the target could ever be banked"
        )


def is_rules_path(name_or_path: str) -> bool:
    """Whether ``name_or_path`` names a file rather than a rule set (``.toml`` or a folder)."""
    return name_or_path.endswith(".toml") or "/" in name_or_path or os.sep in name_or_path


def register_rules_file(path: str | Path) -> Rules:
    """Load ``path`` and register its rules; `InvalidRules` if it would replace a built-in set."""
    rules = load_rules(path)
    if rules.name in rules_names() and rules.name not in _from_files:
        raise InvalidRules(
            f"rules file {str(path)!r}: name {rules.name!r} is a built-in rule set; "
            "give the file's rules another name"
        )
    _from_files[rules.name] = Path(path)
    return register_rules(rules)


def find_rules_or_file(name_or_path: str) -> Rules:
    """The rule set registered as ``name_or_path``, else the rules file at that path.

    `UnknownRules` (listing the names) for an unknown name; `InvalidRules` for a bad file.
    """
    if name_or_path in rules_names() or not is_rules_path(name_or_path):
        return find_rules(name_or_path)
    return register_rules_file(name_or_path)


def rules_folders(config_source: str, state_directory: Path) -> tuple[Path, ...]:
    """The rules folders: beside the config file (when there is one) and in the state directory."""
    folders = [state_directory / RULES_FOLDER]
    source = Path(config_source)
    if source.suffix == ".toml":
        folders.insert(0, source.parent / RULES_FOLDER)
    return tuple(folders)


def register_rules_folders(folders: Iterable[Path]) -> tuple[Rules, ...]:
    """Register the rules of every ``*.toml`` in ``folders`` (missing folders are skipped, and a
    file that cannot be used is left out with a warning)."""
    found = []
    for folder in folders:
        if folder.is_dir():
            for path in sorted(folder.glob("*.toml")):
                try:
                    found.append(register_rules_file(path))
                except InvalidRules as exc:
                    log.warning("rules folder: %s; left out", exc)
    return tuple(found)


def rules_file_text(rules: Rules) -> str | None:
    """``rules`` as rule file text when they came from a file (kept with a game so that it
    resumes even if the file goes), else None."""
    return format_rules(rules) if rules.name in _from_files else None
