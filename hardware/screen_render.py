"""The big screen's picture: `render_screen` draws a `TableView` onto a pygame Surface.

Pure drawing (no window, no events), so it runs under any SDL video driver and in tests. Sizes
are laid out for 800×480 and scaled to the surface.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Sequence
from functools import cache

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame

from hardware.view import Phase, TableView

Color = tuple[int, int, int]
FELT: Color = (16, 72, 52)
FELT_DARK: Color = (10, 48, 35)
BAR: Color = (8, 30, 24)
INK: Color = (236, 240, 232)
MUTED: Color = (150, 180, 165)
IVORY: Color = (250, 247, 238)
PIP: Color = (30, 30, 36)
GOLD: Color = (255, 196, 40)
ALERT: Color = (196, 48, 48)
PLAYER_COLORS: tuple[Color, ...] = (
    (255, 140, 60),
    (90, 170, 255),
    (240, 90, 160),
    (130, 220, 110),
    (200, 150, 255),
    (250, 230, 90),
)
PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)),
}


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


def die_image(value: int, side: int, *, ring: Color | None = None) -> pygame.Surface:
    """A die of ``side`` pixels showing ``value``, optionally ringed (the selected keep)."""
    pad = max(side // 10, 3) if ring else 0
    image = pygame.Surface((side + 2 * pad, side + 2 * pad), pygame.SRCALPHA)
    if ring:
        pygame.draw.rect(image, ring, image.get_rect(), border_radius=side // 4)
    body = pygame.Rect(pad, pad, side, side)
    shadow = body.move(0, max(side // 24, 1))
    pygame.draw.rect(image, (170, 165, 150), shadow, border_radius=side // 6)
    pygame.draw.rect(image, IVORY, body, border_radius=side // 6)
    radius = max(side // 11, 2)
    for fx, fy in PIPS[value]:
        center = (pad + round(fx * side), pad + round(fy * side))
        pygame.draw.circle(image, (200, 40, 40) if value == 1 else PIP, center, radius)
    return image


def _selected_positions(view: TableView) -> set[int]:
    option = view.selected_option
    if option is None:
        return set()
    wanted = Counter(option.dice)
    positions = set()
    for index, value in enumerate(view.dice):
        if value is not None and wanted[value] > 0:
            wanted[value] -= 1
            positions.add(index)
    return positions


def _draw_tray(
    surface: pygame.Surface, view: TableView, tray: pygame.Rect, s: float, tick: int
) -> None:
    pygame.draw.rect(surface, FELT_DARK, tray, border_radius=round(18 * s))
    pygame.draw.rect(
        surface, (60, 110, 85), tray, width=max(round(3 * s), 1), border_radius=round(18 * s)
    )
    count = len(view.dice)
    if view.winner is not None and count == 0:
        _draw_standings(surface, view, tray, s)
        return
    if count == 0:
        hint = "throw the dice" if view.phase is Phase.WAITING else "the tray is empty"
        text(surface, hint, round(30 * s), MUTED, at=tray.center, anchor="center")
        return
    side = min(round(66 * s), (tray.width - round(24 * s)) // count - round(12 * s))
    gap = round(14 * s)
    row = count * side + (count - 1) * gap
    left = tray.centerx - row // 2
    selected = _selected_positions(view)
    for index, value in enumerate(view.dice):
        center = (left + index * (side + gap) + side // 2, tray.centery)
        if value is None:  # tumbling: a random face, jostled and turned, new every tick
            shake = random.Random(tick * 7919 + index * 104729)
            image = die_image(shake.randint(1, 6), side)
            image = pygame.transform.rotozoom(image, shake.uniform(-35, 35), 1.0)
            center = (
                center[0] + round(shake.uniform(-6, 6) * s),
                center[1] + round(shake.uniform(-14, 14) * s),
            )
        else:
            image = die_image(value, side, ring=GOLD if index in selected else None)
        surface.blit(image, image.get_rect(center=center))
    if view.phase is Phase.BUST:
        stamp = font(round(90 * s)).render("BUST", True, ALERT)
        stamp = pygame.transform.rotate(stamp, 12)
        surface.blit(stamp, stamp.get_rect(center=tray.center))


def _draw_standings(surface: pygame.Surface, view: TableView, tray: pygame.Rect, s: float) -> None:
    ranked = sorted(range(len(view.players)), key=lambda i: -view.players[i].total)[:4]
    row = (tray.height - round(20 * s)) // max(len(ranked), 1)
    for place, index in enumerate(ranked):
        player = view.players[index]
        y = tray.top + round(10 * s) + place * row + row // 2
        color = GOLD if index == view.winner else INK
        size = round((34 if place == 0 else 28) * s)
        text(
            surface,
            f"{place + 1}.",
            size,
            color,
            at=(tray.left + round(40 * s), y),
            anchor="midleft",
        )
        pygame.draw.circle(
            surface, player_color(index), (tray.left + round(90 * s), y), round(8 * s)
        )
        text(
            surface, player.name, size, color, at=(tray.left + round(110 * s), y), anchor="midleft"
        )
        text(
            surface,
            str(player.total),
            size,
            color,
            at=(tray.right - round(40 * s), y),
            anchor="midright",
        )


def _draw_options(surface: pygame.Surface, view: TableView, area: pygame.Rect, s: float) -> None:
    x = area.left
    mini = round(22 * s)
    for index, option in enumerate(view.options):
        label = f"= {option.score}"
        label_width = font(round(26 * s)).size(label)[0]
        width = len(option.dice) * (mini + round(3 * s)) + label_width + round(22 * s)
        if x + width > area.right:
            more = f"+{len(view.options) - index} more"
            text(surface, more, round(22 * s), MUTED, at=(x, area.centery), anchor="midleft")
            break
        chip = pygame.Rect(x, area.top, width, area.height)
        is_selected = index == view.selected
        pygame.draw.rect(surface, GOLD if is_selected else BAR, chip, border_radius=round(10 * s))
        dx = chip.left + round(8 * s)
        for value in option.dice:
            image = die_image(value, mini)
            surface.blit(image, image.get_rect(midleft=(dx, chip.centery)))
            dx += mini + round(3 * s)
        color = PIP if is_selected else INK
        text(
            surface,
            label,
            round(26 * s),
            color,
            at=(dx + round(4 * s), chip.centery),
            anchor="midleft",
        )
        x = chip.right + round(10 * s)


def _draw_scores(surface: pygame.Surface, view: TableView, area: pygame.Rect, s: float) -> int:
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


def _draw_chart(surface: pygame.Surface, view: TableView, area: pygame.Rect, s: float) -> None:
    pygame.draw.rect(surface, FELT_DARK, area, border_radius=round(10 * s))
    histories = [(0, *p.history) for p in view.players]
    turns = max((len(h) for h in histories), default=1) - 1
    top = max([view.target, *(max(h) for h in histories), 100])
    plot = area.inflate(-round(40 * s), -round(36 * s)).move(round(8 * s), round(2 * s))
    text(
        surface,
        "score per turn",
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
        text(
            surface,
            label,
            round(18 * s),
            GOLD,
            at=(plot.right, y - round(2 * s)),
            anchor="bottomright",
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


def _draw_menu(surface: pygame.Surface, view: TableView, s: float) -> None:
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


def _draw_remark(surface: pygame.Surface, view: TableView, area: pygame.Rect, s: float) -> int:
    """A speech bubble with the current (computer) player's remark; returns the y below it."""
    current = view.current if view.current is not None else 0
    size = round(24 * s)
    pad = round(10 * s)
    lines = _wrap(f"“{view.remark}”", size, area.width - 2 * pad - round(40 * s))[:2]
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


