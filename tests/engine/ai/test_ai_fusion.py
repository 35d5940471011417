"""Against strategy fusion (``SearchSettings.fusion``): the mover's next decision taken
once for all the worlds where it sees the same reply."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from ai_support import endgame
from hypothesis import given
from hypothesis import strategies as st

from bot.engine import Move, Rules, legal_moves, new_match, play, view
from bot.engine.ai import SearchSettings, choose_move
from bot.engine.ai.fusion import Fusion, Replies, applies, reply_values
from bot.engine.ai.knowledge import read_view
from bot.engine.ai.search import _Search
from bot.engine.ai.solver import LineSolver
from bot.engine.moves import End
from bot.engine.tiles import tile

TWO = Rules.make("block", players=2)


def world_by_world(replies: Replies) -> float:
    """What the plain determinized search makes of one world: the other seat's best reply
    against the mover's best follow-up in that very world."""
    if isinstance(replies, float):
        return replies
    return min(f if isinstance(f, float) else max(f.values()) for f in replies.values())


@pytest.mark.parametrize(
    "config",
    [
        {"game": "block", "players": 2},
        {"game": "block", "players": 2, "scoring": "penalty"},
        {"game": "block", "players": 2, "blocked_scoring": "minus_own", "target": 30},
        {"game": "block", "players": 2, "scoring": "single"},
    ],
    ids=lambda c: "-".join(map(str, c.values())),
)
def test_reply_values_agree_with_the_solver_world_by_world(config: dict[str, Any]):
    checked = 0
    for seed in range(40):
        deal = endgame(config, seed, 11 - seed % 4)
        if deal is None:
            continue
        side = deal.side_of[deal.turn]
        solver = LineSolver(deal, side, 10**7)
        check = LineSolver(deal, side, 10**7)
        for move in deal.legal_moves():
            child = deal.copy()
            child.push(move)
            replies = reply_values(deal, move, solver, solver.win_bonus)
            if child.end is not None:
                assert isinstance(replies, float)
                continue
            assert world_by_world(replies) == pytest.approx(check.value(child)), (seed, str(move))
            checked += 1
    assert checked >= 30


def test_one_follow_up_for_every_world_where_the_reply_is_the_same():
    reply = Move.single(tile(6, 5), End.WEST)
    other = Move.single(tile(6, 4), End.EAST)
    x = Move.single(tile(5, 1), End.WEST)
    y = Move.single(tile(4, 2), End.EAST)
    fusion = Fusion(1)
    fusion.add(0, {reply: {x: 10.0, y: 0.0}, other: 7.0})
    fusion.add(0, {reply: {x: 0.0, y: 8.0}})
    # x is worth 5 on average after that reply, y 4: x is played in both worlds, and in
    # the first the other seat prefers the 7 of its other reply to x's 10
    assert fusion.chosen(0) == {reply: x}
    assert fusion.mean(0) == pytest.approx((7.0 + 0.0) / 2)
    # world by world, the search would have counted on y in the second world
    assert (world_by_world(fusion.worlds[0][0]) + world_by_world(fusion.worlds[0][1])) / 2 == 7.5


FOLLOWS = [Move.single(tile(a, b), End.WEST) for a, b in ((5, 1), (4, 2), (3, 3))]
REPLIES = [None, *(Move.single(tile(6, b), End.EAST) for b in range(3))]
follow = st.one_of(
    st.floats(-50, 50),
    st.dictionaries(st.sampled_from(FOLLOWS), st.floats(-50, 50), min_size=1),
)
worlds = st.lists(
    st.one_of(
        st.floats(-50, 50),
        st.dictionaries(st.sampled_from(REPLIES), follow, min_size=1),
    ),
    min_size=1,
    max_size=6,
)


@given(worlds)
def test_the_fused_value_is_never_above_the_world_by_world_value(entries: list[Replies]):
    fusion = Fusion(1)
    for replies in entries:
        fusion.add(0, replies)
    plain = sum(world_by_world(r) for r in entries) / len(entries)
    assert fusion.mean(0) <= plain + 1e-9
    if len(entries) == 1:
        assert fusion.mean(0) == pytest.approx(plain)


def test_it_applies_to_two_players_without_drawing_on_a_line():
    assert applies(TWO)
    assert applies(Rules.make("block", players=2, scoring="penalty"))
    assert not applies(Rules.make("block", players=4, teams=True))
    assert not applies(Rules.make("block", players=3))
    assert not applies(Rules.make("draw", players=2))
    assert not applies(Rules.make("block", players=2, layout="spinner"))


def test_on_the_same_worlds_no_move_is_valued_above_the_plain_search():
    lower = 0
    for seed in range(12):
        state = new_match(TWO, random.Random(seed))
        rng = random.Random(seed)
        for _ in range(rng.randrange(1, 4)):
            state = play(state, rng.choice(legal_moves(state)))
            if state.deal.over:
                break
        if state.deal.over or len(legal_moves(state)) < 2:
            continue
        know = read_view(view(state, state.turn))
        means = []
        for fused in (False, True):
            settings = SearchSettings(
                work=10**9, worlds=30, seconds=600.0, halving=False, fusion=fused
            )
            search = _Search(know, list(know.legal), settings)
            means.append(search.run(random.Random(seed), 10**9))
        plain, fused_means = means
        for a, b in zip(plain, fused_means, strict=True):
            assert b <= a + 1e-9
        lower += any(b < a - 1e-9 for a, b in zip(plain, fused_means, strict=True))
    assert lower >= 3


def test_the_hard_level_with_fusion_plays_legal_moves_and_repeats_itself():
    settings = SearchSettings(work=8_000, seconds=60.0, fusion=True)
    for seed in range(3):
        state = new_match(TWO, random.Random(seed))
        while not state.deal.over:
            seen = view(state, state.turn)
            move = choose_move(seen, "hard", random.Random(seed), settings)
            assert move in legal_moves(state)
            assert choose_move(seen, "hard", random.Random(seed), settings) == move
            state = play(state, move)


def test_a_world_too_big_to_solve_falls_back_to_playouts_and_still_ranks_every_move():
    state = new_match(TWO, random.Random(5))
    know = read_view(view(state, state.turn))
    while len(know.legal) < 2:
        state = play(state, legal_moves(state)[0])
        know = read_view(view(state, state.turn))
    settings = SearchSettings(work=10**9, worlds=6, seconds=600.0, solver_nodes=1, fusion=True)
    search = _Search(know, list(know.legal), settings)
    means = search.run(random.Random(5), 10**9)
    assert not search.solve_root  # the first world proved too big: playouts from then on
    assert all(math.isfinite(means[j]) for j in search.active)
    assert all(isinstance(w, float) for w in search.fusion.worlds[0])  # type: ignore[union-attr]
    assert sorted(search.ranking()) == list(range(len(know.legal)))
