"""The exact endgame solver agrees with a plain minimax over the engine's own deals."""

from __future__ import annotations

import random
from typing import Any

import pytest
from ai_support import endgame
from plain_minimax import minimax

from bot.engine import Deal, Rules, deal_tiles
from bot.engine.ai.evaluate import deal_value
from bot.engine.ai.solver import LineSolver, SearchLimit, solvable

CONFIGS: list[dict[str, Any]] = [
    {"game": "block", "players": 2},
    {"game": "block", "players": 4, "teams": True},
    {"game": "block", "players": 2, "scoring": "penalty"},
    {"game": "block", "players": 2, "blocked_scoring": "minus_own", "target": 20},
    {"game": "draw", "players": 2},
    {"game": "draw", "players": 4, "teams": True, "scoring": "single"},
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_solver_values_equal_minimax(config: dict[str, Any]):
    checked = 0
    for seed in range(60):
        deal = endgame(config, seed, 7 if config["players"] == 2 else 8)
        if deal is None:
            continue
        side = deal.side_of[deal.turn]
        solver = LineSolver(deal, side, 10**6)
        for move in deal.legal_moves():
            child = deal.copy()
            child.push(move)
            exact = minimax(child, side, deal_value)
            solved = deal_value(child, side) if child.end else solver.value(child)
            assert solved == pytest.approx(exact), (seed, str(move))
            checked += 1
    assert checked >= 20


def test_the_solver_gives_up_past_its_budget():
    deal = endgame({"game": "block", "players": 4, "teams": True}, 3, 26)
    assert deal is not None
    solver = LineSolver(deal, 0, 50)
    with pytest.raises(SearchLimit):
        solver.value(deal)
    assert solver.nodes == 51


def test_only_line_layouts_with_two_sides_are_solvable():
    rng = random.Random(1)
    for config, expected in [
        ({"game": "block", "players": 2}, True),
        ({"game": "block", "players": 3}, False),
        ({"game": "block", "players": 2, "layout": "spinner"}, False),
        ({"game": "allfives", "players": 2}, False),
        ({"game": "latvian", "players": 2}, False),
    ]:
        rules = Rules.make(**config)
        hands, stock = deal_tiles(rules, rng)
        deal = Deal.start(rules, hands, stock, leader=0)
        deal.push(deal.legal_moves()[0])
        assert solvable(deal) is expected or deal.end is not None
