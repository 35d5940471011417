"""The review engine (bot/engine/review): a mistake marked at its exact cost, accuracy 100
for a seat that always chose a best move, the JSON round trip, every game reviewed."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from plain_minimax import minimax

from bot.engine import Deal, Rules
from bot.engine.ai.evaluate import deal_value
from bot.engine.match import MatchState, new_match, play
from bot.engine.record import load_record, match_record
from bot.engine.review import (
    REVIEW_VERSION,
    DealReview,
    NotReviewable,
    ReviewSettings,
    move_accuracy,
    position_before,
    review_deal,
    steps,
)
from bot.engine.review.replay import Step
from bot.engine.review.values import KNOWN, value_step

FAST = ReviewSettings(
    known=replace(KNOWN, work=15_000, worlds=30),
    mexican_work=8_000,
    open_nodes=40_000,
    open_playouts=2,
)
"""Small budgets: these tests check the bookkeeping, not the strength."""


def own_points(deal: Deal, side: int) -> float:
    """A finished deal's own points for ``side`` (no bonus)."""
    return deal_value(deal, side, 0.0, 0.0)


def random_match(rules: Rules, seed: int) -> MatchState:
    """A match whose first deal is played to its end by random moves."""
    state = new_match(rules, random.Random(seed))
    rng = random.Random(seed + 1000)
    while not state.deal.over:
        state = play(state, rng.choice(state.legal_moves()))
    return state


def a_known_mistake() -> tuple[MatchState, int, float]:
    """A two-player draw deal (read back from its record) with a move that costs
    something, made when the boneyard was empty: every tile but the mover's own was
    then in the other hand, so the mover knew every hand and the known cost is the
    exact one. Returns the match, the move's index and its cost by plain minimax."""
    rules = Rules.make("draw", players=2)
    for seed in range(200):
        state = load_record(match_record(random_match(rules, seed)))
        for step in steps(state, 1):
            deal = step.deal
            legal = deal.legal_moves()
            if deal.boneyard_size or len(legal) < 2 or sum(deal.hand_sizes()) > 9:
                continue
            side = deal.side_of[step.seat]
            values = {}
            for move in legal:
                child = deal.copy()
                child.push(move)
                values[move] = minimax(child, side, own_points)
            gap = max(values.values()) - values[step.move.canonical()]
            if gap > 0:
                return state, step.index, gap
    raise AssertionError("no such deal in 200 seeds")


def test_a_mistake_is_marked_at_its_exact_cost():
    state, index, gap = a_known_mistake()
    review = review_deal(state, 1, random.Random(5), FAST)
    row = review.rows[index]
    assert row.open_exact
    assert row.open_cost == pytest.approx(gap)
    assert row.known_cost == pytest.approx(gap)  # the mover could see it all
    assert row.known_best != row.played
    assert row.open_best != row.played
    assert row.accuracy < 100
    assert review.seats[row.seat].accuracy is not None
    assert review.seats[row.seat].accuracy < 100
    if gap >= review.rows[review.mistakes[-1]].known_cost:
        assert index in review.mistakes


def test_a_best_move_costs_nothing():
    state, index, _ = a_known_mistake()
    review = review_deal(state, 1, random.Random(5), FAST)
    row = review.rows[index]
    assert row.known_cost > 0
    # the same deal with the best move played there instead: no cost at that move
    step = next(s for s in steps(state, 1) if s.index == index)
    better = play(step.before, row.open_best)
    while not better.deal.over:
        better = play(better, better.legal_moves()[0])
    again = review_deal(better, 1, random.Random(5), FAST)
    assert again.rows[index].open_cost == 0
    assert again.rows[index].known_cost == 0
    assert again.rows[index].accuracy == 100


@pytest.mark.parametrize(
    "config",
    [
        {"game": "block", "players": 2},
        {"game": "draw", "players": 3},
        {"game": "allfives", "players": 2},
    ],
    ids=lambda c: f"{c['game']}-{c['players']}",
)
def test_accuracy_is_100_for_a_seat_that_always_chose_a_best_known_move(config: dict[str, Any]):
    rules = Rules.make(**config)
    state = new_match(rules, random.Random(11))
    seeds = random.Random(21)  # the review draws one seed per move, in this order
    other = random.Random(31)
    index = 0
    while not state.deal.over:
        seed = seeds.getrandbits(64)
        legal = state.legal_moves()
        if state.turn == 0 and len(legal) > 1:
            step = Step(index, state.turn, state, legal[0])  # the move: a stand-in
            valued = value_step(step, random.Random(seed), FAST)
            best = max(range(len(valued.moves)), key=lambda j: valued.known[j])
            move = valued.moves[best]
        else:
            move = other.choice(legal)
        state = play(state, move)
        index += 1
    review = review_deal(state, 1, random.Random(21), FAST)
    me = review.seats[0]
    assert me.decisions > 0
    assert me.accuracy == 100
    assert me.known_loss == 0
    assert me.best_moves == me.decisions
    assert all(review.rows[i].seat != 0 for i in review.mistakes)