def _wrap(words: str, size: int, width: int) -> list[str]:
    lines: list[str] = []
    for word in words.split():
        if lines and font(size).size(f"{lines[-1]} {word}")[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def render_screen(view: TableView, surface: pygame.Surface, *, tick: int = 0) -> None:
    """Draw the whole table for ``view`` onto ``surface`` (any size; laid out for 800×480).

    ``tick`` animates the dice that are still tumbling (``None`` in ``view.dice``).
    """
    width, height = surface.get_size()
    s = min(width / 800, height / 480)
    surface.fill(FELT)
    left = pygame.Rect(round(16 * s), round(52 * s), round(484 * s), height - round(100 * s))
    right = pygame.Rect(
        left.right + round(16 * s), left.top, width - left.right - round(32 * s), left.height
    )

    pygame.draw.rect(surface, BAR, (0, 0, width, round(42 * s)))
    title = view.rules or view.title
    rect = text(
        surface, title, round(34 * s), GOLD, at=(round(16 * s), round(21 * s)), anchor="midleft"
    )
    if view.rules:
        text(
            surface,
            view.title,
            round(22 * s),
            MUTED,
            at=(rect.right + round(12 * s), round(23 * s)),
            anchor="midleft",
        )
    current = view.current_player
    if current is not None and view.winner is None:
        turn = f"{current.name}'s turn" + ("" if current.has_entered else " (not on the board yet)")
        text(
            surface,
            turn,
            round(30 * s),
            player_color(view.current or 0),
            at=(width - round(16 * s), round(21 * s)),
            anchor="midright",
        )

    winner = view.winner_player
    if winner is not None:
        text(
            surface,
            f"{winner.name} wins with {winner.total}!",
            round(44 * s),
            GOLD,
            at=(left.left, left.top),
            width=left.width,
        )
    else:
        text(surface, "this turn", round(24 * s), MUTED, at=(left.left, left.top + round(6 * s)))
        is_lost = view.phase is Phase.BUST
        total = text(
            surface,
            str(view.turn_total),
            round(54 * s),
            ALERT if is_lost else INK,
            at=(left.left + round(100 * s), left.top - round(4 * s)),
        )
        if is_lost:
            pygame.draw.line(surface, ALERT, total.midleft, total.midright, max(round(4 * s), 1))
            text(
                surface,
                "lost",
                round(24 * s),
                ALERT,
                at=(total.right + round(10 * s), left.top + round(6 * s)),
            )
    if view.kept:
        text(
            surface,
            "kept",
            round(22 * s),
            MUTED,
            at=(
                left.right - round(6 * s) - len(view.kept) * round(30 * s),
                left.top + round(18 * s),
            ),
            anchor="midright",
        )
        for index, value in enumerate(view.kept):
            image = die_image(value, round(26 * s))
            x = left.right - len(view.kept) * round(30 * s) + index * round(30 * s)
            surface.blit(image, (x, left.top + round(5 * s)))

    tray = pygame.Rect(left.left, left.top + round(48 * s), left.width, round(150 * s))
    _draw_tray(surface, view, tray, s, tick)
    y = tray.bottom + round(10 * s)
    if view.options:
        _draw_options(surface, view, pygame.Rect(left.left, y, left.width, round(38 * s)), s)
        y += round(48 * s)
    if view.remark:
        y = _draw_remark(surface, view, pygame.Rect(left.left, y, left.width, 0), s)
    if view.message:
        lines = _wrap(view.message, round(25 * s), left.width - round(20 * s))[:2]
        bar = pygame.Rect(left.left, y, left.width, round((10 + 24 * len(lines)) * s))
        pygame.draw.rect(surface, ALERT, bar, border_radius=round(8 * s))
        for number, line in enumerate(lines):
            at = (bar.left + round(10 * s), bar.top + round((5 + 24 * number) * s))
            text(surface, line, round(25 * s), INK, at=at, width=bar.width - round(20 * s))
        y = bar.bottom + round(6 * s)
    if view.hint:
        text(
            surface, f"hint: {view.hint}", round(22 * s), MUTED, at=(left.left, y), width=left.width
        )

    chart_top = _draw_scores(surface, view, right, s) + round(8 * s)
    if right.bottom - chart_top > round(80 * s):
        _draw_chart(
            surface,
            view,
            pygame.Rect(right.left, chart_top, right.width, right.bottom - chart_top),
            s,
        )

    if view.phase is Phase.MENU:
        _draw_menu(surface, view, s)
    pygame.draw.rect(surface, BAR, (0, height - round(40 * s), width, round(40 * s)))
    if view.prompt:
        text(
            surface,
            view.prompt,
            round(28 * s),
            INK,
            at=(width // 2, height - round(20 * s)),
            anchor="center",
            width=width - round(32 * s),
        )


def render_screen_image(
    view: TableView, size: Sequence[int] = (800, 480), *, tick: int = 0
) -> pygame.Surface:
    """A new surface of ``size`` with ``view`` drawn on it (for screenshots and tests)."""
    surface = pygame.Surface((size[0], size[1]))
    render_screen(view, surface, tick=tick)
    return surface
