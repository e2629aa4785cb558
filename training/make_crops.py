"""Cut labelled die crops for the die classifier from synthetic trays and the real training photos.

Each die gives crops centred on it (class = its value, or 7 when it cannot be read: cocked, moving,
covered), crops centred beside it (class 0, with the offset to its centre so the classifier learns
where the die is), and each frame gives background crops far from every die (class 0, no offset)
and crops where the reader looks: on the faces and pip candidates the pip stages find and on the
places that stand out from the tray (`vision.standout`). Real photos are split into training and
held-out halves by `training.split.is_training`; only training photos are cut here, the benchmark
reports the held-out ones apart.

Usage: .venv/bin/python training/make_crops.py OUT.npz [--synthetic FRAMES] [--look-alike FRAMES]
    [--seed S]
    [--focus FRAMES --focus-schemes NAME,NAME]   (more trays whose dice are all of those schemes)
    [--crowded FRAMES]   (more trays whose dice mostly touch, half of them pushed into a row)
"""

from __future__ import annotations

import argparse
import math
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from benchmarks.vision_accuracy import DATASETS, labelled_photos
from training.split import is_training
from vision.blob_dice import without_faces_of_dice
from vision.crops import CROP_SIZE, Pyramid, die_crop, pyramid_of
from vision.evaluation import LabelledDie, resized
from vision.face import Face
from vision.params import ReaderParams
from vision.pips import Pip
from vision.reader import PipFaces, find_pip_faces
from vision.render import PRESETS, render_tray, style_from_seed, style_like
from vision.standout import standing_out
from vision.widths import frame_width, width_of

PARAMS = ReaderParams()
# The reader skips places it has read; here, not. The shipped weights were cut without the places
# that stand out faintly (standout_faint_colours), added to the reader after them.
STANDOUT_PARAMS = ReaderParams(max_standouts=12, standout_faint_colours=())
UNREADABLE = 7
CENTRED = 0.2  # in die widths: a crop this close to a die centre is "on" it
BESIDE = 1.3  # out to here a crop learns the offset to the die centre
FAR = 1.0  # background crops are at least this far from every die centre
PIP_CROPS = 30  # crops centred on pip candidates per frame, at the frame's die width
SCALE_CROPS = 20  # pip candidates per frame also cut at the die widths they suggest themselves
LIKE_SIZE = 0.35  # a crop width within exp(+-this) of the die's is the die's size; beyond, not


class Sink:
    """The crops, classes, offsets (in die widths, in the crop's frame) and offset weights."""

    def __init__(self) -> None:
        self.crops: list[np.ndarray] = []
        self.classes: list[int] = []
        self.offsets: list[tuple[float, float]] = []
        self.has_offset: list[bool] = []
        self.source: list[int] = []

    def add(
        self, crop: np.ndarray, cls: int, offset: tuple[float, float] | None, source: int
    ) -> None:
        self.crops.append(crop)
        self.classes.append(cls)
        self.offsets.append(offset or (0.0, 0.0))
        self.has_offset.append(offset is not None)
        self.source.append(source)

    def save(self, path: Path) -> None:
        """Write the crops and their labels to ``path`` (.npz), as train_dice_cnn.py reads them."""
        np.savez_compressed(
            path,
            crops=np.stack(self.crops).astype(np.uint8),
            classes=np.array(self.classes, dtype=np.int64),
            offsets=np.array(self.offsets, dtype=np.float32),
            has_offset=np.array(self.has_offset, dtype=bool),
            source=np.array(self.source, dtype=np.int64),
        )


