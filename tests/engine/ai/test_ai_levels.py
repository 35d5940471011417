"""Every AI level plays every game and option of RULES.md to the end with legal moves."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import Rules, legal_moves, new_match, next_deal, play, view
from bot.engine.ai import LEVELS, SearchSettings, choose_move

# A small search keeps the hard level quick here; the deadline is far away, so the
# work budget alone decides how long it searches.
SMALL = SearchSettings(work=4_000, worlds=8, seconds=30.0)

CONFIGS: list[dict[str, Any]] = [
    {"game": "block", "players": 2, "target": 30},
    {"game": "block", "players": 3, "layout": "spinner", "target": 30},
    {"game": "block", "players": 4, "teams": True, "target": 30},
    {"game": "block", "players": 4, "teams": True, "scoring": "single"},
    {"game": "block", "players": 2, "blocked_scoring": "minus_own", "target": 30},
    {"game": "block", "players": 6, "set": 9, "scoring": "penalty", "target": 30},
    {"game": "block", "players": 8, "set": 12, "layout": "spinner", "scoring": "single"},
    {"game": "draw", "players": 2, "target": 30},
    {"game": "draw", "players": 3, "layout": "spinner", "scoring": "penalty", "target": 30},
    {"game": "draw", "players": 4, "teams": True, "target": 30},
    {"game": "draw", "players": 5, "set": 9, "scoring": "single"},
    {"game": "draw", "players": 7, "set": 12, "target": 30},
    {"game": "draw", "players": 2, "set": 12, "hand": 3, "scoring": "single"},
    {"game": "allfives", "players": 2, "target": 60},
    {"game": "allfives", "players": 3, "target": 60},
    {"game": "allfives", "players": 4, "teams": True, "target": 60},
    {"game": "latvian", "players": 2, "deals": 2},
    {"game": "latvian", "players": 3, "deals": 1},
    {"game": "latvian", "players": 4, "deals": 1},
]
MAX_DEALS = 3


def config_id(config: dict[str, Any]) -> str:
    return "-".join(f"{v}" if k == "game" else f"{k}={v}" for k, v in config.items())


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_each_level_plays_legal_moves_to_the_end(config: dict[str, Any], level: str):
    rules = Rules.make(**config)
    rng = random.Random(f"{config_id(config)}/{level}")
    state = new_match(rules, rng)
    deals = decisions = 0
    while True:
        if state.deal.over:
            deals += 1
            if state.over or deals == MAX_DEALS:
                break
            state = next_deal(state, rng)
            continue
        seat = state.turn
        move = choose_move(view(state, seat), level, rng, SMALL)
        assert move in legal_moves(state)
        state = play(state, move, seat)
        decisions += 1
    assert decisions > 0


def test_mixed_levels_finish_a_match():
    rules = Rules.make("allfives", players=3, target=40)
    rng = random.Random(7)
    state = new_match(rules, rng)
    while not state.over:
        if state.deal.over:
            state = next_deal(state, rng)
            continue
        seat = state.turn
        move = choose_move(view(state, seat), LEVELS[seat], rng, SMALL)
        state = play(state, move, seat)
    assert state.winners


def test_levels_are_named_weakest_first():
    assert LEVELS == ("easy", "normal", "hard")


def test_an_unknown_level_is_refused():
    state = new_match(Rules.make("block"), random.Random(1))
    with pytest.raises(ValueError, match="unknown AI level"):
        choose_move(view(state, state.turn), "grandmaster", random.Random(1))


def test_a_seat_whose_turn_it_is_not_gets_no_move():
    state = new_match(Rules.make("block"), random.Random(1))
    other = 1 - state.turn
    for level in LEVELS:
        with pytest.raises(ValueError, match="not this seat's turn"):
            choose_move(view(state, other), level, random.Random(1))


def test_a_spectator_view_cannot_be_played():
    state = new_match(Rules.make("block"), random.Random(1))
    with pytest.raises(ValueError, match="not this seat"):
        choose_move(view(state, None), "normal", random.Random(1))
