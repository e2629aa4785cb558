"""The appliance's main loop: step the controller at a steady rate until it shuts down."""

from __future__ import annotations

import time
from collections.abc import Callable

from device.controller import Controller
from device.notify import Notifier

__all__ = ["run_loop"]


def run_loop(
    controller: Controller,
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    rate: float = 20.0,
    notifier: Notifier | None = None,
    max_steps: int | None = None,
    stop: Callable[[Controller], bool] | None = None,
) -> int:
    """Step ``controller`` ``rate`` times a second until it shuts down (or ``stop`` says so, or
    ``max_steps`` steps ran); returns the number of steps. Pings the systemd watchdog."""
    period = 1.0 / rate
    steps = 0
    next_at = clock()
    while not controller.is_shut_down:
        if max_steps is not None and steps >= max_steps:
            break
        if stop is not None and stop(controller):
            break
        now = clock()
        controller.step(now)
        steps += 1
        if notifier is not None:
            notifier.watchdog(now)
        next_at = max(next_at + period, clock())
        delay = next_at - clock()
        if delay > 0:
            sleep(delay)
    return steps
