#!/usr/bin/env bash
# An emulated Raspberry Pi: dicekeeper installed and run on a 64-bit ARM Debian Bookworm userland
# (what Raspberry Pi OS Lite Bookworm is built on: Debian 12, Python 3.11, aarch64) under qemu-user.
#
#   ci/pi-check.sh              build or reuse the rootfs, install, check; exit 1 on any difference
#   ci/pi-check.sh --preflight  say whether this machine can run it (exit 0) or why not (exit 3)
#
# Steps: the arm64 rootfs is made by mmdebstrap from Debian's archive with the apt packages that
# systemd/install.sh installs (less the two that only Raspberry Pi's archive has: python3-picamera2
# and python3-lgpio) and kept in $PI_CHECK_CACHE between runs; then, under emulation, install.sh
# itself runs (--no-apt: a venv with --system-site-packages and the Bookworm constraints), and the
# checks: apt's numpy is the one the venv imports, every module imports, the picamera2 camera
# without picamera2 is one line and exit 2, `dicekeeper read --json` on photos from
# ../shared/datasets gives the same dice as on this machine, `dicekeeper demo --fast` plays a game,
# and the engine and device tests pass.
#
# Needs root (mmdebstrap, chroot, mounts) and binfmt_misc (mounted here if it is not), Debian's
# archive and PyPI. Environment: PI_CHECK_CACHE (default /var/cache/dicekeeper/pi-check),
# PI_CHECK_SOURCE (the tree to install, default this checkout with its uncommitted changes),
# DATASETS (default ../shared/datasets), X86_DICEKEEPER (what to compare the readings with;
# default: the same tree installed on this machine with the Bookworm constraints and numpy 1.24.2),
# PI_CHECK_PHOTOS (photos per dataset folder, default 12), PI_CHECK_TESTS (the pytest arguments),
# QEMU_CPU (default cortex-a72, a Pi 4's core; cortex-a76 is a Pi 5's).
set -euo pipefail
{ # read whole before it runs: editing the file during a run does not change that run

repo="$(cd "$(dirname "$0")/.." && pwd)"
source_tree="$(cd "${PI_CHECK_SOURCE:-$repo}" && pwd)" # the tree installed on the emulated Pi
cache="${PI_CHECK_CACHE:-/var/cache/dicekeeper/pi-check}"
rootfs="$cache/bookworm-arm64"
out="$cache/out"
data="${DATASETS:-$repo/../shared/datasets}"
x86="${X86_DICEKEEPER:-}" # default: the same install on this machine, made in $cache/x86-bookworm
photos="${PI_CHECK_PHOTOS:-12}"
# The engine and device tests less those that play whole games through the reader or solve
# tables (hours under emulation; the demo above plays one such game), and the calibration's
# accept/discard flow (scripted presses on rendered frames, 30-60 s a test under emulation; the
# calibration itself is read by test_calibrate_command), and the six tests that fit the adapted
# layers to a dozen photos or more and the one that waits for two adaptations by the table itself
# (150-300 s each under emulation, past pytest's timeout; numpy alone, and the menu's adaptation
# is still run here).
tests="${PI_CHECK_TESTS:-tests/engine tests/device -k 'not demo and not real_dice_reader and not optimal and not solve and not solver and not pig and not tournament and not calibration_accept and not adapt_saves and not once_adapted and not adapted_file and not older_file and not newest_throws_worse and not dice_missed_are_fitted and not adapts_by_itself'}"
export QEMU_CPU="${QEMU_CPU:-cortex-a72}"
# Only in Raspberry Pi's archive, not Debian's: left out of the emulated install.
pi_only=" python3-picamera2 python3-lgpio "

step() { echo "pi-check: $(date +%T) $*"; }
fail() {
    echo "pi-check: FAILED: $*" >&2
    exit 1
}

# Why this machine cannot run the check (empty when it can).
cannot_run() {
    if [ "$(id -u)" -ne 0 ]; then
        echo "it needs root (mmdebstrap, chroot and mounts)"
    elif [ "$(uname -m)" = aarch64 ]; then
        echo "this machine is arm64 already: run the suite natively"
    elif [ ! -e /proc/sys/fs/binfmt_misc/register ] &&
        ! mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null; then
        echo "binfmt_misc is not available (it cannot be mounted here)"
    elif ! command -v apt-get >/dev/null 2>&1 && ! command -v mmdebstrap >/dev/null 2>&1; then
        echo "it needs apt-get (for mmdebstrap and qemu-user-static)"
    elif [ ! -d "$data" ]; then
        echo "no photos at $data"
    fi
}

reason="$(cannot_run)"
if [ "${1:-}" = --preflight ]; then
    if [ -n "$reason" ]; then
        echo "$reason"
        exit 3
    fi
    exit 0
fi
[ -z "$reason" ] || fail "cannot run here: $reason"
start=$SECONDS

# 1. Host tools, and qemu-aarch64 registered with binfmt_misc (flag F: usable inside a chroot).
step "host tools"
need=()
command -v mmdebstrap >/dev/null || need+=(mmdebstrap)
[ -x /usr/bin/qemu-aarch64-static ] || need+=(qemu-user-static)
command -v update-binfmts >/dev/null || need+=(binfmt-support)
command -v rsync >/dev/null || need+=(rsync)
if [ "${#need[@]}" -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q "${need[@]}" >/dev/null 2>&1 ||
        { apt-get update -q >/dev/null && apt-get install -y -q "${need[@]}" >/dev/null; }
fi
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --import qemu-aarch64
update-binfmts --enable qemu-aarch64 2>/dev/null || true
grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 || fail "qemu-aarch64 is not enabled in binfmt_misc"

# 2. The rootfs: Debian Bookworm arm64 with install.sh's apt packages, made once and kept. It is
# made beside and moved into place, so an interrupted build is never taken for a finished one.
mapfile -t packages < <("$repo/systemd/install.sh" --print-apt-packages)
include=()
for p in "${packages[@]}"; do
    [[ "$pi_only" == *" $p "* ]] || include+=("$p")
done
key="bookworm arm64 minbase ${include[*]}"
mirror="${DEBIAN_MIRROR:-$(grep -hoE '^URIs: *[^ ]+' /etc/apt/sources.list.d/*.sources 2>/dev/null |
    head -1 | sed 's/^URIs: *//')}"
