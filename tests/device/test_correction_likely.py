"""A `Correction` offers an unread die's likeliest value first: ROLL on an unknown die sets it to
the value the reader found likeliest (else 1), and no die is ever set to it without a press."""

from __future__ import annotations

from device.correction import NOT_A_DIE, Correction


def test_roll_on_an_unknown_die_gives_its_likeliest_value_then_steps_on() -> None:
    correction = Correction.of("Ann", (3, None, 5), replaces=False, likely=(None, 5, None))
    assert correction.cursor == 1
    seen = []
    for _ in range(5):
        correction = correction.step()
        seen.append(correction.values[1])
    assert seen == [5, 6, NOT_A_DIE, 1, 2]


def test_the_likeliest_value_is_never_set_without_a_press() -> None:
    correction = Correction.of("Ann", (3, None, 5), replaces=False, likely=(None, 5, None))
    assert correction.values == (3, None, 5) and not correction.is_changed
    assert correction.problem(3).startswith("die 2 not set yet")
    assert correction.next_die().next_die().next_die().values == (3, None, 5)
    assert correction.dice == (3, 5)
    assert correction.step().problem(3) == ""


def test_the_status_line_names_the_offer_while_the_die_is_unknown() -> None:
    correction = Correction.of("Ann", (3, None, None), replaces=False, likely=(None, 5, None))
    assert correction.status() == "correcting die 2 of 3: ? (likeliest 5)"
    assert correction.step().status() == "correcting die 2 of 3: 5"
    assert correction.next_die().status() == "correcting die 3 of 3: ?"  # no guess
    assert correction.next_die().next_die().status() == "correcting die 1 of 3: 3"


def test_without_a_guess_roll_starts_at_one_as_before() -> None:
    plain = Correction.of("Ann", (None, 2), replaces=False)
    assert plain.step().values == (1, 2)
    odd = Correction.of("Ann", (None, 2, None), replaces=False, faces=6, likely=(7, 4, 0))
    assert odd.likely == (None, None, None)  # out of 1…6, or a die that was read: no guess
    assert odd.step().values == (1, 2, None)
    short = Correction.of("Ann", (None, None), replaces=False, likely=(4,))
    assert short.likely == (4, None) and short.next_die().step().values == (None, 1)


def test_the_stored_correction_records_the_die_as_unread() -> None:
    correction = Correction.of("Ann", (3, None), replaces=False, likely=(None, 5)).step()
    event = correction.event("buttons")
    assert event.read == (3, 0) and event.dice == (3, 5)
