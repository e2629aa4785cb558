"""The look of a synthetic tray photo: dice colour schemes and the ``TrayStyle`` parameters.

Part of the synthetic tray renderer (``vision.render``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from engine.errors import DicekeeperError


class InvalidRenderRequest(DicekeeperError, ValueError):
    """A render was asked for with values or a style the renderer cannot draw."""


@dataclass(frozen=True, slots=True)
class Scheme:
    """A dice colour scheme: body and pip colours (BGR), opacity, optional marble veins, and
    ``emblem``: the six shows an emblem (a star in a ring) in the pip colour instead of pips."""

    body: tuple[int, int, int]
    pip: tuple[int, int, int]
    alpha: float = 1.0
    marble: tuple[int, int, int] | None = None
    swirl: float = 0.35
    emblem: bool = False


SCHEMES: dict[str, Scheme] = {
    "white": Scheme((236, 238, 240), (28, 28, 30)),
    "ivory": Scheme((196, 226, 240), (30, 32, 36)),
    "black": Scheme((34, 34, 36), (232, 232, 232)),
    "red": Scheme((40, 36, 196), (240, 240, 240)),
    "blue": Scheme((158, 72, 28), (238, 238, 238)),
    "green": Scheme((70, 150, 40), (240, 240, 240)),
    "yellow": Scheme((40, 210, 230), (30, 30, 30)),
    "purple": Scheme((110, 40, 80), (230, 230, 230)),
    "translucent": Scheme((60, 60, 210), (245, 245, 245), alpha=0.82),
    "marbled": Scheme((60, 110, 150), (25, 25, 25), marble=(120, 190, 215)),
    "black-red": Scheme((36, 34, 38), (40, 40, 200)),
    "blue-yellow": Scheme((150, 80, 30), (40, 210, 235)),
    "teal-yellow": Scheme((120, 110, 30), (50, 215, 235), marble=(90, 160, 60)),
    "pearl-black": Scheme((205, 205, 200), (30, 30, 30), marble=(170, 185, 200)),
    "wine": Scheme((50, 38, 125), (225, 225, 225), alpha=0.9),
    "smoke-red": Scheme((52, 50, 56), (60, 60, 165), alpha=0.92),
    "gold": Scheme((40, 115, 165), (30, 30, 30), marble=(95, 175, 215)),
    "swirl-red": Scheme((40, 35, 150), (60, 60, 190), marble=(30, 28, 32), swirl=0.8),
    "swirl-blue": Scheme((150, 95, 30), (70, 60, 200), marble=(35, 30, 30), swirl=0.8),
}
"""Every dice colour scheme the renderer draws at random (`style_from_seed`), by name."""

UNUSUAL_SCHEMES: dict[str, Scheme] = {
    "emblem-six": Scheme((232, 236, 238), (30, 30, 34), emblem=True),
    "gold-on-black": Scheme((30, 28, 30), (60, 170, 215), emblem=True),
    "red-on-clear": Scheme((215, 200, 185), (40, 40, 200), alpha=0.8),
}
"""Dice the reader was never shown (an emblem in place of the six's pips, unusual pip colours),
drawn only when a style names them: the adaptation benchmark's table dice."""


LOOK_ALIKE_SCHEMES: dict[str, Scheme] = {
    "lime": Scheme((40, 225, 185), (25, 30, 25)),
    "pink": Scheme((185, 140, 235), (245, 245, 245)),
    "orange": Scheme((30, 135, 235), (245, 245, 245)),
    "cloud-blue": Scheme((215, 150, 80), (50, 45, 200), marble=(245, 240, 235), swirl=0.7),
    "cloud-white": Scheme((235, 235, 230), (60, 50, 190), marble=(210, 150, 90), swirl=0.7),
    "glitter-green": Scheme((60, 120, 40), (40, 190, 230), marble=(120, 200, 150), swirl=0.9),
    "glitter-purple": Scheme((120, 40, 90), (235, 235, 235), marble=(200, 120, 190), swirl=0.9),
    "black-gold": Scheme((30, 30, 34), (60, 170, 215)),
}
"""Schemes of the "felt-tray" look-alike (`style_like`), drawn by no random style."""


_NAMED: dict[str, Scheme] = {**SCHEMES, **LOOK_ALIKE_SCHEMES, **UNUSUAL_SCHEMES}
"""Every scheme a style may name: ordinary, a look-alike's own or unusual."""


def scheme_named(name: str) -> Scheme:
    """The colour scheme ``name``: ordinary (`SCHEMES`), a look-alike's own
    (`LOOK_ALIKE_SCHEMES`) or unusual (`UNUSUAL_SCHEMES`)."""
    return _NAMED[name]


BACKGROUNDS: dict[str, tuple[tuple[int, int, int], ...]] = {
    "felt": ((60, 110, 30), (110, 60, 20), (40, 40, 130), (45, 45, 45), (25, 25, 28)),
    "wood": ((150, 182, 208), (120, 160, 200), (85, 120, 160), (175, 200, 218), (60, 85, 120)),
    "plastic": ((120, 120, 120), (95, 98, 100), (150, 150, 148), (70, 70, 72)),
    "light": ((200, 204, 206), (218, 218, 216), (188, 194, 198), (225, 228, 230)),
}
"""Tray surfaces ("light": a light grey plastic tray with a raised rim) and their colours (BGR)."""

MIN_DIE_PX = 20.0
MAX_DIE_PX = 150.0


@dataclass(frozen=True, slots=True)
class TrayStyle:
    """How a synthetic tray photo looks. Every field has a sensible default; ``style_from_seed``
    draws a random one.

    ``die_size`` is the range of die side lengths in pixels (20-150). ``light_tilt`` is the angle
    (radians) of the light from straight overhead, ``light_azimuth`` its direction in the image;
    ``gradient`` the strength of the brightness ramp across the frame; ``shadow`` the darkness of
    dice shadows (0-1); ``gloss`` the strength of glare spots (0-1); ``blur`` the lens blur sigma in
    pixels; ``noise`` the sensor noise sigma in grey levels; ``perspective`` 0 (camera far away,
    no side faces) to 1 (a webcam close above the tray: side faces show near the frame edges);
    ``touching`` the chance that a die lies against another; ``corner`` the rounding of die edges
    as a fraction of the side; ``tint`` a per-channel (B, G, R) colour cast; ``jpeg_quality`` the
    JPEG compression applied (None: none); ``clutter`` 0-1 how many distractors (dust specks, a
    cable, an object reaching in from a corner) lie around; ``walls``: the tray is a box whose
    walls and dark rim show around the floor, on a light table; ``lens`` the barrel distortion of
    the lens (0: none, 0.3: a cheap wide webcam); ``in_a_row``: the dice lie edge to edge in one
    straight row, square to each other (pushed together, or against a wall), not scattered.
    ``camera_tilt`` (degrees, 0-60) turns the camera that far from looking straight down, aimed at
    the tray's centre: dice show their top and side faces in true perspective, near dice larger
    than far ones (0: the overhead camera; box walls are drawn only by it);
    ``camera_azimuth`` (degrees) is the side of the picture the camera stands on, seen from the
    tray's centre: 90 the bottom edge (a player taking a photo across the table), 0 the right.
    """

    die_size: tuple[float, float] = (45.0, 60.0)
    schemes: tuple[str, ...] = ("white",)
    background: str = "felt"
    background_color: tuple[int, int, int] = (60, 110, 30)
    light_tilt: float = 0.35
    light_azimuth: float = -2.3
    gradient: float = 0.12
    vignette: float = 0.15
    shadow: float = 0.45
    gloss: float = 0.4
    blur: float = 0.6
    noise: float = 3.0
    perspective: float = 0.5
    touching: float = 0.25
    corner: float = 0.12
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    jpeg_quality: int | None = None
    clutter: float = 0.3
    walls: bool = False
    lens: float = 0.0
    in_a_row: bool = False
    camera_tilt: float = 0.0
    camera_azimuth: float = 90.0

    def __post_init__(self) -> None:
        lo, hi = self.die_size
        if not MIN_DIE_PX <= lo <= hi <= MAX_DIE_PX:
            raise InvalidRenderRequest(f"die_size must lie within 20-150 px, got {self.die_size!r}")
        unknown = [s for s in self.schemes if s not in _NAMED]
        if not self.schemes or unknown:
            raise InvalidRenderRequest(
                f"unknown dice schemes {self.schemes!r}; known: {sorted(_NAMED)}"
            )
        if self.background not in BACKGROUNDS:
            raise InvalidRenderRequest(
                f"unknown background {self.background!r}; known: {sorted(BACKGROUNDS)}"
            )
        for name in ("shadow", "gloss", "perspective", "touching", "clutter"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise InvalidRenderRequest(f"{name} must lie in [0, 1], got {value!r}")
        if not 0.0 <= self.lens <= 0.3:
            raise InvalidRenderRequest(f"lens must lie in [0, 0.3], got {self.lens!r}")
        if not 0.0 <= self.corner <= 0.3:
            raise InvalidRenderRequest(f"corner must lie in [0, 0.3], got {self.corner!r}")
        if not 0.0 <= self.camera_tilt <= 60.0:
            raise InvalidRenderRequest(
                f"camera_tilt must lie in 0-60 degrees, got {self.camera_tilt!r}"
            )
        if self.camera_tilt and self.walls:
            raise InvalidRenderRequest("box walls are drawn only with camera_tilt 0")
        if not np.isfinite(self.camera_azimuth):
            raise InvalidRenderRequest(
                f"camera_azimuth must be finite, got {self.camera_azimuth!r}"
            )
        if self.jpeg_quality is not None and not 10 <= self.jpeg_quality <= 100:
            raise InvalidRenderRequest(
                f"jpeg_quality must lie in 10-100, got {self.jpeg_quality!r}"
            )


def style_from_seed(
    seed: int,
    *,
    die_size: tuple[float, float] | None = None,
    size: tuple[int, int] = (640, 480),
) -> TrayStyle:
    """A random but plausible ``TrayStyle``, a pure function of ``seed``. Unless ``die_size``
    is given, dice are 20-138 px for a 640×480 frame, scaled with the frame ``size`` (w, h) and
    kept within 20-150 px."""
    rng = np.random.default_rng([seed, 101])
    base = float(np.exp(rng.uniform(np.log(MIN_DIE_PX + 2), np.log(MAX_DIE_PX - 12))))
    if die_size is None:
        base *= min(size) / 480
        die_size = (
            float(np.clip(base * 0.93, MIN_DIE_PX, MAX_DIE_PX)),
            float(np.clip(base * 1.07, MIN_DIE_PX, MAX_DIE_PX)),
        )
    names = sorted(SCHEMES)
    pick = rng.random()
    if pick < 0.5:
        schemes: tuple[str, ...] = (names[int(rng.integers(len(names)))],)
    elif pick < 0.75:
        schemes = tuple(sorted({names[int(i)] for i in rng.integers(len(names), size=2)}))
    else:
        schemes = tuple(names)
    background = sorted(BACKGROUNDS)[int(rng.integers(len(BACKGROUNDS)))]
    colors = BACKGROUNDS[background]
    color = colors[int(rng.integers(len(colors)))]
    return TrayStyle(
        die_size=die_size,
        schemes=schemes,
        background=background,
        background_color=color,
        light_tilt=float(rng.uniform(0.05, 0.75)),
        light_azimuth=float(rng.uniform(-np.pi, np.pi)),
        gradient=float(rng.uniform(0.0, 0.3)),
        vignette=float(rng.uniform(0.0, 0.35)),
        shadow=float(rng.uniform(0.15, 0.7)),
        gloss=float(rng.uniform(0.0, 0.9)),
        blur=float(rng.uniform(0.0, 1.2)),
        noise=float(rng.uniform(0.5, 6.0)),
        perspective=float(rng.uniform(0.1, 1.0)),
        touching=float(rng.uniform(0.0, 0.6)),
        corner=float(rng.uniform(0.06, 0.25)),
        tint=_white_balance(rng),
        jpeg_quality=int(rng.integers(60, 96)) if rng.random() < 0.5 else None,
        clutter=float(rng.uniform(0.0, 1.0)),
        walls=bool(rng.random() < 0.3),
        lens=float(rng.uniform(0.0, 0.12)) if rng.random() < 0.5 else 0.0,
    )


def _white_balance(rng: np.random.Generator) -> tuple[float, float, float]:
    """A colour cast as cameras make them: warmer or cooler, and a little green or magenta."""
    temperature = float(rng.uniform(-0.07, 0.07))
    green = float(rng.uniform(-0.02, 0.02))
    return (1.0 - temperature, 1.0 + green, 1.0 + temperature)


PRESETS = ("phone-box", "webcam-desk", "oblique-table", "felt-tray")
_DARK_AND_COLOURED = (
    "black-red",
    "blue-yellow",
    "gold",
    "smoke-red",
    "swirl-blue",
    "swirl-red",
    "teal-yellow",
    "wine",
)
"""Names of the look-alike styles of ``style_like``."""


def style_like(preset: str, seed: int) -> TrayStyle:
    """A random style resembling one kind of real photo, a pure function of ``seed``:

    "phone-box": a phone held over a light tray or a cardboard dice box (walls and dark rim
    showing), many small
    dice (24-37 px at 640 px) of all colours, some touching; "webcam-desk": a webcam close above a
    light wooden desk with cables and a laptop corner around, ivory or white dice of 40-60 px,
    seen a little from the side, soft and noisy; "oblique-table": a phone held 25-60 degrees
    from straight down (steep views more often) over a white or light grey table, small dice
    (top faces about 15-40 px at 640 px, near ones larger; a close-up of bigger dice one time in
    five) showing top and side faces, mostly white or black, many touching in small heaps, soft
    light with broad shading; "felt-tray": a phone held 5-35 degrees from straight down over a dice
    tray of coloured felt (red, green, purple, tan, brown or dark blue), dice of 26-50 px at 640 px
    in lime, pink, orange, cloudy, glittery, dark and coloured-pip schemes
    (`LOOK_ALIKE_SCHEMES`), soft and compressed.
    """
    base = style_from_seed(seed)
    rng = np.random.default_rng([seed, 202])
    if preset == "phone-box":
        side = float(rng.uniform(24, 32))
        grey = int(rng.integers(180, 205))
        return replace(
            base,
            die_size=(side, min(side * 1.15, MAX_DIE_PX)),
            # Every scheme, dark and coloured-pip dice twice more (as in a gamer's dice bag).
            schemes=tuple(sorted(SCHEMES)) + _DARK_AND_COLOURED * 2,
            background="light",
            background_color=(grey, grey + 2, grey + 3),
            walls=bool(rng.random() < 0.5),
            perspective=float(rng.uniform(0.8, 1.0)),
            touching=float(rng.uniform(0.2, 0.5)),
            clutter=float(rng.uniform(0.1, 0.5)),
            noise=float(rng.uniform(1.5, 4.0)),
            blur=float(rng.uniform(0.4, 0.9)),
            jpeg_quality=int(rng.integers(70, 92)),
            shadow=float(rng.uniform(0.05, 0.3)),
            lens=float(rng.uniform(0.0, 0.04)),
        )
    if preset == "webcam-desk":
        side = float(rng.uniform(40, 58))
        wood = BACKGROUNDS["wood"]
        return replace(
            base,
            die_size=(side, side * 1.08),
            schemes=("ivory",) if rng.random() < 0.7 else ("white",),
            background="wood",
            background_color=wood[int(rng.integers(0, 2)) * 3],
            walls=False,
            perspective=float(rng.uniform(0.85, 1.0)),
            touching=float(rng.uniform(0.1, 0.4)),
            clutter=float(rng.uniform(0.6, 1.0)),
            noise=float(rng.uniform(3.0, 6.0)),
            blur=float(rng.uniform(0.7, 1.3)),
            jpeg_quality=int(rng.integers(60, 85)),
            shadow=float(rng.uniform(0.15, 0.35)),
            gloss=float(rng.uniform(0.1, 0.5)),
            corner=float(rng.uniform(0.16, 0.25)),
            lens=float(rng.uniform(0.04, 0.15)),
        )
    if preset == "oblique-table":
        # Mostly small dice; one tray in five a close-up of bigger ones (as in rune55's photos).
        side = float(rng.uniform(20, 30) if rng.random() >= 0.2 else rng.uniform(32, 48))
        grey = int(rng.integers(175, 226))
        facing = (90.0, 90.0, 90.0, 0.0, 180.0, 270.0)[int(rng.integers(6))]
        return replace(
            base,
            die_size=(side, side * 1.1),
            schemes=("white",) * 4 + ("black",) * 3 + ("ivory", "red", "blue"),
            background="felt",  # in a light grey: the fine grain of a table top or cloth
            background_color=(grey, grey + 1, grey + 2),
            walls=False,
            # Steep views more often than shallow ones: the top faces in rune55's oblique photos
            # look about 0.6 as tall as wide (median), as a face seen 50-55 degrees off.
            camera_tilt=25.0 + 35.0 * float(np.sqrt(rng.random())),
            camera_azimuth=facing + float(rng.uniform(-20, 20)),
            perspective=float(rng.uniform(0.85, 1.0)),
            touching=float(rng.uniform(0.5, 0.9)),
            in_a_row=False,
            clutter=float(rng.uniform(0.0, 0.1)),
            light_tilt=float(rng.uniform(0.3, 0.8)),
            shadow=float(rng.uniform(0.35, 0.65)),
            gradient=float(rng.uniform(0.15, 0.35)),
            vignette=float(rng.uniform(0.1, 0.3)),
            gloss=float(rng.uniform(0.1, 0.5)),
            corner=float(rng.uniform(0.12, 0.22)),
            noise=float(rng.uniform(1.5, 4.0)),
            blur=float(rng.uniform(0.5, 1.2)),
            jpeg_quality=int(rng.integers(60, 90)),
            lens=float(rng.uniform(0.0, 0.05)),
        )
    if preset == "felt-tray":
        side = float(rng.uniform(26, 44))
        felt = _FELTS[int(rng.integers(len(_FELTS)))]
        shade = float(rng.uniform(0.75, 1.15))
        own = sorted(LOOK_ALIKE_SCHEMES)
        if rng.random() < 0.4:
            schemes: tuple[str, ...] = (own[int(rng.integers(len(own)))],)
        else:
            schemes = tuple(own) + _DARK_AND_COLOURED + ("white", "yellow", "green", "marbled")
        return replace(
            base,
            die_size=(side, side * 1.15),
            schemes=schemes,
            background="felt",
            background_color=(
                int(min(255, felt[0] * shade)),
                int(min(255, felt[1] * shade)),
                int(min(255, felt[2] * shade)),
            ),
            walls=False,
            camera_tilt=float(rng.uniform(5, 35)),
            camera_azimuth=float(rng.uniform(0, 360)),
            perspective=float(rng.uniform(0.6, 1.0)),
            touching=float(rng.uniform(0.2, 0.6)),
            clutter=float(rng.uniform(0.0, 0.3)),
            light_tilt=float(rng.uniform(0.2, 0.7)),
            shadow=float(rng.uniform(0.3, 0.7)),
            gradient=float(rng.uniform(0.05, 0.3)),
            vignette=float(rng.uniform(0.05, 0.3)),
            gloss=float(rng.uniform(0.2, 0.8)),
            corner=float(rng.uniform(0.15, 0.28)),
            noise=float(rng.uniform(2.0, 6.0)),
            blur=float(rng.uniform(0.6, 1.4)),
            jpeg_quality=int(rng.integers(55, 85)),
            lens=float(rng.uniform(0.0, 0.05)),
        )
    raise InvalidRenderRequest(f"unknown style preset {preset!r}; known: {PRESETS}")


_FELTS = ((40, 40, 185), (70, 125, 30), (120, 50, 100), (75, 135, 165), (55, 75, 125), (60, 50, 40))
"""Felt colours of dice trays (BGR): red, green, purple, tan, brown, dark blue."""