def cut_frame(
    pyramid: Pyramid,
    found: PipFaces,
    dice: list[tuple[float, float, float, int]],
    rng: np.random.Generator,
    sink: Sink,
    *,
    per_die: int,
    beside: int,
    background: int,
    face_turns: int,
    source: int,
) -> None:
    """Cut the crops of one frame (its pyramid, `vision.crops.pyramid_of`) whose dice are (x, y,
    width, class); ``found`` is what the pip stages found in it (`vision.reader.find_pip_faces`)."""
    pips, faces = found.pips, found.faces
    # One die width for the whole frame, as the reader takes it (vision.widths.die_width).
    size = float(np.median([d[2] for d in dice])) if dice else 40.0
    if dice:
        _face_crops(pyramid, faces, dice, face_turns, sink, source)
        _pip_crops(pips, pyramid, dice, size, rng, sink, source)
        _standout_crops(pyramid, dice, size, sink, source)
    height, width = pyramid[0].shape[:2]
    for x, y, w, cls in dice:
        # The die at a size far from its own is no die of that size: a die looked at several
        # widths is kept at the one the classifier is sure of.
        ratio = rng.uniform(LIKE_SIZE + 0.15, 1.2) * (1 if rng.random() < 0.5 else -1)
        jitter = CENTRED * w * math.sqrt(rng.random())
        theta = rng.uniform(0, 2 * math.pi)
        crop = die_crop(
            pyramid,
            (x + jitter * math.cos(theta), y + jitter * math.sin(theta)),
            w * math.exp(ratio),
            rng.uniform(0, 360),
        )
        sink.add(crop, 0, None, source)
        for k in range(per_die + beside):
            on = k < per_die
            radius = (
                CENTRED * math.sqrt(rng.random()) if on else rng.uniform(CENTRED + 0.05, BESIDE)
            )
            theta = rng.uniform(0, 2 * math.pi)
            cx, cy = x + radius * w * math.cos(theta), y + radius * w * math.sin(theta)
            angle = rng.uniform(0, 360)
            scale = math.exp(rng.uniform(-0.25, 0.25))
            crop = die_crop(pyramid, (cx, cy), w * scale, angle)
            ox, oy = _turned((x - cx) / (w * scale), (y - cy) / (w * scale), angle)
            if rng.random() < 0.5:
                crop = crop[:, ::-1].copy()
                ox = -ox
            sink.add(crop, cls if on else 0, (ox, oy), source)
    made = tries = 0
    while made < background and tries < 50 * background:
        tries += 1
        cx, cy = rng.uniform(0, width), rng.uniform(0, height)
        if any(math.hypot(cx - x, cy - y) < FAR * w for x, y, w, _ in dice):
            continue
        crop = die_crop(
            pyramid, (cx, cy), size * math.exp(rng.uniform(-0.3, 0.3)), rng.uniform(0, 360)
        )
        sink.add(crop, 0, None, source)
        made += 1


def _turned(dx: float, dy: float, angle: float) -> tuple[float, float]:
    """An offset in the frame as seen in a crop turned by ``angle`` degrees (getRotationMatrix2D
    turns the picture by +angle, counter-clockwise on screen)."""
    a = math.radians(angle)
    return math.cos(a) * dx + math.sin(a) * dy, -math.sin(a) * dx + math.cos(a) * dy


def _face_crops(
    pyramid: tuple[np.ndarray, ...],
    faces: list[Face],
    dice: list[tuple[float, float, float, int]],
    turns: int,
    sink: Sink,
    source: int,
) -> None:
    """Crops on the faces the pip stages find, at their centre and width, turned by a quarter
    ``turns`` times: a face on no labelled die (the side face of a die seen obliquely,
    a key of a keyboard, two screw heads) is class 0."""
    for face in faces:
        x, y, w, cls = min(dice, key=lambda d: math.hypot(d[0] - face.x, d[1] - face.y))
        width = width_of(face, w, PARAMS)
        distance = math.hypot(x - face.x, y - face.y) / w
        for angle in (90.0 * k for k in range(turns)):
            crop = die_crop(pyramid, (face.x, face.y), width, angle)
            offset = None
            if distance < BESIDE:
                offset = _turned((x - face.x) / width, (y - face.y) / width, angle)
            sink.add(crop, cls if distance < CENTRED else 0, offset, source)


def _pip_crops(
    pips: tuple[Pip, ...],
    pyramid: tuple[np.ndarray, ...],
    dice: list[tuple[float, float, float, int]],
    size: float,
    rng: np.random.Generator,
    sink: Sink,
    source: int,
) -> None:
    """Crops centred on the reader's pip candidates (pips of dice, of their side faces, and
    things that only look like pips), cut at the frame's die width ``size``, where a die whose
    other pips were missed lies."""
    shuffled = [pips[k] for k in rng.permutation(len(pips))]
    for pip in shuffled[:PIP_CROPS]:
        width = size * math.exp(rng.uniform(-0.15, 0.15))
        _place_crop(pyramid, (pip.x, pip.y), width, dice, sink, source)
    # The widths a pip also suggests (a whole die seen as one blob, or a pip of a die that
    # wide): the wrong ones are no die.
    for pip in shuffled[:SCALE_CROPS]:
        w = min(dice, key=lambda d: math.hypot(d[0] - pip.x, d[1] - pip.y))[2]
        for width in (
            PARAMS.die_width_per_blob * pip.diameter,
            PARAMS.die_width_per_pip * pip.diameter,
        ):
            if width >= PARAMS.min_die_width and abs(math.log(width / w)) > LIKE_SIZE:
                sink.add(
                    die_crop(pyramid, (pip.x, pip.y), width, rng.uniform(0, 360)), 0, None, source
                )


