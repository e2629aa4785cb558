"""The appliance's configuration: a TOML file read once at start-up into frozen, validated values.

Where it comes from: ``--config FILE``, else ``/etc/dicekeeper/config.toml`` when it exists, else
built-in defaults that run on any computer (simulated camera, keyboard buttons, a window when a
display is available, otherwise the terminal). Every key is checked when the file is loaded; a bad
one raises `ConfigError` naming the key, the value and what is allowed, and an unknown key is
rejected with the closest known one as a hint. ``systemd/config.example.toml`` documents every key.
"""

from __future__ import annotations

import ipaddress
import os
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from device.bounded import FileUnusable, read_text_bounded
from device.computer import display_name
from engine.errors import DicekeeperError
from engine.tomltable import Table

__all__ = [
    "SYSTEM_CONFIG",
    "ButtonsConfig",
    "CameraConfig",
    "Config",
    "ConfigError",
    "DisplayConfig",
    "GameConfig",
    "PlayersConfig",
    "ReaderConfig",
    "ReviewConfig",
    "StateConfig",
    "SystemConfig",
    "WebConfig",
    "default_displays",
    "load_config",
    "name_problem",
    "parse_config",
]

SYSTEM_CONFIG = Path("/etc/dicekeeper/config.toml")
"""The configuration `dicekeeper run` reads when no ``--config`` is given and the file exists."""
MAX_CONFIG_BYTES = 1 << 20
"""The largest config file read (the example is 3 KB)."""

CAMERA_BACKENDS = ("simulated", "opencv", "picamera2", "replay")
SIMULATED_STYLES = ("table", "random", "phone-box", "webcam-desk", "oblique-table", "felt-tray")
"""Looks of the simulated camera's tray (see `device.wiring.simulated_style`)."""
BUTTON_BACKENDS = ("keyboard", "gpio")
DISPLAY_KINDS = ("oled", "screen", "terminal")
OLED_DRIVERS = ("ssd1306", "sh1106")
COMPUTER_THROWS = ("virtual", "person")
SHUTDOWNS = ("exit", "poweroff")
COMPUTER_PREFIX = "cpu:"
"""A seat in ``game.players`` written ``cpu:SPEC`` is a computer player with strategy SPEC."""
MAX_NAME_LENGTH = 24
"""The longest player name (a line of the OLED holds about 21 characters)."""
I2C_PINS = {0: (0, 1), 1: (2, 3)}
"""The BCM pins (SDA, SCL) of the Pi's I2C buses 0 and 1 on the 40-pin header."""


class ConfigError(DicekeeperError, ValueError):
    """A configuration file that cannot be used: unreadable, not TOML, or a bad key or value."""


@dataclass(frozen=True, slots=True)
class GameConfig:
    """The game started when no game is in progress.

    ``players`` are the seats in order: a person's name, or ``cpu:SPEC`` for a computer player
    (SPEC a personality or strategy name such as ``expert`` or ``greedy:0.3``). ``target`` 0 keeps
    the rule set's own target.
    """

    rules: str = "greed"
    players: tuple[str, ...] = ("Player 1", "Player 2")
    target: int = 0


@dataclass(frozen=True, slots=True)
class PlayersConfig:
    """Who the menu offers to add: people by name, guests, and computer players by strategy.

    ``computer_throws`` is ``virtual`` (a computer player's dice are drawn on the screen) or
    ``person`` (someone throws the real dice for it). ``hints``: show people what the
    ``expert`` computer player would do (also switched in the menu).
    """

    names: tuple[str, ...] = ()
    computers: tuple[str, ...] = ("expert",)
    computer_throws: str = "virtual"
    hints: bool = False


