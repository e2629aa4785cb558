"""`dicekeeper run [--config FILE]`: the appliance at the table (camera, buttons, displays)."""

from __future__ import annotations

import argparse
import logging
import math
import signal
import subprocess
from contextlib import ExitStack
from pathlib import Path
from types import FrameType

from device.config import load_config
from device.loop import run_loop
from device.notify import Notifier
from device.store import StateLock, state_directory
from device.web.bridge import WebBridge
from device.wiring import open_table

log = logging.getLogger(__name__)

POWER_OFF = ["systemctl", "poweroff"]
"""Run after the menu's "Shut down" when ``system.shutdown = "poweroff"``."""
MAX_RATE = 100.0
"""The most main-loop steps per second ``--rate`` takes (more only spins the CPU)."""


def rate(text: str) -> float:
    """``--rate``: a number of steps per second above 0 and at most `MAX_RATE`."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (math.isfinite(value) and 0 < value <= MAX_RATE):
        raise argparse.ArgumentTypeError(
            f"{text!r}: the steps per second must be above 0 and at most {MAX_RATE:g}"
        )
    return value


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``run`` command."""
    parser = subparsers.add_parser(
        "run",
        help="the appliance: read the dice, keep the score, take the buttons",
        description=(
            "Run dicekeeper at the table. The configuration comes from --config FILE, else "
            "/etc/dicekeeper/config.toml if present, else built-in defaults (simulated camera, "
            "keyboard keys r/s/space/m, a window or the terminal). An unfinished game resumes."
        ),
    )
    parser.add_argument("--config", metavar="FILE", type=Path, help="the TOML configuration")
    parser.add_argument(
        "--rate", type=rate, default=20.0, help="main-loop steps per second (default 20)"
    )
    parser.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    """Open the table from the configuration and run it until shut down (the state directory
    locked against a second `dicekeeper run` before anything in it is read)."""
    config = load_config(args.config)
    notifier = Notifier()
    bridge = WebBridge() if config.web.enabled else None
    with (
        StateLock(state_directory(config.state.directory)),
        open_table(config, on_frame=bridge.on_frame if bridge else None) as table,
        ExitStack() as web,
    ):
        controller = table.controller

        def shut_down(signum: int, frame: FrameType | None) -> None:
            controller.is_shut_down = True

        # Before the web server starts: a stop that comes once the state is served is clean.
        signal.signal(signal.SIGTERM, shut_down)  # systemctl stop
        signal.signal(signal.SIGINT, shut_down)  # Ctrl-C in a terminal: a clean stop too
        log.info("configuration from %s", config.source)
        if bridge is not None:
            web.callback(bridge.close)
            from device.web.server import start_web  # aiohttp only when the web is on

            server = start_web(
                bridge,
                controller,
                bind=config.web.bind,
                port=config.web.port,
                store_path=table.store.path,
            )
            web.callback(server.stop)
        for notice in (table.store.notice, controller.session.notice):
            if notice:
                log.warning("%s", notice)
        state = controller.state
        log.info(
            "%s, players %s; game store %s",
            state.rules.name,
            ", ".join(p.name for p in state.players) or "none",
            table.store.path,
        )
        notifier.ready(f"playing {state.rules.name}")
        controller.on_event = lambda event: notifier.status(
            f"{controller.state.rules.name}: "
            + ", ".join(f"{p.name} {p.total}" for p in controller.state.players)
        )
        run_loop(controller, rate=args.rate, notifier=notifier)
        notifier.stopping()
    if controller.wants_power_off and config.system.shutdown == "poweroff":
        log.info("powering off")
        return subprocess.run(POWER_OFF, check=False).returncode
    return 0
