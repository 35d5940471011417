"""Seating a competition's round: tables of 2 to 4, as even as possible, no pair meeting
twice where that can be avoided (docs/RULES.md, "Competitions").

Round 1 is drawn at random. Later rounds are drawn at random too, or **by standing**
(Swiss-like): the leaders sit together, the next ones at the next table, and so on.
Either way a search then swaps players between tables until no swap lowers the number of
pairs that already met (and, by standing, keeps each table's players close in the
standings). Deterministic given its ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import accumulate, combinations

MIN_TABLE = 2
MAX_TABLE = 4
RESTARTS = 24
"""Fresh starts of the search (the best seating of them all is kept)."""
WALK = 400
"""Random swaps tried to leave a plateau where pairs still meet again."""

Pair = frozenset[int]


class SeatingError(ValueError):
    """The players cannot be seated at tables of 2 to 4."""


def table_sizes(players: int, size: int | None = None) -> list[int]:
    """How many sit at each table: ``players`` at tables of ``size`` (2–4) where they
    divide, else as even as possible below it (10 at 4 → 4, 3, 3); ``None``: as even as
    possible at tables of up to 4. Largest tables first."""
    if size is not None and not MIN_TABLE <= size <= MAX_TABLE:
        raise SeatingError(f"a table seats {MIN_TABLE} to {MAX_TABLE}, not {size}")
    if players < MIN_TABLE:
        raise SeatingError(f"a competition needs at least {MIN_TABLE} players, not {players}")
    most = size or MAX_TABLE
    tables = -(-players // most)
    while players < MIN_TABLE * tables:
        tables -= 1
    base, extra = divmod(players, tables)
    sizes = [base + 1] * extra + [base] * (tables - extra)
    if sizes[0] > MAX_TABLE:
        raise SeatingError(f"{players} players do not fit tables of {most}")
    return sizes


def pairs_of(tables: Iterable[Sequence[int]]) -> set[Pair]:
    """Every pair of players who share a table."""
    return {frozenset(p) for table in tables for p in combinations(table, 2)}


def repeats(tables: Sequence[Sequence[int]], met: set[Pair]) -> int:
    """How many pairs at ``tables`` met before."""
    return sum(1 for pair in pairs_of(tables) if pair in met)


def seat(
    players: Sequence[int],
    sizes: Sequence[int],
    rng: random.Random,
    *,
    met: set[Pair] | None = None,
    ranking: Sequence[int] | None = None,
) -> list[list[int]]:
    """The tables of a round: ``players`` at tables of ``sizes``.

    ``met``: pairs who already shared a table (avoided where possible). ``ranking``: the
    players best first, to seat by standing; without it the draw is random.
    """
    if sum(sizes) != len(players) or len(set(players)) != len(players):
        raise SeatingError("every player needs exactly one seat")
    met = met or set()
    rank = {p: i for i, p in enumerate(ranking)} if ranking is not None else None
    if rank is not None and set(rank) != set(players):
        raise SeatingError("the ranking must name exactly the players seated")
    best: list[list[int]] | None = None
    best_cost: tuple[int, int] | None = None
    for attempt in range(RESTARTS):
        if rank is not None:
            order = sorted(players, key=rank.__getitem__)
            if attempt:  # later starts: neighbours in the standings shuffled a little
                order = _jostle(order, rng)
        else:
            order = list(players)
            rng.shuffle(order)
        tables = _split(order, sizes)
        cost = _improve(tables, met, rank, rng)
        if best_cost is None or cost < best_cost:
            best, best_cost = tables, cost
        if cost[0] == 0 and rank is None:
            break  # nobody meets twice: as good as a random draw gets
    assert best is not None
    if rank is None:
        return [sorted(t) for t in best]
    # by standing: the leaders' table first, each table's players best first
    ordered = [sorted(t, key=rank.__getitem__) for t in best]
    return sorted(ordered, key=lambda t: sum(rank[p] for p in t) / len(t))


def spread_humans(
    tables: Sequence[Sequence[int]], humans: set[int], met: set[Pair] | None = None
) -> list[list[int]]:
    """``tables`` with at least one of ``humans`` at each, where there are enough: while
    a table has none and another has two or more, the swap of one of its others with
    one of those humans that meets the fewest pairs again (the first such, so the
    result is deterministic). Tables that have a human keep their seats."""
    out = [list(t) for t in tables]
    met = met or set()
    while True:
        empty = next((i for i, t in enumerate(out) if not humans & set(t)), None)
        rich = [i for i, t in enumerate(out) if len(humans & set(t)) >= 2]
        if empty is None or not rich:
            return out
        best: tuple[int, int, int, int] | None = None
        best_cost = 0
        for b in rich:
            for i in range(len(out[empty])):
                for j, human in enumerate(out[b]):
                    if human not in humans:
                        continue
                    _swap(out, empty, i, b, j)
                    cost = repeats(out, met)
                    _swap(out, empty, i, b, j)
                    if best is None or cost < best_cost:
                        best, best_cost = (empty, i, b, j), cost
        assert best is not None
        _swap(out, *best)


def _split(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    ends = accumulate(sizes)
    return [list(order[end - size : end]) for size, end in zip(sizes, ends, strict=True)]


def _jostle(order: list[int], rng: random.Random) -> list[int]:
    out = list(order)
    for i in range(len(out) - 1):
        if rng.random() < 0.3:
            out[i], out[i + 1] = out[i + 1], out[i]
    return out


def _cost(
    tables: Sequence[Sequence[int]], met: set[Pair], rank: dict[int, int] | None
) -> tuple[int, int]:
    """(pairs that met before, how far apart in the standings each table's players are)."""
    spread = 0
    if rank is not None:
        for table in tables:
            ranks = [rank[p] for p in table]
            spread += max(ranks) - min(ranks)
    return repeats(tables, met), spread


def _improve(
    tables: list[list[int]],
    met: set[Pair],
    rank: dict[int, int] | None,
    rng: random.Random,
) -> tuple[int, int]:
    """Swap players between tables while a swap lowers the cost; then, while pairs still
    meet again, a walk of random swaps that make nothing worse (to leave a plateau).
    Leaves ``tables`` at the best seating seen; returns its cost."""
    cost = _cost(tables, met, rank)
    improved = True
    while improved and cost != (0, 0):
        improved = False
        for a, b in combinations(range(len(tables)), 2):
            for i in range(len(tables[a])):
                for j in range(len(tables[b])):
                    _swap(tables, a, i, b, j)
                    trial = _cost(tables, met, rank)
                    if trial < cost:
                        cost, improved = trial, True
                    else:
                        _swap(tables, a, i, b, j)
    if cost[0] == 0 or len(tables) < 2:
        return cost
    best, best_tables = cost, [list(t) for t in tables]
    for _ in range(WALK):
        a, b = rng.sample(range(len(tables)), 2)
        i, j = rng.randrange(len(tables[a])), rng.randrange(len(tables[b]))
        _swap(tables, a, i, b, j)
        trial = _cost(tables, met, rank)
        if trial[0] <= cost[0]:
            cost = trial
            if cost < best:
                best, best_tables = cost, [list(t) for t in tables]
                if best[0] == 0 and rank is None:
                    break
        else:
            _swap(tables, a, i, b, j)
    tables[:] = best_tables
    return best


def _swap(tables: list[list[int]], a: int, i: int, b: int, j: int) -> None:
    tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