def test_accuracy_formula():
    assert move_accuracy([3.0, 1.0, 2.0], 3.0) == 100
    assert move_accuracy([3.0, 1.0, 2.0], 1.0) == 0
    assert move_accuracy([3.0, 1.0, 2.0], 2.0) == 50
    assert move_accuracy([2.0, 2.0], 2.0) == 100


def test_the_json_round_trip_and_the_version():
    review = review_deal(random_match(Rules.make("block", players=3), 4), 1, random.Random(1), FAST)
    text = review.to_json()
    back = DealReview.from_json(text)
    assert back == review
    assert back.version == REVIEW_VERSION
    with pytest.raises(ValueError, match="not a stored review"):
        DealReview.from_json('{"version": 1}')


def test_a_review_is_deterministic():
    state = random_match(Rules.make("block", players=4), 8)
    assert review_deal(state, 1, random.Random(2), FAST) == review_deal(
        state, 1, random.Random(2), FAST
    )


def test_a_deal_in_play_is_not_reviewed():
    state = new_match(Rules.make("block", players=2), random.Random(1))
    state = play(state, state.legal_moves()[0])
    with pytest.raises(NotReviewable):
        review_deal(state, 1, random.Random(1), FAST)
    with pytest.raises(NotReviewable):
        review_deal(state, 2, random.Random(1), FAST)


def test_positions_replay_the_deal():
    state = random_match(Rules.make("draw", players=3), 6)
    deal = state.deal
    all_steps = list(steps(state, 1))
    assert [s.move for s in all_steps] == deal.moves()
    for s in all_steps:
        pos = position_before(state, 1, s.index)
        assert set(s.move.tiles) <= set(pos.hand)
        assert s.move.canonical() in pos.legal
        laid = (pos.table.lead is not None) + sum(len(a) for a in pos.table.arms)
        assert laid == s.index
    with pytest.raises(NotReviewable):
        position_before(state, 1, len(all_steps))


GAMES: list[dict[str, Any]] = [
    {"game": "block", "players": 2},
    {"game": "block", "players": 4},
    {"game": "block", "players": 4, "teams": True},
    {"game": "draw", "players": 2},
    {"game": "draw", "players": 4, "scoring": "single"},
    {"game": "block", "players": 3, "scoring": "penalty"},
    {"game": "allfives", "players": 3},
    {"game": "latvian", "players": 2},
    {"game": "latvian", "players": 4},
    {"game": "mexican", "players": 2, "set": 9},
]


@pytest.mark.parametrize("config", GAMES, ids=lambda c: "-".join(map(str, c.values())))
def test_every_game_is_reviewed(config: dict[str, Any]):
    rules = Rules.make(**config)
    for seed in range(2):
        state = random_match(rules, seed)
        review = review_deal(state, 1, random.Random(seed), FAST)
        check_invariants(state, review)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_mexican_train_double_12_rounds_are_reviewed(seed: int):
    state = random_match(Rules.make("mexican", players=4), seed)
    review = review_deal(state, 1, random.Random(seed), FAST)
    check_invariants(state, review)
    assert review.approximate
    assert "known_horizon" in review.notes


def check_invariants(state: MatchState, review: DealReview) -> None:
    rules = state.rules
    assert review.game == rules.game
    assert review.players == rules.players
    assert len(review.rows) == len(state.deal.moves())
    assert [r.played for r in review.rows] == state.deal.moves()
    for r in review.rows:
        assert r.known_cost >= 0
        assert r.open_cost >= 0
        assert 0 <= r.accuracy <= 100
        if r.forced:
            assert r.known_cost == r.open_cost == 0
            assert r.accuracy == 100
    for s in review.seats:
        assert s.accuracy is None or 0 <= s.accuracy <= 100
    costs = [review.rows[i].known_cost for i in review.mistakes]
    assert costs == sorted(costs, reverse=True)
    assert all(c > 0 for c in costs)
    assert len(review.mistakes) == min(3, sum(1 for r in review.rows if r.known_cost > 0))
    assert len(review.series) == len(review.rows)
    assert DealReview.from_json(review.to_json()) == review
