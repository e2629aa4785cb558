"""The optimal table solved with numpy: the same values as `engine.solver_optimal`, much faster.

`engine.solver_optimal.solve_optimal` is the reference, in pure Python, one (seat, i, j) pair at a
time. Here every state on one anti-diagonal (equal i + j) is solved at once, as numpy vectors
over the states: their banks only need states of higher sums, which are solved already, and the
one coupling (a bust hands the turn to the opponent at the same scores, ``(s, i, j)`` with
``(s', j, i)``, also on the diagonal) is solved by the same secant method as the reference, run
element by element on the vectors (the B half of each pair swept, then the A half). One turn's
(k, n) DAG is swept from the largest turn total down: at each k, the values the throws of every
number of dice can lead to are gathered for every state as rows (`numpy.take`), the best keep of
each distinct option set is a maximum over its moves (sets grouped by size), and the chances of
the throws are one matrix product with the option sets' probabilities. States are ordered by
their own score, so the states still playing at turn total k (those with ``k < span(i)``) are
always a prefix of the vectors. Farkle to 10,000 takes 75 s of one desktop core (the reference:
39 minutes), greed-house about 105 s and 150 MB.

Where a wipe-out sends a score back to 0, the whole run of diagonals repeats as in the reference
until the start values settle. The tests check that both solvers give the same table to 1e-9 on
small targets of every rule set; `benchmarks/strategy.py` measures the time and memory at the
rule sets' own targets.
"""

from __future__ import annotations

import time

import numpy as np
import numpy.typing as npt

from engine.rules import EndRule, Rules
from engine.solver_model import DiceModel
from engine.solver_optimal import TOLERANCE, WIPE_ROUNDS, OptimalTable, Progress, empty_table

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


def solve_fast(rules: Rules, *, progress: Progress | None = None) -> OptimalTable:
    """Solve ``rules`` (two players, its own target); the table `solve_optimal` gives."""
    began, cpu = time.perf_counter(), time.process_time()
    table = empty_table(rules)
    _FastSolver(table).run(progress)
    table.seconds = time.perf_counter() - began
    table.cpu_seconds = time.process_time() - cpu
    return table


# Option sets are grouped by their number of moves, padded to these sizes by repeating a move
# (the best of a set does not change): one gather and one maximum per size instead of a
# `numpy.maximum.reduceat` over ragged sets, about three times faster.
_SIZES = (1, 2, 4, 8, 16, 32, 64, 128, 256)


class _Throws:
    """Throw models as flat moves: value-row offsets of each option set's moves, by size.

    One `_Throws` holds the models of several numbers of dice (the throws at one turn total are
    independent of each other), so a step of the sweep is a few numpy calls for all of them.
    """

    def __init__(self, models: list[DiceModel], rows_per_dice: int) -> None:
        sets: list[tuple[int, float, list[int]]] = []
        for which, dm in enumerate(models):
            sets += [
                (which, p, [m * rows_per_dice + s])
                for p, s, m in zip(dm.single_p, dm.single_s, dm.single_n, strict=True)
            ]
            sets += [
                (which, g.probability, [m * rows_per_dice + s for s, m in g.moves])
                for g in dm.choices
            ]
        self.buckets: list[tuple[Ints, int, int]] = []
        weights = np.zeros((len(models), len(sets)))
        low = at = 0
        for size in _SIZES:
            chosen = [(w, p, rows) for w, p, rows in sets if low < len(rows) <= size]
            low = size
            if not chosen:
                continue
            width = max(len(rows) for _, _, rows in chosen)
            flat = [r for _, _, rows in chosen for r in rows + [rows[0]] * (width - len(rows))]
            self.buckets.append((np.array(flat, dtype=np.int64), len(chosen), width))
            for w, p, _ in chosen:
                weights[w, at] = p
                at += 1
        if at != len(sets):
            raise ValueError(f"an option set of more than {_SIZES[-1]} moves")
        self.weights: Floats = weights
        self.bust: Floats = np.array([dm.bust - dm.wipe for dm in models])[:, None]
        self.wipe: Floats = np.array([dm.wipe for dm in models])[:, None]

    def chance(self, values: Floats, k: int, count: int, lose: Floats, wiped: Floats) -> Floats:
        """``[model, state]``: the chance of throwing at turn total k, first ``count`` states
        (``lose``: the value of a bust, ``wiped``: of a wipe-out, per state)."""
        result: Floats = self.bust * lose[None, :count] + self.wipe * wiped[None, :count]
        if not self.buckets:
            return result
        view = values[:, :count]
        best = np.empty((self.weights.shape[1], count))
        at = 0
        for flat, sets, width in self.buckets:
            gathered = np.take(view, flat + k, axis=0)
            if width == 1:
                best[at : at + sets] = gathered
            else:
                gathered.reshape(sets, width, count).max(axis=1, out=best[at : at + sets])
            at += sets
        result += self.weights @ best
        return result


