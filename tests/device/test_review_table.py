"""The review at the table: each player's accuracy and biggest swing at the end of a game (made
in the background, then on every display), and with ``[review] after_turn`` the line "best was
..." after a person's turn that had a mistake."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

import device.computer
import device.review
from device.computer import CachedTables
from device.review import best_was, review_rows
from device.tables import DiskTables, cache_directory, save_table
from engine.events import PlayerAdded
from engine.review import review_game
from hardware.buttons import Button
from hardware.oled import render_oled
from hardware.terminal import render_text
from hardware.view import Phase, PlayerView, TableView
from tests.device.harness import Rig, config, open_rig
from tests.device.test_review_command import BLUNDER_GAME, PIG, pig_table

EVENTS = [PlayerAdded("Ann"), PlayerAdded("Bob"), *BLUNDER_GAME]


@pytest.fixture(autouse=True)
def cached_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pig table to 20 in the cache of a state directory of the test's own."""
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    monkeypatch.setattr(device.computer, "_TABLES", CachedTables(DiskTables(limit_units=0)))
    monkeypatch.setattr(device.review, "_SETTINGS", device.review.ReviewSettings())
    save_table(pig_table(), cache_directory())


def test_rows_give_each_players_accuracy_and_biggest_swing() -> None:
    review = review_game(PIG, EVENTS, table=pig_table())
    rows = review_rows(review, ("Bob", "Ann", "Cy"))
    bob, ann = review.player("Bob"), review.player("Ann")
    assert rows[0][0] == f"{bob.accuracy:.0f}%" and rows[1][0] == f"{ann.accuracy:.0f}%"
    swing = ann.swings[0]
    assert rows[1][1] == f"{100 * swing.change:+.0f}% on turn {swing.turn}: {swing.what}"
    assert rows[2] == ("", "")


def test_best_was_names_the_better_choice_of_the_last_turn() -> None:
    # after Ann's first turn (she threw on at 20 and busted): bank 20 was best
    review = review_game(PIG, EVENTS[:7], table=pig_table())
    assert review.turns == 1
    line = best_was(review, "Ann")
    assert line.startswith("best was bank 20 (100 %, yours ") and line.endswith(" %)")
    assert best_was(review, "Bob") == ""


def pig_rig(tmp_path: Path, *, after_turn: bool, players: tuple[str, ...]) -> Rig:
    extra: dict[str, object] = {"review": {"after_turn": after_turn}}
    script = [[6], [6], [6], [2], [1], [3], [6], [6], [6], [2]]
    cfg = config(tmp_path, rules="pig", target=20, players=players, script=script, extra=extra)
    return open_rig(cfg)


def decide(rig: Rig, *buttons: Button) -> None:
    """At each of Ann's and Bob's decisions press the next button."""
    for button in buttons:
        rig.until(lambda v: v.prompt.startswith("ROLL") and "STOP" in v.prompt)
        rig.press(button)


def test_after_a_turn_with_a_mistake_the_table_says_what_was_best(tmp_path: Path) -> None:
    rig = pig_rig(tmp_path, after_turn=True, players=("Ann", "Bob"))
    decide(rig, Button.ROLL, Button.ROLL, Button.ROLL, Button.ROLL)  # at 20, Ann throws on: 1
    view = rig.until(lambda v: "best was" in v.message or "best was" in v.last_turn)
    said = view.message or view.last_turn
    assert "best was bank 20 (100 %, yours" in said
    assert "Ann" in said


def test_without_after_turn_nothing_is_added(tmp_path: Path) -> None:
    rig = pig_rig(tmp_path, after_turn=False, players=("Ann", "Bob"))
    decide(rig, Button.ROLL, Button.ROLL, Button.ROLL, Button.ROLL, Button.STOP)
    view = rig.until(lambda v: v.phase is Phase.GAME_OVER or "Bob" in v.last_turn)
    assert "best was" not in view.message and "best was" not in view.last_turn


