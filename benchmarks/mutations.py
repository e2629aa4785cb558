"""Which planted bugs the test suite catches: each small bug is made, one at a time, in a temporary
copy of the source, and the tests relevant to it are run there.

Usage: .venv/bin/python benchmarks/mutations.py [--list] [--only NAME ...] [--commit REV] [--jobs N]
                                      [--timeout SECONDS]
       .venv/bin/python benchmarks/mutations.py --sweep FILE ... [--sample N] [--seed S]
                                      [--tests PATH ...]

``--sweep`` plants no hand-written bug but every small operator change a mutation tool would
(``>=``/``>``, ``<``/``<=``, ``==``/``!=``, ``+``/``-``, ``and``/``or``, ``True``/``False``, ``not``
dropped), one at a time, in the code lines of the files named (docstrings and comments left
alone), optionally a seeded sample of ``N`` of them, and runs ``--tests`` (default
``tests/engine``) stopping at the first failure. The survivors are the list to triage:
equivalent mutants, or behaviour no test pins down.

The source (the packages, ``tests``, ``systemd``, ``docs``, ``pyproject.toml`` and the README) is
copied once, from the work tree or, with ``--commit``, from a git revision (``git archive``); the
work tree is never touched. Each mutant is a file, a piece of text that must occur in it exactly
once, and its replacement: text that no longer occurs (the code was refactored) is reported as
``missing``, never as survived. Each mutant's tests run with this Python (``PYTHONPATH`` pointing
at the copy); they first run on the unchanged copy, so a test that already fails is reported as
``baseline fails`` rather than as a catch. The table says, for each mutant, whether the tests
caught it and how many failed (a bug caught by a single test is one refactor away from going
unnoticed); a second table says, for each test file run, how many of the planted bugs it caught
(failed on) of those it was run against.

Exit status: 0 when every mutant was caught, 1 otherwise, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COPIED = (
    "engine", "vision", "hardware", "device", "tests", "systemd", "pyproject.toml", "README.md",
    "docs",
)  # fmt: skip
PACKAGES = ("engine", "vision", "hardware", "device")

ENTRY = ("tests/engine/test_entry_boundaries.py", "tests/engine/test_game_scripted.py")
SCORING = (
    "tests/engine/test_scoring_golden.py",
    "tests/engine/test_straights.py",
    "tests/engine/test_game_scripted.py",
)
OPTIMAL = ("tests/engine/test_optimal_decisions.py", "tests/engine/test_strategy.py")
STORE = ("tests/device/test_store.py", "tests/device/test_store_settings.py")
CONFIG = ("tests/device/test_config.py", "tests/device/test_config_unknown_keys.py")
TABLE = ("tests/device/test_table.py", "tests/device/test_dice_count.py")
BUTTONS = ("tests/hardware/test_gpio_buttons.py", "tests/hardware/test_gpio_debounce.py")
ENTRY_BUSTS = ("tests/engine/test_entry_busts.py", *ENTRY)
WEB_TOKENS = ("tests/device/web/test_tokens.py", "tests/device/web/test_limits.py")
COMPUTER_TURN = ("tests/device/test_computer_turn_buttons.py", "tests/device/test_table.py")


@dataclass(frozen=True, slots=True)
class Mutant:
    """One planted bug: in ``file``, the text ``original`` (exactly once) becomes ``replacement``;
    ``tests`` are the test files (or node ids) that should catch it."""

    name: str
    file: str
    original: str
    replacement: str
    tests: tuple[str, ...]
    bug: str
    line: int = 0
    """For a swept mutant: the line (1-based) whose ``column``-th character starts ``original``."""
    column: int = 0


MUTANTS = (
    Mutant(
        "store-synchronous-off",
        "device/store.py",
        'db.execute("PRAGMA synchronous=FULL")',
        'db.execute("PRAGMA synchronous=OFF")',
        STORE,
        "commits are not synced to disk (lost in a power cut)",
    ),
    Mutant(
        "store-no-wal",
        "device/store.py",
        'db.execute("PRAGMA journal_mode=WAL")',
        'db.execute("PRAGMA journal_mode=DELETE")',
        STORE,
        "the store leaves its write-ahead log",
    ),
    Mutant(
        "store-no-rollback",
        "device/store.py",
        'db.execute("ROLLBACK")',
        "pass",
        STORE,
        "a failed write leaves its transaction open",
    ),
    Mutant(
        "config-game-unknown-key",
        "device/config.py",
        "    t.finish()\n    return GameConfig(",
        "    return GameConfig(",
        CONFIG,
        "a typo under [game] is accepted silently",
    ),
    Mutant(
        "config-pins-unknown-key",
        "device/config.py",
        "    pins.finish()\n",
        "",
        CONFIG,
        "a typo under [buttons.pins] is accepted silently",
    ),
    Mutant(
        "config-display-unknown-key",
        "device/config.py",
        "        t.finish()\n    if not displays:",
        "    if not displays:",
        CONFIG,
        "a typo in a [[display]] is accepted silently",
    ),
    Mutant(
        "config-state-unknown-key",
        "device/config.py",
        "    t.finish()\n    return StateConfig(",
        "    return StateConfig(",
        CONFIG,
        "a typo under [state] is accepted silently",
    ),
    Mutant(
        "entry-first-roll-strict",
        "engine/rules.py",
        "return best >= self.entry_threshold",
        "return best > self.entry_threshold",
        ENTRY,
        "greed's first throw of exactly 300 busts",
    ),
    Mutant(
        "entry-bank-strict",
        "engine/rules.py",
        "return own >= self.entry_threshold",
        "return own > self.entry_threshold",
        ENTRY,
        "a first bank of exactly the threshold (koans 300, house 500) is refused",
    ),
    Mutant(
        "small-straight-1-5",
        "engine/rulesets.py",
        'Combination((1, 2, 3, 4, 5), 1000, "small straight")',
        'Combination((1, 2, 3, 4, 5), 750, "small straight")',
        SCORING,
        "the small straight 1-5 scores 750",
    ),
    Mutant(
        "small-straight-2-6",
        "engine/rulesets.py",
        'Combination((2, 3, 4, 5, 6), 1000, "small straight")',
        'Combination((2, 3, 4, 5, 6), 750, "small straight")',
        SCORING,
        "the small straight 2-6 scores 750",
    ),
    Mutant(
        "three-ones",
        "engine/rules.py",
        "three_of_a_kind_overrides: tuple[tuple[int, int], ...] = ((1, 1000),)",
        "three_of_a_kind_overrides: tuple[tuple[int, int], ...] = ((1, 1100),)",
        SCORING,
        "three 1s score 1100",
    ),
    Mutant(
        "single-five",
        "engine/rules.py",
        "singles: tuple[tuple[int, int], ...] = ((1, 100), (5, 50))",
        "singles: tuple[tuple[int, int], ...] = ((1, 100), (5, 100))",
        SCORING,
        "a single 5 scores 100",
    ),
    Mutant(
        "no-hot-dice",
        "engine/state.py",
        "if left == 0 and rules.hot_dice:",
        "if left == 0 and not rules.hot_dice:",
        ("tests/engine/test_game_scripted.py", "tests/engine/test_straights.py"),
        "scoring every die does not give all the dice back",
    ),
    Mutant(
        "target-strict",
        "engine/rules.py",
        "return total >= self.goal",
        "return total > self.goal",
        ("tests/engine/test_game_scripted.py", "tests/engine/test_game_requests.py"),
        "reaching exactly the target does not start the final round",
    ),
    Mutant(
        "optimal-rolls-on-flipped",
        "engine/solver_optimal.py",
        "return self.roll(s, i, j, k, n) > self.bank(s, i, j, k, n)",
        "return self.roll(s, i, j, k, n) < self.bank(s, i, j, k, n)",
        OPTIMAL,
        "the solved table's throw-or-bank decision is reversed",
    ),
    Mutant(
        "optimal-roll-for-flipped",
        "engine/strategy_optimal.py",
        "return table.rolls_on(c.seat, c.mine, c.theirs, c.turn, situation.dice_left)",
        "return not table.rolls_on(c.seat, c.mine, c.theirs, c.turn, situation.dice_left)",
        OPTIMAL,
        "the optimal player banks where its table throws and throws where it banks",
    ),
    Mutant(
        "optimal-keeps-worst",
        "engine/strategy_optimal.py",
        "return max(situation.options, key=lambda keep: self.keep_chance(",
        "return min(situation.options, key=lambda keep: self.keep_chance(",
        OPTIMAL,
        "the optimal player keeps the dice that win least often",
    ),
    Mutant(
        "table-accepts-too-many",
        "device/controller.py",
        "if len(values) != n:",
        "if len(values) < n:",
        TABLE,
        "the table takes more dice than the throw has (kept dice left in the tray)",
    ),
    Mutant(
        "table-accepts-too-few",
        "device/controller.py",
        "if len(values) != n:",
        "if len(values) > n:",
        TABLE,
        "the table takes fewer dice than the throw has",
    ),
    Mutant(
        "debounce-ignored",
        "hardware/gpio_buttons.py",
        "if state is not None and at - state.last_edge >= self.debounce:",
        "if state is not None:",
        BUTTONS,
        "contact bounce gives several presses",
    ),
    Mutant(
        "debounce-window-strict",
        "hardware/gpio_buttons.py",
        "at - state.last_edge >= self.debounce",
        "at - state.last_edge > self.debounce",
        BUTTONS,
        "an edge exactly one debounce window later is dropped",
    ),
    Mutant(
        "entry-bust-enters",
        "engine/players.py",
        "return any(record.outcome is TurnOutcome.BANKED for record in self.history)",
        "return any(record.outcome is not TurnOutcome.SKIPPED for record in self.history)",
        ENTRY_BUSTS,
        "a bust before the first bank counts as having entered",
    ),
    Mutant(
        "entry-bust-leaves",
        "engine/players.py",
        "return any(record.outcome is TurnOutcome.BANKED for record in self.history)",
        "return bool(self.history) and self.history[-1].outcome is TurnOutcome.BANKED",
        ENTRY_BUSTS,
        "a bust after the first bank takes the entry back",
    ),
    Mutant(
        "web-token-two-endpoints",
        "device/web/server.py",
        "    if not _is_paired(request):\n        return _error(401",
        '    if not _is_paired(request) and kind in ("bank", "keep"):\n        return _error(401',
        WEB_TOKENS,
        "control requests other than bank and keep are let through without a token",
    ),
    Mutant(
        "web-token-expiry-ignored",
        "device/web/auth.py",
        "        if expires <= self._clock():",
        "        if expires < 0:",
        WEB_TOKENS,
        "an expired token is still accepted",
    ),
    Mutant(
        "computer-turn-decide-buttons",
        "device/controller.py",
        "        if self.session.is_computer(player.name):\n"
        '            self._say(f"it is {player.name}\'s turn (computer): please wait")\n'
        "            return\n        phase = state.phase",
        "        if self.session.is_computer(player.name) and state.phase is not Phase.DECIDE:\n"
        '            self._say(f"it is {player.name}\'s turn (computer): please wait")\n'
        "            return\n        phase = state.phase",
        COMPUTER_TURN,
        "a person's STOP banks for a computer deciding whether to throw on",
    ),
    Mutant(
        "computer-turn-pass-buttons",
        "device/controller.py",
        "        if self.session.is_computer(player.name):\n"
        '            self._say(f"it is {player.name}\'s turn (computer): please wait")\n'
        "            return\n        phase = state.phase",
        "        if self.session.is_computer(player.name) and state.phase is not Phase.PASS:\n"
        '            self._say(f"it is {player.name}\'s turn (computer): please wait")\n'
        "            return\n        phase = state.phase",
        COMPUTER_TURN,
        "a person's ROLL or STOP answers the pass offered to a computer",
    ),
    Mutant(
        "loop-ignores-stop",
        "device/loop.py",
        "if stop is not None and stop(controller):",
        "if False:",
        ("tests/device/test_notify_loop.py",),
        "the main loop does not stop when told (runs to its step bound)",
    ),
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What running one mutant's tests gave: ``status`` is caught, survived, missing, ambiguous,
    baseline fails or error; ``failed`` the number of failing tests."""

    mutant: Mutant
    status: str
    failed: int = 0
    seconds: float = 0.0
    detail: str = ""
    files: tuple[str, ...] = ()
    """The test files with a failing test (or a collection error)."""