class _FastSolver:
    """The diagonal sweeps of `solve_fast` over one empty table."""

    def __init__(self, table: OptimalTable) -> None:
        self.t = t = table
        self.start: Floats = np.frombuffer(t.start, dtype=np.float64).reshape(
            t.seats, t.target, t.target
        )
        self.passes = np.frombuffer(t.passes, dtype=np.float32) if t.rules.passing else None
        self.rows = t.target + t.margin + t.max_score + 1  # value rows per number of dice
        self.throws = _Throws([t.model.by_dice[n] for n in range(1, t.dice + 1)], self.rows)
        self.starts = _Throws([t.model.by_dice[t.dice], t.model.first_roll], self.rows)
        self.value_rows = np.arange(1, t.dice + 1) * self.rows
        reach = t.reach
        self.reach_fresh = np.array(
            [[reach.fresh(r, entered=e) for r in range(reach.size)] for e in (False, True)]
        )
        self.reach_at = np.array(
            [[reach.at(r, n) for r in range(reach.size)] for n in range(t.dice + 1)]
        )
        self.bust = np.array([t.model.by_dice[n].bust for n in range(t.dice + 1)])
        if t.rules.passing:
            bases = np.array(t._pass_bases, dtype=np.int64).reshape(t.seats, t.target, t.target)
            a = np.arange(t.target)[:, None]
            b = np.arange(t.target)[None, :]
            self.pass_bases = bases
            self.pass_lengths = np.minimum(b, t.target + t.margin - 1 - a)

    # --- the diagonals -----------------------------------------------------------------------

    def run(self, progress: Progress | None) -> None:
        """Sweep the diagonals, again while a wipe-out's values (scores back to 0) still move."""
        t = self.t
        top = 2 * t.target - 2
        wipes = any(dm.wipe for dm in t.model.by_dice)
        for _ in range(WIPE_ROUNDS if wipes else 1):
            before = self.start.copy()
            for total in range(top, -1, -1):
                self.diagonal(total)
                if progress is not None:
                    progress(top - total + 1, top + 1)
            if np.abs(self.start - before).max() < TOLERANCE:
                break

    def diagonal(self, total: int) -> None:
        """Solve every state with i + j == total."""
        t = self.t
        low, high = max(0, total - t.target + 1), min(total, t.target - 1)
        mine: list[tuple[int, int, int]] = []
        for i in range(low, high + 1):
            j = total - i
            if t.seats == 2 or i <= j:
                mine.append((0, i, j))
        theirs = [(t.other(s), j, i) for s, i, j in mine if (t.other(s), j, i) != (s, i, j)]
        states_a = _States(self, mine)
        states_b = _States(self, theirs)
        # partner of each state: its index in the other set (-1: itself)
        where_b = {state: at for at, state in enumerate(states_b.states)}
        where_a = {state: at for at, state in enumerate(states_a.states)}
        partner_a = np.array(
            [where_b.get((t.other(s), j, i), -1) for s, i, j in states_a.states], dtype=np.int64
        )
        partner_b = np.array(
            [where_a[(t.other(s), j, i)] for s, i, j in states_b.states], dtype=np.int64
        )
        itself = partner_a < 0

        def g(a: Floats) -> tuple[Floats, Floats]:
            b = self.sweep(states_b, 1.0 - a[partner_b]) if len(partner_b) else np.zeros(0)
            lose = np.where(itself, 1.0 - a, 1.0 - b[np.maximum(partner_a, 0)] if len(b) else 0.0)
            return self.sweep(states_a, lose), b

        a0 = self.guess(states_a)
        fa, b = g(a0)
        h0 = fa - a0
        a1 = fa.copy()
        done = np.abs(h0) < TOLERANCE
        for _ in range(50):
            if done.all():
                break
            fa, b = g(a1)
            h1 = fa - a1
            done = np.abs(h1) < TOLERANCE
            step = a1 - a0
            with np.errstate(divide="ignore", invalid="ignore"):
                slope = np.where(step != 0.0, (h1 - h0) / np.where(step != 0.0, step, 1.0), 0.0)
                following = np.where(slope < 0.0, a1 - h1 / np.where(slope < 0.0, slope, -1.0), fa)
            a0 = np.where(done, a0, a1)
            h0 = np.where(done, h0, h1)
            a1 = np.where(done, a1, np.clip(following, 0.0, 1.0))
        self.store(states_a, fa)
        if len(partner_b):
            self.store(states_b, b)

    def guess(self, states: _States) -> Floats:
        """Start values to begin the secant from, extrapolated from the solved neighbours.

        ``W(i, j+1) + W(i+1, j) - W(i+1, j+1)`` inside the board, one neighbour on its edges.
        """
        t = self.t
        top = t.target - 1
        s, i, j = states.s, states.i, states.j
        i1, j1 = np.minimum(i + 1, top), np.minimum(j + 1, top)
        up_j = self.start[s, i, j1]
        up_i = self.start[s, i1, j]
        both = self.start[s, i1, j1]
        guess = np.where(
            (i < top) & (j < top),
            up_j + up_i - both,
            np.where(j < top, up_j, np.where(i < top, up_i, 0.5)),
        )
        return np.clip(guess, 0.0, 1.0)

    # --- one sweep ---------------------------------------------------------------------------

    def sweep(self, states: _States, lose: Floats) -> Floats:
        """Fill the states' turn values for these bust values; returns their start values."""
        t = self.t
        rows = self.rows
        values = states.values
        values[:] = states.banks
        o = 1 - states.s if t.seats == 2 else states.s
        wiped = np.where(states.i == 0, lose, 1.0 - self.start[o, states.j, 0])
        if not t.rules.hot_dice:
            values[:rows] = np.where(states.banks[:rows] >= 0.0, states.banks[:rows], lose)
        width = len(states.states)
        for k in range(int(states.span.max()) - 1, 0, -1):
            # states.span is descending: the first `count` states have span > k
            count = int(np.searchsorted(-states.span, -k, side="left"))
            chance = self.throws.chance(values, k, count, lose, wiped)
            at = self.value_rows + k
            if states.rolls is not None:
                states.rolls[at, :count] = chance
            values[at, :count] = np.maximum(chance, states.banks[at, :count])
        start = self.starts.chance(values, 0, width, lose, wiped)
        result: Floats = np.where(states.i == 0, start[1], start[0])
        return result

    def store(self, states: _States, start: Floats) -> None:
        """Write solved states into the table."""
        t = self.t
        self.start[states.s, states.i, states.j] = start
        if self.passes is None or states.rolls is None:
            return
        rows = self.rows
        for p, (s, i, j) in enumerate(states.states):
            length = t.pass_length(i, j)
            if length <= 0:
                continue
            base = t.pass_offset(s, i, j)
            for n in range(1, t.dice + 1):
                at = base + (n - 1) * length
                self.passes[at : at + length] = states.rolls[
                    n * rows + 1 : n * rows + 1 + length, p
                ]


