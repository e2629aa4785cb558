"""`dicekeeper adapt [--undo]`: the classifier and the judge's network fitted to the kept photos
and saved in the state directory, read with by the table, refused when damaged, undone; an older
file with the classifier's layer alone still loads; too few photos refused."""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import device.adaptation
from device.adaptation import (
    TableAdapter,
    adapted_path,
    load_last_layer,
)
from device.cli import main
from device.photos import PhotoRing
from hardware.buttons import Button
from tests.device.harness import config, open_rig
from vision import read
from vision.adapt import AdaptParams
from vision.classify import classify, classify_with
from vision.crops import die_crop, pyramid_of
from vision.evaluation import rendered_labels
from vision.judge import judge_classifier, judge_network
from vision.render import TrayStyle, render_tray

FAST = AdaptParams(on_die=8, beside=2, background=4, rehearsal=2)
"""Fewer crops than the table cuts, the same steps: with fewer, the judge's layer stops short
and the refit's result turns on the seed and on the OpenCV that drew the trays."""
GOLD = TrayStyle(schemes=("gold-on-black",))


@pytest.fixture(autouse=True)
def fast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(device.adaptation, "AdaptParams", lambda: FAST)


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[state]\ndirectory = "{tmp_path / "state"}"\n')
    return path


def _keep(tmp_path: Path, photos: int, *, sixes_as: int = 6, missed: bool = False) -> None:
    """Keep ``photos`` throws of emblem sixes, twos and a five; their sixes labelled
    ``sixes_as``; ``missed``: the five by its value alone, as a die the reader missed."""
    ring = PhotoRing.in_directory(tmp_path / "state")
    for seed in range(photos):
        tray = render_tray([6, 2, 6, 5], seed=seed, style=GOLD)
        dice = [
            replace(d, value=sixes_as if d.value == 6 else d.value)
            for d in rendered_labels(tray.dice)
        ]
        boxed = [d for d in dice if not (missed and d.value == 5)]
        marks = [True] * len(boxed)
        ring.write(ring.new_number(), tray.frame, boxed, marks, [5] * (len(dice) - len(boxed)))


def test_adapt_saves_a_layer_the_table_reads_with_and_undo_removes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _keep(tmp_path, 16)
    cfg = str(_config(tmp_path))
    assert main(["adapt", "--config", cfg]) == 0
    out = capsys.readouterr().out
    assert "adapted the classifier to 10 photos (40 dice)" in out
    assert "checked on the 6 newest kept photos: " in out  # they hold 24 dice
    assert "the judge's network was adapted to them too" in out
    state = tmp_path / "state"
    adaptation = load_last_layer(state)
    assert adaptation is not None and adaptation.photos == 10
    judge = adaptation.layers.judge
    assert judge is not None
    tray = render_tray([6, 6], seed=99, style=GOLD)
    crops = [die_crop(pyramid_of(tray.frame), d.center, d.size_px) for d in tray.dice]
    adapter = TableAdapter(state, adaptation)
    wrapped = adapter.reading(lambda frame: classify(crops))  # type: ignore[arg-type,return-value]
    assert wrapped(tray.frame) == classify(crops, layer=adaptation.layers.reader) != classify(crops)
    looks = adapter.reading(lambda frame: judge_classifier(crops))  # type: ignore[arg-type,return-value]
    shipped_looks = judge_classifier(crops)
    assert [v.best for v in shipped_looks] != [6, 6]  # the shipped judge knows no emblem six
    assert looks(tray.frame) == classify_with(judge_network(), crops, judge) != shipped_looks
    assert [v.best for v in looks(tray.frame)] == [6, 6]  # type: ignore[attr-defined]
    assert main(["photos", "--config", cfg]) == 0
    assert "adapted to 10 photos" in capsys.readouterr().out
    assert main(["adapt", "--undo", "--config", cfg]) == 0
    assert "back to the shipped classifier" in capsys.readouterr().out
    assert not adapted_path(state).exists() and load_last_layer(state) is None
    assert main(["adapt", "--undo", "--config", cfg]) == 0
    assert "nothing to undo" in capsys.readouterr().out


