"""The HDMI screen or desktop window (pygame-ce): `ScreenDisplay` shows `render_screen`'s picture.

On a Raspberry Pi without a desktop it goes fullscreen through KMSDRM (``SDL_VIDEODRIVER=kmsdrm``);
on a desktop it opens a window. It owns pygame's event queue: every call of `show` or `read_keys`
pumps it, keeps the key presses for the keyboard buttons (see `hardware.keys`) and, while dice are
tumbling, redraws them so that they keep shaking.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame

from hardware.backends import Closing
from hardware.errors import DisplayUnavailable
from hardware.keys import register_screen, unregister_screen
from hardware.screen_render import render_screen
from hardware.view import TableView

OFFSCREEN_DRIVERS = ("offscreen", "dummy")
"""SDL's video drivers that draw into memory only: a screen only when asked for by name."""


def wants_fullscreen(environ: Mapping[str, str], *, platform: str = sys.platform) -> bool:
    """Whether to fill the screen: on a console video driver, or on Linux with no desktop."""
    driver = environ.get("SDL_VIDEODRIVER", "")
    if driver in ("kmsdrm", "fbcon", "directfb"):
        return True
    has_desktop = bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))
    return platform.startswith("linux") and not has_desktop and driver != "dummy"


class ScreenDisplay(Closing):
    """The table on a pygame window or the whole screen.

    ``fullscreen`` None decides with `wants_fullscreen`. Fails with `DisplayUnavailable` (and a
    hint) when SDL cannot open any video output, or opens only one that draws nowhere
    (``offscreen``, ``dummy``) without ``SDL_VIDEODRIVER`` asking for it.
    """

    def __init__(
        self,
        *,
        width: int = 800,
        height: int = 480,
        fullscreen: bool | None = None,
        title: str = "dicekeeper",
        clock: Callable[[], float] = time.monotonic,
        shakes_per_second: float = 12.0,
    ) -> None:
        if fullscreen is None:
            fullscreen = wants_fullscreen(os.environ)
        try:
            pygame.display.init()
            pygame.font.init()
            if fullscreen:
                self._surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
                pygame.mouse.set_visible(False)
            else:
                self._surface = pygame.display.set_mode((width, height))
            pygame.display.set_caption(title)
        except pygame.error as error:
            pygame.display.quit()
            driver = os.environ.get("SDL_VIDEODRIVER", "(SDL's choice)")
            raise DisplayUnavailable(
                f"cannot open the screen with video driver {driver!r} ({error}): on a Raspberry Pi "
                "without a desktop set SDL_VIDEODRIVER=kmsdrm and add the user to the video and "
                'render groups; on a machine with no screen use display kind = "terminal"'
            ) from error
        used = pygame.display.get_driver()
        wanted = os.environ.get("SDL_VIDEODRIVER", "").split(",")
        if used in OFFSCREEN_DRIVERS and used not in wanted:  # SDL's quiet fallback: no picture
            pygame.display.quit()
            raise DisplayUnavailable(
                f"no screen to show on: SDL fell back to its {used!r} video driver, which draws "
                "nowhere (no desktop, and SDL_VIDEODRIVER names no driver that works): on a "
                "Raspberry Pi without a desktop set SDL_VIDEODRIVER=kmsdrm; on a machine with no "
                'screen use display kind = "terminal"'
            )
        self.is_fullscreen = fullscreen
        self._keys: list[str] = []
        self._view: TableView | None = None
        self._clock = clock
        self._shakes_per_second = shakes_per_second
        self._drawn_tick = -1
        self._is_open = True
        self.draw_count = 0
        """How many times the picture was drawn (redraws are skipped when nothing moved)."""
        register_screen(self)

    @property
    def size(self) -> tuple[int, int]:
        """The drawing size in pixels."""
        width, height = self._surface.get_size()
        return width, height

    def _pump(self) -> None:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self._keys.append("quit")
            elif event.type == pygame.KEYDOWN:
                typed = "?" if event.unicode == "?" else pygame.key.name(event.key).lower()
                self._keys.append(typed)
            elif event.type in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE):
                self._draw()

    def _tick(self) -> int:
        return int(self._clock() * self._shakes_per_second)

    def _draw(self) -> None:
        if self._view is not None:
            self._drawn_tick = self._tick()
            render_screen(self._view, self._surface, tick=self._drawn_tick)
            pygame.display.flip()
            self.draw_count += 1

    def _animate(self) -> None:
        if self._view is not None and self._view.is_rolling and self._tick() != self._drawn_tick:
            self._draw()

    def show(self, view: TableView) -> None:
        """Draw ``view`` if it changed (tumbling dice are redrawn as time goes on)."""
        if not self._is_open:
            return
        self._pump()
        if view != self._view:
            self._view = view
            self._draw()
        else:
            self._animate()

    def read_keys(self) -> list[str]:
        """Key names pressed since the last call (pygame's names, "quit" for closing the window).

        Also keeps tumbling dice moving between two `show` calls.
        """
        if not self._is_open:
            return []
        self._pump()
        self._animate()
        keys, self._keys = self._keys, []
        return keys

    def save(self, path: str | Path) -> Path:
        """Write what the screen shows now to an image file (PNG by suffix); returns the path."""
        target = Path(path)
        pygame.image.save(self._surface, str(target))
        return target

    def close(self) -> None:
        """Close the window / leave the screen (idempotent)."""
        if self._is_open:
            self._is_open = False
            unregister_screen(self)
            pygame.display.quit()
