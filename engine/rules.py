"""Rule sets as data plus a few hooks, and the registry that finds them by name.

A `Rules` value says how many dice of how many faces are thrown, what scores (`ScoringTable`, turned
into concrete `Combination` values by the `Rules.combinations` hook), how a player enters the game,
whether the player chooses the dice to set aside, hot dice, the target (reached or passed) and how
the game ends, passing (to anyone or only to entered players), what a run of busts costs, and the
throws that win the game at once or lose the thrower's whole score. The built-in sets live in
`engine.rulesets`; a house rule is a `Rules(...)` (or a subclass overriding a hook) handed to
`register_rules`, or a TOML file read by `engine.rules_toml`.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import itertools
from collections import Counter
from dataclasses import dataclass, field

from engine.dice import Throw
from engine.errors import InvalidRules, UnknownRules


class KeepRule(enum.Enum):
    """Who decides which scoring dice are set aside after a throw."""

    CHOOSE = "choose"  # the player sets aside one or more scoring dice of their choice
    ALL = "all"  # every scoring die is set aside; the game applies it itself


class EntryRule(enum.Enum):
    """What the entry threshold applies to, until a player has entered the game."""

    NONE = "none"  # no threshold
    FIRST_ROLL = "first-roll"  # the first throw of a turn must score it, else bust (OOPSLA Greed)
    BANKED_TURN = "banked-turn"  # a turn must bank at least it before points count (Koans)
    FIRST_SCORE = "first-score"  # the first score a player records must be at least it (house)


class EndRule(enum.Enum):
    """How the game ends once a player's total reaches the target."""

    ROUND = "round"  # the round is completed: every player has had the same number of turns
    LAST_TURN = "last-turn"  # every other player gets exactly one more turn
    IMMEDIATE = "immediate"  # the game ends at once: the first bank to reach the target wins


@dataclass(frozen=True, slots=True)
class Combination:
    """One scoring pattern: these dice (ascending), thrown together, score these points."""

    dice: tuple[int, ...]
    points: int
    name: str = ""

    def __post_init__(self) -> None:
        if not self.dice or any(type(d) is not int or d < 1 for d in self.dice):
            raise InvalidRules(f"combination dice {self.dice!r} must be whole numbers >= 1")
        if type(self.points) is not int or self.points <= 0:
            raise InvalidRules(f"combination points {self.points!r} must be a whole number > 0")
        if tuple(sorted(self.dice)) != self.dice:
            object.__setattr__(self, "dice", tuple(sorted(self.dice)))


ZILCH_PENALTY = 500
HOOKS = {"zilch-penalty": "a third bust (zilch) in a row costs 500 points, never below 0"}
"""The named hooks a rule set may switch on, with what each does."""

