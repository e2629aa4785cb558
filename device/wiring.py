"""Building the appliance from its configuration: camera, reader, buttons, displays, store, game.

`open_table(config)` opens every device the configuration names and returns a `Table` (a context
manager that closes them all). Keyword overrides let tests and the demo inject gpiozero's
``MockFactory``, luma's ``dummy`` device, a fake clock or extra displays. Commands that need only
some of the devices open them alike: `open_configured_camera`, `open_configured_buttons` and
`open_configured_displays` (``calibrate``, which prints its own lines, without the terminal).
"""

from __future__ import annotations

import logging
import random
import time
import warnings
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path

import vision
from device.adaptation import AdaptedFileError, TableAdapter, load_last_layer
from device.calibration import load_calibration, reader_params
from device.computer import display_name, find_computer
from device.config import (
    COMPUTER_PREFIX,
    SIMULATED_STYLES,
    Config,
    ConfigError,
    DisplayConfig,
)
from device.controller import Controller, TableSettings
from device.photos import MAX_BYTES, PhotoKeeper, PhotoRing
from device.review import TableReview
from device.review import configure as configure_review
from device.rules_file import register_rules_folders, rules_folders
from device.session import Seat, Session, rules_for
from device.store import GameStore, state_directory
from device.truth import TruthReader
from device.watcher import ThrowWatcher
from engine.errors import DicekeeperError, InvalidRules, UnknownRules
from engine.rules import Rules
from hardware.backends import Closing
from hardware.buttons import Buttons, open_buttons
from hardware.camera import Camera, open_camera
from hardware.display import Display, MultiDisplay, NullDisplay, open_display
from hardware.errors import DisplayUnavailable
from vision.render import PRESETS, TrayStyle, render_throw, style_from_seed, style_like
from vision.types import Frame, Reading

__all__ = [
    "Table",
    "check_game_config",
    "open_configured_buttons",
    "open_configured_camera",
    "open_configured_displays",
    "open_table",
    "seats_from_config",
    "simulated_renderer",
    "simulated_style",
]

log = logging.getLogger(__name__)


def simulated_style(name: str, seed: int, size: tuple[int, int]) -> TrayStyle:
    """The simulated tray's look ``name`` (one of `SIMULATED_STYLES`), fixed for a session.

    A real table keeps its tray, light and dice from throw to throw, so the style is drawn once
    (``random`` and the photo look-alikes from ``seed``), not per throw.
    """
    if name == "table":
        return TrayStyle()
    if name == "random":
        return style_from_seed(seed, size=size)
    if name in PRESETS:
        return style_like(name, seed)
    raise ConfigError(f"camera.style = {name!r}: allowed values are {SIMULATED_STYLES}")


def simulated_renderer(
    size: tuple[int, int],
    *,
    style: TrayStyle | None = None,
    moving_frames: int = 6,
    room_seed: int = 0,
) -> Callable[[Sequence[int], int], list[Frame]]:
    """``render_throw(values, seed) -> frames`` for the simulated camera, at ``size`` (w, h).

    Every throw is drawn in ``style`` (default: the ``table`` look) in one room drawn from
    ``room_seed``: the camera, tray and surroundings stay put between throws, as at a table.
    """
    look = style if style is not None else TrayStyle()

    def render(values: Sequence[int], seed: int) -> list[Frame]:
        trays = render_throw(
            list(values),
            seed=seed,
            size=size,
            moving_frames=moving_frames,
            still_frames=1,
            style=look,
            room_seed=room_seed,
        )
        return [tray.frame for tray in trays]

    return render


def check_game_config(config: Config) -> Rules:
    """The configured rule set (a name or a rules file; the rules folders registered first),
    after checking the rules and every computer spec exist."""
    try:
        state = state_directory(config.state.directory)
        register_rules_folders(rules_folders(config.source, state))
    except InvalidRules as exc:
        raise ConfigError(f"rules folder: {exc}") from None
    try:
        rules = rules_for(config.game.rules, config.game.target)
    except (UnknownRules, InvalidRules) as exc:
        raise ConfigError(f"game.rules = {config.game.rules!r}: {exc}") from None
    except DicekeeperError as exc:
        raise ConfigError(f"game.target = {config.game.target!r}: {exc}") from None
    if rules.faces != 6:
        raise ConfigError(
            f"game.rules = {config.game.rules!r}: its dice have {rules.faces} faces; "
            "the camera reads six-sided dice only"
        )
    if rules.bank_minimum > rules.target:
        raise ConfigError(
            f"game.target = {config.game.target!r}: below {rules.name}'s bank minimum of "
            f"{rules.bank_minimum}: the first bank would end the game"
        )
    for key, specs in (
        ("game.players", [s[len(COMPUTER_PREFIX) :] for s in config.game.players if _is_cpu(s)]),
        ("players.computers", list(config.players.computers)),
    ):
        for spec in specs:
            try:
                find_computer(spec)
            except DicekeeperError as exc:
                raise ConfigError(f"{key}: {spec!r} is not a computer player ({exc})") from None
    return rules


