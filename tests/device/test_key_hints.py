"""Keys on a PC: the key beside each button word on the terminal and the screen, and a one-line
help on h or ?; push-buttons (scripted here) get the words alone."""

from __future__ import annotations

from pathlib import Path

from hardware.keyboard_buttons import KeyboardButtons
from hardware.terminal import render_text
from hardware.view import TableView
from tests.device.harness import config, open_rig


class TypedKeys:
    """Keys typed by the test: each `type` is read at the next poll."""

    def __init__(self) -> None:
        self.typed: list[str] = []

    def type(self, *keys: str) -> None:
        self.typed.extend(keys)

    def read_keys(self) -> list[str]:
        keys, self.typed = self.typed, []
        return keys


def test_the_terminal_names_the_key_beside_each_button_word(tmp_path: Path) -> None:
    keys = TypedKeys()
    buttons = KeyboardButtons(key_sources=[keys])
    rig = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 1, 2, 3, 4]]), buttons=buttons)  # type: ignore[arg-type]
    rig.auto_roll = False  # ROLL is typed here
    with rig.table:
        rig.step()
        assert render_text(rig.view).endswith("ROLL [r]: Ann throws 6 dice")
        keys.type("r")
        rig.until(lambda view: bool(view.options))
        text = render_text(rig.view)
        assert "SELECT [space]: next keep  ROLL [r]: keep+throw  STOP [s]: keep+bank" in text
        assert rig.view.prompt == "SELECT: next keep  ROLL: keep+throw  STOP: keep+bank"  # web

        keys.type("?")
        rig.step()
        assert rig.view.message == (
            "keys: r roll · s stop · space/tab select · m menu · c correct the dice · "
            "h/? this help · q/Esc quit"
        )
        assert rig.view.options  # the help changed nothing else
        assert "[" not in render_text(rig.view).splitlines()[-2]  # no key hints on the keys
        keys.type("m")
        rig.step()
        assert render_text(rig.view).endswith(
            "SELECT [space]: next  ROLL [r]: choose  STOP [s]: close"
        )


def test_push_buttons_get_the_button_words_alone(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path, script=[[1, 5, 2, 3, 4, 6]]))
    with rig.table:
        rig.step()
        assert rig.view.keys == ()
        assert "[" not in render_text(rig.view).splitlines()[-1]


def test_a_long_press_and_a_message_get_their_keys_too() -> None:
    view = TableView(
        prompt="hold SELECT for the menu: add players",
        message="1 die could not be read — hold STOP to set it",
        alert=True,
        keys=KeyboardButtons(key_sources=[]).keys,
    )
    assert render_text(view).splitlines()[-2:] == [
        "! 1 die could not be read — hold STOP [c] to set it",
        "hold SELECT [m] for the menu: add players",
    ]


def test_the_screen_shows_the_keys_in_its_prompt_bar_whole() -> None:
    """The prompt with its keys is longer, and still drawn whole within the bar's margins."""
    import pygame

    from hardware.screen_render import render_screen_image

    prompt = "SELECT: next keep  ROLL: keep+throw  STOP: keep+bank"
    plain = TableView(prompt=prompt)
    keyed = TableView(prompt=prompt, keys=KeyboardButtons(key_sources=[]).keys)
    bar = pygame.Rect(0, 440, 800, 40)
    images = [render_screen_image(view).subsurface(bar) for view in (plain, keyed)]
    columns = [
        [x for x in range(800) if any(image.get_at((x, y))[0] > 200 for y in range(40))]
        for image in images
    ]
    assert columns[0] != columns[1]
    assert columns[1][0] > 16 and columns[1][-1] < 800 - 16  # within the bar's margins
