"""Fault injection for the game store, shared by the tests and benchmarks/faults.py.

A child process (``python -m benchmarks.fault_kit STATE_DIR ...``) plays a deterministic game of
greed through `device.session.Session`, printing ``recorded N`` (N events now stored) after each
action and ``not recorded N: MESSAGE`` when the store refuses one. A small C library, preloaded
into the child, makes the disk misbehave when the child arms it (through its own environment, just
before a chosen action): ``sync=kill`` dies at the next fsync/fdatasync, ``sync=fail-once`` and
``sync=fail`` make syncs fail with EIO, ``pwrite=kill-half:N`` writes half of the Nth write and
dies, ``pwrite=enospc`` fails every write as a full disk does. The parent kills the child at
random moments too, then checks the store with `check_store`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from device.session import Seat, Session, rules_for
from device.store import DATABASE_NAME, GameStore, StoreError
from engine.events import Banked, Event, PlayerAdded, Thrown
from engine.state import GameState, Phase, apply

SEATS = (Seat("Ann"), Seat("Bob"))
TARGET = 1_000_000  # never reached: the game goes on for as many actions as asked

SHIM_SOURCE = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/types.h>

static int failed_once = 0;
static long pwrites = 0;

static int sync_fault(void) {
    const char *mode = getenv("FAULT_SYNC");
    if (mode == NULL || mode[0] == 0) return 0;
    if (strcmp(mode, "kill") == 0) raise(SIGKILL);
    if (strcmp(mode, "fail") == 0) { errno = EIO; return -1; }
    if (strcmp(mode, "fail-once") == 0 && !failed_once) { failed_once = 1; errno = EIO; return -1; }
    return 0;
}

int fsync(int fd) {
    static int (*real)(int) = NULL;
    if (sync_fault()) return -1;
    if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int) = NULL;
    if (sync_fault()) return -1;
    if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    return real(fd);
}

typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);

static ssize_t torn(int fd, const void *buf, size_t n, off_t at, pwrite_fn real) {
    const char *mode = getenv("FAULT_PWRITE");
    if (mode != NULL && strcmp(mode, "enospc") == 0) { errno = ENOSPC; return -1; }
    if (mode != NULL && strncmp(mode, "kill-half:", 10) == 0 && ++pwrites == atol(mode + 10)) {
        real(fd, buf, n / 2, at);
        raise(SIGKILL);
    }
    return real(fd, buf, n, at);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t at) {
    static pwrite_fn real = NULL;
    if (real == NULL) real = (pwrite_fn)dlsym(RTLD_NEXT, "pwrite");
    return torn(fd, buf, n, at, real);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t at) {
    static pwrite_fn real = NULL;
    if (real == NULL) real = (pwrite_fn)dlsym(RTLD_NEXT, "pwrite64");
    return torn(fd, buf, n, at, real);
}
"""


def build_shim(directory: Path) -> Path | None:
    """Compile the fault library into ``directory``; None when no C compiler is found."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    source = directory / "faultshim.c"
    library = directory / "faultshim.so"
    source.write_text(SHIM_SOURCE)
    done = subprocess.run(
        [compiler, "-shared", "-fPIC", "-O1", "-o", str(library), str(source), "-ldl"],
        capture_output=True,
        text=True,
        check=False,
    )
    return library if done.returncode == 0 else None


def next_event(state: GameState, number: int, seed: int) -> Event:
    """The policy's next action: throw (dice from a seeded generator), bank from 300 points."""
    player = state.current_player
    if player is None or state.phase not in (Phase.THROW, Phase.DECIDE):
        raise AssertionError(f"the fault game cannot go on from {state.phase}")
    if state.phase is Phase.DECIDE and state.can_bank and state.turn.total >= 300:
        return Banked(player.name, state.turn.total)
    rng = random.Random(seed * 1_000_003 + number)
    return Thrown(player.name, tuple(rng.randint(1, 6) for _ in range(state.dice_to_throw)))


def intended(count: int, seed: int) -> list[Event]:
    """The first ``count`` events the child plays (players included), from a fresh game."""
    state = GameState.new(rules_for("greed", TARGET))
    events: list[Event] = []
    for seat in SEATS:
        events.append(PlayerAdded(seat.name))
        state = apply(state, events[-1])
    while len(events) < count:
        events.append(next_event(state, len(events), seed))
        state = apply(state, events[-1])
    return events[:count]