@dataclass(frozen=True, slots=True)
class CameraConfig:
    """The camera backend and how frames become a settled reading.

    ``roi`` is the throwing area as a polygon of (x, y) pixel corners (empty: the whole frame).
    ``settle_seconds`` is how long the reading must stay unchanged before it counts.
    ``seed`` and ``script`` drive the simulated camera: scripted throws are used first (each the
    values of one throw, taken from the front as many as needed), then seeded random values.
    ``path`` is the folder or video file the ``replay`` backend plays. ``read_truth`` (simulated
    only) takes the dice from the simulator instead of reading the frames. ``style`` is the look
    of the simulated tray, fixed for the session: ``table`` (white dice on felt, the set-up the
    README recommends), ``random`` (drawn from ``seed``) or a look-alike of the photo folders
    (``phone-box``, ``webcam-desk``).
    """

    backend: str = "simulated"
    index: int = 0
    device: str = ""
    path: str = ""
    width: int = 640
    height: int = 480
    fps: int = 30
    roi: tuple[tuple[int, int], ...] = ()
    settle_seconds: float = 0.6
    seed: int = 0
    script: tuple[tuple[int, ...], ...] = ()
    read_truth: bool = False
    style: str = "table"


@dataclass(frozen=True, slots=True)
class ButtonsConfig:
    """The three buttons: backend, BCM pins (``gpio``), and timing in seconds."""

    backend: str = "keyboard"
    roll: int = 17
    stop: int = 27
    select: int = 22
    long_press: float = 1.0
    debounce: float = 0.05
    pull_up: bool = True


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    """One display: ``oled`` (luma.oled over I2C), ``screen`` (pygame) or ``terminal``.

    OLED: ``driver``, I2C ``port`` and ``address``, ``rotation`` (0-3 quarter turns).
    Screen: ``fullscreen`` and the window ``width``/``height`` (ignored when fullscreen).
    """

    kind: str
    driver: str = "ssd1306"
    port: int = 1
    address: int = 0x3C
    rotation: int = 0
    fullscreen: bool = False
    width: int = 800
    height: int = 480


@dataclass(frozen=True, slots=True)
class StateConfig:
    """Where the game store lives (None: the platform's state directory, see `device.store`)."""

    directory: Path | None = None


@dataclass(frozen=True, slots=True)
class SystemConfig:
    """What the menu's "Shut down" does: ``exit`` the program, or ``poweroff`` the machine
    (``systemctl poweroff``; systemd/install.sh lets the service user do that)."""

    shutdown: str = "exit"


@dataclass(frozen=True, slots=True)
class WebConfig:
    """The web scoreboard (`device.web`): whether `dicekeeper run` serves it, on which address
    (``bind``: an IP address of this machine, "0.0.0.0" every IPv4 interface, "::" every one)
    and TCP ``port``."""

    enabled: bool = False
    port: int = 8080
    bind: str = "0.0.0.0"


@dataclass(frozen=True, slots=True)
class ReviewConfig:
    """The review of finished games (`engine.review`): the loss of chance of winning (or share
    of expected points) that makes a decision a ``mistake`` and a ``blunder``; ``after_turn``:
    after each turn of a person, one line "best was ..." when it had a mistake (for learners)."""

    mistake: float = 0.02
    blunder: float = 0.05
    after_turn: bool = False


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    """The dice reader: ``adapt_every`` kept throws (0: never), the table adapts the reader to
    its own dice by itself, in the background (`device.adaptation`)."""

    adapt_every: int = 10


