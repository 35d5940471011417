"""Reading the other seats' choices as signs of the numbers they hold (``signal``)."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import ai_support
import pytest
from ai_support import exact_choices

from bot.engine import Rules, new_match, play, view
from bot.engine.ai import SearchSettings
from bot.engine.ai.determinize import World, play_weight, sample_world, signal_table, tile_heft
from bot.engine.ai.knowledge import Knowledge, read_view
from bot.engine.ai.search import SIGNALS, signal_for
from bot.engine.tiles import TILES

TEAMS = Rules.make(game="block", players=4, teams=True)


def seat_zero_turns(deals: int) -> Iterator[tuple[Knowledge, World]]:
    return ai_support.seat_zero_turns(TEAMS, "normal", deals)


def holding(hand: int, number: int, besides: int) -> int:
    """How many tiles of ``hand`` other than tile ``besides`` carry ``number``."""
    return sum(
        hand >> u & 1 and u != besides and number in (t.high, t.low) for u, t in enumerate(TILES)
    )


def test_choices_record_the_open_numbers_and_the_one_left_open() -> None:
    """Replayed move by move: each choice's ``ends`` are the numbers open before it was
    laid, and ``exposed`` the number its end showed after."""
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = new_match(TEAMS, rng)
        seen: dict[int, tuple[int, int]] = {}
        for _ in range(6 + seed % 16):
            move = rng.choice(state.legal_moves())
            layout = state.deal.layout
            ends = 0
            for e in layout.open_ends():
                ends |= 1 << layout.values[e]
            nxt = play(state, move)
            if nxt.deal.over:
                break
            end = move.placements[0].end
            if end is not None:
                seen[move.tile] = (ends, nxt.deal.layout.values[end])
            state = nxt
        know = read_view(view(state, state.deal.turn))
        for c in know.choices:
            assert (c.ends, c.exposed) == seen[c.tile]
            checked += 1
    assert checked > 50


def test_signal_reading_weighs_each_placement_by_what_it_keeps() -> None:
    """Counted placement by placement: a seat read for signals chooses among the tiles
    it could lay on each open number, each weighted by its heft and by the tiles kept
    that carry the number it leaves open; the chosen placement is the real one."""
    heft = tile_heft(0.3, 3.0, TEAMS.tile_count)
    kept = signal_table(0.8)
    checked = 0
    for know, world, pairs in exact_choices(TEAMS, 8, 2):
        expected = 1.0
        for c, hand in pairs:
            total = 0.0
            for value in range(7):
                for t, tile in enumerate(TILES):
                    if c.ends >> value & 1 and hand >> t & 1 and value in (tile.high, tile.low):
                        total += heft[t] * kept[holding(hand, tile.other(value), t)]
            expected *= heft[c.tile] * kept[holding(hand, c.exposed, c.tile)] / total
            checked += 1
        signal = dict.fromkeys((1, 2, 3), kept)
        assert play_weight(know, world, heft, signal) == pytest.approx(expected)
    assert checked > 50


def test_players_leave_open_the_numbers_they_hold() -> None:
    """The evidence for reading signals: normal players' choices make the real hands
    likelier than sampled ones by more when read as signals than when read by heft
    alone."""
    heft = tile_heft(0.3, 3.0, TEAMS.tile_count)
    signal = dict.fromkeys((1, 2, 3), signal_table(1.0))
    rng = random.Random(3)
    gaps = {"heft": 0.0, "signal": 0.0}
    for know, real in seat_zero_turns(12):
        if not any(c.exact for c in know.choices):
            continue
        worlds = [sample_world(know, rng) for _ in range(8)]
        for name, table in (("heft", None), ("signal", signal)):
            sampled = [math.log(play_weight(know, w, heft, table)) for w in worlds]
            real_log = math.log(play_weight(know, real, heft, table))
            gaps[name] += real_log - sum(sampled) / len(sampled)
    assert gaps["signal"] > gaps["heft"] > 0


def test_signals_are_read_by_default_only_where_they_measured_better() -> None:
    two = Rules.make(game="block", players=2)
    assert signal_for(two, SearchSettings()) == SIGNALS[("block", 2)] > 0
    for rules in (TEAMS, Rules.make(game="draw", players=2), Rules.make(game="latvian")):
        assert signal_for(rules, SearchSettings()) == 0.0
    assert signal_for(two, SearchSettings(signal=0.0)) == 0.0
    assert signal_for(TEAMS, SearchSettings(signal=0.7)) == 0.7
