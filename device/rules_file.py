"""Rule sets from TOML files: the file reading that the pure engine leaves to the appliance."""

from __future__ import annotations

from pathlib import Path

from engine.errors import InvalidRules
from engine.rules import Rules
from engine.rules_toml import parse_rules


def load_rules(path: str | Path) -> Rules:
    """Read a rule set from a TOML file; `InvalidRules` naming the file when it cannot be read."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidRules(f"cannot read rules file {str(path)!r}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InvalidRules(f"rules file {str(path)!r} is not UTF-8 text") from None
    return parse_rules(text, origin=str(path))
