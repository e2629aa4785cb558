"""The side panels of the big screen: score table, score chart, menu, a computer's remark."""

from __future__ import annotations

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame

from hardware.screen_draw import (
    BAR,
    FELT_DARK,
    GOLD,
    INK,
    MUTED,
    PIP,
    font,
    player_color,
    text,
    wrap,
)
from hardware.view import TableView


def draw_scores(surface: pygame.Surface, view: TableView, area: pygame.Rect, s: float) -> int:
    """The score table: a row per player (current highlighted, winner gold); returns the y below."""
    row_height = round(32 * s)
    y = area.top
    for index, player in enumerate(view.players):
        row = pygame.Rect(area.left, y, area.width, row_height - round(4 * s))
        if index == view.current and view.winner is None:
            pygame.draw.rect(surface, (30, 95, 70), row, border_radius=round(8 * s))
        if index == view.winner:
            pygame.draw.rect(surface, GOLD, row, border_radius=round(8 * s))
        ink = PIP if index == view.winner else INK
        pygame.draw.circle(
            surface, player_color(index), (row.left + round(14 * s), row.centery), round(7 * s)
        )
        name = player.name + (" (cpu)" if player.is_computer else "")
        name_width = row.width - round(110 * s)
        text(
            surface,
            name,
            round(26 * s),
            ink,
            at=(row.left + round(28 * s), row.centery),
            anchor="midleft",
            width=name_width,
        )
        total = str(player.total)
        if not player.has_entered and index != view.winner:
            ink = MUTED
        text(
            surface,
            total,
            round(28 * s),
            ink,
            at=(row.right - round(8 * s), row.centery),
            anchor="midright",
        )
        y += row_height
    return y


def draw_chart(surface: pygame.Surface, view: TableView, area: pygame.Rect, s: float) -> None:
    """Every player's total after each turn as a curve in their colour, with the goal line."""
    pygame.draw.rect(surface, FELT_DARK, area, border_radius=round(10 * s))
    histories = [(0, *p.history) for p in view.players]
    turns = max((len(h) for h in histories), default=1) - 1
    top = max([view.target, *(max(h) for h in histories), 100])
    plot = area.inflate(-round(40 * s), -round(36 * s)).move(round(8 * s), round(2 * s))
    text(
        surface,
        "total after each turn",
        round(18 * s),
        MUTED,
        at=(area.left + round(8 * s), area.top + round(4 * s)),
    )

    def point(turn: int, score: int) -> tuple[int, int]:
        x = plot.left + round(plot.width * turn / max(turns, 1))
        return x, plot.bottom - round(plot.height * score / top)

    pygame.draw.line(surface, MUTED, plot.bottomleft, plot.bottomright, 1)
    if view.target:
        y = point(0, view.target)[1]
        for x in range(plot.left, plot.right, round(10 * s)):
            pygame.draw.line(surface, GOLD, (x, y), (min(x + round(5 * s), plot.right), y), 1)
        label = f"goal {view.target}"
        text(  # under the line at the left: the curves start low, the leaders end near it
            surface,
            label,
            round(18 * s),
            GOLD,
            at=(plot.left + round(4 * s), y + round(3 * s)),
            anchor="topleft",
        )
    if turns > 0:
        label = f"{turns} turns" if turns > 1 else "1 turn"
        text(
            surface,
            label,
            round(16 * s),
            MUTED,
            at=(plot.right, plot.bottom + round(3 * s)),
            anchor="topright",
        )
    for index, history in enumerate(histories):
        points = [point(turn, score) for turn, score in enumerate(history)]
        width = max(round(3 * s), 1) if index == view.current else max(round(2 * s), 1)
        if len(points) > 1:
            pygame.draw.lines(surface, player_color(index), False, points, width)
        pygame.draw.circle(surface, player_color(index), points[-1], round(4 * s))


def draw_menu(surface: pygame.Surface, view: TableView, s: float) -> None:
    """The menu over a darkened table, the selected item in gold."""
    shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 170))
    surface.blit(shade, (0, 0))
    row = round(40 * s)
    panel = pygame.Rect(0, 0, round(420 * s), row * len(view.menu) + round(80 * s))
    panel.center = surface.get_rect().center
    pygame.draw.rect(surface, BAR, panel, border_radius=round(14 * s))
    text(
        surface,
        "MENU",
        round(34 * s),
        GOLD,
        at=(panel.centerx, panel.top + round(14 * s)),
        anchor="midtop",
    )
    for index, item in enumerate(view.menu):
        line = pygame.Rect(
            panel.left + round(16 * s),
            panel.top + round(56 * s) + index * row,
            panel.width - round(32 * s),
            row - round(6 * s),
        )
        if index == view.menu_selected:
            pygame.draw.rect(surface, GOLD, line, border_radius=round(8 * s))
        ink = PIP if index == view.menu_selected else INK
        text(
            surface,
            item,
            round(28 * s),
            ink,
            at=(line.left + round(12 * s), line.centery),
            anchor="midleft",
        )


