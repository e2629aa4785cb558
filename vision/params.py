"""Every tunable of the dice reader, in one frozen object passed explicitly to each stage."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from vision.errors import InvalidParams

Polygon = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class ReaderParams:
    """The dice reader's parameters.

    Sizes are in pixels or relative to the pip diameter, so one set works for dice from about 20 px
    to 150 px wide. ``roi`` is the throwing area as a polygon of (x, y) points: dice whose centre
    lies outside it are ignored (``None``: the whole frame). ``empty_tray`` is a frame of the
    empty tray (from calibration, `vision.calibration`): a die whose box hardly differs from it
    there is part of the tray, not a die (``None``, or a frame of another size: not checked).
    """

    roi: Polygon | None = None
    empty_tray: npt.NDArray[np.uint8] | None = field(default=None, compare=False, repr=False)
    # Pip candidates: adaptive threshold (block, offset) on each level of an image pyramid, both
    # polarities; each level down finds pips twice as large.
    block_size: int = 21
    # 1: grey levels only (faster); 2: also the red channel, for pips that only colour tells apart.
    planes: int = 2
    # The red channel is searched only when this fraction of the frame differs from grey by this
    # many levels (coloured dice or pips): two small dark dice with red pips on a large light tray
    # are a few ten-thousandths of it.
    colour_difference: int = 40
    colourful_fraction: float = 0.0002
    pyramid_levels: int = 3
    threshold_offset: float = 7.0
    min_pip_area: int = 5
    split_min_diameter: float = 16.0
    split_min_side: int = 4
    max_pip_area_fraction: float = 0.004
    min_fill: float = 0.5
    max_fill: float = 0.95
    min_circularity: float = 0.62
    max_aspect: float = 1.8
    min_pip_contrast: float = 22.0
    min_relative_contrast: float = 0.18
    max_ring_spread: float = 1.2
    # Grouping pips into faces. Pips on the sides of a die seen in perspective are elongated.
    # Pips of one face lie in one plane, so they are elongated alike; a die's top face is the one
    # whose pips are the least elongated.
    max_elongation_spread: float = 0.4
    elongation_noise: float = 1.0
    same_die_fraction: float = 0.8
    # With at least this many faces of two pips or more read, faces whose pips are smaller than
    # this fraction of their median size are not dice, nor lone pips read as ones larger than
    # ``largest_relative_one_size`` times it (a one's pip is often larger than the others, but
    # not a whole die seen as one blob).
    size_reference_faces: int = 3
    least_relative_pip_size: float = 0.55
    largest_relative_one_size: float = 3.0
    side_face_reach: float = 1.3
    side_face_elongation: float = 0.12
    side_face_alignment: float = 0.6
    # A frame whose pips have at least this median elongation, squashed up-down, is seen from a
    # camera tilted forward, whose pictures show the near sides of dice below their tops.
    tilted_elongation: float = 1.15
    max_size_ratio: float = 1.55
    max_face_colour_distance: float = 110.0
    min_spacing: float = 0.7
    max_spacing: float = 3.4
    grid_tolerance: float = 0.32
    foreign_extent: float = 1.5
    empty_point_tolerance: float = 0.5
    # A face's pips under this share of its strongest pip's contrast are seen through the die
    # (the opposite face's, on a translucent die) and left out of it, and so are such faint
    # spots (glare) that keep the pips around them from fitting any face (vision.faces).
    ghost_pip_contrast: float = 0.35
    # Past an empty corner of the grid (in grid steps from the centre) lies face too.
    corner_extent: float = 1.25
    corner_tolerance: float = 0.4
    # Box size of a die from its pip grid spacing, and of a lone pip (a one) from its diameter.
    die_width_per_spacing: float = 3.5
    die_width_per_single_pip: float = 5.0
    # Lone pips read as a one must be this round and contrasted.
    single_min_circularity: float = 0.8
    single_min_contrast: float = 35.0
    single_max_elongation: float = 1.6
    single_bare_radius: float = 1.2
    single_bare_tolerance: float = 0.3
    single_bare_misses: int = 2
    single_outline_reach: float = 5.0
    single_outline_step: float = 0.15
    single_outline_colour: float = 30.0
    single_outline_rays: int = 5
    single_lopsided: float = 0.7
    single_lopsided_pairs: int = 1
    single_frame_margin: float = 2.5
    # Leftover pips that cluster like one die's (linked within this many pip diameters) are
    # reported as an unread die, unless they lie near a die already read.
    report_unread: bool = True
    unread_link: float = 3.2
    unread_margin: float = 3.0
    unread_clearance: float = 1.3
    unread_max_elongation: float = 1.35
    unread_least_size: float = 0.6
    face_colour_tolerance: float = 55.0
    # The classifier: ``use_classifier`` off, neither the fast path nor the judge runs (the pip
    # stages alone read the frame).
    use_classifier: bool = True
    # The judge (`vision.judge`) leaves out what is unlikely a die and gives each die's value only
    # when it is likely right, else None.
    use_judge: bool = True
    # Places that differ from the tray by ``standout_colour`` (a colour distance) over at least
    # ``standout_core`` die widths each way are places where a die may lie, up to
    # ``max_standouts`` of them (vision.standout): dice whose pips did not show. Parts larger than
    # ``standout_max_dice`` dice are not dice. Then up to ``max_standouts`` more where it differs
    # by each of ``standout_faint_colours`` in turn (none: not looked for): dice that differ
    # from the tray little.
    standout_colour: float = 45.0
    standout_faint_colours: tuple[float, ...] = (22.5, 15.0)
    standout_core: float = 0.35
    standout_max_dice: float = 12.0
    max_standouts: int = 6
    # Die widths (edge to edge) from a face's pip grid width, and from a pip's diameter
    # (vision.widths).
    die_width_per_face: float = 1.33
    die_width_per_pip: float = 6.0
    # A blob at least ``min_die_width`` pixels across may be a die whose pips did not show: it is
    # looked at as a die ``die_width_per_blob`` times as wide.
    min_die_width: float = 16.0
    die_width_per_blob: float = 1.0
    # A face whose pips are each such a blob, and each a die to the classifier with at least this
    # probability, is no face: it is dice lying apart, each seen whole (vision.blob_dice).
    pip_die_probability: float = 0.5
    # The fast path (vision.quick), tried first unless ``use_detector`` is off (it reads most
    # frames in about a third of the pip stages' time: training/README.md, "The die detector"):
    # the die detector proposes dice where its peaks are at least ``detector_least``, and the
    # frame is read from them alone when each is a die the classifier is ``quick_sure`` sure of,
    # and of its value (looks turned averaged in when under ``quick_certain``), centred (within
    # ``quick_centred`` die widths); or under ``quick_no_die`` sure of a die (or ``quick_faint``
    # sure, placing none elsewhere) where the detector was weaker than ``quick_strong``; and
    # where the frame stands out from the tray no look is ``quick_doubt`` sure of a die not
    # read, nor, followed once, glimpses one (``quick_faint`` sure) off its centre and on no die
    # read (looked at only near a peak of the detector's, however weak: ``quick_hint``); the
    # dice are ``quick_least_width`` pixels wide or more (median: small dice touching were read
    # one too few), and none is ``quick_width_spread`` times wider or narrower than their median.
    # Dice under ``quick_small_width`` (median) are read more strictly: each ``quick_certain``
    # sure, no glimpse over ``quick_no_die`` let go, and a die found beside them, the detector
    # having missed it, leaves the frame (vision.quick._strict and _looked_around).
    use_detector: bool = True
    detector_least: float = 0.2
    quick_sure: float = 0.85
    quick_centred: float = 0.15
    quick_no_die: float = 0.02
    quick_faint: float = 0.05
    quick_hint: float = 0.05
    quick_strong: float = 0.4
    quick_least_width: float = 28.0
    quick_small_width: float = 32.0
    quick_certain: float = 0.95
    quick_doubt: float = 0.5
    quick_width_spread: float = 1.3

    def __post_init__(self) -> None:
        if self.roi is not None and len(self.roi) < 3:
            raise InvalidParams(f"a region of interest needs 3 corners or more, not {self.roi!r}")
        if self.block_size < 3 or self.block_size % 2 == 0:
            raise InvalidParams(f"block_size must be odd and 3 or more, not {self.block_size!r}")
        if self.planes not in (1, 2):
            raise InvalidParams(f"planes must be 1 (grey) or 2 (grey and red), not {self.planes!r}")
        for name in (
            "pip_die_probability",
            "detector_least",
            "quick_sure",
            "quick_no_die",
            "quick_faint",
            "quick_hint",
            "quick_strong",
            "quick_certain",
            "quick_doubt",
        ):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise InvalidParams(f"{name} is a probability in [0, 1], not {value!r}")
        if not 0.0 <= self.ghost_pip_contrast <= 1.0:
            raise InvalidParams(
                "ghost_pip_contrast is a share of a pip's contrast in [0, 1], not "
                f"{self.ghost_pip_contrast!r}"
            )
        for name in ("max_standouts", "quick_least_width", "quick_small_width"):
            if getattr(self, name) < 0:
                raise InvalidParams(f"{name} cannot be negative, not {getattr(self, name)!r}")
        for name in (
            "die_width_per_face",
            "die_width_per_pip",
            "die_width_per_blob",
            "quick_centred",
            "quick_width_spread",
        ):
            value = getattr(self, name)
            if not value > 0.0:
                raise InvalidParams(f"{name} must be a positive ratio, not {value!r}")
        if not all(0.0 < colour < self.standout_colour for colour in self.standout_faint_colours):
            raise InvalidParams(
                "standout_faint_colours are colour distances in (0, standout_colour), not "
                f"{self.standout_faint_colours!r}"
            )
