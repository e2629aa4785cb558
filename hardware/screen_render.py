"""The big screen's picture: `render_screen` draws a `TableView` onto a pygame Surface.

Pure drawing (no window, no events), so it runs under any SDL video driver and in tests. Sizes
are laid out for 800×480 and scaled to the surface.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame

from hardware.screen_draw import (
    ALERT,
    BAR,
    FELT,
    FELT_DARK,
    GOLD,
    INK,
    MUTED,
    NOTICE,
    PIP,
    die_image,
    font,
    player_color,
    text,
    wrap,
)
from hardware.screen_panels import (
    draw_chart,
    draw_last_turn,
    draw_menu,
    draw_remark,
    draw_review,
    draw_scores,
    draw_web,
)
from hardware.view import OptionView, Phase, Picture, TableView

__all__ = ["ALERT", "GOLD", "player_color", "render_screen", "render_screen_image"]


def _draw_tray(
    surface: pygame.Surface, view: TableView, tray: pygame.Rect, s: float, tick: int
) -> None:
    pygame.draw.rect(surface, FELT_DARK, tray, border_radius=round(18 * s))
    pygame.draw.rect(
        surface, (60, 110, 85), tray, width=max(round(3 * s), 1), border_radius=round(18 * s)
    )
    if view.picture is not None:
        _draw_picture(surface, view.picture, tray.inflate(-round(12 * s), -round(12 * s)))
        return
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
    selected = view.selected_positions
    correcting = view.phase is Phase.CORRECTING
    caption = "correct the dice as they lie" if correcting else view.tray_label
    if caption:
        text(
            surface,
            caption,
            round(24 * s),
            GOLD if correcting else INK,
            at=(tray.centerx, tray.top + round(8 * s)),
            anchor="midtop",
        )
    for index, value in enumerate(view.dice):
        center = (left + index * (side + gap) + side // 2, tray.centery)
        if correcting:
            _draw_correcting_die(surface, view, index, center, side, s)
        elif value is None and view.phase is Phase.ROLLING:  # tumbling: jostled, new every tick
            shake = random.Random(tick * 7919 + index * 104729)
            image = die_image(shake.randint(1, 6), side)
            image = pygame.transform.rotozoom(image, shake.uniform(-35, 35), 1.0)
            center = (
                center[0] + round(shake.uniform(-6, 6) * s),
                center[1] + round(shake.uniform(-14, 14) * s),
            )
            surface.blit(image, image.get_rect(center=center))
        else:
            ring = GOLD if index in selected else None
            image = die_image(value, side, ring=ring, guess=view.guess(index))
            surface.blit(image, image.get_rect(center=center))
    if view.phase is Phase.BUST:
        stamp = font(round(90 * s)).render("BUST", True, ALERT)
        stamp = pygame.transform.rotate(stamp, 12)
        surface.blit(stamp, stamp.get_rect(center=tray.center))


def _draw_picture(surface: pygame.Surface, picture: Picture, area: pygame.Rect) -> None:
    """``picture`` scaled to fit ``area`` (its proportions kept), centred in it."""
    rows, columns = picture.pixels.shape[:2]
    rgb = picture.pixels[:, :, ::-1].tobytes()  # BGR to RGB, rows in order
    image = pygame.image.frombytes(rgb, (columns, rows), "RGB")
    scale = min(area.width / columns, area.height / rows)
    size = (max(round(columns * scale), 1), max(round(rows * scale), 1))
    image = pygame.transform.smoothscale(image, size)
    surface.blit(image, image.get_rect(center=area.center))


def _draw_correcting_die(
    surface: pygame.Surface,
    view: TableView,
    index: int,
    center: tuple[int, int],
    side: int,
    s: float,
) -> None:
    """A die while correcting: the one being set ringed with an arrow under it, a die marked
    "not a die" dimmed and crossed out, a die not known with the reader's guess small beside the
    "?"."""
    is_cursor = index == view.cursor
    ring = GOLD if is_cursor else None
    image = die_image(view.dice[index], side, ring=ring, guess=view.guess(index))
    if index in view.struck:
        image.set_alpha(90)
    surface.blit(image, image.get_rect(center=center))
    half = side // 2
    if index in view.struck:
        width = max(round(6 * s), 2)
        for sign in (-1, 1):
            pygame.draw.line(
                surface,
                ALERT,
                (center[0] - half, center[1] - sign * half),
                (center[0] + half, center[1] + sign * half),
                width,
            )
    if is_cursor:
        tip = center[1] + half + round(12 * s)
        size = round(10 * s)
        pygame.draw.polygon(
            surface,
            GOLD,
            [(center[0], tip), (center[0] - size, tip + size), (center[0] + size, tip + size)],
        )
    text(
        surface,
        str(index + 1),
        round(20 * s),
        GOLD if is_cursor else MUTED,
        at=(center[0], center[1] + half + round(26 * s)),
        anchor="midtop",
    )


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


def _chip_width(option: OptionView, s: float) -> int:
    label_width = font(round(26 * s)).size(f"= {option.score}")[0]
    return len(option.dice) * (round(22 * s) + round(3 * s)) + label_width + round(22 * s)


def _first_chip(view: TableView, area: pygame.Rect, s: float) -> int:
    """The first keep drawn: 0, or later so that the selected keep's chip is on the row (with room
    for the "+N" marks either side)."""
    room = area.width - round(130 * s)
    first = 0
    while first < view.selected:
        widths = [
            _chip_width(o, s) + round(10 * s) for o in view.options[first : view.selected + 1]
        ]
        if sum(widths) <= room:
            break
        first += 1
    return first


def _draw_options(surface: pygame.Surface, view: TableView, area: pygame.Rect, s: float) -> None:
    x = area.left
    mini = round(22 * s)
    first = _first_chip(view, area, s)
    if first:
        x = text(
            surface, f"+{first} more", round(22 * s), MUTED, at=(x, area.centery), anchor="midleft"
        ).right + round(8 * s)
    for index, option in enumerate(view.options[first:], start=first):
        label = f"= {option.score}"
        width = _chip_width(option, s)
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


def _draw_checks(
    surface: pygame.Surface, checks: Sequence[str], area: pygame.Rect, s: float
) -> None:
    """``checks`` one under the other in ``area``, wrapped; a line starting "FIX" in red."""
    size = round(21 * s)
    step = round(19 * s)
    y = area.top
    for check in checks:
        color = ALERT if check.startswith("FIX") else INK
        for line in wrap(check, size, area.width):
            if y + step > area.bottom:
                return
            text(surface, line, size, color, at=(area.left, y), width=area.width)
            y += step
        y += round(6 * s)


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
    elif view.picture is None:  # the camera's picture (calibrating) is no turn of the game
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
    if view.picture is not None:  # the camera's picture: the tray grows, room left for a message
        tray.height = max(tray.height, left.bottom - tray.top - round(70 * s))
    if view.winner is not None and view.review:  # the game's end: its review in the tray
        draw_review(surface, view, tray, s)
    else:
        _draw_tray(surface, view, tray, s, tick)
    y = tray.bottom + round(10 * s)
    if view.options:
        _draw_options(surface, view, pygame.Rect(left.left, y, left.width, round(38 * s)), s)
        y += round(48 * s)
    if view.remark:
        y = draw_remark(surface, view, pygame.Rect(left.left, y, left.width, 0), s)
    if view.message:
        lines = wrap(view.with_keys(view.message), round(25 * s), left.width - round(20 * s))[:2]
        bar = pygame.Rect(left.left, y, left.width, round((10 + 24 * len(lines)) * s))
        pygame.draw.rect(surface, ALERT if view.alert else NOTICE, bar, border_radius=round(8 * s))
        for number, line in enumerate(lines):
            at = (bar.left + round(10 * s), bar.top + round((5 + 24 * number) * s))
            text(surface, line, round(25 * s), INK, at=at, width=bar.width - round(20 * s))
        y = bar.bottom + round(6 * s)
    if view.hint:
        text(
            surface, f"hint: {view.hint}", round(28 * s), GOLD, at=(left.left, y), width=left.width
        )

    if view.checks:  # the calibration's checks take the place of the scores
        _draw_checks(surface, view.checks, right, s)
        chart_top = chart_bottom = right.top
    else:
        chart_top = draw_scores(surface, view, right, s) + round(8 * s)
        if view.last_turn and view.last_turn != view.message and view.winner is None:
            chart_top = draw_last_turn(surface, view, right.move(0, chart_top - right.top), s)
        chart_bottom = draw_web(surface, view, right, s)
    if chart_bottom - chart_top > round(80 * s):
        draw_chart(
            surface,
            view,
            pygame.Rect(right.left, chart_top, right.width, chart_bottom - chart_top),
            s,
        )

    if view.phase is Phase.MENU:
        draw_menu(surface, view, s)
    pygame.draw.rect(surface, BAR, (0, height - round(40 * s), width, round(40 * s)))
    if view.prompt:
        prompt, room = view.with_keys(view.prompt), width - round(32 * s)
        sizes = [round(points * s) for points in (28, 24, 21, 18)]  # the key hints make it longer
        size = next((size for size in sizes if font(size).size(prompt)[0] <= room), sizes[-1])
        text(
            surface,
            prompt,
            size,
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
