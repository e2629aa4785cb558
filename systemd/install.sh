#!/usr/bin/env bash
# Installs dicekeeper as a kiosk service on a Raspberry Pi (64-bit Raspberry Pi OS). Run as root
# from a checkout:  sudo systemd/install.sh
#
# It installs the apt packages the Pi needs, creates the `dicekeeper` user in the device groups,
# copies this checkout to /opt/dicekeeper, creates /opt/dicekeeper/.venv with
# --system-site-packages (so apt's python3-picamera2 is importable), installs dicekeeper into it,
# copies the example config to /etc/dicekeeper/config.toml unless one exists, and enables and
# starts dicekeeper.service. Running it again updates the code and keeps the config and the games.
set -euo pipefail

PREFIX=/opt/dicekeeper
CONFIG_DIR=/etc/dicekeeper
SERVICE=dicekeeper
SOURCE="$(cd "$(dirname "$0")/.." && pwd)"

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (sudo $0)" >&2
    exit 1
fi

if command -v apt-get >/dev/null 2>&1; then
    apt-get update
    apt-get install -y --no-install-recommends \
        python3 python3-venv python3-pip python3-picamera2 i2c-tools rsync
fi

# The interfaces: I2C for the OLED (the camera is enabled by default on current Pi OS).
if command -v raspi-config >/dev/null 2>&1; then
    raspi-config nonint do_i2c 0 || echo "install.sh: could not enable I2C; use raspi-config" >&2
fi

# The service user: no login, in the groups that own the devices.
for group in gpio video i2c input render; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id -u dicekeeper >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/dicekeeper --no-create-home \
        --shell /usr/sbin/nologin --user-group dicekeeper
fi
usermod --append --groups gpio,video,i2c,input,render dicekeeper

# The code and its virtualenv.
mkdir -p "$PREFIX"
rsync -a --delete --exclude .venv --exclude .git --exclude '__pycache__' \
    --exclude .mypy_cache --exclude .pytest_cache --exclude .ruff_cache "$SOURCE/" "$PREFIX/"
if [ ! -x "$PREFIX/.venv/bin/python" ]; then
    python3 -m venv --system-site-packages "$PREFIX/.venv"
fi
"$PREFIX/.venv/bin/python" -m pip install --quiet --upgrade pip
"$PREFIX/.venv/bin/python" -m pip install --quiet "$PREFIX"
chown -R root:root "$PREFIX"

# The configuration, kept if it exists; checked before the service starts.
install -d -m 0755 "$CONFIG_DIR"
if [ ! -f "$CONFIG_DIR/config.toml" ]; then
    install -m 0644 "$SOURCE/systemd/config.example.toml" "$CONFIG_DIR/config.toml"
    echo "install.sh: wrote $CONFIG_DIR/config.toml (edit it, then: systemctl restart $SERVICE)"
fi

# The menu's "Shut down" may power the Pi off (system.shutdown = "poweroff" in the config):
# allow the service user to ask logind for that, and nothing else.
install -d -m 0755 /etc/polkit-1/rules.d
cat >/etc/polkit-1/rules.d/50-dicekeeper-poweroff.rules <<'RULES'
// dicekeeper: the table's menu may power the machine off.
polkit.addRule(function (action, subject) {
    if (subject.user == "dicekeeper" &&
        (action.id == "org.freedesktop.login1.power-off" ||
         action.id == "org.freedesktop.login1.power-off-multiple-sessions")) {
        return polkit.Result.YES;
    }
});
RULES

install -m 0644 "$SOURCE/systemd/dicekeeper.service" "/etc/systemd/system/$SERVICE.service"
systemctl daemon-reload
systemctl enable "$SERVICE"
systemctl restart "$SERVICE"
echo "install.sh: $SERVICE is running; follow it with: journalctl -u $SERVICE -f"