def draw_remark(surface: pygame.Surface, view: TableView, area: pygame.Rect, s: float) -> int:
    """A speech bubble with the current (computer) player's remark; returns the y below it."""
    current = view.current if view.current is not None else 0
    size = round(24 * s)
    pad = round(10 * s)
    lines = wrap(f"“{view.remark}”", size, area.width - 2 * pad - round(40 * s))[:2]
    bubble = pygame.Rect(area.left + round(40 * s), area.top, area.width - round(40 * s), 0)
    bubble.height = 2 * pad + size * len(lines) - round(4 * s)
    pygame.draw.rect(surface, (250, 240, 215), bubble, border_radius=round(12 * s))
    tip = bubble.left
    pygame.draw.polygon(
        surface,
        (250, 240, 215),
        [
            (tip, bubble.top + round(12 * s)),
            (tip - round(14 * s), bubble.top + round(18 * s)),
            (tip, bubble.top + round(26 * s)),
        ],
    )
    pygame.draw.circle(
        surface,
        player_color(current),
        (area.left + round(14 * s), bubble.top + round(18 * s)),
        round(12 * s),
    )
    for number, line in enumerate(lines):
        at = (bubble.left + pad, bubble.top + pad + number * size)
        text(surface, line, size, (60, 45, 30), at=at)
    return bubble.bottom + round(8 * s)


def draw_review(surface: pygame.Surface, view: TableView, area: pygame.Rect, s: float) -> None:
    """The review at the end of a game in ``area``: each player's accuracy, in their colour, and
    their biggest swing beneath (`TableView.review`)."""
    pygame.draw.rect(surface, FELT_DARK, area, border_radius=round(12 * s))
    rows = [(i, row) for i, row in enumerate(view.review[: len(view.players)]) if row[0]]
    pad = round(12 * s)
    step = min(round(30 * s), (area.height - 2 * pad) // max(1, 2 * len(rows)))
    y = area.top + pad
    for index, (accuracy, swing) in rows:
        name = view.players[index].name
        text(
            surface,
            f"{name}: accuracy {accuracy}",
            step,
            player_color(index),
            at=(area.left + pad, y),
            width=area.width - 2 * pad,
        )
        if swing:
            text(
                surface,
                f"biggest swing {swing}",
                round(step * 0.8),
                INK,
                at=(area.left + pad, y + step),
                width=area.width - 2 * pad,
            )
        y += 2 * step


def draw_last_turn(surface: pygame.Surface, view: TableView, area: pygame.Rect, s: float) -> int:
    """How the previous turn ended, in at most two lines at ``area.top``; returns the y below."""
    size = round(20 * s)
    lines = wrap(view.last_turn, size, area.width - round(8 * s))[:2]
    for number, line in enumerate(lines):
        at = (area.left + round(4 * s), area.top + number * size)
        text(surface, line, size, MUTED, at=at, width=area.width - round(8 * s))
    return area.top + len(lines) * size + round(8 * s)


def draw_web(surface: pygame.Surface, view: TableView, area: pygame.Rect, s: float) -> int:
    """Where phones find the scoreboard and the code that gives them control, at the foot of
    ``area``, large enough to read on a small screen; returns the y above it (``area.bottom``
    when the web page is off)."""
    lines = []
    if view.web:  # a phone's browser needs no "http://"; small screens drop the label too
        address = view.web.removeprefix("http://")
        size = max(round(22 * s), 15)
        words = f"phones: {address}"
        lines.append((words if font(size).size(words)[0] <= area.width else address, size, INK))
    if view.pair_code:
        lines.append((f"code {view.pair_code}", max(round(28 * s), 18), GOLD))
    y = area.bottom
    for words, size, color in reversed(lines):
        y = text(
            surface, words, size, color, at=(area.left, y), anchor="bottomleft", width=area.width
        ).top
        y -= round(4 * s)
    return y
