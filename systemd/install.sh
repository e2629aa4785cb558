#!/usr/bin/env bash
# Installs dicekeeper as a kiosk service on a Raspberry Pi (64-bit Raspberry Pi OS Bookworm or
# Trixie). Run as root from a checkout:  sudo systemd/install.sh
#
# It installs the apt packages the Pi needs, creates the `dicekeeper` user in the device groups,
# copies this checkout to /opt/dicekeeper, creates /opt/dicekeeper/.venv with
# --system-site-packages (so apt's python3-picamera2 is importable), installs dicekeeper into it
# at the versions CI tested: requirements/bookworm.txt on Bookworm (with
# systemd/constraints-bookworm.txt on top, so that apt's numpy 1.24, which picamera2 is built
# against, stays), requirements/lock.txt elsewhere (Trixie), copies the example config to /etc/dicekeeper/config.toml unless one
# exists, enables and starts dicekeeper.service, and solves the optimal player's tables in the
# background (the transient unit dicekeeper-solve).
#
# Every step checks what is already there, so running it again updates the code, keeps the config
# and the games, and finishes an install that stopped half-way (a lost network, a full disk).
#
#   --no-apt      skip the apt step (the packages are already installed, e.g. an image build)
#   --no-start    install and enable the unit but do not (re)start it
#   --print-apt-packages   print the apt packages it installs, one a line, and exit
set -euo pipefail

PREFIX=/opt/dicekeeper
CONFIG_DIR=/etc/dicekeeper
SERVICE=dicekeeper
SERVICE_USER=dicekeeper
SOURCE="$(cd "$(dirname "$0")/.." && pwd)"

# Python and its venv; the Pi libraries from apt (picamera2, and lgpio: the only gpiozero pin
# factory that works on a Pi 5); polkitd for the menu's power-off; i2c-tools for i2cdetect; and
# what a Lite image lacks for SDL's KMSDRM video driver (pygame-ce's own SDL opens these at run
# time): DRM/GBM, EGL and GLES with Mesa's EGL and DRI drivers (vc4/v3d), and udev's library.
APT_PACKAGES=(
    python3 python3-venv python3-pip python3-numpy
    python3-picamera2 python3-gpiozero python3-lgpio
    polkitd i2c-tools rsync ca-certificates
    libdrm2 libgbm1 libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri libudev1
)

say() { echo "install.sh: $*"; }
fail() {
    echo "install.sh: $*" >&2
    exit 1
}

apt_step=yes
start_step=yes
for arg in "$@"; do
    case "$arg" in
        --no-apt) apt_step=no ;;
        --no-start) start_step=no ;;
        --print-apt-packages)
            printf '%s\n' "${APT_PACKAGES[@]}"
            exit 0
            ;;
        *) fail "unknown option $arg (known: --no-apt --no-start --print-apt-packages)" ;;
    esac
done

# 64-bit only: the wheels dicekeeper needs (OpenCV, pygame-ce) exist for aarch64, not for armhf.
# The userland decides, not the kernel (32-bit Pi OS runs a 64-bit kernel on a Pi 4 or 5).
arch="$(dpkg --print-architecture 2>/dev/null || true)"
case "$arch" in
    armhf | armel | i386)
        fail "this is a 32-bit system ($arch): dicekeeper needs 64-bit Raspberry Pi OS (arm64)" ;;
esac
[ "$(getconf LONG_BIT)" = 64 ] || fail "this is a 32-bit system: dicekeeper needs 64-bit Raspberry Pi OS (arm64)"

# The lock of exact versions; Bookworm's keeps apt's numpy (Trixie's apt numpy is 2.x).
codename="$( (. /etc/os-release && echo "${VERSION_CODENAME:-}") 2>/dev/null || true)"
constraints=(--constraint "$SOURCE/requirements/lock.txt")
case "$codename" in
    bookworm)
        constraints=(--constraint "$SOURCE/requirements/bookworm.txt"
            --constraint "$SOURCE/systemd/constraints-bookworm.txt") ;;
    trixie) ;;
    bullseye | buster | stretch)
        fail "Raspberry Pi OS $codename is too old (dicekeeper needs Python 3.11: Bookworm or later)" ;;
    *) say "unknown release '${codename:-?}': installing without the Bookworm constraints" ;;
esac
say "release: ${codename:-unknown}, architecture: ${arch:-unknown}"
[ "$(id -u)" -eq 0 ] || fail "run as root (sudo $0)"

if [ "$apt_step" = yes ]; then
    command -v apt-get >/dev/null 2>&1 || fail "no apt-get: install ${APT_PACKAGES[*]} by hand, then run with --no-apt"
    export DEBIAN_FRONTEND=noninteractive
    dpkg --configure -a # finishes an apt run that was interrupted
    apt-get update
    apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
fi

# The interfaces: I2C for the OLED (the camera is enabled by default on current Pi OS).
if command -v raspi-config >/dev/null 2>&1; then
    raspi-config nonint do_i2c 0 || echo "install.sh: could not enable I2C; use raspi-config" >&2
fi