def source_text(mutant: Mutant, root: Path) -> str | None:
    """The mutant's file in the copy at ``root`` (None when it does not exist)."""
    path = root / mutant.file
    return path.read_text(encoding="utf-8") if path.is_file() else None


def plant(mutant: Mutant, root: Path) -> str:
    """Make the mutant's change in the copy at ``root``; returns "" or why it cannot be made."""
    text = source_text(mutant, root)
    if text is None:
        return f"{mutant.file} does not exist"
    if mutant.line:
        lines = text.splitlines(keepends=True)
        line = lines[mutant.line - 1] if mutant.line <= len(lines) else ""
        at = mutant.column
        if line[at : at + len(mutant.original)] != mutant.original:
            return f"{mutant.original!r} is not at {mutant.file}:{mutant.line}:{at}"
        lines[mutant.line - 1] = line[:at] + mutant.replacement + line[at + len(mutant.original) :]
        (root / mutant.file).write_text("".join(lines), encoding="utf-8")
        return ""
    count = text.count(mutant.original)
    if count == 0:
        return f"{mutant.original!r} is not in {mutant.file}"
    if count > 1:
        return f"{mutant.original!r} occurs {count} times in {mutant.file}"
    path = root / mutant.file
    path.write_text(text.replace(mutant.original, mutant.replacement), encoding="utf-8")
    return ""


