"""A die the reader could not read, with its likeliest value: the big screen draws the "?" with the
guess small in a corner (in its own blue, never as pips), the terminal "[?4]"; a die read, struck
out or tumbling shows no guess. PNGs go to $DICEKEEPER_SHOTS when it is set."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pygame

from hardware.screen_draw import GUESS, PIP
from hardware.screen_render import render_screen_image
from hardware.terminal import render_text
from hardware.view import Phase, PlayerView, TableView


def refused() -> TableView:
    """Ann's throw of five refused: dice 2 and 4 not read, the reader's guess for die 2 is 4."""
    return TableView(
        rules="greed",
        players=(PlayerView("Ann", 350), PlayerView("Bob", 1200)),
        current=0,
        phase=Phase.WAITING,
        dice=(1, None, 5, None, 2),
        likely=(None, 4, None, None, None),
        message="2 dice could not be read: throw them again, or hold STOP to set them",
        alert=True,
        prompt="ROLL: throw 5 dice",
        target=5000,
    )


def columns(surface: pygame.Surface, color: tuple[int, int, int]) -> list[int]:
    """The columns of the tray's rows of dice (left of the scores) holding ``color``."""
    mask = pygame.mask.from_threshold(surface, color, (1, 1, 1, 255))
    return [x for x in range(500) if any(mask.get_at((x, y)) for y in range(120, 250))]


def test_the_screen_draws_the_guess_small_beside_the_question_mark() -> None:
    view = refused()
    surface = render_screen_image(view)
    blue = columns(surface, GUESS)
    plain = dataclasses.replace(view, likely=())
    assert blue and not columns(render_screen_image(plain), GUESS)
    # In die 2's right half only (five 66 px dice, 14 px apart, centred in the tray).
    left = 16 + 484 // 2 - (5 * 66 + 4 * 14) // 2 + 66 + 14
    assert left + 33 <= min(blue) and max(blue) < left + 66, (left, blue)
    # The "?" is still drawn, in the die's left part, and no pips.
    die2 = range(left, left + 66)
    dark = [x for x in columns(surface, PIP) if x in die2]
    assert dark and max(dark) < left + 45  # the "?" stands left of the guess
    folder = os.environ.get("DICEKEEPER_SHOTS")
    if folder:
        pygame.image.save(surface, str(Path(folder) / "unread-guess-screen.png"))


def test_the_screen_shows_the_guess_while_correcting_but_not_struck_or_tumbling() -> None:
    correcting = dataclasses.replace(
        refused(), phase=Phase.CORRECTING, cursor=1, alert=False, message="correcting die 2"
    )
    assert columns(render_screen_image(correcting), GUESS)
    struck = dataclasses.replace(correcting, struck=frozenset({1}))
    assert not columns(render_screen_image(struck), GUESS)
    rolling = dataclasses.replace(
        refused(), phase=Phase.ROLLING, dice=(None,) * 5, likely=(None, 4, None, None, None)
    )
    assert not columns(render_screen_image(rolling, tick=0), GUESS)


def test_the_terminal_writes_the_guess_after_the_question_mark() -> None:
    text = render_text(refused())
    assert "dice: [1] [?4] [5] [?] [2]" in text
    correcting = dataclasses.replace(refused(), phase=Phase.CORRECTING, cursor=1)
    assert "correct the dice: [1] >?4< [5] [?] [2]" in render_text(correcting)
    assert "[?]" in render_text(dataclasses.replace(refused(), likely=()))
    assert "?4" not in render_text(dataclasses.replace(refused(), likely=()))
