"""Tests of fitting the judge (training/fit_judge.py): the logistic fit, which labelled die a face
lies on, and the kind of scene a frame counts in."""

from __future__ import annotations

import numpy as np
import pytest

from training import fit_judge
from training.fit_judge import (
    FOLDS,
    Photo,
    fit,
    fitted_without,
    fold_of,
    label_of,
    out_of_fold,
)
from vision.evaluation import LabelledDie
from vision.face import Face


def face(x: float, width: float, y: float = 50.0) -> Face:
    return Face(x, y, (5.0, 0.0), (0.0, 5.0), (), 3, width, 0.9)


def test_the_fit_finds_the_evidence_that_tells_and_weighs_rows() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 2))
    y = (x[:, 0] > 0).astype(np.float64)  # the first feature tells, the second is noise
    model = fit(x, y, np.ones(len(y)))
    assert model.chance((2.0, 0.0)) > 0.95 and model.chance((-2.0, 0.0)) < 0.05
    assert abs(model.weights[0]) > 10 * abs(model.weights[1])
    # Rows weighing nothing do not count: labels flipped on them change nothing.
    weight = np.where(np.arange(len(y)) % 2 == 0, 1.0, 0.0)
    flipped = np.where(weight > 0, y, 1.0 - y)
    assert fit(x, flipped, weight).chance((2.0, 0.0)) > 0.95


def test_a_face_lies_on_the_labelled_die_near_it_and_not_much_narrower() -> None:
    die = LabelledDie(40.0, 30.0, 80.0, 70.0, 3)  # centre (60, 50), 40 wide
    assert label_of(face(65.0, 40.0), 1.0, [die]) == die
    assert label_of(face(80.0, 40.0), 1.0, [die]) is None  # half a width away
    assert label_of(face(60.0, 120.0), 1.0, [die]) == die  # wider: a box may cover only pips
    assert label_of(face(60.0, 12.0), 1.0, [die]) is None  # a speck on it
    # On the working copy, shrunk to half: the face is placed back in the frame first.
    assert label_of(face(30.0, 20.0, y=25.0), 0.5, [die]) == die


def test_a_frame_counts_in_its_kind_of_scene() -> None:
    def photo(*names: str) -> Photo:
        return Photo(names, "x", True, 1.0, (), (), ())

    rune = photo(
        "rune55-trainval",
        "rune55-trainval board game",
        "rune55-trainval, held out",
        "rune55-trainval board game, held out",
    )
    assert rune.scene == "rune55-trainval board game"
    assert rune.group == "rune55-trainval"
    assert photo("nell-byler-d6").scene == "nell-byler-d6"
    assert photo("synthetic", "synthetic, held out").scene == "synthetic"


def test_each_training_photo_is_decided_by_models_fitted_without_its_original(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def photo(original: str, training: bool = True) -> Photo:
        return Photo(("rune55-trainval",), original, training, 1.0, (), (), ())

    photos = [photo(f"r/{n // 3}") for n in range(60)] + [photo("r/held", training=False)]
    assert len({fold_of(p) for p in photos}) == FOLDS  # the originals spread over every fold
    fitted_on: list[list[Photo]] = []

    def fitted(given: list[Photo]) -> tuple[object, object]:
        fitted_on.append(given)
        return (len(fitted_on), len(fitted_on))

    monkeypatch.setattr(fit_judge, "fitted", fitted)
    judged = out_of_fold(photos)
    assert sorted(p.original for p, _, _ in judged) == sorted(p.original for p in photos[:-1])
    for p, die, _ in judged:
        given = fitted_on[int(die) - 1]  # type: ignore[call-overload]
        assert all(q.original != p.original for q in given)
        assert all(fold_of(q) == fold_of(p) for q in photos[:-1] if q not in given)


def test_a_folder_fitted_without_is_still_read_and_scored_but_never_fitted_on() -> None:
    def photo(folder: str, training: bool) -> Photo:
        return Photo((folder,), f"{folder}/a", training, 1.0, (), (), ())

    photos = [photo("nell-byler-d6", True), photo("epanemu-ctu", True), photo("epanemu-ctu", False)]
    kept = fitted_without(photos, ["epanemu-ctu"])
    assert [(p.group, p.training) for p in kept] == [
        ("nell-byler-d6", True),
        ("epanemu-ctu", False),
        ("epanemu-ctu", False),
    ]
    assert fitted_without(photos, []) == photos