@dataclass(frozen=True, slots=True)
class Config:
    """The whole configuration of the appliance."""

    game: GameConfig = field(default_factory=GameConfig)
    players: PlayersConfig = field(default_factory=PlayersConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    displays: tuple[DisplayConfig, ...] = (DisplayConfig(kind="terminal"),)
    state: StateConfig = field(default_factory=StateConfig)
    system: SystemConfig = field(default_factory=SystemConfig)
    web: WebConfig = field(default_factory=WebConfig)
    review: ReviewConfig = field(default_factory=ReviewConfig)
    reader: ReaderConfig = field(default_factory=ReaderConfig)
    source: str = "built-in defaults"
    """Where the configuration came from (a path or "built-in defaults"), for messages."""


def load_config(
    path: str | os.PathLike[str] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    system_config: Path = SYSTEM_CONFIG,
) -> Config:
    """Read the configuration from ``path``, else ``system_config`` if present, else defaults.

    Raises `ConfigError` when the file is missing, unreadable, not TOML, or has a bad key.
    """
    env = os.environ if environ is None else environ
    if path is None:
        if not system_config.is_file():
            return parse_config({}, environ=env)
        path = system_config
    file = Path(path)
    try:
        text = read_text_bounded(file, MAX_CONFIG_BYTES, "config file")
    except FileNotFoundError:
        raise ConfigError(f"config file {str(file)!r} does not exist") from None
    except FileUnusable as exc:
        raise ConfigError(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config file {str(file)!r} cannot be read: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {str(file)!r} is not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"config file {str(file)!r} is nested too deep") from None
    try:
        return parse_config(data, environ=env, source=str(file))
    except ConfigError as exc:
        raise ConfigError(f"{file}: {exc}") from None


def parse_config(
    data: Mapping[str, object],
    *,
    environ: Mapping[str, str] | None = None,
    source: str = "built-in defaults",
) -> Config:
    """Validate parsed TOML ``data`` into a `Config` (missing keys take their defaults)."""
    env = os.environ if environ is None else environ
    root = Table("", data, ConfigError)
    game = _game(root.table("game"))
    players = _players(root.table("players"))
    camera = _camera(root.table("camera"))
    buttons = _buttons(root.table("buttons"))
    displays = _displays(root.tables("display")) if root.has("display") else default_displays(env)
    state = _state(root.table("state"))
    _check_pins(buttons, displays, camera)
    system_table = root.table("system")
    system = SystemConfig(system_table.string("shutdown", "exit", choices=SHUTDOWNS))
    system_table.finish()
    web = _web(root.table("web"))
    review = _review(root.table("review"))
    reader_table = root.table("reader")
    reader = ReaderConfig(
        reader_table.integer("adapt_every", ReaderConfig().adapt_every, low=0, high=10_000)
    )
    reader_table.finish()
    root.finish()
    return Config(
        game=game,
        players=players,
        camera=camera,
        buttons=buttons,
        displays=displays,
        state=state,
        system=system,
        web=web,
        review=review,
        reader=reader,
        source=source,
    )


def default_displays(
    environ: Mapping[str, str], *, platform: str = sys.platform
) -> tuple[DisplayConfig, ...]:
    """A window if a display is available (X11, Wayland, KMSDRM, desktop OS), else the terminal."""
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return (DisplayConfig(kind="screen"),)
    if environ.get("SDL_VIDEODRIVER", "").lower() == "kmsdrm":
        return (DisplayConfig(kind="screen", fullscreen=True),)
    if platform in ("darwin", "win32"):
        return (DisplayConfig(kind="screen"),)
    return (DisplayConfig(kind="terminal"),)


def _game(t: Table) -> GameConfig:
    d = GameConfig()
    rules = t.string("rules", d.rules)
    if not rules.strip():
        raise ConfigError(
            f"game.rules = {rules!r}: expected a rule set name (see `dicekeeper rules`)"
        )
    players = t.strings("players", d.players)
    if not players:
        raise ConfigError("game.players = []: at least one player must be seated")
    seated: dict[str, str] = {}
    for seat in players:
        if seat.startswith(COMPUTER_PREFIX) and not seat[len(COMPUTER_PREFIX) :].strip():
            raise ConfigError(f"game.players: {seat!r} names no strategy (e.g. 'cpu:expert')")
        _check_name(seat, "game.players")
        name = seat_name(seat)
        other = seated.setdefault(name.casefold(), seat)
        if other != seat or players.count(seat) > 1:
            plays = "" if name == seat else f" (it plays as {name!r})"
            clash = "is seated twice" if other == seat else f"has the name of {other!r}"
            raise ConfigError(
                f"game.players = {list(players)!r}: {seat!r}{plays} {clash}; "
                "names must be different, whatever their case"
            )
    target = t.integer("target", d.target, low=0, high=1_000_000)
    t.finish()
    return GameConfig(rules=rules.strip(), players=players, target=target)


def seat_name(seat: str) -> str:
    """The player's name a seat of ``game.players`` gives: the name, or a computer's shown name."""
    if seat.startswith(COMPUTER_PREFIX):
        return display_name(seat[len(COMPUTER_PREFIX) :].strip())
    return seat


def _players(t: Table) -> PlayersConfig:
    d = PlayersConfig()
    names = t.strings("names", d.names)
    for name in names:
        _check_name(name, "players.names")
    result = PlayersConfig(
        names=names,
        computers=t.strings("computers", d.computers),
        computer_throws=t.string("computer_throws", d.computer_throws, choices=COMPUTER_THROWS),
        hints=t.boolean("hints", d.hints),
    )
    t.finish()
    return result


def _camera(t: Table) -> CameraConfig:
    d = CameraConfig()
    backend = t.string("backend", d.backend, choices=CAMERA_BACKENDS)
    path = t.string("path", d.path)
    if backend == "replay" and not path:
        raise ConfigError(
            "camera.path is required with camera.backend = 'replay' (a folder or video)"
        )
    result = CameraConfig(
        backend=backend,
        index=t.integer("index", d.index, low=0, high=63),
        device=t.string("device", d.device),
        path=path,
        width=t.integer("width", d.width, low=64, high=4096),
        height=t.integer("height", d.height, low=48, high=4096),
        fps=t.integer("fps", d.fps, low=1, high=120),
        roi=_roi(t),
        settle_seconds=t.number("settle_seconds", d.settle_seconds, low=0.0, high=10.0),
        seed=t.integer("seed", d.seed),
        script=_script(t),
        read_truth=t.boolean("read_truth", d.read_truth),
        style=t.string("style", d.style, choices=SIMULATED_STYLES),
    )
    if result.read_truth and backend != "simulated":
        raise ConfigError(
            f"camera.read_truth = true needs camera.backend = 'simulated', not {backend!r}"
        )
    t.finish()
    return result


def _roi(t: Table) -> tuple[tuple[int, int], ...]:
    value = t.raw("roi")
    if value is None:
        return ()
    allowed = "a list of at least 3 [x, y] pixel corners, e.g. [[0, 0], [640, 0], [640, 480]]"
    if not isinstance(value, list) or (value and len(value) < 3):
        raise ConfigError(f"camera.roi = {value!r}: expected {allowed}")
    corners: list[tuple[int, int]] = []
    for corner in value:
        if (
            not isinstance(corner, list)
            or len(corner) != 2
            or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in corner)
        ):
            raise ConfigError(
                f"camera.roi: corner {corner!r} is not an [x, y] pair; expected {allowed}"
            )
        corners.append((corner[0], corner[1]))
    return tuple(corners)


