"""Playouts finish deals by legal moves, stop where asked, and learn only true voids."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import Deal, Rules, deal_tiles
from bot.engine.ai.evaluate import deal_value
from bot.engine.ai.rollout import playout

CONFIGS: list[dict[str, Any]] = [
    {"game": "block", "players": 4, "teams": True},
    {"game": "block", "players": 3, "layout": "spinner"},
    {"game": "draw", "players": 2},
    {"game": "draw", "players": 5, "set": 9},
    {"game": "allfives", "players": 4, "teams": True},
    {"game": "latvian", "players": 3},
]


def fresh(config: dict[str, Any], rng: random.Random) -> Deal:
    rules = Rules.make(**config)
    hands, stock = deal_tiles(rules, rng)
    return Deal.start(rules, hands, stock, leader=rng.randrange(rules.players))


class Checked(Deal):
    """A deal that checks every move a playout pushes against its legal moves."""

    __slots__ = ()

    def push(self, move):  # type: ignore[no-untyped-def]
        assert move in self.legal_moves()
        super().push(move)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_playouts_play_legal_moves_to_the_end_and_learn_true_voids(config: dict[str, Any]):
    rng = random.Random(str(config))
    for _ in range(20):
        deal = fresh(config, rng)
        deal.__class__ = Checked
        voids = [0] * deal.n
        moves = playout(deal, rng, epsilon=0.2, voids=voids)
        assert deal.end is not None
        assert moves >= 1
        for seat in range(deal.n):
            assert deal.hands[seat] & voids[seat] == 0
        side = deal.side_of[0]
        assert isinstance(deal_value(deal, side), float)


def test_a_playout_stops_at_the_tiles_asked():
    rng = random.Random(2)
    for _ in range(20):
        deal = fresh({"game": "block", "players": 4, "teams": True}, rng)
        playout(deal, rng, stop_tiles=12)
        assert deal.end is not None or sum(deal.hand_sizes()) <= 12
        if deal.end is None:
            assert sum(deal.hand_sizes()) == 12  # one tile a move: it stops right there


def test_a_playout_is_repeatable_from_a_seed():
    rng = random.Random(3)
    deal = fresh({"game": "allfives", "players": 3}, rng)
    a, b = deal.copy(), deal.copy()
    playout(a, random.Random(9))
    playout(b, random.Random(9))
    assert a.moves() == b.moves()
    assert a.result == b.result
