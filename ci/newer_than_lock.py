"""The installed distributions whose version differs from the lock's, one a line:
``NAME INSTALLED LOCKED`` (LOCKED is ``-`` for a distribution the lock does not name).

    python ci/newer_than_lock.py requirements/lock.txt

Run by the interpreter of the environment to compare (ci/test-newest.sh runs it in .venv-newest);
a lock line's environment marker is evaluated for that interpreter.
"""

from __future__ import annotations

import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.markers import Marker
from packaging.utils import canonicalize_name

PINNED = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)\s*(?:;\s*(.+))?$")


def locked(path: Path) -> dict[str, str]:
    """The lock's exact versions that apply to this interpreter, by canonical name."""
    versions = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = PINNED.match(line.strip())
        if match and (match[3] is None or Marker(match[3]).evaluate()):
            versions[canonicalize_name(match[1])] = match[2]
    return versions


def main() -> int:
    lock = locked(Path(sys.argv[1]))
    for dist in sorted(metadata.distributions(), key=lambda d: d.metadata["Name"].lower()):
        name = canonicalize_name(dist.metadata["Name"])
        if name == "dicekeeper":
            continue
        if lock.get(name) != dist.version:
            print(name, dist.version, lock.get(name, "-"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
