#!/usr/bin/env bash
# Checks systemd/dicekeeper.service (or the unit file given as $1) with `systemd-analyze verify`,
# and its sandbox with `systemd-analyze security --offline=yes`: the exposure, alone and with the
# keyboard-buttons.conf drop-in, must be at most $MAX_EXPOSURE (2.0 unless set). Prints the two
# exposure lines and exits 0 when all is well; prints the findings and exits 1 otherwise.
#
# The unit starts /opt/dicekeeper/.venv/bin/dicekeeper, which exists only on an installed Pi, and
# `systemd-analyze verify` reports a missing ExecStart binary. So the unit is verified as a copy
# whose ExecStart points at the dicekeeper of this checkout's venv (or PATH); every other line is
# checked exactly as installed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
unit="${1:-$here/dicekeeper.service}"
if ! command -v systemd-analyze >/dev/null 2>&1; then
    exit 0
fi
binary="$here/../.venv/bin/dicekeeper"
if [ ! -x "$binary" ]; then
    binary="$(command -v dicekeeper || true)"
fi
if [ -z "$binary" ] || [ ! -x "$binary" ]; then
    echo "verify-unit: no dicekeeper executable (install the project into .venv first)"
    exit 1
fi
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
installed='/opt/dicekeeper/.venv/bin/dicekeeper'
if ! grep -q "^ExecStart=$installed " "$unit"; then
    echo "verify-unit: $unit does not start $installed"
    exit 1
fi
sed "s#^ExecStart=$installed #ExecStart=$binary #" "$unit" >"$work/dicekeeper.service"
out="$(systemd-analyze verify "$work/dicekeeper.service" 2>&1 || true)"
if [ -n "$out" ]; then
    echo "systemd-analyze verify $unit:"
    echo "$out"
    exit 1
fi

# The exposure, as systemd-analyze rates it (0.0 best, 10.0 worst); --threshold takes tenths.
max="${MAX_EXPOSURE:-2.0}"
tenths="$(awk -v m="$max" 'BEGIN { printf "%d", m * 10 + 0.5 }')"
cat "$work/dicekeeper.service" "$here/keyboard-buttons.conf" >"$work/dicekeeper-keyboard.service"
status=0
for copy in dicekeeper.service dicekeeper-keyboard.service; do
    report="$(systemd-analyze security --offline=yes --threshold="$tenths" "$work/$copy" 2>&1)" ||
        status=1
    line="$(printf '%s\n' "$report" | grep 'Overall exposure level' || true)"
    if [ -z "$line" ]; then
        echo "verify-unit: systemd-analyze security gave no exposure for $copy:"
        echo "$report"
        exit 1
    fi
    echo "verify-unit: $copy: ${line#*: } (at most $max allowed)"
done
if [ "$status" -ne 0 ]; then
    echo "verify-unit: the exposure is over $max; the findings:"
    systemd-analyze security --offline=yes "$work/dicekeeper-keyboard.service" | grep -v '✓'
    exit 1
fi