def snapshot(destination: Path, commit: str | None) -> None:
    """Copy the source into ``destination``: the work tree, or ``commit`` through git archive."""
    destination.mkdir(parents=True, exist_ok=True)
    if commit is None:
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
        for name in COPIED:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, destination / name, ignore=ignore)
            elif source.is_file():
                shutil.copy2(source, destination / name)
        return
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit, *COPIED],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        message = archive.stderr.decode(errors="replace").strip().splitlines()
        raise ValueError(f"--commit {commit!r}: {message[-1] if message else 'git archive failed'}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(destination, filter="data")


def _environment(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def check_imports(root: Path) -> str:
    """Why Python run in the copy would not import the copy's packages ("" when it would)."""
    code = "import " + ", ".join(PACKAGES) + "; "
    code += "print('\\n'.join(m.__file__ for m in (" + ", ".join(PACKAGES) + ",)))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        env=_environment(root),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "import failed"
    inside = root.resolve()
    outside = [f for f in done.stdout.split() if not Path(f).resolve().is_relative_to(inside)]
    return f"imported from outside the copy: {outside}" if outside else ""


def run_tests(
    root: Path, tests: Sequence[str], timeout: float
) -> tuple[int, int, str, tuple[str, ...]]:
    """Run ``tests`` in the copy at ``root``: pytest's exit status, failing tests, last line and
    the test files that failed."""
    command = [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider", *tests]
    try:
        done = subprocess.run(
            command,
            cwd=root,
            env=_environment(root),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return -1, 0, f"no result in {timeout:.0f} s", ()
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    failures = [line for line in lines if re.match(r"(FAILED|ERROR) ", line)]
    last = (failures or lines or [done.stderr.strip()[-200:]])[0 if failures else -1]
    files = sorted({line.split()[1].split("::")[0].split(" ")[0] for line in failures})
    return done.returncode, len(failures), last, tuple(files)


def run_mutant(mutant: Mutant, base: Path, work: Path, timeout: float, baseline: str) -> Outcome:
    """Copy ``base`` to ``work``, plant the mutant there and run its tests."""
    shutil.copytree(base, work)
    try:
        problem = plant(mutant, work)
        if problem:
            status = "ambiguous" if "occurs" in problem else "missing"
            return Outcome(mutant, status, detail=problem)
        if baseline:
            return Outcome(mutant, "baseline fails", detail=baseline)
        began = time.perf_counter()
        code, failed, last, files = run_tests(work, mutant.tests, timeout)
        seconds = time.perf_counter() - began
        if code == 0:
            return Outcome(mutant, "survived", 0, seconds, last)
        if code in (1, 2, -1):  # tests failed, collection failed (the bug broke an import), hung
            return Outcome(mutant, "caught", max(failed, 1), seconds, last, files)
        return Outcome(mutant, "error", failed, seconds, f"pytest exit status {code}: {last}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _baselines(
    mutants: Sequence[Mutant], base: Path, timeout: float, jobs: int
) -> dict[tuple[str, ...], str]:
    """For each distinct set of tests: "" when it passes on the unchanged copy, else what failed."""
    sets = sorted({m.tests for m in mutants})

    def one(tests: tuple[str, ...]) -> str:
        code, _, last, _ = run_tests(base, tests, timeout)
        return "" if code == 0 else f"unchanged copy: {last}"

    with ThreadPoolExecutor(jobs) as pool:
        return dict(zip(sets, pool.map(one, sets), strict=True))


def _table(rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)


def list_mutants(mutants: Sequence[Mutant], root: Path) -> int:
    """Print every mutant and whether its text is present in ``root``; 1 when any is not."""
    rows = [["mutant", "file", "text", "tests", "bug"]]
    bad = 0
    for mutant in mutants:
        text = source_text(mutant, root) or ""
        count = text.count(mutant.original)
        if mutant.line:
            lines = text.splitlines()
            line = lines[mutant.line - 1] if mutant.line <= len(lines) else ""
            at = mutant.column
            count = int(line[at : at + len(mutant.original)] == mutant.original)
        state = "present" if count == 1 else "missing" if count == 0 else f"{count} times"
        bad += count != 1
        tests = " ".join(Path(t).name for t in mutant.tests)
        rows.append([mutant.name, mutant.file, state, tests, mutant.bug])
    print(_table(rows))
    print(f"{len(mutants)} mutants, {len(mutants) - bad} with their text present")
    return 1 if bad else 0


def report(outcomes: Sequence[Outcome], source: str) -> int:
    """Print the table of outcomes; 0 when every mutant was caught."""
    rows = [["mutant", "file", "result", "failing tests", "seconds"]]
    for o in outcomes:
        failing = str(o.failed) if o.status == "caught" else "-"
        seconds = f"{o.seconds:.1f}" if o.seconds else "-"
        rows.append([o.mutant.name, o.mutant.file, o.status, failing, seconds])
    print(f"planted bugs in a copy of {source}")
    print(_table(rows))
    caught = [o for o in outcomes if o.status == "caught"]
    print(f"caught {len(caught)} of {len(outcomes)}", end="")
    single = [o.mutant.name for o in caught if o.failed == 1 and "-x" not in o.mutant.tests]
    print(f"; caught by one test only: {', '.join(single)}" if single else "")
    for o in outcomes:
        if o.status != "caught":
            print(f"{o.mutant.name}: {o.status}: {o.mutant.bug}; {o.detail}")
    print()
    print(_table(by_test_file(outcomes)))
    return 0 if len(caught) == len(outcomes) else 1


def by_test_file(outcomes: Sequence[Outcome]) -> list[list[str]]:
    """Rows of the second table: each test file run, how many planted bugs it caught of those it
    ran against, and which. A file named by a mutant as a node id counts as that file."""
    ran: dict[str, int] = {}
    caught: dict[str, list[str]] = {}
    for o in outcomes:
        if o.status not in ("caught", "survived"):
            continue
        for test in dict.fromkeys(t.split("::")[0] for t in o.mutant.tests if t[:1] != "-"):
            if not test.endswith(".py"):  # a folder: credit the files in it that failed
                ran[test] = ran.get(test, 0) + 1
                for failed in o.files:
                    if failed.startswith(test.rstrip("/") + "/"):
                        caught.setdefault(failed, []).append(o.mutant.name)
                continue
            ran[test] = ran.get(test, 0) + 1
            if test in o.files:
                caught.setdefault(test, []).append(o.mutant.name)
    rows = [["test file", "caught", "bugs caught"]]
    for test in sorted(set(ran) | set(caught), key=lambda name: (-len(caught.get(name, [])), name)):
        names = caught.get(test, [])
        runs = ran.get(test) or max(ran.get(d, 0) for d in ran if test.startswith(d + "/"))
        rows.append([test, f"{len(names)} of {runs}", ", ".join(names) or "-"])
    return rows


SWEEP_OPERATORS = (
    (" >= ", " > "),
    (" > ", " >= "),
    (" <= ", " < "),
    (" < ", " <= "),
    (" == ", " != "),
    (" != ", " == "),
    (" + ", " - "),
    (" - ", " + "),
    (" and ", " or "),
    (" or ", " and "),
    ("True", "False"),
    ("False", "True"),
    ("not ", ""),
)


def sweep_mutants(root: Path, files: Sequence[str], tests: tuple[str, ...]) -> list[Mutant]:
    """Every operator change of `SWEEP_OPERATORS` in the code lines of ``files`` (paths relative
    to ``root``): not in docstrings or other triple-quoted text, comments, or type annotations'
    ``import`` lines."""
    found: list[Mutant] = []
    for name in files:
        text = (root / name).read_text(encoding="utf-8")
        quoted = False
        for number, line in enumerate(text.splitlines(), start=1):
            code = line.split("#", 1)[0]
            quotes = code.count('"""') + code.count("'''")
            if quoted or quotes:
                quoted = quoted != (quotes % 2 == 1)
                continue
            if code.lstrip().startswith(("import ", "from ", "@")) or not code.strip():
                continue
            for original, replacement in SWEEP_OPERATORS:
                start = code.find(original)
                while start >= 0:
                    word = original.strip()
                    before = code[start - 1 : start] if original[0] != " " else " "
                    after = code[start + len(original) : start + len(original) + 1]
                    whole = not (before.isalnum() or before == "_") and (
                        original[-1] == " " or not (after.isalnum() or after == "_")
                    )
                    if whole and not _in_string(code, start):
                        label = f"{word}>{replacement.strip() or 'drop'}"
                        found.append(
                            Mutant(
                                f"{Path(name).name}:{number}:{start}:{label}",
                                name,
                                original,
                                replacement,
                                tests,
                                f"line {number}: {line.strip()[:60]}",
                                line=number,
                                column=start,
                            )
                        )
                    start = code.find(original, start + 1)
    return found


def _in_string(code: str, at: int) -> bool:
    """Whether position ``at`` of a line lies inside a one-line string literal."""
    inside: str | None = None
    for i, char in enumerate(code[:at]):
        if inside is None and char in "'\"":
            inside = char
        elif char == inside and code[i - 1] != "\\":
            inside = None
    return inside is not None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list the mutants; run nothing")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these mutants only")
    parser.add_argument("--commit", metavar="REV", help="copy this git revision, not the work tree")
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument(
        "--timeout", type=float, default=600.0, help="seconds one run of tests may take"
    )
    parser.add_argument("--sweep", nargs="+", metavar="FILE", help="operator mutants of these")
    parser.add_argument("--sample", type=int, help="--sweep: this many of them, drawn by --seed")
    parser.add_argument("--seed", type=int, default=1, help="--sweep: the sample's seed")
    parser.add_argument(
        "--tests", nargs="+", default=["tests/engine"], help="--sweep: the tests to run"
    )
    args = parser.parse_args(argv)
    known = {m.name: m for m in MUTANTS}
    for name in [] if args.sweep else args.only or ():
        if name not in known:
            print(f"mutations.py: unknown mutant {name!r} (known: {', '.join(known)})")
            return 2
    if args.jobs < 1:
        print(f"mutations.py: --jobs {args.jobs!r}: must be at least 1")
        return 2
    mutants = [known[name] for name in args.only] if args.only and not args.sweep else list(MUTANTS)
    source = f"revision {args.commit}" if args.commit else f"the work tree {ROOT}"
    with tempfile.TemporaryDirectory(prefix="dicekeeper-mutants-") as temp:
        base = Path(temp) / "base"
        try:
            snapshot(base, args.commit)
        except ValueError as exc:
            print(f"mutations.py: {exc}")
            return 2
        if args.sweep:
            missing = [name for name in args.sweep if not (base / name).is_file()]
            if missing:
                print(f"mutations.py: --sweep {missing[0]!r}: no such file in the copy")
                return 2
            mutants = sweep_mutants(base, args.sweep, ("-x", *args.tests))
            if args.only:
                swept = {m.name: m for m in mutants}
                unknown = [name for name in args.only if name not in swept]
                if unknown:
                    print(f"mutations.py: --only {unknown[0]!r}: not among the swept mutants")
                    return 2
                mutants = [swept[name] for name in args.only]
            elif args.sample is not None and args.sample < len(mutants):
                mutants = sorted(
                    random.Random(args.seed).sample(mutants, args.sample),
                    key=lambda m: (m.file, m.line, m.column),
                )
        if args.list:
            return list_mutants(mutants, base)
        problem = check_imports(base)
        if problem:
            print(f"mutations.py: the copy cannot be tested: {problem}")
            return 1
        baselines = _baselines(mutants, base, args.timeout, args.jobs)

        def one(numbered: tuple[int, Mutant]) -> Outcome:
            number, mutant = numbered
            work = Path(temp) / f"mutant-{number}"
            return run_mutant(mutant, base, work, args.timeout, baselines[mutant.tests])

        with ThreadPoolExecutor(args.jobs) as pool:
            outcomes = list(pool.map(one, enumerate(mutants)))
    return report(outcomes, source)


if __name__ == "__main__":
    sys.exit(main())
