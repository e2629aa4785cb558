"""docs/ARCHITECTURE.md names every module of the packages, and only modules that exist."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ARCHITECTURE.md"

ROW = re.compile(r"^\| `(?P<name>\w+)` \|", re.MULTILINE)


def sections(text: str) -> dict[str, set[str]]:
    """The module names in the table under each ``### package`` heading, by package."""
    found: dict[str, set[str]] = {}
    for part in re.split(r"^### ", text, flags=re.MULTILINE)[1:]:
        package = part.split(maxsplit=1)[0]
        found[package] = {m["name"] for m in ROW.finditer(part.split("\n## ", 1)[0])}
    return found


def modules(package: str) -> set[str]:
    """The modules of ``package`` (a dotted name) in the source tree, ``__init__`` left out."""
    folder = ROOT.joinpath(*package.split("."))
    return {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}


def test_every_package_has_its_table_of_every_module() -> None:
    """Every package of Python code; a package of data files alone (the web page's static
    files) has no modules to name."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"
    ]
    packages = [p for p in declared if any(ROOT.joinpath(*p.split(".")).glob("*.py"))]
    assert "device.web.static" in set(declared) - set(packages)
    tables = sections(DOC.read_text(encoding="utf-8"))
    assert set(tables) == set(packages)
    for package in packages:
        missing = modules(package) - tables[package]
        gone = tables[package] - modules(package) - {"__init__"}
        assert not missing, f"docs/ARCHITECTURE.md: add a line for {package}: {sorted(missing)}"
        assert not gone, (
            f"docs/ARCHITECTURE.md names {package} modules that are gone: {sorted(gone)}"
        )


def test_sections_reads_the_rows_under_each_heading() -> None:
    text = "### engine\n\n| `dice` | x |\n| `game` | y |\n\n"
    text += "### vision (the reader)\n\n| `read` | z |\n"
    text += "\n## Elsewhere\n\n| `not_a_module` | w |\n"
    assert sections(text) == {"engine": {"dice", "game"}, "vision": {"read"}}