[ -n "$mirror" ] || mirror="$(grep -hoE '^deb +[^ ]+' /etc/apt/sources.list 2>/dev/null |
    head -1 | sed 's/^deb *//')"
unmount_all() { # everything mounted under the rootfs, deepest first
    local target
    findmnt -rn -o TARGET | { grep -F "$rootfs/" || true; } | sort -r | while read -r target; do
        umount -l "$target" 2>/dev/null || true
    done
}
remove_tree() { # never follows a mount into the host
    if findmnt -rn -o TARGET | grep -qF "$1/"; then fail "$1 still has mounts; not removing it"; fi
    rm -rf --one-file-system "$1"
}
unmount_all
if [ "$(cat "$rootfs/.pi-check-key" 2>/dev/null)" != "$key" ]; then
    step "rootfs: mmdebstrap arm64 bookworm (${#include[@]} packages; emulated dpkg: minutes)"
    mkdir -p "$cache"
    remove_tree "$rootfs.new"
    remove_tree "$rootfs"
    nice -n 5 mmdebstrap --quiet --arch=arm64 --variant=minbase \
        --include="$(IFS=,; echo "${include[*]}")" bookworm "$rootfs.new" ${mirror:+"$mirror"}
    echo "$key" >"$rootfs.new/.pi-check-key"
    mv "$rootfs.new" "$rootfs"
else
    step "rootfs: cached ($rootfs)"
fi

# Where outgoing TLS is intercepted, the host's own CAs are trusted inside as well.
# (update-ca-certificates takes a minute under emulation: only when they changed.)
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1 &&
    ! diff -rq /usr/local/share/ca-certificates "$rootfs/usr/local/share/ca-certificates" \
        >/dev/null 2>&1; then
    cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
    chroot "$rootfs" /usr/sbin/update-ca-certificates >/dev/null 2>&1
fi

# Mounts, undone on exit: proc, sys, dev; the photos read-only; pip's cache kept in $cache.
trap unmount_all EXIT
mount -t proc proc "$rootfs/proc"
mount -t sysfs sysfs "$rootfs/sys"
mount --rbind /dev "$rootfs/dev" && mount --make-rslave "$rootfs/dev"
mkdir -p "$rootfs/data" "$rootfs/root/.cache/pip" "$cache/pip"
mount --bind "$(cd "$data" && pwd)" "$rootfs/data" && mount -o remount,bind,ro "$rootfs/data"
mount --bind "$cache/pip" "$rootfs/root/.cache/pip"
rm -rf "$out" && mkdir -p "$out"