def test_the_table_reads_its_dice_once_adapted_and_as_shipped_after_undo(tmp_path: Path) -> None:
    _keep(tmp_path, 16)
    cfg = str(_config(tmp_path))
    state = tmp_path / "state"
    trays = [render_tray([6, 6, 4], seed=seed, style=GOLD) for seed in (120, 121, 122, 124)]
    shipped = [read(tray.frame) for tray in trays]
    assert all(sorted(map(str, r.values)) == ["4", "None", "None"] for r in shipped)
    assert main(["adapt", "--config", cfg]) == 0
    adapted = TableAdapter(state, load_last_layer(state)).reading(read)
    sixes = [sum(v == 6 for v in adapted(tray.frame).values) for tray in trays]
    assert sum(sixes) >= 7  # of the 8 emblem sixes the shipped judge left "not sure"
    assert main(["adapt", "--undo", "--config", cfg]) == 0
    undone = TableAdapter(state, load_last_layer(state)).reading(read)
    assert [undone(tray.frame) for tray in trays] == shipped  # the shipped reading, bit for bit


def test_an_older_file_with_the_classifiers_layer_alone_loads(tmp_path: Path) -> None:
    _keep(tmp_path, 16)
    assert main(["adapt", "--config", str(_config(tmp_path))]) == 0
    state = tmp_path / "state"
    saved = load_last_layer(state)
    assert saved is not None and saved.layers.judge is not None
    with np.load(adapted_path(state)) as data:
        older = {name: data[name] for name in data.files if not name.startswith("judge_")}
    assert set(older) == {"weights", "bias", "checksum", "shipped", "photos", "dice"}
    with adapted_path(state).open("wb") as stream:
        np.savez(stream, **older)
    loaded = load_last_layer(state)
    assert loaded is not None and loaded.layers.judge is None and loaded.photos == 10
    assert np.array_equal(loaded.layers.reader.weights, saved.layers.reader.weights)
    tray = render_tray([6, 6], seed=99, style=GOLD)
    crops = [die_crop(pyramid_of(tray.frame), d.center, d.size_px) for d in tray.dice]
    looks = TableAdapter(state, loaded).reading(lambda frame: judge_classifier(crops))  # type: ignore[arg-type,return-value]
    assert looks(tray.frame) == judge_classifier(crops)  # the judge's network as shipped


def test_a_damaged_adapted_file_is_refused_in_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    _keep(tmp_path, 16)
    for damage in (b"not a zip file", b"weights.npy", b"judge_weights.npy"):
        if damage.endswith(b".npy"):  # a whole file whose numbers changed: its checksum tells
            assert main(["adapt", "--config", str(_config(tmp_path))]) == 0
            data = bytearray(adapted_path(state).read_bytes())
            data[data.index(damage) + 200] ^= 0x40
            adapted_path(state).write_bytes(bytes(data))
        else:
            adapted_path(state).write_bytes(damage)
        caplog.clear()
        assert main(["photos", "--config", str(_config(tmp_path))]) == 2
        assert "adapted.npz' is damaged" in caplog.text and "adapt --undo" in caplog.text
        assert "Traceback" not in caplog.text
        caplog.clear()
        rig = open_rig(config(tmp_path))  # the table plays on with the shipped classifier
        with rig.table:
            assert rig.table.controller.adapter.current is None
        assert "is damaged" in caplog.text and "shipped classifier" in caplog.text


