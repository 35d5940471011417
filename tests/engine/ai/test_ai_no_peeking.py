"""No peeking: an AI seat decides from what it may see, never from the hidden tiles.

Two matches are built with the same public history and the same hand for the
deciding seat, but the unseen tiles split differently among the other hands and
the stock: a tile another seat still holds swapped with one another seat (or the
stock) holds, and the same moves replayed. Whenever the deciding seat's views of
the two are equal, every level must choose the same move from the same seed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import MatchState, Rules, Tile, full_set, legal_moves, play, start_match, view
from bot.engine.ai import LEVELS, SearchSettings, choose_move
from bot.engine.errors import DominoError

SETTINGS = SearchSettings(work=6_000, worlds=12, seconds=60.0)

CONFIGS: list[dict[str, Any]] = [
    {"game": "block", "players": 4, "teams": True},
    {"game": "block", "players": 3},
    {"game": "draw", "players": 2},
    {"game": "draw", "players": 4, "set": 9, "layout": "spinner"},
    {"game": "allfives", "players": 4, "teams": True},
    {"game": "allfives", "players": 3},
    {"game": "latvian", "players": 3},
    {"game": "latvian", "players": 4},
]


def replay(
    rules: Rules, hands: list[list[Tile]], stock: list[Tile], leader: int, moves: list[Any]
) -> MatchState | None:
    """The match dealt ``hands``/``stock`` after ``moves``, or ``None`` if one is illegal."""
    try:
        state = start_match(rules, hands, stock, leader if rules.game == "allfives" else None)
        for move in moves:
            state = play(state, move)
    except DominoError:
        return None
    return state


def twin_states(config: dict[str, Any], seed: int) -> tuple[MatchState, MatchState, int] | None:
    """Two states one seat cannot tell apart, with different hidden tiles, or ``None``."""
    rules = Rules.make(**config)
    rng = random.Random(seed)
    deck = list(full_set(rules.set))
    rng.shuffle(deck)
    size = rules.hand
    hands = [deck[i * size : (i + 1) * size] for i in range(rules.players)]
    stock = deck[rules.players * size :]
    if rules.game == "latvian" and not any(t.is_double for h in hands for t in h):
        return None
    leader = rng.randrange(rules.players)
    state = replay(rules, hands, stock, leader, [])
    assert state is not None
    moves = []
    for _ in range(rng.randrange(2, 3 * rules.players + 4)):
        if state.deal.over:
            return None
        move = rng.choice(legal_moves(state))
        moves.append(move)
        state = play(state, move)
    if state.deal.over:
        return None
    seat = state.turn
    seen = view(state, seat)
    held = [set(state.deal.hand(s)) for s in range(rules.players)]
    for _ in range(200):
        # swap one tile another seat holds now with one held by a third seat or in
        # the stock (any stock tile; in block the stock is out of play)
        a = rng.choice([s for s in range(rules.players) if s != seat and held[s]])
        x = rng.choice(sorted(held[a]))
        undrawn = list(state.deal.boneyard) if rules.draws else stock
        others = [s for s in range(rules.players) if s not in (seat, a) and held[s]]
        b = rng.choice([*others, -1] if undrawn else others) if others or undrawn else None
        if b is None:
            return None
        y = rng.choice(sorted(held[b])) if b >= 0 else rng.choice(undrawn)
        new_hands = [[y if t == x else x if t == y else t for t in h] for h in hands]
        new_stock = [y if t == x else x if t == y else t for t in stock]
        twin = replay(rules, new_hands, new_stock, leader, moves)
        if twin is None or twin.deal.over or twin.turn != seat:
            continue
        if view(twin, seat) == seen and twin.deal.hands != state.deal.hands:
            return state, twin, seat
    return None


def check_decisions(config: dict[str, Any], level: str, settings: SearchSettings) -> None:
    """Twin states give ``level`` the same move from the same seed, in a few positions."""
    found = 0
    for seed in range(400):
        twins = twin_states(config, seed)
        if twins is None:
            continue
        state, twin, seat = twins
        if len(legal_moves(state)) < 2:
            continue
        found += 1
        a = choose_move(view(state, seat), level, random.Random(seed), settings)
        b = choose_move(view(twin, seat), level, random.Random(seed), settings)
        assert a == b, f"seed {seed}: {a} with one split of the hidden tiles, {b} with another"
        if found == 6:
            break
    assert found >= 3, "too few positions with a choice were built"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_hidden_tiles_do_not_change_the_decision(config: dict[str, Any], level: str):
    check_decisions(config, level, SETTINGS)