# Runs a shell command on the emulated Pi, as root, in a clean environment.
arm() {
    nice -n 5 env -i QEMU_CPU="$QEMU_CPU" HOME=/root LANG=C.UTF-8 PIP_DISABLE_PIP_VERSION_CHECK=1 \
        PIP_DEFAULT_TIMEOUT=120 SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
        GPIOZERO_PIN_FACTORY=mock PYGAME_HIDE_SUPPORT_PROMPT=1 \
        PATH=/opt/dicekeeper/.venv/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        chroot "$rootfs" /bin/bash -c "$1"
}

# 3. The install, as on a Pi: this checkout (with uncommitted changes) copied in, install.sh run.
step "install.sh --no-apt (emulated pip)"
rsync -a --delete --exclude /.git --exclude '/.venv*' --exclude __pycache__ --exclude .mypy_cache \
    --exclude .pytest_cache --exclude .ruff_cache --exclude .hypothesis --exclude '*.egg-info' \
    --exclude /build "$source_tree/" "$rootfs/src/"
if [ -x "$rootfs/opt/dicekeeper/.venv/bin/python" ]; then
    # An install that stopped half-way (a package never installed) is finished by a second run,
    # and one made without the constraints (numpy 2 in the venv over apt's) is mended.
    arm "pip uninstall -q -y sdnotify && pip install -q 'numpy>=2'" >"$out/break.log" 2>&1 ||
        { tail -5 "$out/break.log"; fail "could not prepare the broken install"; }
    echo "  a previous install is there, less sdnotify, with numpy 2: install.sh must mend it"
fi
arm "cd /src && systemd/install.sh --no-apt" >"$out/install.log" 2>&1 ||
    { tail -20 "$out/install.log"; fail "install.sh failed (log: $out/install.log)"; }
grep -E 'release|picamera2|service|enabled' "$out/install.log" | sed 's/^/  /'
arm "python -c 'import sdnotify'" || fail "install.sh did not finish the venv (no sdnotify)"
[ -L "$rootfs/etc/systemd/system/multi-user.target.wants/dicekeeper.service" ] ||
    fail "install.sh did not enable dicekeeper.service"
[ -f "$rootfs/etc/polkit-1/rules.d/50-dicekeeper-poweroff.rules" ] ||
    fail "install.sh did not install the polkit rule"
# The example config has GPIO buttons: no `input` group, no keyboard drop-in.
groups="$(arm "id -nG dicekeeper")"
[[ " $groups " != *" input "* ]] || fail "the service user is in input without keyboard buttons"
[ ! -e "$rootfs/etc/systemd/system/dicekeeper.service.d/keyboard-buttons.conf" ] ||
    fail "the keyboard drop-in is installed without keyboard buttons"
echo "  dicekeeper user groups: $groups; unit enabled; polkit rule installed"
arm "pip install -q -c /src/systemd/constraints-bookworm.txt 'pytest>=8' 'pytest-timeout>=2.2' \
    'hypothesis>=6.100'" >"$out/pip-tests.log" 2>&1 ||
    { tail -20 "$out/pip-tests.log"; fail "installing the test tools failed"; }
arm "uname -m; python -V; pip list 2>/dev/null | grep -iE \
    '^(numpy|opencv-python-headless|pygame-ce|pillow|gpiozero|luma[.](oled|core)|sdnotify) '" |
    tr '\n' ' ' | sed 's/  */ /g; s/^/  /'
echo