def seats_from_config(players: Sequence[str]) -> tuple[Seat, ...]:
    """The seats of ``game.players``: names, and ``cpu:SPEC`` as computer players."""
    seats = []
    for entry in players:
        if _is_cpu(entry):
            spec = entry[len(COMPUTER_PREFIX) :].strip()
            seats.append(Seat(display_name(spec), spec))
        else:
            seats.append(Seat(entry))
    return tuple(seats)


def _is_cpu(entry: str) -> bool:
    return entry.startswith(COMPUTER_PREFIX)


@dataclass
class Table(Closing):
    """Everything the appliance opened; closing it closes every device and the store."""

    controller: Controller
    camera: Camera
    buttons: Buttons
    display: MultiDisplay
    store: GameStore
    _stack: ExitStack = field(repr=False, default_factory=ExitStack)

    def close(self) -> None:
        """Close the devices and the store (idempotent)."""
        self._stack.close()


def open_table(
    config: Config,
    *,
    clock: Callable[[], float] = time.monotonic,
    pin_factory: object | None = None,
    oled_device: object | None = None,
    extra_displays: Sequence[Display] = (),
    buttons: Buttons | None = None,
    think_seconds: float = 1.0,
    roll_seconds: float = 1.0,
    moving_frames: int = 6,
    rng: random.Random | None = None,
    read: Callable[[Frame], Reading] | None = None,
    render: Callable[[Sequence[int], int], Sequence[Frame]] | None = None,
    on_frame: Callable[[Frame], None] | None = None,
    photo_bytes: int = MAX_BYTES,
) -> Table:
    """Open the camera, buttons, displays and store of ``config`` and resume or start a game.

    ``read`` replaces the dice reader and ``render`` the simulated camera's renderer (tests);
    ``on_frame`` is given every camera frame before it is read (the web's camera picture);
    ``photo_bytes`` bounds the kept photos of the throws (`device.photos`). The reader uses the
    classifier's layer adapted to the table's dice when the state directory has one (a damaged
    one is reported in the log and the shipped layer used).
    """
    rules = check_game_config(config)
    state = state_directory(config.state.directory)
    try:
        adapted = load_last_layer(state)
    except AdaptedFileError as exc:  # the table plays on with the shipped classifier
        log.warning("%s; the reader uses the shipped classifier until then", exc)
        adapted = None
    with ExitStack() as stack:
        store = GameStore.in_directory(state)
        stack.callback(store.close)
        keeper = PhotoKeeper(PhotoRing.in_directory(state, max_bytes=photo_bytes))
        stack.callback(keeper.close)
        if render is None:
            style = simulated_style(config.camera.style, config.camera.seed, _size(config))
            render = simulated_renderer(
                _size(config),
                style=style,
                moving_frames=moving_frames,
                room_seed=config.camera.seed,
            )
        if config.camera.read_truth and read is None:
            truth = TruthReader(render)
            render, read = truth.render, truth.read
        camera = _open_camera(config, render)
        stack.callback(camera.close)
        if buttons is None:
            buttons = open_configured_buttons(config, clock, pin_factory)
        stack.callback(buttons.close)
        configured = stack.enter_context(
            open_configured_displays(
                config, oled_device=oled_device, others_serve=bool(extra_displays)
            )
        )
        multi = MultiDisplay([*configured.displays, *extra_displays])
        session = Session.resume(store) or Session.new(
            store, rules, seats_from_config(config.game.players)
        )
        saved, damaged = load_calibration(state)
        params, unusable = reader_params(saved, _size(config), config.camera.roi)
        for notice in (damaged, unusable):
            if notice:
                log.warning("%s", notice)
        calibrated = _Calibrated(params, tuple(config.camera.roi))
        adapter = TableAdapter(state, adapted, every=config.reader.adapt_every)
        stack.callback(adapter.close)
        reader = adapter.reading(read or calibrated.read)
        if on_frame is not None:
            reader = _tapped(reader, on_frame)
        watcher = ThrowWatcher(camera, keeper.watching(reader), config.camera.settle_seconds)
        configure_review(mistake=config.review.mistake, blunder=config.review.blunder)
        settings = TableSettings(
            people=config.players.names,
            computers=config.players.computers,
            computers_throw_virtual=config.players.computer_throws == "virtual",
            think_seconds=think_seconds,
            roll_seconds=roll_seconds,
            target=config.game.target,
            hints=config.players.hints,
        )
        controller = Controller(
            session,
            watcher=watcher,
            buttons=buttons,
            display=multi,
            settings=settings,
            rng=rng,
        )
        controller.on_calibrated = calibrated.update
        controller.photos = keeper
        controller.adapter = adapter
        reviewer = TableReview(after_turn=config.review.after_turn)
        stack.callback(reviewer.close)
        controller.reviewer = reviewer
        table = Table(controller, camera, buttons, multi, store, stack.pop_all())
    return table


def _tapped(
    read: Callable[[Frame], Reading], on_frame: Callable[[Frame], None]
) -> Callable[[Frame], Reading]:
    """``read`` that first hands each frame to ``on_frame``."""

    def tapped(frame: Frame) -> Reading:
        on_frame(frame)
        return read(frame)

    return tapped