def test_at_the_end_the_displays_show_each_players_review(tmp_path: Path) -> None:
    rig = pig_rig(tmp_path, after_turn=False, players=("Ann", "Bob"))
    decide(rig, Button.ROLL, Button.ROLL, Button.ROLL, Button.ROLL, Button.STOP)
    decide(rig, Button.ROLL, Button.ROLL, Button.ROLL, Button.STOP)
    rig.until(lambda v: v.phase is Phase.GAME_OVER)
    deadline = time.monotonic() + 60
    while not rig.step().review and time.monotonic() < deadline:
        time.sleep(0.01)  # the review is made in its own thread
    view = rig.view
    expected = review_rows(review_game(PIG, EVENTS, table=pig_table()), ("Ann", "Bob"))
    assert view.review == expected
    text = render_text(view)
    assert f"Ann: accuracy {expected[0][0]}, biggest swing {expected[0][1]}" in text
    rig.table.controller.reviewer.close()  # type: ignore[union-attr]


def _oled(view: TableView) -> Image.Image:
    image = Image.new("1", (128, 64))
    render_oled(view, ImageDraw.Draw(image))
    return image


def test_the_oled_puts_the_accuracy_beside_each_name() -> None:
    players = (PlayerView("Ann", 20), PlayerView("Bob", 3))
    plain = TableView(players=players, winner=0, phase=Phase.GAME_OVER, prompt="ROLL: new game")
    reviewed = TableView(
        players=players,
        winner=0,
        phase=Phase.GAME_OVER,
        prompt="ROLL: new game",
        review=(("96%", "+38% on turn 3: banked 20"), ("71%", "")),
    )
    before, after = _oled(plain), _oled(reviewed)
    assert before.tobytes() != after.tobytes()
    # the rows of the names change, the top bar and the prompt do not
    for rows in ((0, 12), (54, 64)):
        box = (0, rows[0], 128, rows[1])
        assert before.crop(box).tobytes() == after.crop(box).tobytes()
    # the accuracy sits left of the totals: the totals' pixels are the same
    box = (104, 13, 128, 47)
    assert before.crop(box).tobytes() == after.crop(box).tobytes()


def test_the_big_screen_draws_the_review_in_the_tray() -> None:
    import pygame

    from hardware.screen_render import player_color, render_screen_image

    players = (PlayerView("Ann", 20), PlayerView("Bob", 3))
    plain = TableView(players=players, winner=0, phase=Phase.GAME_OVER, dice=(2,))
    reviewed = TableView(
        players=players,
        winner=0,
        phase=Phase.GAME_OVER,
        dice=(2,),
        review=(("96%", "+38% on turn 3: banked 20"), ("71%", "")),
    )
    before, after = render_screen_image(plain), render_screen_image(reviewed)
    # the tray (left, under the winner's line) changes; the scores on the right do not
    tray, scores = pygame.Rect(16, 110, 480, 140), pygame.Rect(520, 50, 270, 60)

    def pixels(surface: pygame.Surface, area: pygame.Rect) -> bytes:
        return pygame.image.tobytes(surface.subsurface(area), "RGB")

    assert pixels(before, tray) != pixels(after, tray)
    assert pixels(before, scores) == pixels(after, scores)
    # each player's line is in their colour
    colours = {tuple(after.get_at((x, y)))[:3] for x in range(16, 496) for y in range(110, 250)}
    assert tuple(player_color(0))[:3] in colours and tuple(player_color(1))[:3] in colours


def test_each_thread_reviews_with_its_own_view_of_the_shared_table() -> None:
    import threading

    from device.computer import cached_table
    from device.review import own_table

    shared = cached_table(PIG)
    mine = own_table(PIG)
    assert shared is not None and mine is not None
    assert mine is not shared and mine.start is shared.start and mine.passes is shared.passes
    assert own_table(PIG) is mine
    theirs: list[object] = []
    worker = threading.Thread(target=lambda: theirs.append(own_table(PIG)))
    worker.start()
    worker.join()
    assert theirs[0] is not mine and theirs[0] is not shared
