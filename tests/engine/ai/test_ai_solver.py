"""The exact endgame solver agrees with a plain minimax over the engine's own deals."""

from __future__ import annotations

import random
from typing import Any

import pytest
from ai_support import endgame

from bot.engine import Deal, Rules, deal_tiles, legal_moves, new_match, play, view
from bot.engine.ai import SearchSettings, choose_move
from bot.engine.ai.evaluate import WIN_BONUS, deal_value
from bot.engine.ai.maxn import MaxnSolver
from bot.engine.ai.solver import LineSolver, SearchLimit, solvable

CONFIGS: list[dict[str, Any]] = [
    {"game": "block", "players": 2},
    {"game": "block", "players": 4, "teams": True},
    {"game": "block", "players": 2, "scoring": "penalty"},
    {"game": "block", "players": 2, "blocked_scoring": "minus_own", "target": 20},
    {"game": "draw", "players": 2},
    {"game": "draw", "players": 4, "teams": True, "scoring": "single"},
    # paranoid: three or four sides, the others against the mover's
    {"game": "draw", "players": 3},
    {"game": "block", "players": 3, "blocked_scoring": "minus_own", "target": 25},
    {"game": "block", "players": 4},
    {"game": "draw", "players": 3, "scoring": "penalty"},
]


def minimax(deal: Deal, side: int) -> float:
    """The value for ``side`` when both sides play perfectly, by the engine's moves."""
    return expectimax(deal, side, chance=0.0)


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
            exact = minimax(child, side)
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
        more_sides = config["players"] > 2 and config["game"] == "block"
        assert solvable(deal, paranoid=True) is (expected or more_sides) or deal.end is not None


def maxn(deal: Deal, side: int) -> tuple[float, ...]:
    """Every side's value when each seat plays for its own side (ties: worse for ``side``,
    then the lower values), by the engine's moves."""
    sides = len(deal.rules.sides)
    if deal.end is not None:
        return tuple(deal_value(deal, s) for s in range(sides))
    mine = deal.side_of[deal.turn]
    options = []
    for move in deal.legal_moves():
        child = deal.copy()
        child.push(move)
        options.append(maxn(child, side))
    return min(options, key=lambda v: (-v[mine], v[side], v))


@pytest.mark.parametrize(
    "config",
    [c for c in CONFIGS if len(Rules.make(**c).sides) > 2],
    ids=lambda c: "-".join(map(str, c.values())),
)
def test_maxn_values_equal_a_plain_maxn(config: dict[str, Any]):
    checked = differ = 0
    for seed in range(60):
        deal = endgame(config, seed, 8)
        if deal is None:
            continue
        side = deal.side_of[deal.turn]
        solver = MaxnSolver(deal, side, 10**6, WIN_BONUS)
        paranoid = LineSolver(deal, side, 10**6)
        for move in deal.legal_moves():
            child = deal.copy()
            child.push(move)
            if child.end is not None:
                continue
            exact = maxn(child, side)
            assert solver.values(child) == pytest.approx(exact), (seed, str(move))
            assert solver.after(deal, move) == pytest.approx(exact[side])
            differ += paranoid.value(child) != pytest.approx(exact[side])
            checked += 1
    assert checked >= 20
    if config.get("scoring", "points") == "points":
        assert differ, "max^n and the paranoid search never disagreed"


@pytest.mark.parametrize(
    "config", [{"game": "draw", "players": 3}, {"game": "block", "players": 3}], ids=str
)
def test_the_hard_level_with_maxn_plays_legal_moves_to_the_end(config: dict[str, Any]):
    rules = Rules.make(**config)
    settings = SearchSettings(work=20_000, seconds=60.0, maxn=True, exact_tiles=12)
    rng = random.Random(2)
    state = new_match(rules, rng)
    moves = 0
    while not state.deal.over:
        move = choose_move(view(state, state.turn), "hard", rng, settings)
        assert move in legal_moves(state)
        state = play(state, move)
        moves += 1
    assert moves >= 6


def expectimax(deal: Deal, side: int, chance: float = 1.0) -> float:
    """The value for ``side`` when it plays perfectly and the other side lays at random
    with ``chance`` (each of the engine's legal moves equally likely), its best move
    otherwise."""
    if deal.end is not None:
        return deal_value(deal, side)
    values = []
    for move in deal.legal_moves():
        child = deal.copy()
        child.push(move)
        values.append(expectimax(child, side, chance))
    if deal.side_of[deal.turn] == side:
        return max(values)
    return chance * sum(values) / len(values) + (1 - chance) * min(values)


@pytest.mark.parametrize(
    "config",
    [c for c in CONFIGS if len(Rules.make(**c).sides) == 2],
    ids=lambda c: "-".join(map(str, c.values())),
)
def test_the_chance_solver_equals_a_plain_expectimax(config: dict[str, Any]):
    checked = differ = 0
    for seed in range(60):
        deal = endgame(config, seed, 7 if config["players"] == 2 else 8)
        if deal is None:
            continue
        side = deal.side_of[deal.turn]
        random_ = LineSolver(deal, side, 10**6, chance=1.0)
        half = LineSolver(deal, side, 10**6, chance=0.5)
        perfect = LineSolver(deal, side, 10**6)
        for move in deal.legal_moves():
            child = deal.copy()
            child.push(move)
            if child.end is not None:
                continue
            solved = random_.value(child)
            assert solved == pytest.approx(expectimax(child, side)), (seed, str(move))
            mixed = half.value(child)
            assert mixed == pytest.approx(expectimax(child, side, 0.5)), (seed, str(move))
            # players who lay at random are never better for the side than perfect ones
            assert solved >= mixed - 1e-9 >= perfect.value(child) - 2e-9
            differ += solved != pytest.approx(perfect.value(child))
            checked += 1
    assert checked >= 20
    assert differ > 0


@pytest.mark.parametrize(
    "config",
    [{"game": "block", "players": 4, "teams": True}, {"game": "draw", "players": 2}],
    ids=str,
)
def test_the_hard_level_with_the_chance_solver_plays_legal_moves_to_the_end(
    config: dict[str, Any],
):
    rules = Rules.make(**config)
    settings = SearchSettings(work=20_000, seconds=60.0, chance=1.0, exact_tiles=14)
    rng = random.Random(3)
    state = new_match(rules, rng)
    moves = 0
    while not state.deal.over:
        seen = view(state, state.turn)
        move = choose_move(seen, "hard", random.Random(moves), settings)
        assert move == choose_move(seen, "hard", random.Random(moves), settings)
        assert move in legal_moves(state)
        state = play(state, move)
        moves += 1
    assert moves >= 6