class _States:
    """The states of one half of a diagonal, ordered by own score, with their bank rows.

    ``values`` and ``banks`` are ``(dice + 1) * rows`` rows (n-major, turn total k) by states.
    """

    def __init__(self, solver: _FastSolver, states: list[tuple[int, int, int]]) -> None:
        t = solver.t
        states = sorted(states, key=lambda state: (state[1], state[0]))
        self.states = states
        self.s = np.array([s for s, _, _ in states], dtype=np.int64)
        self.i = np.array([i for _, i, _ in states], dtype=np.int64)
        self.j = np.array([j for _, _, j in states], dtype=np.int64)
        self.span = t.target - self.i + t.margin
        rows = solver.rows
        width = len(states)
        self.banks = np.empty(((t.dice + 1) * rows, width))
        self.values = np.empty_like(self.banks)
        self.rolls: Floats | None = np.zeros_like(self.banks) if t.rules.passing else None
        if width:
            for n in range(t.dice + 1):
                self.banks[n * rows : (n + 1) * rows] = self.bank_rows(solver, n)

    def bank_rows(self, solver: _FastSolver, n: int) -> Floats:
        """The chance banking k (rows) with n dice left, per state; -1 where it is not allowed."""
        t = solver.t
        k = np.arange(solver.rows)[:, None]
        s, i, j = self.s[None, :], self.i[None, :], self.j[None, :]
        o = 1 - s if t.seats == 2 else s
        mine = i + k
        below = mine < t.target
        clipped = np.minimum(mine, t.target - 1)
        theirs = solver.start[o, j, clipped]
        passes = (j > 0) | (not t.rules.pass_to_entered)
        if solver.passes is not None and n > 0:
            length = solver.pass_lengths[j, clipped]
            at = solver.pass_bases[o, j, clipped] + (n - 1) * length
            at = at + np.minimum(k, t.target + t.margin - 1 - j) - 1
            usable = below & (k >= 1) & (length > 0) & passes
            offered = solver.passes[np.where(usable, at, 0)].astype(np.float64)
            theirs = np.where(usable, np.maximum(theirs, offered), theirs)
        before = 1.0 - theirs
        if t.rules.end is EndRule.IMMEDIATE:
            after = np.ones_like(before)
        else:
            need = mine - j + 1
            chance = solver.reach_fresh[
                (j > 0).astype(np.int64), np.clip(need, 0, t.reach.size - 1)
            ]
            if t.rules.passing and n > 0:
                r = need - k
                forced = np.where(
                    r > 0, solver.reach_at[n, np.clip(r, 0, t.reach.size - 1)], 1.0 - solver.bust[n]
                )
                chance = np.where(passes, np.maximum(chance, forced), chance)
            after = 1.0 - chance
            if t.seats == 2:
                after = np.where(s == 1, 1.0, after)
        banked = np.where(below, before, after)
        allowed = k >= max(1, t.bank_min)
        if t.entry_on_bank:
            allowed = allowed & ((i > 0) | (k >= t.entry))
        result: Floats = np.where(allowed, banked, -1.0)
        return result
