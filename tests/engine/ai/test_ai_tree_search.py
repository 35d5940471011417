"""Information-set tree search through the next moves (``SearchSettings.plies``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import MatchState, Rules, legal_moves, new_match, play, view
from bot.engine.ai import SearchSettings, choose_move
from bot.engine.ai.knowledge import read_view
from bot.engine.ai.search import rank_moves
from bot.engine.ai.solver import LineSolver
from bot.engine.ai.tree_search import TreeSearch, _Node

TREE = SearchSettings(work=8_000, worlds=40, seconds=60.0, plies=5)
TEAMS = Rules.make("block", players=4, teams=True)


@pytest.mark.parametrize(
    "config",
    [
        {"game": "block", "players": 4, "teams": True},
        {"game": "block", "players": 2},
        {"game": "draw", "players": 2},
        {"game": "draw", "players": 3},
        {"game": "allfives", "players": 4, "teams": True},
        {"game": "latvian", "players": 3},
    ],
    ids=lambda c: "-".join(map(str, c.values())),
)
def test_the_tree_search_plays_legal_moves_to_the_end(config: dict[str, Any]) -> None:
    rules = Rules.make(**config)
    rng = random.Random(3)
    state = new_match(rules, rng)
    moves = 0
    while not state.deal.over:
        seat = state.turn
        level = "hard" if rules.side_of(seat) == 0 else "normal"
        move = choose_move(view(state, seat), level, rng, TREE)
        assert move in legal_moves(state)
        state = play(state, move, seat)
        moves += 1
    assert moves >= 4


def midgame(seed: int, moves: int) -> MatchState:
    """A block-teams match after ``moves`` random moves."""
    rng = random.Random(seed)
    state = new_match(TEAMS, rng)
    for _ in range(moves):
        state = play(state, rng.choice(legal_moves(state)))
    return state


def test_the_tree_search_is_deterministic_for_a_seed() -> None:
    checked = 0
    for seed in range(6):
        state = midgame(seed, 6)
        if state.deal.over or len(legal_moves(state)) < 2:
            continue
        know = read_view(view(state, state.turn))
        first = rank_moves(know, random.Random(seed), TREE)
        assert rank_moves(know, random.Random(seed), TREE) == first
        checked += 1
    assert checked >= 3


def walk_tree(node: _Node, depth: int = 1) -> int:
    """Check the counts of every node under ``node``; the number of nodes."""
    seen = 1
    passed_on = sum(child.visits for child in node.children.values())
    assert passed_on <= max(0, node.visits - 1), "a child is reached only after its parent"
    for child in node.children.values():
        assert child.visits <= child.available
        seen += walk_tree(child, depth + 1)
    return seen


def test_a_node_is_visited_through_its_parent_and_no_more_often_than_it_could_be() -> None:
    state = midgame(4, 5)
    know = read_view(view(state, state.turn))
    candidates = list(know.legal)
    search = TreeSearch(know, candidates, SearchSettings(work=40_000, worlds=60, plies=5))
    search.run(random.Random(1), deadline=1e9)
    assert sum(search.counts) == sum(node.visits for node in search.root)
    nodes = sum(walk_tree(node) for node in search.root)
    assert nodes > 2 * len(candidates)
    deep = [c for node in search.root for c in node.children.values() if c.children]
    assert deep, "the tree grew below the replies"


def test_each_seat_chooses_for_its_own_side_in_one_world() -> None:
    """In one fixed world, two plies: each reply's mean is its exact value from the side
    of the seat that makes it (an opponent's is minus ours), and the reply that seat
    makes most is its best."""
    checked = opponents = 0
    for seed in range(30):
        state = midgame(seed, 13)
        deal = state.deal
        if deal.over or len(legal_moves(state)) < 2:
            continue
        know = read_view(view(state, state.turn))
        search = TreeSearch(know, list(know.legal), SearchSettings(plies=2, explore=4.0))
        side = deal.side_of[deal.turn]
        exact = LineSolver(deal, side, 10**7)
        for j, move in enumerate(search.candidates):
            for _ in range(300):
                search._walk(deal.copy(), j, 0, LineSolver(deal, side, 10**7))
            node = search.root[j]
            if len(node.children) < 2:
                continue
            after = deal.copy()
            after.push(move)
            sign = 1 if deal.side_of[after.turn] == side else -1
            opponents += sign < 0
            theirs = {}
            for (seat, reply), child in node.children.items():
                assert after.turn == seat
                theirs[reply] = sign * exact.after(after, reply)
                assert child.total / child.visits == pytest.approx(theirs[reply])
            most = max(node.children.items(), key=lambda kv: kv[1].visits)[0][1]
            assert theirs[most] == max(theirs.values())
            checked += 1
    assert checked >= 5
    assert opponents >= 3