_COUNT_WORDS = {1: "single", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@dataclass(frozen=True, slots=True)
class ScoringTable:
    """The scoring combinations as data.

    ``singles``: face -> points of one such die. ``three_of_a_kind``: points per face value of three
    of a kind, with ``three_of_a_kind_overrides`` (face -> points, e.g. three 1s = 1000).
    ``of_a_kind``: count -> multiplier of the three-of-a-kind points (``(3, 1)`` alone: only
    triples score; ``(4, 2)``: four of a kind scores double). ``of_a_kind_points``: count -> flat
    points whatever the face (it wins over ``of_a_kind`` for the same count).
    Patterns: ``pairs``: number of pairs of different faces -> points (``(3, 1500)``: three pairs),
    with ``four_of_a_kind_is_two_pairs`` a four of a kind counting as two pairs of its face (so four
    of a kind and a pair is three pairs); ``triplets``: number of triples of different faces ->
    points; ``four_and_pair``: four of a kind with a pair of another face; ``straights``: length ->
    points of every run of that many consecutive faces; ``no_score``: a throw of all the dice in
    which nothing else scores. ``extra``: fixed combinations spelt out die by die.
    Only faces the dice have and counts up to the number of dice apply.
    """

    singles: tuple[tuple[int, int], ...] = ((1, 100), (5, 50))
    three_of_a_kind: int = 100
    three_of_a_kind_overrides: tuple[tuple[int, int], ...] = ((1, 1000),)
    of_a_kind: tuple[tuple[int, int], ...] = ((3, 1),)
    extra: tuple[Combination, ...] = ()
    of_a_kind_points: tuple[tuple[int, int], ...] = ()
    pairs: tuple[tuple[int, int], ...] = ()
    four_of_a_kind_is_two_pairs: bool = False
    triplets: tuple[tuple[int, int], ...] = ()
    four_and_pair: int = 0
    straights: tuple[tuple[int, int], ...] = ()
    no_score: int = 0

    def __post_init__(self) -> None:
        for label, pairs in (
            ("singles", self.singles),
            ("three_of_a_kind_overrides", self.three_of_a_kind_overrides),
            ("of_a_kind", self.of_a_kind),
            ("of_a_kind_points", self.of_a_kind_points),
            ("pairs", self.pairs),
            ("triplets", self.triplets),
            ("straights", self.straights),
        ):
            for key, value in pairs:
                if type(key) is not int or key < 1 or type(value) is not int or value <= 0:
                    raise InvalidRules(
                        f"scoring.{label} entry {key!r} = {value!r}: both must be whole numbers "
                        f"(key >= 1, value > 0)"
                    )
        if type(self.three_of_a_kind) is not int or self.three_of_a_kind < 0:
            raise InvalidRules(
                f"scoring.three_of_a_kind = {self.three_of_a_kind!r}: must be a whole number >= 0"
            )
        for label, pairs, low in (
            ("of_a_kind", self.of_a_kind, 2),
            ("of_a_kind_points", self.of_a_kind_points, 2),
            ("pairs", self.pairs, 2),
            ("triplets", self.triplets, 2),
            ("straights", self.straights, 2),
        ):
            for count, _ in pairs:
                if count < low:
                    raise InvalidRules(f"scoring.{label} count {count!r}: must be >= {low}")
        for label in ("four_and_pair", "no_score"):
            value = getattr(self, label)
            if type(value) is not int or value < 0:
                raise InvalidRules(f"scoring.{label} = {value!r}: must be a whole number >= 0")
        if not isinstance(self.four_of_a_kind_is_two_pairs, bool):
            raise InvalidRules(
                f"scoring.four_of_a_kind_is_two_pairs = {self.four_of_a_kind_is_two_pairs!r}: "
                "must be true or false"
            )

    def triple_points(self, face: int) -> int:
        """Points of three dice showing ``face``."""
        return dict(self.three_of_a_kind_overrides).get(face, self.three_of_a_kind * face)


SWITCHES = (
    "hot_dice",
    "passing",
    "target_passed",
    "pass_to_entered",
    "inherited_enters",
    "every_die_scores",
)
"""The rules that are on or off, each a key at the top of a rule file (`engine.rules_toml`)."""


@dataclass(frozen=True)
class Rules:
    """A rule set. Frozen and hashable; `with_target` derives one with a chosen target.

    Hooks a variant may override (like python-chess variants): `combinations` (what scores),
    `first_roll_enters` and `bank_enters` (the entry threshold), `bust_points` (what a bust costs;
    the named hook ``"zilch-penalty"`` switches on Zilch's).
    """

    name: str
    description: str
    dice: int
    faces: int = 6
    scoring: ScoringTable = field(default_factory=ScoringTable)
    entry: EntryRule = EntryRule.NONE
    entry_threshold: int = 0
    keep: KeepRule = KeepRule.CHOOSE
    hot_dice: bool = True
    target: int = 10_000
    end: EndRule = EndRule.LAST_TURN
    passing: bool = False
    source: str = ""
    hooks: tuple[str, ...] = ()
    """Named rules that need more than data, switched on by name (see `HOOKS`)."""
    bank_minimum: int = 0
    """The least turn total any bank needs, entered or not (Zilch: 300)."""
    target_passed: bool = False
    """True: the target must be passed, not just reached ("more than 10,000")."""
    pass_to_entered: bool = False
    """Passing: only a player who has entered (banked a turn) is offered the passed dice."""
    inherited_enters: bool = True
    """Passing: points taken over count toward the taker's entry threshold."""
    penalty_points: int = 0
    """What every ``penalty_busts``-th bust in a row costs (0: nothing; see `bust_points`)."""
    penalty_busts: int = 3
    below_zero: bool = False
    """True: a penalty may take a score below zero (else it stops at zero)."""
    every_die_scores: bool = False
    """True: a throw busts unless every die thrown scores, and all of them are set aside."""
    instant_win: tuple[tuple[int, ...], ...] = ()
    """Throws holding any of these dice (ascending) win the game at once."""
    wipe_out: tuple[tuple[int, ...], ...] = ()
    """Throws holding any of these dice (ascending) lose the turn and the thrower's whole score."""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidRules(f"name {self.name!r}: must be a non-empty string")
        for key, low in (
            ("dice", 1),
            ("faces", 2),
            ("target", 1),
            ("entry_threshold", 0),
            ("bank_minimum", 0),
            ("penalty_points", 0),
            ("penalty_busts", 1),
        ):
            value = getattr(self, key)
            if type(value) is not int or value < low:
                raise InvalidRules(f"{key} = {value!r}: must be a whole number >= {low}")
        for key, kind in (("entry", EntryRule), ("keep", KeepRule), ("end", EndRule)):
            if not isinstance(getattr(self, key), kind):
                allowed = ", ".join(repr(member.value) for member in kind)
                raise InvalidRules(f"{key} = {getattr(self, key)!r}: allowed {allowed}")
        for key in (*SWITCHES, "below_zero"):
            if not isinstance(getattr(self, key), bool):
                raise InvalidRules(f"{key} = {getattr(self, key)!r}: must be true or false")
        for key in ("instant_win", "wipe_out"):
            for dice in getattr(self, key):
                if (
                    not isinstance(dice, tuple)
                    or not 1 <= len(dice) <= self.dice
                    or any(type(d) is not int or not 1 <= d <= self.faces for d in dice)
                ):
                    raise InvalidRules(
                        f"{key} entry {list(dice)!r} can never be thrown: it must be 1 to "
                        f"{self.dice} dice of faces 1-{self.faces}"
                    )
            object.__setattr__(self, key, tuple(tuple(sorted(d)) for d in getattr(self, key)))
        if not isinstance(self.hooks, tuple) or any(hook not in HOOKS for hook in self.hooks):
            allowed = ", ".join(repr(name) for name in HOOKS)
            raise InvalidRules(f"hooks = {self.hooks!r}: allowed {allowed}")
        if not self.combinations():
            raise InvalidRules(f"rules {self.name!r}: no combination scores on {self.faces} faces")

    # --- hooks -------------------------------------------------------------------------------

    def combinations(self) -> tuple[Combination, ...]:
        """Every concrete scoring combination for these dice (hook: override to add patterns)."""
        cached: tuple[Combination, ...] | None = self.__dict__.get("_combinations")
        if cached is None:
            cached = pattern_combinations(self.scoring, dice=self.dice, faces=self.faces)
            object.__setattr__(self, "_combinations", cached)  # frozen: a cache, not a field
        return cached

    def first_roll_enters(self, best: int, *, entered: bool) -> bool:
        """Whether a turn's first throw scoring ``best`` may go on (False: the turn busts)."""
        if entered or self.entry is not EntryRule.FIRST_ROLL:
            return True
        return best >= self.entry_threshold

    def bank_enters(self, turn_total: int, *, entered: bool, inherited: int = 0) -> bool:
        """Whether a player may bank ``turn_total`` (False: below the entry threshold or the bank
        minimum); ``inherited`` of it taken over from a pass, which counts toward the threshold
        only under ``inherited_enters``."""
        if turn_total < self.bank_minimum:
            return False
        if entered or self.entry not in (EntryRule.BANKED_TURN, EntryRule.FIRST_SCORE):
            return True
        own = turn_total if self.inherited_enters else turn_total - inherited
        return own >= self.entry_threshold

    def bust_points(self, *, busts_in_a_row: int, total: int) -> int:
        """Points a bust records, after ``busts_in_a_row`` busts and with ``total`` before it.

        0, but every ``penalty_busts``-th bust in a row costs ``penalty_points`` (the hook
        ``"zilch-penalty"``: 500 every third), never below 0 unless ``below_zero``.
        """
        points = self.penalty_points or (ZILCH_PENALTY if "zilch-penalty" in self.hooks else 0)
        if not points or busts_in_a_row % self.penalty_busts != self.penalty_busts - 1:
            return 0
        return -points if self.below_zero else -min(points, max(total, 0))

    def reaches_target(self, total: int) -> bool:
        """Whether a score of ``total`` reaches the target (passes it, under ``target_passed``)."""
        return total >= self.goal

    @property
    def goal(self) -> int:
        """The least score that reaches the target: the target, or one more when it must be
        passed."""
        return self.target + 1 if self.target_passed else self.target

    def holds(self, dice: tuple[int, ...], wanted: tuple[tuple[int, ...], ...]) -> bool:
        """Whether the thrown ``dice`` hold all the dice of one of ``wanted`` (each ascending)."""
        if not wanted:
            return False
        counts = Counter(dice)
        return any(
            all(counts[face] >= need for face, need in Counter(want).items()) for want in wanted
        )

    # --- helpers -----------------------------------------------------------------------------

    @property
    def is_keep_forced(self) -> bool:
        """True when every scoring die is set aside automatically (no choice for the player)."""
        return self.keep is KeepRule.ALL

    def with_target(self, target: int) -> Rules:
        """The same rules with another target score (e.g. chosen by the players)."""
        return dataclasses.replace(self, target=target)

    def check_throw(self, values: Throw, *, count: int | None = None) -> Throw:
        """``values`` if they fit these dice (and ``count`` dice if given), else `InvalidThrow`."""
        return values.check(faces=self.faces, count=count, max_count=self.dice)


@functools.lru_cache(maxsize=128)
def pattern_combinations(table: ScoringTable, *, dice: int, faces: int) -> tuple[Combination, ...]:
    """The concrete combinations ``table`` describes for ``dice`` dice of ``faces`` faces."""
    combos: list[Combination] = []
    for face, points in table.singles:
        if face <= faces:
            combos.append(Combination((face,), points, f"single {face}"))
    flat = dict(table.of_a_kind_points)
    kinds = {count: None for count, _ in table.of_a_kind} | dict.fromkeys(flat)
    multipliers = dict(table.of_a_kind)
    for count in kinds:
        if count > dice:
            continue
        word = _count_word(count)
        for face in range(1, faces + 1):
            points = flat.get(count, table.triple_points(face) * multipliers.get(count, 0))
            if points > 0:
                combos.append(Combination((face,) * count, points, f"{word} {face}s"))
    for number, points in table.pairs:
        for faces_used in _grouped_faces(
            faces, number, 2 if table.four_of_a_kind_is_two_pairs else 1
        ):
            pattern = tuple(face for face in faces_used for _ in range(2))
            if len(pattern) <= dice:
                combos.append(Combination(pattern, points, f"{_count_word(number)} pairs"))
    for number, points in table.triplets:
        for faces_used in _grouped_faces(faces, number, 1):
            pattern = tuple(face for face in faces_used for _ in range(3))
            if len(pattern) <= dice:
                combos.append(Combination(pattern, points, f"{_count_word(number)} triplets"))
    if table.four_and_pair and dice >= 6:
        for four in range(1, faces + 1):
            for pair in range(1, faces + 1):
                if pair != four:
                    combos.append(
                        Combination(
                            (four,) * 4 + (pair,) * 2,
                            table.four_and_pair,
                            "four of a kind and a pair",
                        )
                    )
    for length, points in table.straights:
        if length <= dice:
            for low in range(1, faces - length + 2):
                run = tuple(range(low, low + length))
                combos.append(Combination(run, points, f"straight {low}-{run[-1]}"))
    for combo in table.extra:
        if len(combo.dice) <= dice and max(combo.dice) <= faces:
            combos.append(combo)
    if table.no_score:
        combos.extend(_no_score_throws(combos, table.no_score, dice=dice, faces=faces))
    return tuple(combos)


def _count_word(count: int) -> str:
    return _COUNT_WORDS.get(count, str(count))


def _grouped_faces(faces: int, number: int, most: int) -> list[tuple[int, ...]]:
    """Ascending choices of ``number`` faces where one face appears at most ``most`` times."""
    return [
        chosen
        for chosen in itertools.combinations_with_replacement(range(1, faces + 1), number)
        if all(chosen.count(face) <= most for face in set(chosen))
    ]


def _no_score_throws(
    combos: list[Combination], points: int, *, dice: int, faces: int
) -> list[Combination]:
    """A combination for every throw of all the dice that holds none of ``combos``."""
    needs = [Counter(combo.dice) for combo in combos]
    found = []
    for throw in itertools.combinations_with_replacement(range(1, faces + 1), dice):
        counts = Counter(throw)
        if not any(all(counts[v] >= k for v, k in need.items()) for need in needs):
            found.append(Combination(throw, points, "nothing scores"))
    return found


_REGISTRY: dict[str, Rules] = {}


def register_rules(rules: Rules) -> Rules:
    """Add ``rules`` to the registry under its name (replacing one of the same name)."""
    _REGISTRY[rules.name] = rules
    return rules


def builtin_rules() -> tuple[Rules, ...]:
    """The registered rule sets, built-in ones first, in registration order."""
    _load_builtins()
    return tuple(_REGISTRY.values())


def rules_names() -> tuple[str, ...]:
    """The names `find_rules` knows."""
    return tuple(rules.name for rules in builtin_rules())


def find_rules(name: str) -> Rules:
    """The registered rule set called ``name``; `UnknownRules` (listing the names) if none."""
    _load_builtins()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(_REGISTRY)
        raise UnknownRules(f"unknown rules {name!r}: known rules are {known}") from None


def _load_builtins() -> None:
    # Imported late: engine.rulesets registers itself through this module.
    import engine.rulesets  # noqa: F401
