"""Tests of the split of the labelled photos into training and held-out parts."""

from __future__ import annotations

import zlib

from training.split import in_share, is_training, original_photo

COPIES = [
    f"rune55-trainval/images/{part}/{name}_jpg.rf.{digest}.jpg"
    for part in ("train", "valid")
    for name in ("00004", "PXL_20240519_181203411", "b1c2d3e4f5a6b7c8d9e0", "IMG_0612_jpeg")
    for digest in ("062eb840e84b0978d0c605e5c86d3c6b", "4c1c965fe90e72deab19b7f97820fd01")
]


def test_augmented_copies_are_named_by_their_original_photo() -> None:
    assert original_photo(COPIES[0]) == "rune55-trainval/00004"
    assert original_photo("rune55-trainval/images/valid/IMG_0612_jpeg_jpg.rf.ab12.jpg") == (
        "rune55-trainval/IMG_0612_jpeg"
    )
    # A photo that is no augmented copy is its own original.
    assert original_photo("nell-byler-d6/images/IMG_2019_7.jpg") == (
        "nell-byler-d6/images/IMG_2019_7.jpg"
    )


def test_every_copy_of_one_photo_falls_on_the_same_side() -> None:
    sides: dict[str, set[bool]] = {}
    for name in COPIES:
        sides.setdefault(original_photo(name), set()).add(is_training(name))
    assert len(sides) == 4
    assert all(len(side) == 1 for side in sides.values())


def test_photos_that_are_not_copies_keep_the_split_of_their_file_name() -> None:
    names = [f"matteop65-wood/images/frame_{i:04d}.jpg" for i in range(200)]
    assert [is_training(n) for n in names] == [zlib.crc32(n.encode()) % 5 < 3 for n in names]
    share = sum(map(is_training, names)) / len(names)
    assert 0.5 < share < 0.7


def test_a_smaller_share_of_the_photos_lies_inside_a_larger_one() -> None:
    names = [f"matteop65-wood/images/frame_{i:04d}.jpg" for i in range(600)] + COPIES
    third = {n for n in names if in_share(n, 1 / 3)}
    two_thirds = {n for n in names if in_share(n, 2 / 3)}
    assert third < two_thirds < set(names)
    assert {n for n in names if in_share(n, 1.0)} == set(names)
    assert not any(in_share(n, 0.0) for n in names)
    assert 0.25 < len(third) / len(names) < 0.42
    # The share is drawn apart from the training split: a third of the training photos too.
    training = [n for n in names if is_training(n)]
    assert 0.25 < sum(n in third for n in training) / len(training) < 0.42
    sides: dict[str, set[bool]] = {}
    for name in COPIES:
        sides.setdefault(original_photo(name), set()).add(in_share(name, 0.5))
    assert all(len(side) == 1 for side in sides.values())


def test_the_crops_of_one_photo_are_named_by_it_and_fall_on_one_side() -> None:
    crops = [
        f"chase-casino-crops/images/{part}/{value}/DJI_2024100523{minute:04d}_0{shot}_D_detection_{n}.jpg"
        for part, value in (("train", 1), ("valid", 4))
        for minute in range(40)
        for shot in (115, 144)
        for n in (1, 2)
    ]
    assert original_photo(crops[0]) == "chase-casino-crops/DJI_20241005230000_0115_D"
    sides: dict[str, set[bool]] = {}
    for name in crops:
        sides.setdefault(original_photo(name), set()).add(is_training(name))
    assert len(sides) == 80
    assert all(len(side) == 1 for side in sides.values())
    assert 0.4 < sum(side == {True} for side in sides.values()) / len(sides) < 0.8
