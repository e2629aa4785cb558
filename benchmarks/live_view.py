"""The calibration's live view: what one picture costs on top of the reading it shows.

For rendered throws of six dice at 640×480, 1280×720 and 1920×1080: the median milliseconds to
read the frame (`vision.read`, which calibrating does anyway), to make the live picture from it
(`device.calibration_flow.live_picture`: the dice boxed, the area drawn, shrunk to 640 wide) and
to draw the big screen with it (`hardware.screen_render.render_screen`, 800×480, off-screen). OpenCV
runs on one thread, as on a busy Pi; the wall times depend on the machine and its load.

Usage: .venv/bin/python benchmarks/live_view.py [--frames N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import cv2

import vision
from device.calibration_flow import live_picture
from hardware.screen_render import render_screen_image
from hardware.view import Phase, TableView
from vision.render import render_tray

SIZES = ((640, 480), (1280, 720), (1920, 1080))


def _ms(work: Callable[[], object], repeat: int) -> float:
    """The median milliseconds of ``repeat`` calls of ``work``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _one_throw(size: tuple[int, int], seed: int) -> tuple[float, float, float, int]:
    """Read ms, picture ms, screen ms and the dice read, for one rendered throw of six."""
    width, height = size
    frame = render_tray((1, 2, 3, 4, 5, 6), seed=seed, size=size).frame
    area = ((0, 0), (width - 1, 0), (width - 1, height - 1), (0, height - 1))
    params = vision.ReaderParams(roi=area)
    reading = vision.read(frame, params)
    read_ms = _ms(lambda: vision.read(frame, params), 1)
    picture_ms = _ms(lambda: live_picture(frame, area, reading), 3)
    view = TableView(
        phase=Phase.WAITING,
        message="tray found: now throw the dice into it",
        picture=live_picture(frame, area, reading),
    )
    screen_ms = _ms(lambda: render_screen_image(view), 3)
    return read_ms, picture_ms, screen_ms, len(reading.dice)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=5, help="rendered throws per size")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print("size        read ms  picture ms  screen ms  dice boxed  (medians)")
    for size in SIZES:
        runs = [_one_throw(size, seed) for seed in range(args.frames)]
        columns = zip(*runs, strict=True)
        read_ms, picture_ms, screen_ms, dice = (statistics.median(c) for c in columns)
        name = f"{size[0]}×{size[1]}"
        print(f"{name:<11} {read_ms:8.1f} {picture_ms:11.1f} {screen_ms:10.1f} {dice:11g}")


if __name__ == "__main__":
    main()
