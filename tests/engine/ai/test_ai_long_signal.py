"""The long-number convention (``SearchSettings.show_long``) and its reading
(``read_long``, :mod:`bot.engine.ai.long_signal`), counted independently tile by tile."""

from __future__ import annotations

import math
import random

import ai_support
import pytest
from ai_support import exact_choices

from bot.engine import Move, Rules
from bot.engine.ai import SearchSettings
from bot.engine.ai.determinize import sample_world
from bot.engine.ai.knowledge import Choice, Knowledge
from bot.engine.ai.long_signal import could_show, is_long, long_move, long_weight
from bot.engine.ai.search import hard_move, rank_moves
from bot.engine.tiles import TILES, mask_of, tile

TEAMS = Rules.make(game="block", players=4, teams=True)


def counts(hand: int) -> list[int]:
    """Tiles of ``hand`` carrying each number 0-6 (a double counts once)."""
    return [
        sum(hand >> t & 1 and n in (x.high, x.low) for t, x in enumerate(TILES)) for n in range(7)
    ]


def long_by_count(kept: int, exposed: int) -> bool:
    held = counts(kept)
    return held[exposed] > 0 and held[exposed] == max(held)


def test_a_long_placement_leaves_open_a_number_kept_most() -> None:
    kept = mask_of([tile(4, 1), tile(4, 2), tile(4, 4), tile(3, 1)])
    assert is_long(kept, 4)
    assert not is_long(kept, 1)  # one 1 kept
    assert not is_long(kept, 5)  # none kept
    even = mask_of([tile(2, 1), tile(5, 3)])
    assert all(is_long(even, n) for n in (1, 2, 3, 5))
    assert not is_long(0, 0)


def test_is_long_matches_counting_on_random_hands() -> None:
    rng = random.Random(5)
    for _ in range(300):
        kept = mask_of(rng.sample(range(28), rng.randint(0, 7)))
        for n in range(7):
            assert is_long(kept, n) == long_by_count(kept, n)


def shown_by_brute_force(c: Choice, hand: int) -> bool:
    for value in c.values:
        for t, x in enumerate(TILES[:28]):
            fits = hand >> t & 1 and value in (x.high, x.low)
            if fits and long_by_count(hand & ~(1 << t), x.other(value)):
                return True
    return False


def test_the_reading_counts_the_choices_that_were_not_long_when_one_was_open() -> None:
    """For the partner (seat 2) of seat 0, tile by tile on real and sampled worlds."""
    checked = misses = 0
    for know, world, pairs in exact_choices(TEAMS, 10, 4):
        expected = 0
        for c, hand in pairs:
            assert could_show(c, hand) == shown_by_brute_force(c, hand)
            if c.seat != 2:
                continue
            checked += 1
            if not long_by_count(hand & ~(1 << c.tile), c.exposed) and shown_by_brute_force(
                c, hand
            ):
                expected += 1
        misses += expected
        weight = long_weight(know, world, frozenset({2}), 1.5)
        assert weight == pytest.approx(math.exp(-1.5 * expected))
    assert checked > 30
    assert misses > 5


def test_normal_players_make_long_placements_more_often_than_sampled_worlds_say() -> None:
    """The evidence a reading can stand on even without the convention: the real hands
    break it less often than sampled hands would."""
    rng = random.Random(2)
    real_total = sampled_total = 0.0
    for know, real in ai_support.seat_zero_turns(TEAMS, "normal", 12):
        seats = frozenset({1, 2, 3})
        real_total += math.log(long_weight(know, real, seats, 1.0))
        worlds = [sample_world(know, rng) for _ in range(8)]
        sampled_total += sum(math.log(long_weight(know, w, seats, 1.0)) for w in worlds) / 8
    assert real_total > sampled_total


def shows(know: Knowledge, move: Move) -> bool:
    """Whether ``move`` leaves open a number the hand keeps most of, counted."""
    p = move.placements[0]
    if p.end is None:
        return False
    return long_by_count(know.hand & ~(1 << p.tile), p.tile.other(know.layout.values[p.end]))


def test_the_convention_lays_the_best_long_placement_within_the_margin() -> None:
    settings = SearchSettings(work=6_000, seconds=600.0)
    seen = 0
    for seed, (know, _) in enumerate(ai_support.seat_zero_turns(TEAMS, "normal", 6)):
        if len(know.legal) < 2:
            continue
        ranked = rank_moves(know, random.Random(seed), settings)
        best, top = ranked[0]
        for margin in (0.5, 3.0, 1000.0):
            within = [m for m, v in ranked if top - v <= margin]
            expected = next((m for m in within if shows(know, m)), best)
            assert long_move(know, ranked, margin) == expected
            wide = SearchSettings(work=6_000, seconds=600.0, show_long=margin)
            assert hard_move(know, random.Random(seed), wide) == expected
            seen += expected != best
    assert seen > 3
