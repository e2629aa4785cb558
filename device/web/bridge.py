"""Where the table's thread and the web's thread meet: views and frames in, requests out.

The table never waits for the web. `WebBridge.show` (a `Display`) keeps the newest `TableView`
and wakes the web's event loop with ``call_soon_threadsafe``; `on_frame` keeps a reference to the
newest camera frame; `drain` (the controller's ``inbox``, run at each step) applies the requests
the web queued, each answered through a `concurrent.futures.Future` that the web awaits with a
timeout. Everything the two threads share is behind one lock held for a few assignments.
"""

from __future__ import annotations

import math
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from engine.errors import DicekeeperError
from hardware.backends import Closing
from hardware.view import TableView
from vision.types import Frame

if TYPE_CHECKING:
    from device.controller import Controller

__all__ = ["MAX_QUEUED", "PER_STEP", "TableBusy", "WebBridge"]

MAX_QUEUED = 32
"""Requests waiting for the table at most; more are refused (`TableBusy`)."""
PER_STEP = 8
"""Requests the table applies in one step at most, so its step time stays bounded."""
CAMERA_PERIOD = 0.5
"""Seconds between two new camera pictures announced to the web (at most)."""

Action = Callable[["Controller", float], Any]
"""A request: run on the table's thread with the controller and the step's time."""


class TableBusy(DicekeeperError):
    """Too many requests are already waiting for the table."""


class WebBridge(Closing):
    """The newest view and camera frame for the web, and the web's requests for the table."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        camera_period: float = CAMERA_PERIOD,
    ) -> None:
        self._clock = clock
        self._camera_period = camera_period
        self._lock = threading.Lock()
        self._view: TableView | None = None
        self._camera = 0  # the camera picture's number announced to the web (0: none yet)
        self._camera_at = -math.inf
        self._frame: Frame | None = None
        self._frame_seq = 0  # counts the frames seen
        self._announced = 0  # the frame number `_camera` stands for
        self._requests: queue.SimpleQueue[tuple[Action, Future[Any]]] = queue.SimpleQueue()
        self._wake: Callable[[], None] | None = None

    # --- the table's side --------------------------------------------------------------------

    def show(self, view: TableView) -> None:
        """Keep ``view`` (and announce a newer camera picture); wake the web if it changed."""
        now = self._clock()
        with self._lock:
            changed = view != self._view
            self._view = view
            if self._frame_seq != self._announced and now - self._camera_at >= self._camera_period:
                self._announced = self._frame_seq
                self._camera += 1
                self._camera_at = now
                changed = True
            wake = self._wake
        if changed and wake is not None:
            wake()

    def on_frame(self, frame: Frame) -> None:
        """Keep (a reference to) the newest camera frame."""
        with self._lock:
            self._frame = frame
            self._frame_seq += 1

    def drain(self, controller: Controller, now: float) -> None:
        """Apply up to `PER_STEP` queued requests, answering each through its future."""
        for _ in range(PER_STEP):
            try:
                action, future = self._requests.get_nowait()
            except queue.Empty:
                return
            if not future.set_running_or_notify_cancel():  # the web gave up waiting
                continue
            try:
                future.set_result(action(controller, now))
            except Exception as exc:  # the web reports it; the table carries on
                future.set_exception(exc)

    def attach(self, controller: Controller) -> None:
        """Make ``controller`` drain this bridge's requests at each step."""
        controller.inbox = lambda now: self.drain(controller, now)

    # --- the web's side ----------------------------------------------------------------------

    def set_wake(self, wake: Callable[[], None] | None) -> None:
        """Call ``wake`` (from the table's thread; it must not block) when the view changes."""
        with self._lock:
            self._wake = wake

    def snapshot(self) -> tuple[TableView | None, int]:
        """The newest view (None before the first) and the camera picture's number."""
        with self._lock:
            return self._view, self._camera

    def frame(self) -> tuple[int, Frame | None]:
        """The camera picture's number and the newest frame (None when no frame came yet)."""
        with self._lock:
            return self._camera, self._frame

    def submit(self, action: Action) -> Future[Any]:
        """Queue ``action`` for the table's next step; its future holds the result."""
        if self._requests.qsize() >= MAX_QUEUED:
            raise TableBusy("the table has too many requests waiting: try again")
        future: Future[Any] = Future()
        self._requests.put((action, future))
        return future

    def close(self) -> None:
        """Stop waking the web, and fail the requests still waiting (idempotent)."""
        self.set_wake(None)
        while True:
            try:
                _, future = self._requests.get_nowait()
            except queue.Empty:
                return
            if future.set_running_or_notify_cancel():
                future.set_exception(TableBusy("the table has stopped"))