def _standout_crops(
    pyramid: tuple[np.ndarray, ...],
    dice: list[tuple[float, float, float, int]],
    size: float,
    sink: Sink,
    source: int,
) -> None:
    """Crops on the places that stand out from the tray (`vision.standout`), as the fast path
    (`vision.quick`) looks at them, at the frame's die width ``size``: most are dice or beside
    one, some are walls, cables, keys or shadows."""
    for point in standing_out(pyramid, size, lambda x, y: False, STANDOUT_PARAMS):
        _place_crop(pyramid, point, size, dice, sink, source)


def _place_crop(
    pyramid: tuple[np.ndarray, ...],
    point: tuple[float, float],
    width: float,
    dice: list[tuple[float, float, float, int]],
    sink: Sink,
    source: int,
) -> None:
    """The crop cut at ``point`` for a die ``width`` wide: the nearest die's class when it is
    centred there, else class 0 with the offset to that die if near."""
    x, y, w, cls = min(dice, key=lambda d: math.hypot(d[0] - point[0], d[1] - point[1]))
    distance = math.hypot(x - point[0], y - point[1]) / w
    offset = ((x - point[0]) / width, (y - point[1]) / width) if distance < BESIDE else None
    crop = die_crop(pyramid, point, width)
    sink.add(crop, cls if distance < CENTRED else 0, offset, source)


SEED_KINDS = {
    None: 0,
    "phone-box": 1,
    "webcam-desk": 2,
    "focus": 3,
    "crowded": 4,
    "oblique-table": 5,
}
"""What `synthetic` seeds its random draws with beside ``--seed``, for each kind of tray (a preset,
the focus schemes, crowded), so that a kind's trays stay the same when others are added."""


def synthetic(
    frames: int,
    seed: int,
    sink: Sink,
    preset: str | None = None,
    schemes: tuple[str, ...] | None = None,
    crowded: bool = False,
) -> None:
    """Crops from ``frames`` random synthetic trays, of random styles or resembling one kind of
    real photo (``preset``, `vision.render.style_like`: then with up to 12 dice), of random
    styles whose dice are all of the colour ``schemes`` given (the ones read worst), or of random
    styles whose dice mostly touch (``crowded``: every other tray 2-4 dice pushed into a row, the
    arrangement where touching dice are hardest to tell apart)."""
    kind = SEED_KINDS["crowded" if crowded else "focus" if schemes is not None else preset]
    rng = np.random.default_rng([seed, kind] if kind else seed)
    most = 6 if preset is None else 12
    for index in range(frames):
        in_a_row = crowded and index % 2 == 1
        count = int(rng.integers(2, 5)) if in_a_row else int(rng.integers(1, most + 1))
        values = [None if rng.random() < 0.06 else int(rng.integers(1, 7)) for _ in range(count)]
        tray_seed = seed * 1_000_003 + kind * 100_000 + index
        style = None if preset is None else style_like(preset, tray_seed)
        if schemes is not None:
            style = replace(style_from_seed(tray_seed), schemes=schemes)
        if crowded:
            touching = float(rng.uniform(0.6, 1.0))
            style = replace(style_from_seed(tray_seed), touching=touching, in_a_row=in_a_row)
        tray = render_tray(values, seed=tray_seed, style=style)
        dice = []
        for die in tray.dice:
            readable = die.value is not None and not die.is_moving and not die.is_covered
            dice.append(
                (die.center[0], die.center[1], die.size_px, die.value if readable else UNREADABLE)
            )
        found = find_pip_faces(tray.frame)
        cut_frame(
            pyramid_of(tray.frame),
            found,
            dice,
            rng,
            sink,
            per_die=3,
            beside=1,
            background=3,
            face_turns=2,
            source=0,
        )
        if index % 500 == 0:
            kind_name = preset or ("+".join(schemes) if schemes else "random")
            kind_name = "crowded" if crowded else kind_name
            print(f"  synthetic {kind_name} {index}/{frames}, {len(sink.crops)} crops", flush=True)


