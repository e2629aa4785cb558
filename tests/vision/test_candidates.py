"""Tests of the judge's candidates: the faces found, with the detector's strength on each, and the
detector's proposals on no face as faces of their own."""

from __future__ import annotations

import math

import pytest

from vision.candidates import LEAST_STRENGTH, candidates, proposed_face, widened
from vision.crops import pyramid_of
from vision.detect import Proposal
from vision.face import Face
from vision.params import ReaderParams
from vision.reader import candidates_of, stage_faces
from vision.render import TrayStyle, render_tray

SPACING = ReaderParams().die_width_per_spacing


def pip_face(x: float, value: int = 3, width: float = 40.0) -> Face:
    step = width / SPACING
    return Face(x, 50.0, (step, 0.0), (0.0, step), tuple(range(value)), value, width, 0.7)


def test_a_proposal_on_a_face_lends_it_its_strength_and_width_and_the_strongest_counts() -> None:
    found = candidates(
        [pip_face(100.0)],
        [Proposal(105.0, 52.0, 42.0, 0.6), Proposal(98.0, 50.0, 38.0, 0.9)],
        SPACING,
    )
    assert len(found) == 1
    assert found[0].face == widened(pip_face(100.0), 38.0) and found[0].strength == 0.9
    assert found[0].face.pips == pip_face(100.0).pips and found[0].face.u[0] * SPACING == 38.0
    assert found[0].has_pips and not found[0].is_quick


def test_a_proposal_on_no_face_is_a_candidate_without_pips_and_weak_ones_are_none() -> None:
    found = candidates(
        [pip_face(100.0)],
        [
            Proposal(300.0, 80.0, 44.0, 0.5),
            Proposal(310.0, 82.0, 40.0, 0.3),  # the same die, proposed again more weakly
            Proposal(500.0, 80.0, 44.0, LEAST_STRENGTH / 2),
        ],
        SPACING,
    )
    assert [(c.face.x, c.strength) for c in found] == [(100.0, 0.0), (300.0, 0.5)]
    proposed = found[1].face
    assert proposed == proposed_face(Proposal(300.0, 80.0, 44.0, 0.5), SPACING)
    assert proposed.pips == () and proposed.value is None and proposed.confidence == 0.0
    assert proposed.width == 44.0 and proposed.u[0] * SPACING == pytest.approx(44.0)
    assert not found[1].has_pips and not found[1].is_quick


def test_a_face_as_wide_as_the_gap_between_two_dice_does_not_take_in_their_proposals() -> None:
    # Two pips of dice 100 px apart taken for a two: a face 160 px wide between them. The dice
    # are the detector's (22 px wide, edge to edge); the face's width counts for at most twice
    # a proposal's, so a proposal is on it within 22 px, not 80.
    wide = pip_face(100.0, value=2, width=160.0)
    left, right = Proposal(50.0, 50.0, 22.0, 0.5), Proposal(150.0, 50.0, 22.0, 0.5)
    found = candidates([wide], [left, right], SPACING)
    assert [(c.face.x, c.strength) for c in found] == [(100.0, 0.0), (50.0, 0.5), (150.0, 0.5)]
    assert found[0].face == wide  # not narrowed to a proposal's width


def test_no_faces_and_no_proposals_are_no_candidates() -> None:
    assert candidates([], [], SPACING) == []


@pytest.mark.parametrize(
    ("scheme", "size"),
    [("marbled", (45.0, 55.0)), ("swirl-blue", (45.0, 55.0)), ("swirl-red", (140.0, 150.0))],
)
def test_every_rendered_die_has_a_candidate(scheme: str, size: tuple[float, float]) -> None:
    """Dice whose pips the pip stages miss in some of these throws (marbled and swirled dice,
    large ones) are proposed by the detector."""
    style = TrayStyle(schemes=(scheme,), die_size=size)
    for seed in range(500, 504):
        tray = render_tray([1, 2, 3, 4, 5, 6][: 3 if size[0] > 100 else 6], seed=seed, style=style)
        pyramid = pyramid_of(tray.frame)
        found = candidates_of(tray.frame, pyramid, ReaderParams(use_detector=False))
        for die in tray.dice:
            assert any(
                math.dist((c.face.x, c.face.y), die.center) < die.size_px / 2 for c in found
            ), f"seed {seed}: no candidate at the {die.value} at {die.center}"


def test_the_fast_path_s_dice_are_the_candidates_when_it_is_sure_of_them_all() -> None:
    tray = render_tray([2, 5, 6], seed=11, style=TrayStyle(die_size=(50.0, 55.0)))
    pyramid = pyramid_of(tray.frame)
    quick = stage_faces(tray.frame, pyramid, ReaderParams())
    found = candidates_of(tray.frame, pyramid, ReaderParams())
    assert quick and all(not face.pips for face in quick), "the fast path did not read it"
    assert [c.face for c in found] == quick and all(c.is_quick for c in found)