# The configuration, kept if it exists; checked before the service starts.
install -d -m 0755 "$CONFIG_DIR"
if [ ! -f "$CONFIG_DIR/config.toml" ]; then
    install -m 0644 "$SOURCE/systemd/config.example.toml" "$CONFIG_DIR/config.toml.new"
    mv "$CONFIG_DIR/config.toml.new" "$CONFIG_DIR/config.toml"
    say "wrote $CONFIG_DIR/config.toml (edit it, then: systemctl restart $SERVICE)"
fi

# Keyboard buttons are read from /dev/input: only then is the service user in `input` (a member
# of `input` can read every keyboard on the Pi). A config that does not parse counts as no
# keyboard; the service itself then stops with a message naming the mistake.
buttons="$(python3 - "$CONFIG_DIR/config.toml" <<'PY' 2>/dev/null || true
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    print(tomllib.load(f).get("buttons", {}).get("backend", "keyboard"))
PY
)"
groups=(gpio video i2c render)
[ "$buttons" = keyboard ] && groups+=(input)

# The service user: no login, in the groups that own the devices.
for group in "${groups[@]}" input; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/dicekeeper --no-create-home \
        --shell /usr/sbin/nologin --user-group "$SERVICE_USER"
fi
usermod --groups "$(IFS=,; echo "${groups[*]}")" "$SERVICE_USER"

# The code and its virtualenv. A venv left broken by an interrupted run, or made without the
# system site-packages, is made again.
mkdir -p "$PREFIX"
rsync -a --delete --exclude '/.venv' --exclude .git --exclude '__pycache__' --exclude '.venv-*' \
    --exclude .mypy_cache --exclude .pytest_cache --exclude .ruff_cache --exclude .hypothesis \
    --exclude '*.egg-info' --exclude /build "$SOURCE/" "$PREFIX/"
venv="$PREFIX/.venv"
if ! "$venv/bin/python" -c '' 2>/dev/null ||
    ! grep -qx 'include-system-site-packages = true' "$venv/pyvenv.cfg" 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv --system-site-packages "$venv"
fi
# On Bookworm a numpy in the venv itself (left by an install without the constraints) would
# shadow apt's: removed, so that pip sees apt's 1.24 and keeps it.
if [ "$codename" = bookworm ] && compgen -G "$venv/lib/python3*/site-packages/numpy" >/dev/null; then
    "$venv/bin/python" -m pip uninstall --quiet --yes numpy
fi
# The lock's pip and setuptools first; they build dicekeeper (no isolated build with the newest).
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${constraints[@]}" \
    pip setuptools
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${constraints[@]}" \
    --no-build-isolation "$PREFIX"
# The camera as the service will see it: a one-line answer, not a failure of the install.
"$venv/bin/python" - <<'PY' || true
try:
    from picamera2 import Picamera2  # noqa: F401
    print("install.sh: picamera2 imports")
except Exception as error:  # noqa: BLE001
    print(f"install.sh: warning: picamera2 does not import ({type(error).__name__}: {error})")
PY
chown -R root:root "$PREFIX"

# The menu's "Shut down" may power the Pi off (system.shutdown = "poweroff" in the config):
# logind asks polkit; this rule allows the service user exactly that and nothing else.
install -d -m 0755 /etc/polkit-1/rules.d
install -m 0644 "$SOURCE/systemd/50-dicekeeper-poweroff.rules" /etc/polkit-1/rules.d/

# The unit, and a drop-in that opens /dev/input only when keyboard buttons are configured.
install -m 0644 "$SOURCE/systemd/dicekeeper.service" "/etc/systemd/system/$SERVICE.service"
dropin="/etc/systemd/system/$SERVICE.service.d"
if [ "$buttons" = keyboard ]; then
    install -d -m 0755 "$dropin"
    install -m 0644 "$SOURCE/systemd/keyboard-buttons.conf" "$dropin/keyboard-buttons.conf"
else
    rm -f "$dropin/keyboard-buttons.conf"
fi
if ! command -v systemctl >/dev/null 2>&1; then
    say "no systemctl here: the service is installed but not enabled"
    exit 0
fi
if [ ! -d /run/systemd/system ]; then # a chroot or an image being built: enable it offline
    systemctl --root=/ enable "$SERVICE"
    say "systemd is not running here: $SERVICE is enabled and starts at the next boot"
    exit 0
fi
systemctl daemon-reload
systemctl enable "$SERVICE"
# The optimal player's tables for the shipped rule sets, solved ahead of play in the
# background (a few minutes each; `optimal` plays `expert` until its table is there, and picks
# it up when it is): as the service user, into the service's state directory, at low priority.
if systemd-run --quiet --collect --unit="$SERVICE-solve" --nice=15 \
    -p User="$SERVICE_USER" -p StateDirectory=dicekeeper -p Environment=OMP_NUM_THREADS=1 \
    "$venv/bin/dicekeeper" strategy --solve; then
    say "solving the optimal tables in the background: journalctl -u $SERVICE-solve -f"
else
    say "could not start the table solve; later run: sudo -u $SERVICE_USER env STATE_DIRECTORY=/var/lib/dicekeeper $venv/bin/dicekeeper strategy --solve"
fi
if [ "$start_step" = yes ]; then
    systemctl restart "$SERVICE"
    say "$SERVICE is running; follow it with: journalctl -u $SERVICE -f"
else
    say "$SERVICE is enabled; start it with: systemctl start $SERVICE"
fi