def child(directory: Path, actions: int, arm_at: int, faults: Sequence[str], seed: int) -> int:
    """Play ``actions`` actions (resuming the stored game); arm ``faults`` before action
    ``arm_at``; after a refused action, crash at once (SIGKILL) as a power cut or OOM would."""
    store = GameStore(directory / DATABASE_NAME)
    if store.notice:
        print(f"notice {store.notice}", flush=True)
    session = Session.resume(store) or Session.new(store, rules_for("greed", TARGET), SEATS)
    for action in range(actions):
        stored = _count(session)
        if action == arm_at:
            for fault in faults:
                key, _, value = fault.partition("=")
                os.environ[f"FAULT_{key.upper()}"] = value
        event = next_event(session.state, stored, seed)
        try:
            session.apply(event)
        except StoreError as exc:
            print(f"not recorded {stored}: {exc}", flush=True)
            os.kill(os.getpid(), 9)
        print(f"recorded {stored + 1}", flush=True)
    store.close()
    return 0


def _count(session: Session) -> int:
    stored = session.store.game(session.game_id)
    return len(stored.events)


@dataclass(frozen=True)
class Checked:
    """What `check_store` found."""

    events: int
    problem: str = ""

    @property
    def ok(self) -> bool:
        """Whether the store passed every check."""
        return not self.problem


def check_store(directory: Path, seed: int) -> Checked:
    """Open the store as the appliance would and check it: not moved aside, integrity ok, the
    game replays, and its events are exactly the start of the intended sequence."""
    path = directory / DATABASE_NAME
    with GameStore(path) as store:
        if store.notice:
            return Checked(0, f"moved aside: {store.notice}")
        check = store.db.execute("PRAGMA integrity_check").fetchone()[0]
        if check != "ok":
            return Checked(0, f"integrity check: {check}")
        session = Session.resume(store)
        if session is None:
            return Checked(0, f"no game to resume ({store.notice or 'none stored'})")
        stored = store.game(session.game_id).events
    want = intended(len(stored), seed)
    got = [json.loads(text) for text in stored]
    for number, (a, b) in enumerate(zip(got, want, strict=True)):
        if a != b.to_json():
            return Checked(len(got), f"event {number} is {a}, expected {b.to_json()}")
    return Checked(len(got))


def run_child(
    directory: Path,
    *,
    actions: int,
    arm_at: int = -1,
    faults: Sequence[str] = (),
    shim: Path | None = None,
    seed: int = 1,
    timeout: float = 120,
) -> tuple[int, list[str]]:
    """Run the child to its end (or death); its exit status and output lines."""
    env = dict(os.environ)
    if shim is not None:
        env["LD_PRELOAD"] = str(shim)
    for key in ("FAULT_SYNC", "FAULT_PWRITE"):
        env.pop(key, None)
    done = subprocess.run(
        [*_command(directory, actions, seed), "--arm-at", str(arm_at)]
        + [f"--fault={f}" for f in faults],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=Path(__file__).resolve().parents[1],
        check=False,
    )
    return done.returncode, done.stdout.splitlines() + done.stderr.splitlines()


def start_child(directory: Path, *, actions: int, seed: int = 1) -> subprocess.Popen[str]:
    """Start the child without faults (to be killed at a random moment)."""
    return subprocess.Popen(
        _command(directory, actions, seed),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
    )


def _command(directory: Path, actions: int, seed: int) -> list[str]:
    module = [sys.executable, "-m", "benchmarks.fault_kit"]
    return [*module, str(directory), f"--actions={actions}", f"--seed={seed}"]


def last_recorded(lines: Sequence[str]) -> int:
    """The event count of the last ``recorded N`` line (0 if none)."""
    counts = [int(line.split()[1]) for line in lines if line.startswith("recorded ")]
    return counts[-1] if counts else 0


def scratch() -> Path:
    """A fresh temporary directory."""
    return Path(tempfile.mkdtemp(prefix="dicekeeper-faults-"))


def _main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("directory", type=Path)
    parser.add_argument("--actions", type=int, default=50)
    parser.add_argument("--arm-at", type=int, default=-1)
    parser.add_argument("--fault", action="append", default=[])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    return child(args.directory, args.actions, args.arm_at, args.fault, args.seed)


if __name__ == "__main__":
    sys.exit(_main())