def test_too_few_photos_is_a_message_and_exit_2(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _keep(tmp_path, 3)
    assert main(["adapt", "--config", str(_config(tmp_path))]) == 2
    assert "3 photos with 12 dice kept" in caplog.text and "at least 10 photos" in caplog.text
    assert not adapted_path(tmp_path / "state").exists()


def test_photos_with_dice_missed_are_fitted_on_and_the_refit_checked_on_whole_ones(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    _keep(tmp_path, 12, missed=True)
    assert main(["adapt", "--config", str(_config(tmp_path))]) == 2
    assert "0 kept photos with every die read (0 dice)" in caplog.text
    assert "needs 24 dice there" in caplog.text
    _keep(tmp_path, 12)
    assert main(["adapt", "--config", str(_config(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert "adapted the classifier to 18 photos (60 dice)" in out  # 12 x 3 dice, 6 x 4
    assert "checked on the 6 newest kept photos" in out


def test_the_menu_adapts_while_the_game_goes_on(tmp_path: Path) -> None:
    rig = open_rig(config(tmp_path))
    with rig.table:
        view = rig.press(Button.MENU)
        index = view.menu.index("Adapt to these dice")
        view = rig.press(*[Button.SELECT] * index, Button.ROLL)
        # On a slow machine the child (`dicekeeper adapt`, few photos kept) may end within that
        # very step, and its news is then what the step shows.
        assert view.message == "adapting to the kept photos (the game goes on)" or (
            view.message.startswith("not adapted: ")
        )
        assert not view.menu
        adapter = rig.table.controller.adapter
        assert adapter is not None
        # Wait, bounded, while the table steps on. The news is shown at the step that finds the
        # child ended, and a later step of the game may replace it: every message shown is kept.
        shown = [view.message]
        deadline = time.monotonic() + 300
        while adapter.is_running and time.monotonic() < deadline:
            time.sleep(0.05)
            rig.step()
            shown.append(rig.view.message)
        rig.step()
        shown.append(rig.view.message)  # the game went on meanwhile: a throw or two were kept
        news = [m for m in shown if m.startswith("not adapted: ")]
        assert news and "needs at least 10 photos" in news[0]
        assert adapter.current is None


def test_starting_an_adaptation_says_so_and_a_second_start_waits(tmp_path: Path) -> None:
    adapter = TableAdapter(tmp_path, None)
    try:
        assert adapter.start() == "adapting to the kept photos (the game goes on)"
        assert adapter.is_running
        assert adapter.start() == "already adapting to the kept photos: the game goes on"
    finally:
        adapter.close()
    assert not adapter.is_running and adapter.news() == ""


def test_a_refit_that_reads_the_newest_throws_worse_is_not_saved(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _keep(tmp_path, 10, sixes_as=2)  # older throws kept with their emblem sixes taken for twos
    _keep(tmp_path, 6)  # the newest kept right: the refit reads their sixes as twos
    assert main(["adapt", "--config", str(_config(tmp_path))]) == 2
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and "\n" not in errors[0], errors
    assert "read the 6 newest worse than the reader in use" in errors[0]
    assert "the reader in use is kept" in errors[0]
    assert not adapted_path(tmp_path / "state").exists()


def test_the_table_adapts_by_itself_every_so_many_kept_throws(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="device.adaptation")
    rig = open_rig(config(tmp_path, extra={"reader": {"adapt_every": 2}}))
    with rig.table:
        adapter = rig.table.controller.adapter
        photos = rig.table.controller.photos
        assert adapter is not None and photos is not None and adapter.every == 2
        started: list[int] = []  # throws kept when each adaptation started
        shown: list[str] = []
        running = False
        deadline = time.monotonic() + 300
        while len(started) < 2 and time.monotonic() < deadline:
            view = rig.step() if adapter.is_running else rig.press(Button.ROLL)
            if adapter.is_running:
                time.sleep(0.05)  # the child adapts while the table steps on
            shown.append(view.message)
            if adapter.is_running and not running:
                started.append(photos.kept)
            running = adapter.is_running
        assert len(started) == 2 and started[0] == 2 and started[1] >= 4, started
        # Too few photos for a fit: not news for the players (they did not ask), but logged.
        while adapter.is_running and time.monotonic() < deadline:
            time.sleep(0.05)
            shown.append(rig.step().message)
        assert not [m for m in shown if m.startswith("not adapted")]
        assert "not adapted to the kept photos" in caplog.text
        assert "needs at least 10 photos" in caplog.text