@dataclass
class _Calibrated:
    """The reader with its parameters, which the table's menu replaces when it calibrates the
    camera (an area typed in the config, ``camera.roi``, still wins)."""

    params: vision.ReaderParams
    configured_roi: tuple[tuple[int, int], ...]

    def read(self, frame: Frame) -> Reading:
        return vision.read(frame, self.params)

    def update(self, params: vision.ReaderParams) -> None:
        self.params = replace(params, roi=self.configured_roi or params.roi)


def open_configured_camera(config: Config) -> Camera:
    """The configured camera alone (the simulated one drawing the configured look), as
    `open_table` opens it: for commands that need only the camera (``calibrate``)."""
    style = simulated_style(config.camera.style, config.camera.seed, _size(config))
    render = simulated_renderer(_size(config), style=style, room_seed=config.camera.seed)
    return _open_camera(config, render)


def _size(config: Config) -> tuple[int, int]:
    return (config.camera.width, config.camera.height)


def _open_camera(config: Config, render: Callable[[Sequence[int], int], Sequence[Frame]]) -> Camera:
    c = config.camera
    if c.backend == "simulated":
        return open_camera(
            "simulated",
            render_throw=render,
            script=list(c.script),
            seed=c.seed,
        )
    if c.backend == "opencv":
        return open_camera(
            "opencv", source=c.device or c.index, width=c.width, height=c.height, fps=c.fps
        )
    if c.backend == "picamera2":
        return open_camera("picamera2", width=c.width, height=c.height)
    return open_camera("replay", path=Path(c.path))


def open_configured_buttons(
    config: Config, clock: Callable[[], float], pin_factory: object
) -> Buttons:
    """The buttons ``config`` names: its GPIO pins (on ``pin_factory``, gpiozero's own when
    None) or the keyboard, timed by ``clock``."""
    b = config.buttons
    if b.backend == "gpio":
        return open_buttons(
            "gpio",
            roll=b.roll,
            stop=b.stop,
            select=b.select,
            pull_up=b.pull_up,
            debounce=b.debounce,
            long_press=b.long_press,
            clock=clock,
            pin_factory=pin_factory,
        )
    return open_buttons("keyboard", clock=clock)


def open_configured_displays(
    config: Config,
    *,
    oled_device: object | None = None,
    terminal: bool = True,
    others_serve: bool = False,
) -> MultiDisplay:
    """The displays ``config`` names, opened as one `MultiDisplay` (`run`'s rules).

    One that cannot open (no HDMI screen, no OLED answering) is left out with a warning while
    another display serves; when none does, `DisplayUnavailable` says so in one line. An OLED
    configured beside other displays tolerates I/O errors (`open_oled`'s ``fallback``), a sole
    OLED does not. ``terminal=False`` leaves the terminal display out (a command that prints its
    own lines), though a configured terminal still counts as serving; ``others_serve`` says the
    caller shows more displays of its own beside these. ``oled_device`` stands for the OLED
    (luma's ``dummy``)."""
    sole = len(config.displays) == 1 and not others_serve
    opened: list[Display] = []
    failures: list[tuple[str, DisplayUnavailable]] = []
    try:
        for spec in config.displays:
            if spec.kind == "terminal" and not terminal:
                continue
            try:
                display = _open_display(spec, oled_device, fallback=not sole)
            except DisplayUnavailable as exc:  # e.g. no HDMI screen: the others still serve
                failures.append((spec.kind, exc))
                continue
            if isinstance(display, NullDisplay):  # no OLED answered (open_oled logged it)
                failures.append(("", DisplayUnavailable(display.reason)))
                continue
            opened.append(display)
    except BaseException:
        MultiDisplay(opened).close()
        raise
    terminal_left_out = not terminal and any(spec.kind == "terminal" for spec in config.displays)
    if failures and not (opened or others_serve or terminal_left_out):
        kinds = ", ".join(spec.kind for spec in config.displays)
        raise DisplayUnavailable(f"no display works (configured: {kinds}): {failures[0][1]}")
    for kind, problem in failures:
        if kind:
            log.warning("display %r unavailable, carrying on without it: %s", kind, problem)
    return MultiDisplay(opened)


def _open_display(spec: DisplayConfig, oled_device: object | None, *, fallback: bool) -> Display:
    """The display ``spec``; an OLED that does not answer is a `NullDisplay` when ``fallback``
    (another display serves), else `DisplayUnavailable`."""
    if spec.kind == "oled":
        options: dict[str, object] = {
            "driver": spec.driver,
            "port": spec.port,
            "address": spec.address,
            "rotation": spec.rotation,
            "fallback": fallback,
        }
        if oled_device is not None:
            options["device"] = oled_device
        with warnings.catch_warnings():  # a missing OLED is logged once, not also warned
            warnings.simplefilter("ignore", RuntimeWarning)
            return open_display("oled", **options)
    if spec.kind == "screen":
        return open_display(
            "screen", width=spec.width, height=spec.height, fullscreen=spec.fullscreen
        )
    return open_display("terminal")
