"""Fault injection: storage faults, kills and bad inputs, each tried and how it ended, as a table.

    .venv/bin/python benchmarks/faults.py [--kills N] [--table-kills N] [--quick] [--only KIND]
    .venv/bin/python benchmarks/faults.py --soak [MINUTES] [--interval SECONDS]

The first form tries every fault and prints ``fault | expected | got | ok``; the exit status is 1
if any fault ended otherwise than expected. Storage faults damage a real store and run the
`dicekeeper` commands on it; disk faults (sync errors, a full disk, SIGKILL at a sync or in the
middle of a write) come from the preloaded library of benchmarks/fault_kit.py; random kills hit both
the store's child process and the real `dicekeeper run`. State faults put bad files in the state
directory (a calibration picture claiming 40000x40000, an event numbered 2^63-1, a FIFO among the
rules) and check that `dicekeeper run` starts anyway; bad inputs give every command endless,
deep, huge or absurd input. Web faults (benchmarks/web_attacks.py) attack a real `dicekeeper run`
on loopback addresses only (DNS rebinding, pairing guessed by six addresses, a GET flood,
slowloris, event streams that never read, a second instance on the same state directory) and
print the table's step times idle and under each attack. ``--quick`` leaves out the 5-second lock
wait and uses fewer kills.

``--soak`` runs the table (`dicekeeper run`: simulated camera, the real dice reader, two computer
players, greed to 2000, a new game started whenever one ends) for MINUTES (default 30) and prints
its resident memory and open file descriptors at intervals, then the first, last and largest.
"""

from __future__ import annotations

import argparse
import os
import pwd
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from benchmarks.bad_images import bad_images, claimed_png, damaged_header_png
from benchmarks.children import status_mb
from benchmarks.fault_kit import (
    build_shim,
    check_store,
    last_recorded,
    run_child,
    start_child,
)
from benchmarks.web_attacks import StepTimes, web_attacks
from device.session import Seat, Session, rules_for
from device.store import DATABASE_NAME, GameStore
from vision import InvalidFrame, read

ROOT = Path(__file__).resolve().parents[1]

ARM_AT = 6
SOAK_TARGET = 2000
"""The soak's games are short, so that games end and new ones start throughout the run."""


@dataclass(frozen=True)
class Outcome:
    """One fault tried: what was expected and what happened."""

    fault: str
    expected: str
    got: str
    ok: bool


