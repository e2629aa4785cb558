"""The optimal two-player solver: the chance of winning from every state, by value iteration.

A state is (seat, own score i, opponent's score j, turn total k, dice left n), in score units
(`engine.solver_model`). ``W(s, i, j, 0)`` is the chance that the player to move wins from the start
of a turn; within the turn the player banks or throws, whichever wins more often::

    V(k, n)  = max(bank(k, n), R(k, n))     (bank only where the entry rule allows it)
    R(k, n)  = P(bust)·(1 - W(s', j, i, 0)) + Σ_throws P·max_keeps V(k + s, n')
    bank     = 1 - W(s', j, i + k, 0)            before the target
             = 1 - P(opponent passes i + k in one last turn)   at or past it (the end rules;
               1 where the game ends at once)

(with passing, the opponent may instead take over the k points and n dice: ``W`` becomes
``max(W, R_opponent(k, n))``). Scores only grow, so states are solved in order of decreasing
i + j; the one cycle, a bust handing the turn to the opponent at the same scores, couples the pair
(i, j)/(j, i), whose two start values are found by the secant method (exact to 1e-12 in 3-5 sweeps).

Play needs only ``W`` at the start of turns: given those, one turn's (k, n) values are a small
DAG over turn totals, solved on demand (`OptimalTable.turn`, milliseconds) when a decision asks.
So the table stores ``W`` for every (seat, i, j), and under passing rules the chances with passed
dice a bank's value needs (float32: 89 MB for greed-house to 10,000; 320 kB for farkle). This
module is the pure-Python reference; ``device.solver_fast`` solves the same table with numpy, a
diagonal of states at a time.

Simplifications, all documented in the table: turn totals more than ``margin`` units past the
target are banked without asking; ties count as losses for the player who must pass the leader
(which never stops short of passing it, so it never ties); seats matter only under round-ending
rules (`EndRule.ROUND`), where a second player reaching the target ends the game at once. Under
`EndRule.IMMEDIATE` (Pig) a bank reaching the target wins, so only totals up to it are stored.

A wipe-out (the rules' ``wipe_out``: two 1s in Two-Dice Pig) sends the thrower's score back to 0,
so a state's value also needs ``W(s', j, 0)`` of a lower diagonal: the whole sweep repeats, each
one reading the previous one's values there, until no start value moves by `TOLERANCE`. The
target is the rules' `Rules.goal` (one more than the target when it must be passed); passing only
to an entered player offers the pass only to an opponent with points. An instant win, and passed
points that do not count toward the entry, are refused (`unsupported`); a bust penalty is not
modelled (the table plays as if there were none).
"""

from __future__ import annotations

import hashlib
import io
import json
import time
from array import array
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO

from engine.errors import DicekeeperError
from engine.rules import EndRule, EntryRule, Rules
from engine.solver_model import DiceModel, throw_model
from engine.solver_turn import ReachTable, solve_reach

TOLERANCE = 1e-12
FORMAT = "dicekeeper-optimal-3"  # start chances (float64), passing rows (float32), sha256
OLD_FORMATS = ("dicekeeper-optimal-1", "dicekeeper-optimal-2")
TURN_CACHE = 64  # turns whose (k, n) rows are kept once solved on demand
WIPE_ROUNDS = 200
"""Whole sweeps at most where a wipe-out leads back to a score of 0 (until nothing changes)."""
WIPE_SWEEPS = 12
"""The whole sweeps `solve_work` counts for such rules (each cuts the change about 15-fold)."""

Progress = Callable[[int, int], None]


class BadTable(DicekeeperError, ValueError):
    """Bytes that are not an optimal table for the expected rules."""


class Unsolvable(DicekeeperError, ValueError):
    """Rules whose optimal play this solver does not model."""


