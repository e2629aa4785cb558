"""A few table situations for the display tests and the screenshots."""

from __future__ import annotations

from hardware.view import OptionView, Phase, PlayerView, TableView

ANNA = PlayerView("Anna", 2350, (0, 350, 900, 900, 1500, 2350))
BOB = PlayerView("Bob", 1200, (300, 300, 750, 1200, 1200), is_computer=True)
CLEO = PlayerView("Cleo", 0, (0, 0, 0, 0, 0), has_entered=False)
DAN = PlayerView("Daniel", 4100, (500, 1300, 2000, 2950, 4100))


def mid_turn() -> TableView:
    """Three players, Anna chooses a keep after a throw of six."""
    return TableView(
        title="dicekeeper",
        rules="Greed",
        players=(ANNA, BOB, CLEO),
        current=0,
        phase=Phase.CHOOSING,
        dice=(1, 5, 5, 3, 4, 2),
        turn_total=350,
        kept=(1, 5),
        options=(
            OptionView((1, 5, 5), 200),
            OptionView((1, 5), 150),
            OptionView((1,), 100),
            OptionView((5,), 50),
        ),
        selected=1,
        prompt="ROLL keep & throw · STOP bank · SELECT next keep",
        target=5000,
        hint="keep 1 5 5 and throw 3",
    )


def rolling() -> TableView:
    """Bob (a computer) throws virtual dice: two dice still tumbling."""
    return TableView(
        rules="Farkle",
        players=(ANNA, BOB),
        current=1,
        phase=Phase.ROLLING,
        dice=(None, None, None, None),
        kept=(1, 1),
        turn_total=200,
        prompt="Bob is throwing…",
        remark="Fortune favours the bold. Four dice, here we go!",
        target=10000,
    )


def bust() -> TableView:
    """Cleo's throw scores nothing; a wrong-count message is showing too."""
    return TableView(
        rules="Greed",
        players=(ANNA, BOB, CLEO, DAN),
        current=2,
        phase=Phase.BUST,
        dice=(2, 3, 4, 6),
        turn_total=450,
        message="expected 3 dice, I see 4: take the kept dice out of the tray",
        alert=True,
        prompt="press ROLL: next player",
        target=5000,
    )


def game_over() -> TableView:
    """Daniel won a four-player game."""
    return TableView(
        rules="Greed",
        players=(ANNA, BOB, CLEO, DAN),
        phase=Phase.GAME_OVER,
        winner=3,
        prompt="ROLL: new game · long SELECT: menu",
        target=4000,
    )


def menu() -> TableView:
    """The menu, opened with a long press on SELECT."""
    return TableView(
        rules="Greed",
        players=(ANNA, BOB),
        current=0,
        phase=Phase.MENU,
        menu=("add player", "remove player", "rules: Greed", "new game", "history", "shut down"),
        menu_selected=2,
        prompt="SELECT next · ROLL choose · STOP back",
    )


def computer_decides() -> TableView:
    """Four players; the computer picked its keep and says why."""
    return TableView(
        rules="Farkle (house: three pairs)",
        players=(ANNA, BOB, CLEO, DAN),
        current=1,
        phase=Phase.CHOOSING,
        dice=(1, 1, 1, 5, 2, 6),
        kept=(),
        turn_total=0,
        options=(
            OptionView((1, 1, 1, 5), 1050),
            OptionView((1, 1, 1), 1000),
            OptionView((1,), 100),
        ),
        selected=0,
        remark="Three ones! I keep them all and stop here, no need to be greedy.",
        prompt="Bob keeps 1 1 1 5 and banks 1050",
        target=10000,
    )


ALL = {
    "mid_turn": mid_turn,
    "rolling": rolling,
    "bust": bust,
    "game_over": game_over,
    "menu": menu,
    "computer_decides": computer_decides,
}


def save_shots(directory: str) -> list[str]:
    """Render every sample for the OLED (×4) and the screen (800×480, 1280×720) as PNGs."""
    from pathlib import Path

    import pygame
    from PIL import Image, ImageDraw

    from hardware.oled import render_oled
    from hardware.screen_render import render_screen_image

    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, make in ALL.items():
        view = make()
        image = Image.new("1", (128, 64))
        render_oled(view, ImageDraw.Draw(image))
        path = folder / f"oled_{name}.png"
        image.resize((512, 256), Image.Resampling.NEAREST).save(path)
        paths.append(str(path))
        for size in ((800, 480), (1280, 720)):
            path = folder / f"screen_{name}_{size[0]}x{size[1]}.png"
            pygame.image.save(render_screen_image(view, size, tick=3), str(path))
            paths.append(str(path))
    return paths


if __name__ == "__main__":
    import sys

    print("\n".join(save_shots(sys.argv[1] if len(sys.argv) > 1 else "/tmp/dicekeeper-shots")))