def _env() -> dict[str, str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("NOTIFY_SOCKET", None)
    return env


def _cli(*args: str, stdin: str = "", timeout: float = 120, user: str = "") -> tuple[int, str, str]:
    command = [sys.executable, "-m", "device", *args]
    if user:
        account = pwd.getpwnam(user)
        ids = [f"--reuid={account.pw_uid}", f"--regid={account.pw_gid}", "--clear-groups"]
        command = ["setpriv", *ids, *command]
    try:
        done = subprocess.run(
            command,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
            env=_env(),
            cwd=ROOT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return -1, "", f"no answer after {timeout:.0f} s"
    return done.returncode, done.stdout, done.stderr


def _one_line(status: int, stderr: str, words: str) -> tuple[str, bool]:
    lines = [line for line in stderr.splitlines() if line.strip()]
    ok = status == 2 and len(lines) == 1 and words in lines[0] and "Traceback" not in stderr
    shown = lines[-1] if lines else "(nothing on stderr)"
    return f"exit {status}: {shown}", ok


def _config(
    directory: Path, extra: str = "", *, players: str = '"Ann", "Bob"', target: int = 0
) -> Path:
    path = directory / "config.toml"
    path.write_text(
        f'[game]\nrules = "greed"\nplayers = [{players}]\ntarget = {target}\n'
        '[buttons]\nbackend = "keyboard"\n[[display]]\nkind = "terminal"\n'
        f'[state]\ndirectory = "{directory / "state"}"\n{extra}'
    )
    return path


def _seed_store(state: Path, *, finished: int, unfinished: bool) -> None:
    with GameStore(state / DATABASE_NAME) as store:
        for number in range(finished):
            game = store.start_game({"rules": "greed", "n": number}, ['{"e": 0}'])
            store.finish(game, {"rules": "greed", "winners": ["Ann"], "scores": {"Ann": 10_000}})
        if unfinished:
            Session.new(store, rules_for("greed"), (Seat("Ann"), Seat("Bob")))


def _damage(state: Path, sql: str) -> None:
    db = sqlite3.connect(state / DATABASE_NAME, isolation_level=None)
    try:
        db.execute(sql)
    finally:
        db.close()


def _aside(state: Path) -> int:
    return sum(".corrupt-" in p.name for p in state.iterdir())


DAMAGED_FINISHED = {
    "finished game's result is not JSON": "UPDATE games SET result = '{x' WHERE id = 1",
    "bad UTF-8 byte in a result": "UPDATE games SET result = CAST(X'7BFF7D' AS TEXT) WHERE id = 1",
    "finished game's start is not JSON": "UPDATE games SET start = 'x' WHERE id = 1",
}
DAMAGED_UNFINISHED = {
    "start record of the game in progress is not JSON": (
        "UPDATE games SET start = 'rules: greed' WHERE finished IS NULL"
    ),
    "bad UTF-8 byte in an event": (
        "UPDATE events SET event = CAST(X'7B22FF227D' AS TEXT) WHERE game = 2 AND seq = 1"
    ),
}


def storage_faults(work: Path, *, quick: bool) -> list[Outcome]:
    """Damaged records, a foreign schema, garbage, a read-only and a locked store."""
    outcomes: list[Outcome] = []
    for name, sql in DAMAGED_FINISHED.items():
        directory = Path(tempfile.mkdtemp(dir=work))
        config = _config(directory)
        _seed_store(directory / "state", finished=2, unfinished=False)
        _damage(directory / "state", sql)
        status, out, err = _cli("history", "--config", str(config))
        got, ok = _one_line(status, err, "damaged")
        ok = ok and len(out.splitlines()) == 1
        outcomes.append(Outcome(f"history: {name}", "1 line, exit 2, others listed", got, ok))
    for name, sql in DAMAGED_UNFINISHED.items():
        directory = Path(tempfile.mkdtemp(dir=work))
        config = _config(directory)
        _seed_store(directory / "state", finished=1, unfinished=True)
        _damage(directory / "state", sql)
        status, _, err = _cli("run", "--config", str(config), stdin="q")
        ok = status == 0 and "could not be resumed" in err and "Traceback" not in err
        _, listed, _ = _cli("history", "--config", str(config))
        kept = "greed: Ann won" in listed and _aside(directory / "state") == 0
        outcomes.append(
            Outcome(
                f"run: {name}",
                "that game set aside, finished kept",
                f"exit {status}; finished game {'still listed' if kept else 'GONE'}",
                ok and kept,
            )
        )
    directory = Path(tempfile.mkdtemp(dir=work))
    state = directory / "state"
    state.mkdir()
    _damage(state, "CREATE TABLE games (id INTEGER PRIMARY KEY, who TEXT)")
    status, _, err = _cli("run", "--config", str(_config(directory)), stdin="q")
    ok = status == 0 and "columns" in err and _aside(state) == 1
    outcomes.append(
        Outcome(
            "run: games table with other columns", "moved aside, new store", f"exit {status}", ok
        )
    )
    (state / DATABASE_NAME).write_bytes(b"not a database " * 300)
    status, _, err = _cli("history", "--config", str(_config(directory)))
    ok = status == 0 and "could not be read" in err and _aside(state) == 2
    outcomes.append(
        Outcome("history: garbage file", "moved aside, new store", f"exit {status}", ok)
    )
    outcomes.append(_read_only(work))
    if not quick:
        outcomes.append(_locked(work))
    return outcomes


def state_faults(work: Path) -> list[Outcome]:
    """Bad files in the state directory: `dicekeeper run` starts anyway, saying what it left
    out."""
    outcomes: list[Outcome] = []
    cases: list[tuple[str, Callable[[Path], None], str]] = [
        ("calibration picture claiming 40000x40000", _bomb_calibration, "too large"),
        ("event numbered 2^63-1 in the game in progress", _huge_seq, "could not be resumed"),
        ("a FIFO named x.toml in state/rules", _fifo_rules, "not a regular file"),
        ("adapted.npz holding a 2 GiB array", _huge_adapted, "adapted.npz' is damaged"),
    ]
    for name, damage, words in cases:
        directory = Path(tempfile.mkdtemp(dir=work))
        config = _config(directory)
        _seed_store(directory / "state", finished=1, unfinished=True)
        damage(directory / "state")
        status, _, err = _cli("run", "--config", str(config), stdin="q", timeout=90)
        ok = status == 0 and words in err and "Traceback" not in err
        shown = next((line for line in err.splitlines() if words in line), err[-100:])
        outcomes.append(
            Outcome(f"run: {name}", "warning, table starts", f"exit {status}: {shown}", ok)
        )
    return outcomes


def _bomb_calibration(state: Path) -> None:
    from device.calibration import EMPTY_TRAY_NAME, save_calibration
    from vision.calibration import Calibration

    empty = np.full((480, 640, 3), 90, np.uint8)
    save_calibration(state, Calibration(((1, 1), (600, 1), (600, 400)), 40.0, ()), empty)
    claimed_png(state / EMPTY_TRAY_NAME, 40_000, 40_000)


def _huge_seq(state: Path) -> None:
    _damage(state, f"UPDATE events SET seq = {2**63 - 1} WHERE game = 2 AND seq = 1")


def _fifo_rules(state: Path) -> None:
    (state / "rules").mkdir(exist_ok=True)
    os.mkfifo(state / "rules" / "x.toml")


def _huge_adapted(state: Path) -> None:
    import zipfile

    from device.adaptation import adapted_path

    with zipfile.ZipFile(adapted_path(state), "w", zipfile.ZIP_DEFLATED) as archive:
        header = np.lib.format.header_data_from_array_1_0(np.zeros(1, np.float32))
        header["shape"] = (2**29,)
        with archive.open("weights.npy", "w", force_zip64=True) as member:
            np.lib.format.write_array_header_1_0(member, header)
            zeros = bytes(1 << 22)
            for _ in range(2**31 // len(zeros)):
                member.write(zeros)


def _read_only(work: Path) -> Outcome:
    expected = "1 line, exit 2, not moved"
    if os.geteuid() != 0:
        return Outcome("store not writable by the user", expected, "skipped: needs root", True)
    directory = Path(tempfile.mkdtemp(dir=work))
    directory.chmod(0o755)
    state = directory / "state"
    _seed_store(state, finished=1, unfinished=True)
    os.chmod(state, 0o755)
    config = _config(directory)
    config.chmod(0o644)
    status, _, err = _cli("history", "--config", str(config), user="nobody")
    got, ok = _one_line(status, err, "cannot be opened for writing")
    return Outcome("store not writable by the user", expected, got, ok and _aside(state) == 0)


def _locked(work: Path) -> Outcome:
    directory = Path(tempfile.mkdtemp(dir=work))
    state = directory / "state"
    _seed_store(state, finished=1, unfinished=True)
    other = sqlite3.connect(state / DATABASE_NAME, isolation_level=None)
    other.execute("PRAGMA locking_mode=EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    other.execute("UPDATE games SET abandoned = abandoned + 0")
    try:
        status, _, err = _cli("run", "--config", str(_config(directory)), stdin="q")
    finally:
        other.execute("ROLLBACK")
        other.close()
    got, ok = _one_line(status, err, "locked by another process")
    return Outcome("store locked > 5 s at start-up", "1 line, exit 2, not moved", got, ok)


def disk_faults(work: Path, *, kills: int) -> list[Outcome]:
    """Sync errors, a full disk, SIGKILL at a sync and mid-write, random SIGKILLs."""
    outcomes: list[Outcome] = []
    shim = build_shim(Path(tempfile.mkdtemp(dir=work)))
    if shim is None:
        outcomes.append(Outcome("disk faults", "-", "skipped: no C compiler", True))
    else:
        cases: list[tuple[str, str, str]] = [
            ("sync=fail-once", "sync error, then crash", "'not recorded' and absent"),
            ("sync=fail", "sync fails for good, then crash", "'may have been', store whole"),
            ("pwrite=enospc", "disk full, then crash", "'full' and absent"),
            ("sync=kill", "SIGKILL at a sync", "recorded kept, in-flight all/none"),
        ]
        cases += [
            (f"pwrite=kill-half:{n}", f"SIGKILL in write {n} of a commit", "recorded kept")
            for n in range(1, 5)
        ]
        for fault, name, expected in cases:
            directory = Path(tempfile.mkdtemp(dir=work))
            _, lines = run_child(directory, actions=12, arm_at=ARM_AT, faults=[fault], shim=shim)
            outcomes.append(_judge(directory, name, expected, lines))
    outcomes.append(_random_kills(work, kills))
    return outcomes


def _judge(directory: Path, name: str, expected: str, lines: Sequence[str]) -> Outcome:
    checked = check_store(directory, seed=1)
    refused = [line for line in lines if line.startswith("not recorded ")]
    recorded = last_recorded(lines)
    if refused:
        count = int(refused[0].split()[2].rstrip(":"))
        sure = "may have been" not in refused[0]
        ok = checked.ok and (checked.events == count if sure else checked.events - count in (0, 1))
        word = "not recorded" if sure else "may have been recorded"
        got = f"said {word} at {count}; after restart {checked.events} events"
    else:
        ok = checked.ok and checked.events - recorded in (0, 1)
        got = f"last recorded {recorded}; after restart {checked.events} events"
    return Outcome(name, expected, got + (f" ({checked.problem})" if checked.problem else ""), ok)


def _random_kills(work: Path, kills: int) -> Outcome:
    directory = Path(tempfile.mkdtemp(dir=work))
    rng = random.Random(48)
    bad = 0
    for _ in range(kills):
        child = start_child(directory, actions=1000)
        assert child.stdout is not None
        lines: list[str] = []
        wanted = rng.randint(1, 30)
        while len(lines) < wanted and (line := child.stdout.readline()):
            lines.append(line.strip())
        time.sleep(rng.random() * 0.01)  # anywhere within the next action or two
        child.send_signal(signal.SIGKILL)
        lines += [line.strip() for line in child.stdout]
        child.wait()
        child.stdout.close()
        checked = check_store(directory, seed=1)
        bad += not (checked.ok and checked.events - last_recorded(lines) in (0, 1))
    got = f"{kills - bad} of {kills} intact, {check_store(directory, seed=1).events} events"
    return Outcome(f"{kills} random SIGKILLs (store)", "nothing lost or duplicated", got, bad == 0)


def table_kills(work: Path, kills: int) -> Outcome:
    """SIGKILL the real `dicekeeper run` (computer players) at random moments; it must resume."""
    directory = Path(tempfile.mkdtemp(dir=work))
    config = _soak_config(directory, virtual=True, target=1_000_000)
    database = directory / "state" / DATABASE_NAME
    rng = random.Random(7)
    bad, before = 0, 0
    for _ in range(kills):
        process = _start_table(config)
        deadline = time.monotonic() + 60
        want = before + rng.randint(1, 4)
        while _count_events(database) < want and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(rng.random() * 0.5)
        process.send_signal(signal.SIGKILL)
        process.wait()
        after = _count_events(database)
        with GameStore(database) as store:
            fine = not store.notice and (after == 0 or Session.resume(store) is not None)
        bad += not (fine and after >= before)
        before = after
    got = f"{kills - bad} of {kills} resumed intact, {before} events"
    return Outcome(
        f"{kills} random SIGKILLs (dicekeeper run)", "resumes, nothing lost", got, bad == 0
    )


def _count_events(database: Path) -> int:
    if not database.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
            return int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    except sqlite3.Error:
        return 0


def bad_inputs(work: Path) -> list[Outcome]:
    """Lying images, huge frames, huge rules, bad names and pins."""
    outcomes: list[Outcome] = []
    for name, path in bad_images(work / "images").items():
        status, _, err = _cli("read", str(path))
        got, ok = _one_line(status, err, str(path))
        outcomes.append(Outcome(f"read: {name}", "1 line, exit 2", got, ok))
    for name, frame in (
        ("20000x20000 frame", np.broadcast_to(np.zeros((1, 1, 3), np.uint8), (20000, 20000, 3))),
        ("1x1 frame", np.zeros((1, 1, 3), np.uint8)),
        ("float32 frame", np.zeros((48, 64, 3), np.float32)),
    ):
        try:
            read(frame)
            got, ok = "read", False
        except InvalidFrame as exc:
            got, ok = f"InvalidFrame: {str(exc)[:80]}", True
        outcomes.append(Outcome(f"vision: {name}", "InvalidFrame", got, ok))
    outcomes.append(_replay(work))
    for name, body in (
        ("faces = 1e9", "faces = 1e9"),
        ("faces = 1000000000", "faces = 1000000000"),
        ("dice = 100000", "dice = 100000"),
        ("target = 10^12", "target = 1000000000000"),
    ):
        rules = work / "rules.toml"
        rules.write_text(f'name = "big"\nbase = "greed"\n{body}\n')
        status, _, err = _cli("play", "--rules", str(rules), "--players", "A,B", timeout=30)
        got, ok = _one_line(status, err, body.split(" =")[0])
        outcomes.append(Outcome(f"rules: {name}", "1 line, exit 2, at once", got, ok))
    for name, players in (
        ("name with escape codes", "Ann\x1b[2J\x1b[31m,Bob"),
        ("name of 100,000 characters", "x" * 100_000 + ",Bob"),
    ):
        status, out, err = _cli("play", "--rules", "greed", "--players", players)
        got, ok = _one_line(status, err, "--players: the name")
        ok = ok and "\x1b" not in out + err
        outcomes.append(Outcome(f"play: {name}", "1 line, exit 2", got, ok))
        directory = Path(tempfile.mkdtemp(dir=work))
        seats = ", ".join(f'"{p}"' for p in players.replace("\x1b", "\\u001b").split(","))
        config = _config(directory, players=seats)
        status, _, err = _cli("run", "--config", str(config), stdin="q")
        got, ok = _one_line(status, err, "game.players: the name")
        outcomes.append(Outcome(f"config: {name}", "1 line, exit 2", got, ok))
    outcomes += _endless_and_absurd(work)
    for pin, display in ((2, "oled"), (3, "oled")):
        directory = Path(tempfile.mkdtemp(dir=work))
        config = _config(directory).read_text().replace('kind = "terminal"', f'kind = "{display}"')
        config = config.replace(
            'backend = "keyboard"', f'backend = "gpio"\npins = {{ roll = {pin} }}'
        )
        (directory / "config.toml").write_text(config)
        status, _, err = _cli("run", "--config", str(directory / "config.toml"), stdin="q")
        got, ok = _one_line(status, err, f"GPIO {pin} is the OLED's I2C")
        outcomes.append(Outcome(f"config: button on GPIO {pin}, OLED", "1 line, exit 2", got, ok))
    return outcomes


def _endless_and_absurd(work: Path) -> list[Outcome]:
    """Endless files, deep TOML, absurd numbers and huge lines: one line, exit 2, at once."""
    outcomes: list[Outcome] = []
    deep = work / "deep.toml"
    deep.write_text("[game]\nplayers = " + "[" * 3000 + '"Ann"' + "]" * 3000 + "\n")
    deep_rules = work / "deep-rules.toml"
    deep_rules.write_text('name = "x"\nx = ' + "[" * 3000 + "]" * 3000 + "\n")
    escape = work / "escape.toml"
    escape.write_text('name = "ab\\u001b[2Jc"\nbase = "greed"\n')
    long_name = work / "long.toml"
    long_name.write_text(f'name = "{"x" * 200_000}"\nbase = "greed"\n')
    bank = work / "bank.toml"
    bank.write_text('name = "bm"\nbase = "greed"\nbank_minimum = 9000\ntarget = 5000\n')
    directory = Path(tempfile.mkdtemp(dir=work))
    config = _config(directory)
    cases: list[tuple[str, list[str], str, str]] = [
        ("run --config /dev/zero", ["run", "--config", "/dev/zero"], "", "not a regular file"),
        ("rules /dev/zero", ["rules", "/dev/zero"], "", "not a regular file"),
        ("config nested 3,000 deep", ["run", "--config", str(deep)], "", "nested too deep"),
        ("rules nested 3,000 deep", ["rules", str(deep_rules)], "", "nested too deep"),
        ("rule name with escape codes", ["rules", str(escape)], "", "printable"),
        ("rule name of 200,000 characters", ["rules", str(long_name)], "", "printable"),
        ("bank_minimum above the target", ["rules", str(bank)], "", "bank_minimum"),
        (
            "strategy --solve --target 1000000",
            ["strategy", "--solve", "--rules", "greed", "--target", "1000000"],
            "",
            "not solved",
        ),
        (
            "play given a 5 MB line",
            ["play", "--rules", "greed", "--players", "A,B"],
            "1" * 5_000_000 + "\n",
            "longer than",
        ),
    ]
    for name, argv, stdin, words in cases:
        status, _, err = _cli(*argv, stdin=stdin, timeout=60)
        got, ok = _one_line(status, err, words)
        outcomes.append(Outcome(name, "1 line, exit 2", got, ok and "\x1b" not in err))
    for name, argv in (
        ("run --rate 0", ["run", "--config", str(config), "--rate", "0"]),
        ("run --rate nan", ["run", "--config", str(config), "--rate", "nan"]),
        ("history --limit 1e20", ["history", "--config", str(config), "--limit", "1e20"]),
        ("strategy --target 1e30", ["strategy", "--solve", "--target", "1" + "0" * 30]),
    ):  # argparse: its usage, then the error in one line
        status, _, err = _cli(*argv, timeout=60)
        last = err.strip().splitlines()[-1] if err.strip() else "(nothing)"
        ok = status == 2 and "Traceback" not in err and f"argument {argv[-2]}" in last
        outcomes.append(Outcome(name, "usage error, exit 2", f"exit {status}: {last}", ok))
    return outcomes


def _replay(work: Path) -> Outcome:
    frames = work / "replay"
    frames.mkdir(exist_ok=True)
    tray = np.full((240, 320, 3), 60, np.uint8)
    cv2.imwrite(str(frames / "a.png"), tray)
    damaged_header_png(frames / "b.png")
    claimed_png(frames / "c.png", 40_000, 40_000)
    cv2.imwrite(str(frames / "d.png"), tray)
    directory = Path(tempfile.mkdtemp(dir=work))
    config = _config(directory, f'[camera]\nbackend = "replay"\npath = "{frames}"\n')
    process = _start_table(config, output=subprocess.PIPE)
    time.sleep(3)
    out, _ = process.communicate("q", timeout=60)
    ok = process.returncode == 0 and "too large" in out and "Traceback" not in out
    return Outcome(
        "run: replay frames with bad headers",
        "message, table goes on",
        f"exit {process.returncode}",
        ok,
    )


def web_faults(work: Path, *, seconds: float) -> tuple[list[Outcome], list[StepTimes]]:
    """The web attacks on a real `dicekeeper run` (loopback only), and its step times."""
    directory = Path(tempfile.mkdtemp(dir=work))
    attacks, phases = web_attacks(directory, _env(), seconds=seconds)
    outcomes = [Outcome(a.fault, a.expected, a.got, a.ok) for a in attacks]
    idle = next((p.p99 for p in phases if p.phase == "idle"), float("nan"))
    worst = max((p for p in phases if p.phase != "idle"), key=lambda p: p.p99, default=None)
    if worst is not None:
        ratio = worst.p99 / idle if idle > 0 else float("inf")
        outcomes.append(
            Outcome(
                "table step p99 under the web attacks",
                "at most twice idle",
                f"{worst.p99:.0f} ms ({worst.phase}) vs {idle:.0f} ms idle: x{ratio:.2f}",
                ratio <= 2.0,
            )
        )
    return outcomes, phases


def print_steps(phases: Sequence[StepTimes]) -> None:
    """The table's step times in each phase of the web attacks."""
    if not phases:
        return
    print("\nthe table's step times (dicekeeper run, 20 steps a second) during the web attacks:")
    print(f"{'phase':<16} {'steps':>5} {'median ms':>9} {'p99 ms':>7}")
    for phase in phases:
        print(f"{phase.phase:<16} {phase.count:>5} {phase.median:>9.1f} {phase.p99:>7.1f}")


def print_table(outcomes: Sequence[Outcome], scratch: str = "") -> None:
    """The outcomes as an aligned table (``scratch`` shown as $TMP), then the count."""
    widths = [max(len(getattr(o, k)) for o in outcomes) for k in ("fault", "expected")]
    widths = [max(w, len(h)) for w, h in zip(widths, ("fault", "expected"), strict=True)]
    print(f"{'fault':<{widths[0]}} | {'expected':<{widths[1]}} | ok | got")
    print(f"{'-' * widths[0]}-+-{'-' * widths[1]}-+----+----")
    for o in outcomes:
        mark = "ok" if o.ok else "NO"
        got = o.got.replace(scratch, "$TMP") if scratch else o.got
        print(f"{o.fault:<{widths[0]}} | {o.expected:<{widths[1]}} | {mark} | {got[:120]}")
    failed = sum(not o.ok for o in outcomes)
    print(
        f"\n{len(outcomes)} faults tried, {len(outcomes) - failed} ended as expected, {failed} not"
    )


# --- soak --------------------------------------------------------------------------------------


def _soak_config(directory: Path, *, virtual: bool, target: int = 0) -> Path:
    throws = "virtual" if virtual else "person"
    return _config(
        directory,
        f'[camera]\nbackend = "simulated"\nseed = 5\n[players]\ncomputer_throws = "{throws}"\n',
        players='"cpu:expert", "cpu:bold"',
        target=target,
    )


def _start_table(config: Path, output: int = subprocess.DEVNULL) -> subprocess.Popen[str]:
    """``dicekeeper run`` on ``config``, its input a pipe, its output and errors together to
    ``output`` (a pipe to read them, or nowhere)."""
    return subprocess.Popen(
        [sys.executable, "-m", "device", "run", "--config", str(config), "--rate", "20"],
        stdin=subprocess.PIPE,
        stdout=output,
        stderr=subprocess.STDOUT if output == subprocess.PIPE else subprocess.DEVNULL,
        text=True,
        env=_env(),
        cwd=ROOT,
    )


def _open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def soak(minutes: float, interval: float, clock: Callable[[], float] = time.monotonic) -> int:
    """Run the table for ``minutes`` and print its memory and descriptors every ``interval``."""
    work = Path(tempfile.mkdtemp(prefix="dicekeeper-soak-"))
    config = _soak_config(work, virtual=False, target=SOAK_TARGET)
    database = work / "state" / DATABASE_NAME
    process = _start_table(config)
    assert process.stdin is not None
    start = clock()
    samples: list[tuple[float, float, int, int, int]] = []
    print(
        "dicekeeper run: simulated camera, the dice reader, cpu:expert against cpu:bold, "
        f"greed to {SOAK_TARGET}"
    )
    print(f"{'time':>7}  {'resident MB':>11}  {'open fds':>8}  {'events':>7}  {'games':>5}")
    try:
        next_sample = start + min(interval, 5.0)  # the first once the table is up
        while clock() - start < minutes * 60:
            if process.poll() is not None:
                print(f"the table exited with status {process.returncode}")
                return 1
            process.stdin.write("r")  # ROLL: starts a new game when one is over
            process.stdin.flush()
            if clock() >= next_sample:
                elapsed = clock() - start
                games = _finished(database)
                resident = status_mb(process.pid, "VmRSS")
                sample = (
                    elapsed,
                    float("nan") if resident is None else resident,
                    _open_fds(process.pid),
                )
                samples.append((*sample, _count_events(database), games))
                print(
                    f"{elapsed:6.0f}s  {sample[1]:11.1f}  {sample[2]:8d}  "
                    f"{samples[-1][3]:7d}  {games:5d}",
                    flush=True,
                )
                next_sample += interval
            time.sleep(1.0)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
    rss = [s[1] for s in samples]
    fds = [s[2] for s in samples]
    settled = rss[len(rss) // 3 :] or rss
    print(
        f"resident memory: first {rss[0]:.1f} MB, last {rss[-1]:.1f} MB, largest {max(rss):.1f} MB;"
        f" from a third of the run on {min(settled):.1f}-{max(settled):.1f} MB"
    )
    print(f"open file descriptors: first {fds[0]}, last {fds[-1]}, {min(fds)}-{max(fds)}")
    print(
        f"events stored {samples[-1][3]}, games finished {samples[-1][4]}; "
        f"exit {process.returncode}"
    )
    return 0


def _finished(database: Path) -> int:
    if not database.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
            return int(
                db.execute("SELECT COUNT(*) FROM games WHERE finished IS NOT NULL").fetchone()[0]
            )
    except sqlite3.Error:
        return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Try every fault and print the table, or soak the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=150, help="random SIGKILLs of the store child")
    parser.add_argument(
        "--table-kills", type=int, default=10, help="random SIGKILLs of dicekeeper run"
    )
    parser.add_argument("--quick", action="store_true", help="no lock wait, 10 and 3 kills")
    parser.add_argument(
        "--only",
        choices=("storage", "disk", "table", "state", "inputs", "web"),
        action="append",
        help="try only these kinds of fault (repeatable; default all)",
    )
    parser.add_argument(
        "--attack-seconds", type=float, default=10.0, help="web: seconds of each attack"
    )
    parser.add_argument("--soak", type=float, nargs="?", const=30.0, metavar="MINUTES")
    parser.add_argument(
        "--interval", type=float, default=60.0, help="soak: seconds between samples"
    )
    args = parser.parse_args(argv)
    if args.soak is not None:
        return soak(args.soak, args.interval)
    kills, table = (10, 3) if args.quick else (args.kills, args.table_kills)
    with tempfile.TemporaryDirectory(prefix="dicekeeper-faults-") as scratch:
        work = Path(scratch)
        work.chmod(0o755)
        only = set(args.only or ("storage", "disk", "table", "state", "inputs", "web"))
        outcomes: list[Outcome] = []
        phases: list[StepTimes] = []
        if "storage" in only:
            outcomes += storage_faults(work, quick=args.quick)
        if "disk" in only:
            outcomes += disk_faults(work, kills=kills)
        if "table" in only:
            outcomes.append(table_kills(work, table))
        if "state" in only:
            outcomes += state_faults(work)
        if "inputs" in only:
            outcomes += bad_inputs(work)
        if "web" in only:
            found, phases = web_faults(work, seconds=min(60.0, max(2.0, args.attack_seconds)))
            outcomes += found
    print_table(outcomes, scratch)
    print_steps(phases)
    return 0 if all(o.ok for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