def unsupported(rules: Rules) -> str:
    """Why the optimal solver cannot solve ``rules`` ("" when it can).

    An instant win, and points taken over from a pass that do not count toward the entry (the
    state would need the inherited part), are not modelled; a bust penalty is ignored (the
    table plays as if there were none).
    """
    if rules.instant_win:
        return f"{rules.name!r} has an instant_win, which optimal play does not model"
    if (
        rules.passing
        and not rules.inherited_enters
        and not rules.pass_to_entered
        and rules.entry is not EntryRule.NONE
        and rules.entry_threshold
    ):
        return (
            f"{rules.name!r} has inherited_enters = false (passed points that do not count "
            "toward the entry), which optimal play does not model"
        )
    return ""


def _max_score(model_dice: tuple[DiceModel, ...]) -> int:
    best = 1
    for dm in model_dice[1:]:
        best = max([best, *dm.single_s, *(s for g in dm.choices for s, _ in g.moves)])
    return best


@dataclass
class OptimalTable:
    """Win chances of a two-player game under one rule set and target.

    ``start[index(s, i, j)]``: the chance the player to move (seat s, score i, opponent j) wins
    from the start of a turn: all that play needs is stored. The chances within a turn (turn
    total k, n dice to throw) are one turn's small DAG, solved on demand from ``start`` (`turn`,
    the last `TURN_CACHE` turns kept). Under passing rules a bank's value needs the opponent's
    chance with the passed dice, so ``passes`` also stores, for every (s, a, b), the chance
    throwing n dice holding k for 1 <= k <= `pass_length` (a, b), as float32.
    """

    rules: Rules
    unit: int
    target: int
    margin: int
    seats: int
    start: array  # type: ignore[type-arg]
    passes: array  # type: ignore[type-arg]
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    reach: ReachTable = field(init=False, repr=False)
    _pass_bases: list[int] = field(init=False, repr=False)
    _turns: OrderedDict[tuple[int, int, int], list[list[float]]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        model = throw_model(self.rules, monotone=False)
        self.dice = model.dice
        self.model = model
        self.max_score = _max_score(model.by_dice)
        self.entry = model.entry_units()
        self.entry_on_bank = self.rules.entry in (EntryRule.BANKED_TURN, EntryRule.FIRST_SCORE)
        self.bank_min = -(-self.rules.bank_minimum // model.unit)
        self.reach = solve_reach(self.rules, self.target + self.margin + self.max_score + 2)
        bases, offset = [], 0
        if self.rules.passing:
            for _ in range(self.seats):
                for a in range(self.target):
                    for b in range(self.target):
                        bases.append(offset)
                        offset += self.pass_length(a, b) * self.dice
        self._pass_bases = bases
        self.pass_size = offset
        self._turns = OrderedDict()

    # --- layout ------------------------------------------------------------------------------

    def span(self, i: int) -> int:
        """Turn totals 0..span(i)-1 are played for own score i; beyond them, bank."""
        return self.target - i + self.margin

    def row(self, i: int) -> int:
        """Turn totals (1..span-1) with a choice per number of dice for own score i."""
        return self.span(i) - 1

    def pass_length(self, a: int, b: int) -> int:
        """Turn totals 1..this stored in ``passes`` for own score a, opponent b (b - k >= 0)."""
        return min(b, self.row(a))

    def index(self, s: int, i: int, j: int) -> int:
        """Position of (seat, i, j) in ``start``."""
        return (s * self.target + i) * self.target + j

    def pass_offset(self, s: int, a: int, b: int) -> int:
        """Where the passing rows of (seat, a, b) begin in ``passes``."""
        return self._pass_bases[self.index(s, a, b)]

    def other(self, s: int) -> int:
        """The opponent's seat."""
        return 1 - s if self.seats == 2 else 0

    # --- values ------------------------------------------------------------------------------

    def turn(self, s: int, i: int, j: int) -> list[list[float]]:
        """``rows[n][k]``: the chance throwing n dice holding k, for 1 <= k < span(i)."""
        key = (s, i, j)
        rows = self._turns.get(key)
        if rows is None:
            solver = _Solver(self)
            pair = solver.prepare(s, i, j)
            solver.sweep(pair, self.start[self.index(self.other(s), j, i)])
            rows = pair.rolls
            self._turns[key] = rows
            if len(self._turns) > TURN_CACHE:
                self._turns.popitem(last=False)
        else:
            self._turns.move_to_end(key)
        return rows

    def roll(self, s: int, i: int, j: int, k: int, n: int) -> float:
        """Chance to win throwing n dice holding k units (k past the span: its last entry)."""
        if k < 1:
            return self.start[self.index(s, i, j)]  # type: ignore[no-any-return]
        return self.turn(s, i, j)[n][min(k, self.row(i))]

    def passed(self, s: int, a: int, b: int, k: int, n: int) -> float:
        """The stored chance of (s, a, b) throwing n passed dice holding k (1 <= k <= b)."""
        row = self.pass_length(a, b)
        at = self.pass_offset(s, a, b) + (n - 1) * row + min(k, self.row(a)) - 1
        return self.passes[at]  # type: ignore[no-any-return]

    def can_bank(self, i: int, k: int) -> bool:
        """Whether k units may be banked with own score i (entry rules, bank minimum)."""
        return k >= max(1, self.bank_min) and (i > 0 or not self.entry_on_bank or k >= self.entry)

    def bank(self, s: int, i: int, j: int, k: int, n: int) -> float:
        """Chance to win banking k units with n dice left (-1 where banking is not allowed)."""
        if not self.can_bank(i, k):
            return -1.0
        mine = i + k
        o = self.other(s)
        passes = self.rules.passing and (j > 0 or not self.rules.pass_to_entered)
        if mine < self.target:
            theirs = self.start[self.index(o, j, mine)]
            if passes:
                theirs = max(theirs, self.passed(o, j, mine, k, n))
            return 1.0 - theirs  # type: ignore[no-any-return]
        if self.rules.end is EndRule.IMMEDIATE:
            return 1.0  # the first bank to reach the target wins at once
        if self.seats == 2 and s == 1:
            return 1.0  # round-ending rules: the second player completes the round and leads
        need = mine - j + 1
        chance = self.reach.fresh(need, entered=j > 0)
        if passes:
            chance = max(chance, self.reach.forced(need - k, n))
        return 1.0 - chance

    def value(self, s: int, i: int, j: int, k: int, n: int) -> float:
        """Chance to win holding k units with n dice to throw, playing on optimally."""
        bank = self.bank(s, i, j, k, n)
        if k >= self.span(i) or n == 0:
            return bank
        return max(bank, self.roll(s, i, j, k, n))

    def rolls_on(self, s: int, i: int, j: int, k: int, n: int) -> bool:
        """The optimal decision: throw the n dice (True) or bank."""
        if n == 0 or k >= self.span(i):
            return not self.can_bank(i, k)
        return self.roll(s, i, j, k, n) > self.bank(s, i, j, k, n)

    def start_value(self, s: int, i: int, j: int) -> float:
        """Chance the player to move wins from the start of a turn."""
        return self.start[self.index(s, i, j)]  # type: ignore[no-any-return]

    def first_player_wins(self) -> float:
        """Chance the starting player wins a fresh game."""
        return self.start_value(0, 0, 0)

    @property
    def nbytes(self) -> int:
        """The bytes of the stored arrays."""
        return len(self.start) * self.start.itemsize + len(self.passes) * self.passes.itemsize

    # --- bytes -------------------------------------------------------------------------------

    def write(self, stream: IO[bytes]) -> None:
        """Write the table: a JSON header line, then ``start`` and ``passes`` as they are.

        The header names the format, the rules' fingerprint (`rules_key`, hashed) and the
        sha256 of the arrays, which `read` checks. Nothing is copied on the way.
        """
        arrays = (memoryview(self.start).cast("B"), memoryview(self.passes).cast("B"))
        digest = hashlib.sha256()
        for view in arrays:
            digest.update(view)
        header = {
            "format": FORMAT,
            "rules": self.rules.name,
            "fingerprint": rules_fingerprint(self.rules),
            "unit": self.unit,
            "target": self.target,
            "margin": self.margin,
            "seats": self.seats,
            "start": len(self.start),
            "passes": len(self.passes),
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
            "sha256": digest.hexdigest(),
        }
        stream.write(json.dumps(header).encode() + b"\n")
        for view in arrays:
            stream.write(view)

    @classmethod
    def read(cls, stream: io.BufferedIOBase, rules: Rules) -> OptimalTable:
        """The table `write` wrote for ``rules``; `BadTable` saying why if it is not one.

        The header is checked against the rules before the arrays are read straight into place
        (no copy: a Pi holds greed-house's 89 MB once), then the checksum.
        """
        line = stream.readline(4096)
        try:
            header = json.loads(line)
            form = header.get("format")
        except (ValueError, AttributeError):
            raise BadTable(f"not an optimal table: {line[:60]!r}") from None
        if form in OLD_FORMATS:
            raise BadTable(f"an optimal table of an older format ({form})")
        if form != FORMAT:
            raise BadTable(f"not an optimal table: {line[:60]!r}")
        if header.get("fingerprint") != rules_fingerprint(rules):
            raise BadTable(f"an optimal table for other rules than {rules.name!r}")
        unit = throw_model(rules, monotone=False).unit
        layout = (unit, *_layout(rules))
        found = tuple(header.get(key) for key in ("unit", "target", "margin", "seats"))
        if found != layout:
            raise BadTable(f"an optimal table for {rules.name!r} of the wrong shape")
        start = array("d", [0.0]) * (layout[3] * layout[1] ** 2)
        table = cls(rules, *layout, start, array("f"))
        table.passes = array("f", [0.0]) * table.pass_size
        if (header.get("start"), header.get("passes")) != (len(start), table.pass_size):
            raise BadTable(f"an optimal table for {rules.name!r} of the wrong shape")
        digest = hashlib.sha256()
        for values in (table.start, table.passes):
            view = memoryview(values).cast("B")
            if stream.readinto(view) != len(view):
                raise BadTable(f"a truncated optimal table for {rules.name!r}")
            digest.update(view)
        if stream.read(1) or digest.hexdigest() != header.get("sha256"):
            raise BadTable(f"a damaged optimal table for {rules.name!r} (checksum)")
        seconds, cpu = header.get("seconds"), header.get("cpu_seconds")
        table.seconds = float(seconds) if isinstance(seconds, int | float) else 0.0
        table.cpu_seconds = float(cpu) if isinstance(cpu, int | float) else 0.0
        return table

    def to_bytes(self) -> bytes:
        """The table as `write` writes it."""
        stream = io.BytesIO()
        self.write(stream)
        return stream.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes, rules: Rules) -> OptimalTable:
        """The table `to_bytes` gave for ``rules``; `BadTable` saying why if it is not one."""
        return cls.read(io.BytesIO(data), rules)


def rules_key(rules: Rules) -> str:
    """A text that changes whenever anything the solver depends on changes."""
    return repr(rules)


def rules_fingerprint(rules: Rules) -> str:
    """The sha256 of `rules_key`: a table file names the rules it was solved for by it."""
    return hashlib.sha256(rules_key(rules).encode()).hexdigest()


def _margin(reach: ReachTable, dice: int) -> int:
    x = 1
    while x < reach.size - 1 and reach.at(x, dice) > 0.01:
        x += 1
    return max(8, min(x, 80))


def _layout(rules: Rules) -> tuple[int, int, int]:
    """The table's target (units), margin (units) and seats for ``rules``."""
    model = throw_model(rules, monotone=False)
    target = -(-rules.goal // model.unit)
    if rules.end is EndRule.IMMEDIATE:
        margin = 1  # a bank at the target wins: rolling on past it is never better
    else:
        margin = _margin(solve_reach(rules, target + 100), model.dice)
    return target, margin, 2 if rules.end is EndRule.ROUND else 1


def solve_work(rules: Rules) -> int:
    """How many value look-ups one sweep of `solve_optimal` over ``rules`` makes: its cost.

    That is the stored (score, score, turn total) states times the moves a throw allows, summed
    over the numbers of dice; a whole solve takes about a second per 3 million on a desktop core
    (pig to 100: 2.5 million; farkle to 1000: 20 million; farkle to 10,000: 4.8 billion). Where
    a wipe-out sends a score back to 0, the sweeps repeat until the values settle: counted as
    `WIPE_SWEEPS` (pig-two-dice to 100 settles in 11).
    """
    model = throw_model(rules, monotone=False)
    target, margin, seats = _layout(rules)
    moves = sum(
        len(dm.single_s) + sum(len(group.moves) for group in dm.choices) for dm in model.by_dice[1:]
    )
    totals = sum(target - i + margin - 1 for i in range(target))
    sweeps = WIPE_SWEEPS if any(dm.wipe for dm in model.by_dice) else 1
    return seats * target * totals * moves * sweeps


def empty_table(rules: Rules) -> OptimalTable:
    """A table of ``rules``'s layout filled with zeros, for a solver to fill; `Unsolvable` for
    rules it does not model (`unsupported`)."""
    why = unsupported(rules)
    if why:
        raise Unsolvable(f"cannot solve optimal play: {why}")
    unit = throw_model(rules, monotone=False).unit
    target, margin, seats = _layout(rules)
    start = array("d", [0.0]) * (seats * target * target)
    table = OptimalTable(rules, unit, target, margin, seats, start, array("f"))
    table.passes = array("f", [0.0]) * table.pass_size
    return table


def solve_optimal(rules: Rules, *, progress: Progress | None = None) -> OptimalTable:
    """Solve ``rules`` (two players, its own target) exactly; see the module docstring.

    The reference solver, in pure Python: ``device.solver_fast`` gives the same table (to
    1e-9, checked by the tests) tens of times faster with numpy.
    """
    began, cpu = time.perf_counter(), time.process_time()
    table = empty_table(rules)
    _Solver(table).run(progress)
    table.seconds = time.perf_counter() - began
    table.cpu_seconds = time.process_time() - cpu
    return table


class _Solver:
    """The sweeps of `solve_optimal`, with the inner loops kept tight."""

    def __init__(self, table: OptimalTable) -> None:
        self.t = table
        self.first_unentered = table.model.first_roll
        self.wipes = any(dm.wipe for dm in table.model.by_dice)

    def run(self, progress: Progress | None) -> None:
        t = self.t
        top = 2 * t.target - 2
        for _ in range(WIPE_ROUNDS if self.wipes else 1):
            before = array("d", t.start)
            guess = 0.5
            for total in range(top, -1, -1):
                for i in range(max(0, total - t.target + 1), min(total, t.target - 1) + 1):
                    j = total - i
                    if t.seats == 1 and i > j:
                        continue
                    guess = self.couple(0, i, j, guess)
                if progress is not None:
                    progress(top - total + 1, top + 1)
            if max(abs(a - b) for a, b in zip(t.start, before, strict=True)) < TOLERANCE:
                break

    def couple(self, s: int, i: int, j: int, guess: float) -> float:
        """Solve (s, i, j) with its partner (s', j, i); returns the start value of the first."""
        t = self.t
        o = t.other(s)
        if (s, i) == (o, j):
            mine = self.prepare(s, i, j)

            def g(a: float) -> tuple[float, float]:
                value = self.sweep(mine, a)
                return value, value

        else:
            mine, theirs = self.prepare(s, i, j), self.prepare(o, j, i)

            def g(a: float) -> tuple[float, float]:
                b = self.sweep(theirs, a)
                return self.sweep(mine, b), b

        a0 = guess
        fa, b = g(a0)
        h0 = fa - a0
        a1 = fa
        for _ in range(0 if abs(h0) < TOLERANCE else 50):
            fa, b = g(a1)
            h1 = fa - a1
            if abs(h1) < TOLERANCE:
                break
            # secant on h(a) = F(a) - a, whose root is the pair's start value
            slope = (h1 - h0) / (a1 - a0) if a1 != a0 else 0.0
            following = a1 - h1 / slope if slope < 0.0 else fa
            a0, h0 = a1, h1
            a1 = min(1.0, max(0.0, following))
        self.store(mine, fa)
        if (s, i) != (o, j):
            self.store(theirs, b)
        return fa

    def prepare(self, s: int, i: int, j: int) -> _Pair:
        """The bank rows and the table rows of one pair (independent of the bust value)."""
        t = self.t
        span = t.span(i)
        length = span + t.max_score + 1
        dice = t.dice
        banks: list[list[float]] = []
        if t.rules.passing:
            for n in range(dice + 1):
                banks.append([t.bank(s, i, j, k, n) for k in range(length)])
        else:
            row = [t.bank(s, i, j, k, 1) for k in range(length)]
            banks = [row] * (dice + 1)
        values = [list(banks[n]) for n in range(dice + 1)]
        return _Pair(s, i, j, span, banks, values, [[0.0] * span for _ in range(dice + 1)])

    def sweep(self, pair: _Pair, opponent_start: float) -> float:
        """Fill the pair's rows for this bust value; returns its start value."""
        t = self.t
        lose = 1.0 - opponent_start
        wiped = lose if pair.i == 0 else 1.0 - t.start[t.index(t.other(pair.s), pair.j, 0)]
        values, banks, rolls = pair.values, pair.banks, pair.rolls
        plans = []
        for n in range(1, t.dice + 1):
            dm = t.model.by_dice[n]
            lost = (dm.bust - dm.wipe) * lose + dm.wipe * wiped
            singles = [
                (p, s, values[m])
                for p, s, m in zip(dm.single_p, dm.single_s, dm.single_n, strict=True)
            ]
            choices = [(g.probability, [(s, values[m]) for s, m in g.moves]) for g in dm.choices]
            plans.append((n, lost, singles, choices, values[n], banks[n], rolls[n]))
        if not t.rules.hot_dice:
            values[0] = [b if b >= 0.0 else lose for b in banks[0]]
        for k in range(pair.span - 1, 0, -1):
            for _n, total0, singles, choices, vrow, brow, rrow in plans:
                total = total0
                for p, s, row in singles:
                    total += p * row[k + s]
                for p, moves in choices:
                    best = 0.0
                    for s, row in moves:
                        v = row[k + s]
                        if v > best:
                            best = v
                    total += p * best
                rrow[k] = total
                bank = brow[k]
                vrow[k] = total if total > bank else bank
        first = self.first_unentered if pair.i == 0 else t.model.by_dice[t.dice]
        return _roll(first, values, 0, lose, wiped)

    def store(self, pair: _Pair, start: float) -> None:
        """Write a solved pair into the table."""
        t = self.t
        t.start[t.index(pair.s, pair.i, pair.j)] = start
        if not t.rules.passing:
            return
        base, row = t.pass_offset(pair.s, pair.i, pair.j), t.pass_length(pair.i, pair.j)
        for n in range(1, t.dice + 1):
            at = base + (n - 1) * row
            t.passes[at : at + row] = array("f", pair.rolls[n][1 : row + 1])


def _roll(dm: DiceModel, values: list[list[float]], k: int, lose: float, wiped: float) -> float:
    total = (dm.bust - dm.wipe) * lose + dm.wipe * wiped
    for p, s, m in zip(dm.single_p, dm.single_s, dm.single_n, strict=True):
        total += p * values[m][k + s]
    for g in dm.choices:
        total += g.probability * max(values[m][k + s] for s, m in g.moves)
    return total


@dataclass
class _Pair:
    s: int
    i: int
    j: int
    span: int
    banks: list[list[float]]
    values: list[list[float]]
    rolls: list[list[float]]
