#!/usr/bin/env bash
# The checks of `make test` (lint, types, the suite) on the newest releases that pyproject.toml's
# ranges admit, in a venv of its own made anew each run (.venv-newest), so that a release that
# breaks dicekeeper fails CI the day it lands rather than a user's fresh install. When the newest
# resolve is the lock's versions, `make test` has run them and nothing runs twice. A failure ends
# with one line naming the release that causes it (each newer release put back to the lock's
# version in turn, the failed check run again), or all of them when no one alone does.
# Then the reader's tests (ci/test-opencv.sh) on OpenCV 5.0, the other 5.x the reader supports.
#   ci/test-newest.sh          (PYTHON=python3.12 to choose the interpreter)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-newest
lock=requirements/lock.txt
opencv_others=(5.0.0.93)
python="${PYTHON:-python3}"
say() { echo "test-newest: $*"; }

rm -rf "$venv"
"$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip --quiet --disable-pip-version-check)
"${pip[@]}" install --upgrade pip setuptools
PYTHONWARNINGS='ignore:Editable installation:UserWarning' \
    "${pip[@]}" install --upgrade --upgrade-strategy eager --no-build-isolation -e '.[dev]'
newer="$("$venv/bin/python" ci/newer_than_lock.py "$lock")"

# The checks of make test, each a command; the first that fails is named in $failed.
checks=(
    "$venv/bin/ruff check ."
    "$venv/bin/ruff format --check ."
    "$venv/bin/lint-imports"
    "$venv/bin/mypy --no-incremental"
    "$venv/bin/python -m pytest"
)
run_checks() {
    failed=""
    for check in "${checks[@]}"; do
        if ! $check; then
            failed="$check"
            return 1
        fi
    done
}
# The check that failed, again (pytest only on the tests that failed).
rerun_failed() {
    local command="$failed"
    [[ "$command" == *pytest* ]] && command="$command --last-failed"
    $command
}

if [ -z "$newer" ]; then
    say "the newest releases are the lock's ($lock): make test has run them"
else
    say "releases newer than the lock: $(echo "$newer" | awk '{printf "%s%s %s (lock %s)", (NR > 1 ? ", " : ""), $1, $2, $3}')"
    if ! run_checks; then
        first="$failed"
        culprits=()
        while read -r name version locked; do
            [ "$locked" = - ] && continue
            "${pip[@]}" install --no-deps "$name==$locked" || continue
            if rerun_failed >/dev/null 2>&1; then
                culprits+=("$name $version (lock $locked)")
            fi
            "${pip[@]}" install --no-deps "$name==$version"
        done <<<"$newer"
        if [ ${#culprits[@]} -gt 0 ]; then
            say "FAILED: '${first##*/}' fails with $(IFS=,; echo "${culprits[*]}" | sed 's/,/, /g'), passes with the lock's version"
        else
            say "FAILED: '${first##*/}' fails with the newest releases and no one of them alone: $(echo "$newer" | awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2}')"
        fi
        exit 1
    fi
    say "passed on the newest releases"
fi
ci/test-opencv.sh "$venv" "${opencv_others[@]}"