# 4. apt's numpy is the one imported (a numpy from PyPI over it breaks apt's picamera2).
step "numpy from apt"
where="$(arm "python -c 'import numpy; print(numpy.__version__, numpy.__file__)'")"
echo "  $where"
[[ "$where" == 1.24.* && "$where" == */usr/lib/python3/dist-packages/* ]] ||
    fail "the venv does not import apt's numpy 1.24: $where"

# 5. Every module imports.
step "import every module"
arm "cd /opt/dicekeeper && python - <<'PY'
import importlib, pkgutil
names = []
for package in ('engine', 'vision', 'hardware', 'device'):
    names.append(package)
    module = importlib.import_module(package)
    found = pkgutil.walk_packages(module.__path__, package + '.')
    names += [m.name for m in found if not m.name.endswith('.__main__')]  # __main__ runs
for name in names:
    importlib.import_module(name)
print(f'  {len(names)} modules imported')
PY" || fail "a module does not import on arm64"

# 6. The Pi camera without picamera2: one line naming the camera, exit status 2, no traceback.
step "picamera2 missing: exit 2"
cat >"$rootfs/root/picamera2.toml" <<'TOML'
[camera]
backend = "picamera2"
[buttons]
backend = "keyboard"
[[display]]
kind = "terminal"
TOML
set +e
arm "cd /root && timeout 300 dicekeeper run --config /root/picamera2.toml </dev/null" \
    >"$out/picamera2.out" 2>&1
status=$?
set -e
sed 's/^/  /' "$out/picamera2.out" | tail -3
[ "$status" -eq 2 ] || fail "dicekeeper run with picamera2 missing exited $status, not 2"
! grep -q Traceback "$out/picamera2.out" || fail "dicekeeper run with picamera2 missing printed a traceback"

# 7. Photos read on arm64 and on this machine: the same dice, die by die. The reference is the
# same install on x86-64 (Python 3.11, numpy 1.24.2 as apt's, Bookworm's lock),
# so that only the architecture differs.
if [ -z "$x86" ]; then
    step "x86-64 reference install"
    host_python=/usr/bin/python3
    [ -x "$host_python" ] || host_python=python3
    [ -x "$cache/x86-bookworm/bin/python" ] || "$host_python" -m venv "$cache/x86-bookworm"
    "$cache/x86-bookworm/bin/python" -m pip install -q --disable-pip-version-check \
        -c "$rootfs/src/requirements/bookworm.txt" -c "$rootfs/src/systemd/constraints-bookworm.txt" \
        numpy==1.24.2 "$rootfs/src" \
        >"$out/x86-install.log" 2>&1 || { tail -20 "$out/x86-install.log"; fail "x86 install failed"; }
    x86="$cache/x86-bookworm/bin/dicekeeper"
fi
step "read --json: $photos photos from each folder"
(cd "$data" && for folder in matteop65-wood nell-byler-d6; do
    [ -d "$folder/images" ] || continue
    find "$folder/images" -name '*.jpg' | sort | awk -v n="$photos" 'NR % 13 == 1 && c++ < n'
done) >"$out/photos.txt"
[ -s "$out/photos.txt" ] || fail "no photos found in $data"
(cd "$data" && xargs "$x86" read --json <"$out/photos.txt") >"$out/x86.jsonl"
arm "cd /data && xargs dicekeeper read --json" <"$out/photos.txt" >"$out/arm64.jsonl"
python3 "$repo/ci/compare_readings.py" "$out/x86.jsonl" "$out/arm64.jsonl" ||
    fail "the arm64 readings differ from this machine's ($out)"

# 8. A whole short game: render -> reader -> engine -> displays.
step "demo --fast"
arm "cd /root && timeout 1200 dicekeeper demo --fast --target 300" >"$out/demo.out" 2>&1 ||
    { tail -20 "$out/demo.out"; fail "dicekeeper demo failed on arm64"; }
tail -2 "$out/demo.out" | sed 's/^/  /'

# 9. The engine and device tests, run from the installed copy (its ../shared/datasets is /data).
step "pytest $tests"
mkdir -p "$rootfs/opt/shared" && ln -sfn /data "$rootfs/opt/shared/datasets"
arm "cd /opt/dicekeeper && python -m pytest -p no:cacheprovider -x --durations=5 $tests" >"$out/pytest.out" 2>&1 ||
    { tail -30 "$out/pytest.out"; fail "tests failed on arm64"; }
grep -A5 'slowest' "$out/pytest.out" | sed 's/^/  /'
tail -1 "$out/pytest.out" | sed 's/^/  /'

# What SDL offers for the HDMI screen (informational: there is no /dev/dri here).
arm "python -c \"import os; os.environ['SDL_VIDEODRIVER'] = 'kmsdrm'; import pygame
try: pygame.display.init(); print('  kmsdrm: opened')
except pygame.error as e: print('  kmsdrm (no GPU here):', e)\"" || true
step "passed in $((SECONDS - start)) s; rootfs $(du -shx "$rootfs" | cut -f1), pip cache $(du -sh "$cache/pip" | cut -f1)"
exit 0
}
