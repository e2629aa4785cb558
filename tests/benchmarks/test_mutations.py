"""benchmarks/mutations.py: every mutant's text is still in the source, a missing or repeated text
is reported (not counted as survived), one mutant is planted and caught, and bad names exit 2."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "mutations.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutations_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being made
    spec.loader.exec_module(module)
    return module


def _launch(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=280,
        check=False,
    )


def test_every_mutant_text_is_present_in_the_source() -> None:
    done = _launch("--list")
    mutants = _module().MUTANTS
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(mutants)} mutants, {len(mutants)} with their text present" in done.stdout
    for mutant in mutants:
        assert mutant.name in done.stdout


def test_the_mutants_have_distinct_names_and_real_tests() -> None:
    mutants = _module().MUTANTS
    assert len({m.name for m in mutants}) == len(mutants)
    for mutant in mutants:
        assert mutant.original != mutant.replacement, mutant.name
        for test in mutant.tests:
            assert (ROOT / test.split("::")[0]).is_file(), (mutant.name, test)


def test_a_missing_or_repeated_text_is_reported_not_planted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = _module()
    source = tmp_path / "engine" / "rules.py"
    source.parent.mkdir()
    source.write_text("x = 1\ny = 1\n", encoding="utf-8")

    def mutant(original: str) -> object:
        return module.Mutant("m", "engine/rules.py", original, "2", ("tests",), "a bug")

    assert "is not in engine/rules.py" in module.plant(mutant("z = 3"), tmp_path)
    assert "occurs 2 times" in module.plant(mutant("= 1"), tmp_path)
    assert source.read_text(encoding="utf-8") == "x = 1\ny = 1\n"
    assert module.plant(mutant("x = 1"), tmp_path) == ""
    assert source.read_text(encoding="utf-8") == "2\ny = 1\n"
    missing = module.run_mutant(
        mutant("z = 3"), tmp_path, tmp_path.parent / "work", 10.0, baseline=""
    )
    assert missing.status == "missing"
    assert module.report([missing], "a test copy") == 1
    out = capsys.readouterr().out
    assert "caught 0 of 1" in out and "m: missing: a bug" in out and "survived" not in out


def test_a_copy_without_the_packages_is_refused(tmp_path: Path) -> None:
    # Where the project is installed (editable here), Python would quietly import the installed
    # packages instead of the copy's, and every mutant would survive.
    problem = _module().check_imports(tmp_path)
    assert "outside the copy" in problem or "No module named" in problem


@pytest.mark.timeout(280)
def test_one_planted_bug_is_caught() -> None:
    done = _launch("--only", "store-synchronous-off")
    assert done.returncode == 0, done.stdout + done.stderr
    (row,) = [line for line in done.stdout.splitlines() if line.startswith("store-synch")]
    assert row.split()[:3] == ["store-synchronous-off", "device/store.py", "caught"]
    assert int(row.split()[3]) >= 2  # more than one test notices
    assert "caught 1 of 1" in done.stdout


def test_an_unknown_mutant_name_exits_2() -> None:
    done = _launch("--only", "no-such-bug")
    assert done.returncode == 2
    assert "'no-such-bug'" in done.stdout and "store-synchronous-off" in done.stdout


def test_each_test_file_is_credited_with_the_bugs_it_caught() -> None:
    module = _module()

    def outcome(name: str, status: str, tests: tuple[str, ...], files: tuple[str, ...]) -> object:
        mutant = module.Mutant(name, "engine/rules.py", "a", "b", tests, "a bug")
        return module.Outcome(mutant, status, len(files), 1.0, "", files)

    rows = module.by_test_file(
        [
            outcome("one", "caught", ("tests/a.py", "tests/b.py::test_x"), ("tests/a.py",)),
            outcome("two", "caught", ("tests/b.py",), ("tests/b.py",)),
            outcome("three", "survived", ("tests/a.py",), ()),
            outcome("four", "missing", ("tests/c.py",), ()),
        ]
    )
    assert rows == [
        ["test file", "caught", "bugs caught"],
        ["tests/a.py", "1 of 2", "one"],
        ["tests/b.py", "1 of 2", "two"],
    ]


def test_a_sweep_changes_operators_in_code_only(tmp_path: Path) -> None:
    module = _module()
    source = tmp_path / "engine" / "x.py"
    source.parent.mkdir()
    source.write_text(
        '"""A docstring: a >= b and not c."""\n'
        "import os  # a > b\n"
        "def f(a, b):\n"
        '    """a == b"""\n'
        '    return a >= b and not cannot("x > y")  # a < b\n',
        encoding="utf-8",
    )
    mutants = module.sweep_mutants(tmp_path, ["engine/x.py"], ("tests",))
    assert sorted(m.name.split(":", 3)[3] for m in mutants) == [">=>>", "and>or", "not>drop"]
    assert all(m.line == 5 for m in mutants)
    flipped = next(m for m in mutants if m.original == " >= ")
    assert module.plant(flipped, tmp_path) == ""
    assert source.read_text(encoding="utf-8").splitlines()[4].startswith("    return a > b and")
