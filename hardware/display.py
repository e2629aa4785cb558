"""The display seam: the `Display` Protocol, a fan-out to several displays, and `open_display`.

A display shows a `TableView`. Each backend draws it with a pure ``render_*`` function (OLED and
screen onto an image, terminal into text) and then hands the result to its device.
Backends: ``oled``, ``screen``, ``terminal``, ``memory`` (keeps what it was shown, for tests) and
``null`` (shows nothing).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol, runtime_checkable

from hardware.backends import Closing, Resource
from hardware.view import TableView


@runtime_checkable
class Display(Resource, Protocol):
    """Something that shows the table."""

    def show(self, view: TableView) -> None:
        """Draw ``view`` (displays may skip a redraw when nothing changed)."""
        ...


class NullDisplay(Closing):
    """A display that shows nothing (the fallback when a device is missing)."""

    def __init__(self, *, reason: str = "") -> None:
        self.reason = reason

    def show(self, view: TableView) -> None:
        """Ignore ``view``."""


class MemoryDisplay(Closing):
    """A display that remembers every view it was shown and their text form (for tests)."""

    def __init__(self) -> None:
        self.views: list[TableView] = []
        self.is_closed = False

    @property
    def last(self) -> TableView | None:
        """The most recent view, if any."""
        return self.views[-1] if self.views else None

    @property
    def text(self) -> str:
        """The most recent view as the terminal display would print it ("" before any)."""
        from hardware.terminal import render_text

        return "" if self.last is None else render_text(self.last)

    def show(self, view: TableView) -> None:
        """Remember ``view``."""
        self.views.append(view)

    def close(self) -> None:
        """Mark closed (idempotent); the views stay readable."""
        self.is_closed = True


class MultiDisplay(Closing):
    """Several displays shown together: every `show` and `close` goes to each of them.

    If one display fails the others are still shown (or closed), then the first error is raised.
    """

    def __init__(self, displays: Iterable[Display]) -> None:
        self.displays = tuple(displays)

    def show(self, view: TableView) -> None:
        """Show ``view`` on every display."""
        self._each(lambda display: display.show(view))

    def close(self) -> None:
        """Close every display (idempotent)."""
        self._each(lambda display: display.close())

    def _each(self, action: _Action) -> None:
        first: Exception | None = None
        for display in self.displays:
            try:
                action(display)
            except Exception as error:
                first = first or error
        if first is not None:
            raise first


class _Action(Protocol):
    def __call__(self, display: Display, /) -> None: ...


def open_display(name: str, /, **options: object) -> Display:
    """Open display backend ``name`` with its keyword options.

    ``oled``: driver="ssd1306" (or "sh1106"), port=1, address=0x3C, rotation=0, width=128,
    height=64, device (an already made luma device, e.g. ``luma.core.device.dummy``),
    fallback=True (no I2C device found: warn and return a `NullDisplay` instead of failing).
    ``screen``: width=800, height=480, fullscreen=None (None: fullscreen when there is no
    desktop), title.
    ``terminal``: stream (default stdout).
    ``memory``, ``null``: no options.
    Raises `UnknownBackend` listing the valid names.
    """
    from hardware.display_backends import DISPLAYS

    return DISPLAYS.open(name, options)


def open_displays(specs: Iterable[str | tuple[str, Mapping[str, object]]]) -> MultiDisplay:
    """Open several displays (names, or (name, options) pairs) as one `MultiDisplay`.

    If one fails to open, those already open are closed before the error propagates.
    """
    opened: list[Display] = []
    try:
        for spec in specs:
            name, options = (spec, {}) if isinstance(spec, str) else spec
            opened.append(open_display(name, **options))
    except BaseException:
        MultiDisplay(opened).close()
        raise
    return MultiDisplay(opened)


def display_names() -> tuple[str, ...]:
    """The valid display backend names."""
    from hardware.display_backends import DISPLAYS

    return DISPLAYS.names