def _script(t: Table) -> tuple[tuple[int, ...], ...]:
    value = t.raw("script")
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ConfigError(f"camera.script = {value!r}: expected a list of throws like [[1, 5, 3]]")
    throws: list[tuple[int, ...]] = []
    for throw in value:
        if (
            not isinstance(throw, list)
            or not throw
            or not all(
                isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in throw
            )
        ):
            raise ConfigError(
                f"camera.script: throw {throw!r} must be a non-empty list of values 1 to 6"
            )
        throws.append(tuple(throw))
    return tuple(throws)


def _buttons(t: Table) -> ButtonsConfig:
    d = ButtonsConfig()
    backend = t.string("backend", d.backend, choices=BUTTON_BACKENDS)
    pins = t.table("pins")
    roll = pins.integer("roll", d.roll, low=0, high=27)
    stop = pins.integer("stop", d.stop, low=0, high=27)
    select = pins.integer("select", d.select, low=0, high=27)
    pins.finish()
    if len({roll, stop, select}) != 3:
        raise ConfigError(
            f"buttons.pins: roll={roll!r}, stop={stop!r}, select={select!r}: "
            "the three buttons need three different BCM pins"
        )
    result = ButtonsConfig(
        backend=backend,
        roll=roll,
        stop=stop,
        select=select,
        long_press=t.number("long_press", d.long_press, low=0.2, high=10.0),
        debounce=t.number("debounce", d.debounce, low=0.0, high=1.0),
        pull_up=t.boolean("pull_up", d.pull_up),
    )
    t.finish()
    return result


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, or None: it must be printable (no control
    characters such as terminal escape codes), not blank, and at most `MAX_NAME_LENGTH` long."""
    shown = repr(name) if len(name) <= 40 else f"{name[:20]!r}... ({len(name):,} characters)"
    if not name.strip():
        return f"{shown} is blank"
    if len(name) > MAX_NAME_LENGTH:
        return f"{shown} is too long: at most {MAX_NAME_LENGTH} characters"
    if not name.isprintable():
        return f"{shown} holds control characters (e.g. terminal escape codes): printable only"
    return None


def _check_name(name: str, key: str) -> None:
    problem = name_problem(name)
    if problem is not None:
        raise ConfigError(f"{key}: the name {problem}")


def _check_pins(
    buttons: ButtonsConfig, displays: tuple[DisplayConfig, ...], camera: CameraConfig
) -> None:
    """`ConfigError` when a GPIO button sits on a pin the OLED or the Pi camera needs."""
    if buttons.backend != "gpio":
        return
    taken: dict[int, str] = {}
    for display in displays:
        if display.kind == "oled" and display.port in I2C_PINS:
            sda, scl = I2C_PINS[display.port]
            taken[sda] = f"the OLED's I2C data line (SDA{display.port})"
            taken[scl] = f"the OLED's I2C clock line (SCL{display.port})"
    if camera.backend == "picamera2":
        for pin, line in ((0, "ID_SD"), (1, "ID_SC")):
            taken.setdefault(
                pin, f"{line}, the firmware's I2C (the camera's on some Pi models; HAT EEPROM)"
            )
    for role in ("roll", "stop", "select"):
        pin = getattr(buttons, role)
        if pin in taken:
            raise ConfigError(
                f"buttons.pins.{role} = {pin}: GPIO {pin} is {taken[pin]}; "
                "choose another pin (e.g. 17, 27, 22, 23, 24, 25, 5, 6)"
            )


def _displays(tables: tuple[Table, ...]) -> tuple[DisplayConfig, ...]:
    displays: list[DisplayConfig] = []
    for t in tables:
        d = DisplayConfig(kind="terminal")
        kind = t.string("kind", "", choices=DISPLAY_KINDS)
        if not kind:
            raise ConfigError(
                f"{t.key('kind')} is missing: allowed values are "
                + ", ".join(map(repr, DISPLAY_KINDS))
            )
        displays.append(
            DisplayConfig(
                kind=kind,
                driver=t.string("driver", d.driver, choices=OLED_DRIVERS),
                port=t.integer("port", d.port, low=0, high=63),
                address=t.integer("address", d.address, low=0x03, high=0x77),
                rotation=t.integer("rotation", d.rotation, low=0, high=3),
                fullscreen=t.boolean("fullscreen", d.fullscreen),
                width=t.integer("width", d.width, low=128, high=7680),
                height=t.integer("height", d.height, low=64, high=4320),
            )
        )
        t.finish()
    if not displays:
        raise ConfigError("display = []: configure at least one [[display]]")
    return tuple(displays)


def _state(t: Table) -> StateConfig:
    directory = t.string("directory", "")
    t.finish()
    return StateConfig(directory=Path(directory).expanduser() if directory else None)


def _web(t: Table) -> WebConfig:
    d = WebConfig()
    enabled = t.boolean("enabled", d.enabled)
    port = t.integer("port", d.port, low=1024, high=65535)
    bind = t.string("bind", d.bind)
    try:
        ipaddress.ip_address(bind)
    except ValueError:
        raise ConfigError(
            f"web.bind = {bind!r}: expected an IP address of this machine: '0.0.0.0' (every "
            "IPv4 interface), '::' (every interface) or one address such as '127.0.0.1'"
        ) from None
    t.finish()
    return WebConfig(enabled=enabled, port=port, bind=bind)


def _review(t: Table) -> ReviewConfig:
    d = ReviewConfig()
    mistake = t.number("mistake", d.mistake, low=0.001, high=1.0)
    blunder = t.number("blunder", d.blunder, low=0.001, high=1.0)
    if blunder < mistake:
        raise ConfigError(
            f"review.blunder = {blunder!r}: expected at least review.mistake ({mistake!r})"
        )
    after_turn = t.boolean("after_turn", d.after_turn)
    t.finish()
    return ReviewConfig(mistake=mistake, blunder=blunder, after_turn=after_turn)
