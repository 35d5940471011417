"""``hand_view`` is the hand part of ``view``: the same values, for every seat and moment."""

from __future__ import annotations

import random

import pytest

from bot.engine import Rules, new_match, play, view
from bot.engine.view import hand_view


@pytest.mark.parametrize(
    ("game", "options"),
    [("block", {"players": 2}), ("draw", {"players": 3}), ("latvian", {}), ("allfives", {})],
)
def test_hand_view_matches_the_player_view(game, options):
    rng = random.Random(7)
    state = new_match(Rules.make(game, **options), rng)
    for _ in range(40):
        if state.deal.over:
            break
        for seat in range(state.rules.players):
            seen, hand = view(state, seat), hand_view(state, seat)
            assert hand.seat == seat
            assert hand.hand == seen.hand
            assert hand.legal_moves == seen.legal_moves
            assert hand.forced == seen.forced
        state = play(state, rng.choice(state.legal_moves()))