def real(
    seed: int,
    sink: Sink,
    scales: tuple[float, ...] = (1.0,),
    folders: tuple[str, ...] = (),
) -> None:
    """Crops from the training part of every labelled photo folder (or of the ``folders`` named),
    each photo resized by each of ``scales`` (`vision.evaluation.resized`: the clutter around the
    dice is to be no die at any size, not only at the one it was photographed at)."""
    rng = np.random.default_rng(seed + 1)
    for source, folder in enumerate(sorted(DATASETS.iterdir()), start=1):
        if not (folder / "labels.csv").exists() or (folders and folder.name not in folders):
            continue
        images = 0
        for image, photo, labels in labelled_photos(folder):
            if not is_training(f"{folder.name}/{image}"):
                continue
            for scale in scales:
                frame = resized(photo, scale)
                _cut_photo(frame, [b.scaled(scale) for b in labels], rng, sink, source)
            images += 1
        print(f"  {folder.name}: {images} training photos, {len(sink.crops)} crops", flush=True)


def _cut_photo(
    frame: np.ndarray, labels: list[LabelledDie], rng: np.random.Generator, sink: Sink, source: int
) -> None:
    """The crops of one training photo."""
    # The die width as the reader tells it before the classifier reads any die, so crops
    # are cut at the widths the reader will cut them. The weights being replaced only
    # tell which faces are dice lying apart, each seen whole (two dark dice on a light
    # tray read as a "2" six times their size made every crop of that photo that wide).
    found = find_pip_faces(frame)
    pyramid = pyramid_of(frame)
    kept = without_faces_of_dice(pyramid, found.pips, found.faces, PARAMS)
    size = frame_width(found.pips, *kept, PARAMS)
    if size is None:
        size = float(np.median([max(b.x_max - b.x_min, b.y_max - b.y_min) for b in labels]))
    dice = [(*b.center, size, int(b.value or UNREADABLE)) for b in labels]
    cut_frame(
        pyramid,
        found,
        dice,
        rng,
        sink,
        per_die=16,
        beside=4,
        background=12,
        face_turns=4,
        source=source,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--synthetic", type=int, default=5000)
    parser.add_argument(
        "--look-alike",
        type=int,
        default=0,
        help="this many more synthetic trays resembling each kind of real photo (style presets)",
    )
    parser.add_argument(
        "--focus",
        type=int,
        default=0,
        help="this many more synthetic trays whose dice are all of the --focus-schemes",
    )
    parser.add_argument(
        "--focus-schemes",
        default="swirl-red,smoke-red,swirl-blue,black-red",
        help="comma-separated colour schemes (vision.render.SCHEMES) of the --focus trays",
    )
    parser.add_argument(
        "--crowded",
        type=int,
        default=0,
        help="this many more synthetic trays whose dice mostly touch, half of them in a row",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-real", action="store_true")
    parser.add_argument(
        "--real-scales",
        default="1",
        help="comma-separated factors each training photo is cut at, resized (e.g. 0.75,1,1.5)",
    )
    parser.add_argument(
        "--real-folders",
        default="",
        help="comma-separated photo folders to cut (default: every folder in the datasets)",
    )
    args = parser.parse_args()
    cv2.setNumThreads(1)
    sink = Sink()
    if not args.no_real:
        folders = tuple(name for name in args.real_folders.split(",") if name)
        real(args.seed, sink, tuple(float(f) for f in args.real_scales.split(",")), folders)
    synthetic(args.synthetic, args.seed, sink)
    for preset in PRESETS:
        synthetic(args.look_alike, args.seed, sink, preset)
    synthetic(args.focus, args.seed, sink, schemes=tuple(args.focus_schemes.split(",")))
    synthetic(args.crowded, args.seed, sink, crowded=True)
    sink.save(args.out)
    print(f"{len(sink.crops)} crops of {CROP_SIZE}x{CROP_SIZE} -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
