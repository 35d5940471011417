"""Seating a competition (issue 41): even tables of 2 to 4, every player seated once,
no pair meeting twice where it can be avoided, leaders together by standing."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.competitions.seating import SeatingError, pairs_of, repeats, seat, table_sizes


@pytest.mark.parametrize(
    ("players", "size", "sizes"),
    [
        (10, 4, [4, 3, 3]),
        (10, None, [4, 3, 3]),
        (12, 4, [4, 4, 4]),
        (12, 3, [3, 3, 3, 3]),
        (9, 2, [3, 2, 2, 2]),  # an odd one out joins a table of 2
        (5, 4, [3, 2]),
        (5, 2, [3, 2]),
        (2, None, [2]),
        (3, 4, [3]),
        (7, None, [4, 3]),
    ],
)
def test_table_sizes_are_as_even_as_possible(players, size, sizes):
    assert table_sizes(players, size) == sizes


@pytest.mark.parametrize(("players", "size"), [(1, None), (0, 4), (8, 5), (8, 1)])
def test_impossible_tables_are_refused(players, size):
    with pytest.raises(SeatingError):
        table_sizes(players, size)


@given(st.integers(2, 40), st.sampled_from([None, 2, 3, 4]))
def test_sizes_always_fit_and_differ_by_at_most_one(players, size):
    sizes = table_sizes(players, size)
    assert sum(sizes) == players
    assert all(2 <= s <= 4 for s in sizes)
    assert max(sizes) - min(sizes) <= 1


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 24), st.integers(0, 10_000))
def test_every_player_is_seated_exactly_once(players, seed):
    sizes = table_sizes(players)
    tables = seat(range(players), sizes, random.Random(seed))
    assert sorted(p for t in tables for p in t) == list(range(players))
    assert [len(t) for t in tables] == sizes


def partitions(players, sizes):
    """Every way to seat ``players`` at tables of ``sizes`` (brute force, small cases)."""
    if not sizes:
        yield []
        return
    first, *rest = players
    for size in set(sizes):  # the table of the first player, of each size there is
        others_sizes = list(sizes)
        others_sizes.remove(size)
        for others in combinations(rest, size - 1):
            table = [first, *others]
            left = [p for p in rest if p not in others]
            for tail in partitions(left, others_sizes):
                yield [table, *tail]


@pytest.mark.parametrize(("players", "size", "rounds"), [(10, 4, 3), (9, 3, 4), (8, 4, 3)])
def test_each_round_meets_again_only_where_it_cannot_be_avoided(players, size, rounds):
    """The issue's example (10 players at tables of 4, 3 and 3) and two more: each round's
    seating repeats no more pairs than the best seating of all (found by brute force).
    After a table of 4, three tables cannot avoid seating two of its players together
    again; 9 players at tables of 3 never meet twice in 4 rounds."""
    rng = random.Random(41)
    sizes = table_sizes(players, size)
    met: set = set()
    for _ in range(rounds):
        tables = seat(range(players), sizes, rng, met=met)
        fewest = min(repeats(p, met) for p in partitions(list(range(players)), sizes))
        assert repeats(tables, met) == fewest
        met |= pairs_of(tables)
    if players == 9:
        assert len(met) == 4 * 9  # every pair met once: 36 of 36


def test_by_standing_the_leaders_meet_and_meet_again_only_where_unavoidable():
    rng = random.Random(3)
    first = seat(range(10), table_sizes(10, 4), rng)
    met = pairs_of(first)
    ranking = [7, 2, 9, 0, 4, 1, 8, 3, 6, 5]
    tables = seat(range(10), table_sizes(10, 4), rng, met=met, ranking=ranking)
    fewest = min(repeats(p, met) for p in partitions(list(range(10)), [4, 3, 3]))
    assert repeats(tables, met) == fewest
    top = set(tables[0])
    # the top table holds leaders: its players' average rank is the best of all tables
    mean = [sum(ranking.index(p) for p in t) / len(t) for t in tables]
    assert mean[0] == min(mean)
    assert ranking[0] in top


def test_by_standing_without_history_the_tables_are_the_standing_in_order():
    ranking = [5, 3, 8, 1, 0, 2, 9, 4, 7, 6]
    tables = seat(range(10), [4, 3, 3], random.Random(1), ranking=ranking)
    assert tables == [ranking[:4], ranking[4:7], ranking[7:]]


def test_an_unavoidable_repeat_is_kept_to_the_fewest():
    """Four players at one table meet every round: unavoidable, and allowed."""
    met = pairs_of([[0, 1, 2, 3]])
    tables = seat(range(4), [4], random.Random(0), met=met)
    assert repeats(tables, met) == 6
    # six players at tables of 3 after one round: at least two pairs must meet again
    # (each new table of 3 has someone from each old one... count the minimum by brute force)
    old = [[0, 1, 2], [3, 4, 5]]
    met = pairs_of(old)
    best = min(
        repeats([list(a), [p for p in range(6) if p not in a]], met)
        for a in combinations(range(6), 3)
    )
    tables = seat(range(6), [3, 3], random.Random(0), met=met)
    assert repeats(tables, met) == best == 2


def test_the_draw_depends_only_on_its_random_source():
    a = seat(range(12), [4, 4, 4], random.Random(9))
    b = seat(range(12), [4, 4, 4], random.Random(9))
    assert a == b


def test_bad_requests_are_refused():
    with pytest.raises(SeatingError):
        seat([1, 2, 3], [2, 2], random.Random(0))
    with pytest.raises(SeatingError):
        seat([1, 1, 2, 3], [2, 2], random.Random(0))
    with pytest.raises(SeatingError):
        seat([1, 2, 3, 4], [2, 2], random.Random(0), ranking=[1, 2, 3])
