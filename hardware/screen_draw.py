"""Drawing primitives of the big screen: colours, pygame's built-in font, text and dice."""

from __future__ import annotations

import os
from functools import cache

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame

from hardware.view import PIP_GRID

Color = tuple[int, int, int]
FELT: Color = (16, 72, 52)
FELT_DARK: Color = (10, 48, 35)
BAR: Color = (8, 30, 24)
INK: Color = (236, 240, 232)
MUTED: Color = (150, 180, 165)
IVORY: Color = (250, 247, 238)
PIP: Color = (30, 30, 36)
GUESS: Color = (40, 110, 200)
GOLD: Color = (255, 196, 40)
ALERT: Color = (196, 48, 48)
NOTICE: Color = (28, 92, 70)
PLAYER_COLORS: tuple[Color, ...] = (
    (255, 140, 60),
    (90, 170, 255),
    (240, 90, 160),
    (130, 220, 110),
    (200, 150, 255),
    (250, 230, 90),
)


def player_color(index: int) -> Color:
    """The colour of player ``index`` in the table and the chart."""
    return PLAYER_COLORS[index % len(PLAYER_COLORS)]


@cache
def font(size: int) -> pygame.font.Font:
    """pygame's built-in font at ``size`` pixels (no font file needed)."""
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, max(size, 8))


def text(
    surface: pygame.Surface,
    words: str,
    size: int,
    color: Color,
    *,
    at: tuple[int, int],
    anchor: str = "topleft",
    width: int | None = None,
) -> pygame.Rect:
    """Draw ``words`` with its ``anchor`` (a pygame Rect attribute) at ``at``; cut to ``width``."""
    face = font(size)
    if width is not None and face.size(words)[0] > width:
        while words and face.size(words + "…")[0] > width:
            words = words[:-1]
        words += "…"
    image = face.render(words, True, color)
    rect = image.get_rect(**{anchor: at})
    surface.blit(image, rect)
    return rect


def die_image(
    value: int | None, side: int, *, ring: Color | None = None, guess: int | None = None
) -> pygame.Surface:
    """A die of ``side`` pixels showing ``value`` (None: a "?", not known), optionally ringed
    (the selected keep, the die being corrected). A die not known with a ``guess`` (the reader's
    likeliest value) shows the "?" with the guess small in its lower right corner."""
    pad = max(side // 10, 3) if ring else 0
    image = pygame.Surface((side + 2 * pad, side + 2 * pad), pygame.SRCALPHA)
    if ring:
        pygame.draw.rect(image, ring, image.get_rect(), border_radius=side // 4)
    body = pygame.Rect(pad, pad, side, side)
    shadow = body.move(0, max(side // 24, 1))
    pygame.draw.rect(image, (170, 165, 150), shadow, border_radius=side // 6)
    pygame.draw.rect(image, IVORY, body, border_radius=side // 6)
    if value is None and guess is not None:
        mark = font(round(side * 0.8)).render("?", True, PIP)
        image.blit(mark, mark.get_rect(center=(body.left + side * 3 // 8, body.centery)))
        small = font(round(side * 0.45)).render(str(guess), True, GUESS)
        corner = (body.right - max(side // 12, 2), body.bottom - max(side // 14, 1))
        image.blit(small, small.get_rect(bottomright=corner))
        return image
    if value is None:
        mark = font(round(side * 0.9)).render("?", True, PIP)
        image.blit(mark, mark.get_rect(center=body.center))
        return image
    radius = max(side // 11, 2)
    for column, row in PIP_GRID[value]:  # grid lines at 1/4, 1/2 and 3/4 of the face
        center = (pad + round((1 + column) * side / 4), pad + round((1 + row) * side / 4))
        pygame.draw.circle(image, (200, 40, 40) if value == 1 else PIP, center, radius)
    return image


def wrap(words: str, size: int, width: int) -> list[str]:
    """``words`` broken into lines of at most ``width`` pixels."""
    lines: list[str] = []
    for word in words.split():
        if lines and font(size).size(f"{lines[-1]} {word}")[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines
