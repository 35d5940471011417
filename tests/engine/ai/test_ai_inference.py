"""Inference from the tiles other seats chose to lay (``Knowledge.choices``, ``play_weight``).

The choices are checked against the real deal, replayed move by move: what fitted
the table when the tile was laid, and, for an exact choice, the seat's whole hand
at that moment rebuilt from its hand now and the tiles it laid since.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from ai_support import seat_zero_turns

from bot.engine import MatchState, Rules, legal_moves, new_match, play, view
from bot.engine.ai import SearchSettings, choose_move
from bot.engine.ai.determinize import play_weight, sample_world, tile_heft
from bot.engine.ai.knowledge import read_view

CONFIGS: list[dict[str, Any]] = [
    {"game": "block", "players": 4, "teams": True},
    {"game": "block", "players": 2},
    {"game": "draw", "players": 3},
    {"game": "allfives", "players": 2},
    {"game": "latvian", "players": 4},
]


def replay(config: dict[str, Any], seed: int, length: int) -> tuple[MatchState, dict[Any, Any]]:
    """A deal after up to ``length`` random moves, and for each tile laid alone by a
    seat: (seat, its hand then, what fitted the table then)."""
    rng = random.Random(seed)
    state = new_match(Rules.make(**config), rng)
    before: dict[Any, Any] = {}
    for _ in range(length):
        move = rng.choice(legal_moves(state))
        seat = state.deal.turn
        if len(move.placements) == 1:
            fit = state.deal.layout.fit_mask() & ((1 << state.rules.tile_count) - 1)
            before[move.placements[0].tile] = (seat, state.deal.hands[seat], fit)
        nxt = play(state, move)
        if nxt.deal.over:
            break
        state = nxt
    return state, before


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_choices_match_the_real_deal(config: dict[str, Any]) -> None:
    checked = 0
    for seed in range(40):
        state, before = replay(config, seed, 8 + seed % 20)
        seat = state.deal.turn
        know = read_view(view(state, seat))
        hands = state.deal.hands
        for c in know.choices:
            assert c.seat != seat
            who, hand_then, fit_then = before[c.tile]
            assert who == c.seat
            assert c.fit == fit_then
            assert (1 << c.tile) & c.fit
            assert c.later & hands[c.seat] == 0
            assert c.later & ~know.played[c.seat] == 0
            if c.exact:
                assert hands[c.seat] | c.later | (1 << c.tile) == hand_then
                checked += 1
    assert checked > 0


def test_heavy_players_make_the_real_world_likelier() -> None:
    """Seats that lay their heaviest tiles (the normal level) leave worlds like the real
    one likelier than the sampled worlds, on average."""
    rules = Rules.make(game="block", players=4, teams=True)
    heft = tile_heft(0.3, 3.0, rules.tile_count)
    gap = 0.0
    count = 0
    rng = random.Random(0)
    for know, real in seat_zero_turns(rules, "normal", 12):
        if any(c.exact for c in know.choices):
            sampled = [play_weight(know, sample_world(know, rng), heft) for _ in range(8)]
            gap += math.log(play_weight(know, real, heft)) - mean_log(sampled)
            count += 1
    assert count > 20
    assert gap / count > 0.2


def mean_log(xs: list[float]) -> float:
    return sum(math.log(x) for x in xs) / len(xs)


def test_inference_is_deterministic_and_legal() -> None:
    settings = SearchSettings(work=8_000, seconds=5.0, infer=0.3)
    rules = Rules.make(game="block", players=4, teams=True)
    for seed in range(4):
        rng = random.Random(seed)
        state = new_match(rules, rng)
        while not state.deal.over:
            seat = state.deal.turn
            seen = view(state, seat)
            a = choose_move(seen, "hard", random.Random(seed), settings)
            b = choose_move(seen, "hard", random.Random(seed), settings)
            assert a == b
            assert a in seen.legal_moves
            state = play(state, a, seat)
