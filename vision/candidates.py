"""The places where a die may lie, with what found each: the faces the pip stages (or the fast path)
found, and the die detector's proposals at the frame's scales (`vision.detect.detect_scales`). A
proposal on a face found is evidence for that face; one on no face is a candidate of its own, a
die whose pips the pip stages did not see (pips that contrast only in colour, a glossy or marbled
die, a die too small or too large for them). The judge (`vision.judge`) weighs every candidate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from vision.detect import Proposal
from vision.face import Face
from vision.pips import Pip

LEAST_STRENGTH = 0.1
"""Proposals weaker than this are not candidates (nor evidence)."""
ON_FACE = 0.4
"""A pip candidate within this many of a candidate's widths of its centre lies on it."""
SAME_DIE = 0.5
"""A proposal closer to a face than this many of the wider's widths is on that face's die, the
face's width counted up to `FACE_AT_MOST` of the proposal's."""
FACE_AT_MOST = 2.0
"""The detector measures a die edge to edge, and a face's pip grid spans 0.5-0.75 of its die, so
a face over this many times as wide as a proposal is not that die's: two pips of dice far apart
taken for a two make a face as wide as the gap between them, which took in the proposals of the
dice around it (a tray of small marbled dice lost a die in ten so)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A place where a die may lie: its face (a face proposed by the detector alone has no pips,
    no value and confidence 0; one read by the fast path has a value and no pips), the strength
    of the detector's strongest proposal on it (0: none), and how many of the frame's pip
    candidates lie on it (`ON_FACE`) and their mean elongation (0: none; a face seen obliquely,
    such as a die's side, has elongated pips)."""

    face: Face
    strength: float
    pips_on: int = 0
    elongation: float = 0.0

    @property
    def has_pips(self) -> bool:
        """Whether the pip stages found this face's pips."""
        return bool(self.face.pips)

    @property
    def is_quick(self) -> bool:
        """Whether the fast path read it (a value, and no pips)."""
        return not self.face.pips and self.face.value is not None


def candidates(
    faces: Sequence[Face],
    proposals: Sequence[Proposal],
    die_width_per_spacing: float,
    pips: Sequence[Pip] = (),
) -> list[Candidate]:
    """Every face found, with the strength of the strongest proposal on it and that proposal's
    width (`widened`: the detector measures a die edge to edge, the pip grid only between its
    pips), then every proposal (of at least `LEAST_STRENGTH`, strongest first) on no face nor
    earlier proposal, as a face of its own (`proposed_face`); each with the pip candidates
    (``pips``) on it."""
    found = [Candidate(face, 0.0) for face in faces]
    widths = [face.width for face in faces]
    strong = [p for p in proposals if p.strength >= LEAST_STRENGTH]
    for proposal in sorted(strong, key=lambda p: -p.strength):
        near = [
            (distance, i)
            for i, c in enumerate(found)
            if (distance := math.hypot(c.face.x - proposal.x, c.face.y - proposal.y))
            < SAME_DIE * max(proposal.width, min(c.face.width, FACE_AT_MOST * proposal.width))
        ]
        if not near:
            found.append(
                Candidate(proposed_face(proposal, die_width_per_spacing), proposal.strength)
            )
            widths.append(proposal.width)
            continue
        _, index = min(near)
        if proposal.strength > found[index].strength:
            found[index] = Candidate(found[index].face, proposal.strength)
            widths[index] = proposal.width
    placed = []
    for candidate, width in zip(found, widths, strict=True):
        face = widened(candidate.face, width)
        on = [p for p in pips if math.hypot(p.x - face.x, p.y - face.y) < ON_FACE * width]
        elongation = sum(p.elongation for p in on) / len(on) if on else 0.0
        placed.append(Candidate(face, candidate.strength, len(on), elongation))
    return placed


def widened(face: Face, width: float) -> Face:
    """The face as a die ``width`` wide: its width, and its grid scaled to match."""
    if width == face.width:
        return face
    k = width / face.width
    return replace(
        face, u=(face.u[0] * k, face.u[1] * k), v=(face.v[0] * k, face.v[1] * k), width=width
    )


def proposed_face(proposal: Proposal, die_width_per_spacing: float) -> Face:
    """A die proposed by the detector as a face: no pips, no value, its grid square to the frame
    (the detector tells no angle) and spaced so that the die is ``proposal.width`` wide."""
    step = proposal.width / die_width_per_spacing
    return Face(proposal.x, proposal.y, (step, 0.0), (0.0, step), (), None, proposal.width, 0.0)
