"""The partnership convention (``SearchSettings.convention``) and reading a partner with
its own weights (``infer_partner``, ``play_weight``'s ``seat_heft``)."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.engine import Rules, new_match, play, view
from bot.engine.ai import SearchSettings, choose_move
from bot.engine.ai.determinize import World, play_weight, sample_world, tile_heft
from bot.engine.ai.knowledge import Knowledge, read_view
from bot.engine.ai.search import hard_move, heft_of, rank_moves

TEAMS = Rules.make(game="block", players=4, teams=True)


def seat_zero_turns(deals: int) -> Iterator[tuple[Knowledge, World]]:
    """Seat 0's knowledge and the real world at each of its turns (normal players)."""
    for seed in range(deals):
        rng = random.Random(seed)
        state = new_match(TEAMS, rng)
        while not state.deal.over:
            seat = state.deal.turn
            seen = view(state, seat)
            if seat == 0:
                yield read_view(seen), World(list(state.deal.hands), [], [])
            state = play(state, choose_move(seen, "normal", rng), seat)


def test_the_partner_is_read_with_its_own_weights() -> None:
    """Counted tile by tile: the partner's (seat 2's) choices weigh by its own table,
    every other seat's by the common one."""
    heft = tile_heft(0.3, 3.0, TEAMS.tile_count)
    sharp = tile_heft(1.5, 3.0, TEAMS.tile_count)
    checked = 0
    rng = random.Random(0)
    for know, real in seat_zero_turns(8):
        for world in (real, sample_world(know, rng)):
            expected = 1.0
            for c in know.choices:
                if not c.exact:
                    continue
                table = sharp if c.seat == 2 else heft
                hand_then = world.hands[c.seat] | c.later | (1 << c.tile)
                options = [t for t in range(TEAMS.tile_count) if (hand_then & c.fit) >> t & 1]
                expected *= table[c.tile] / sum(table[t] for t in options)
                checked += c.seat == 2
            got = play_weight(know, world, heft, 0.0, {2: sharp})
            assert got == pytest.approx(expected)
    assert checked > 20


def test_a_sharper_reading_of_a_heavy_first_partner_favours_the_real_hands() -> None:
    """Normal players lay heavy first, so reading the partner more sharply widens the gap
    between the real world and sampled ones (the evidence the convention relies on)."""
    heft = tile_heft(0.3, 3.0, TEAMS.tile_count)
    sharp = tile_heft(1.0, 3.0, TEAMS.tile_count)
    rng = random.Random(1)
    gaps = {"common": 0.0, "sharp": 0.0}
    for know, real in seat_zero_turns(12):
        if not any(c.exact and c.seat == 2 for c in know.choices):
            continue
        worlds = [sample_world(know, rng) for _ in range(8)]
        for name, seat_heft in (("common", None), ("sharp", {2: sharp})):
            sampled = [math.log(play_weight(know, w, heft, 0.0, seat_heft)) for w in worlds]
            real_log = math.log(play_weight(know, real, heft, 0.0, seat_heft))
            gaps[name] += real_log - sum(sampled) / len(sampled)
    assert gaps["sharp"] > gaps["common"] > 0


def finalists(deals: int, settings: SearchSettings) -> Iterator[tuple[Knowledge, int, Any]]:
    """Positions where the search's two best candidates lay tiles of different heft."""
    for seed, (know, _) in enumerate(seat_zero_turns(deals)):
        if len(know.legal) < 2:
            continue
        ranked = rank_moves(know, random.Random(seed), settings)
        if len(ranked) > 1 and heft_of(ranked[0][0], settings) != heft_of(ranked[1][0], settings):
            yield know, seed, ranked


def test_the_convention_lays_the_heavier_of_two_close_finalists() -> None:
    settings = SearchSettings(work=6_000, seconds=600.0)
    seen = 0
    for know, seed, ranked in finalists(6, settings):
        (best, value), (other, second) = ranked[0], ranked[1]
        heavier = other if heft_of(other, settings) > heft_of(best, settings) else best
        gap = value - second
        for convention, expected in (
            (0.0, best),
            (gap + 0.01, heavier),
            (gap / 2 if gap > 0 else 0.0, best),
        ):
            wide = SearchSettings(work=6_000, seconds=600.0, convention=convention)
            assert hard_move(know, random.Random(seed), wide) == expected
        seen += heavier == other
    assert seen > 3
