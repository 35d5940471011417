"""Daily puzzles (issue 40): the answer is the exact best move by the proven margin, and
nothing comes from a deal or match still in play."""

from __future__ import annotations

import json
import random

import pytest
from plain_minimax import minimax

from bot.engine import Rules, load_record, match_record, new_match, next_deal, play, view
from bot.engine.ai import Level, choose_move
from bot.engine.deal import Deal
from bot.engine.match import MatchState
from bot.engine.puzzle import (
    MARGIN,
    Puzzle,
    builtin_puzzles,
    deal_puzzles,
    exact_values,
    match_puzzles,
)
from bot.engine.puzzle.builtin import builtin_puzzle
from bot.engine.puzzle.finder import _choices
from bot.engine.puzzle.values import margin_value
from bot.engine.tiles import tile


def played_match(rules: Rules, seed: int, deals: int | None = None) -> MatchState:
    """A match the normal AI plays to its end (or ``deals`` deals, the last one over)."""
    rng = random.Random(seed)
    state = new_match(rules, rng)
    while True:
        while not state.deal.over:
            state = play(state, choose_move(view(state, state.turn), Level.NORMAL, rng))
        if state.over or (deals is not None and state.deal_number >= deals):
            return state
        state = next_deal(state, rng)


@pytest.fixture(scope="module")
def builtins() -> list[Puzzle]:
    return builtin_puzzles(20)


def test_the_built_in_set_has_puzzles_of_each_searched_game(builtins: list[Puzzle]) -> None:
    assert len(builtins) >= 12
    assert {p.rules.game for p in builtins} >= {"block", "draw", "allfives"}


def test_the_answer_is_the_best_move_re_solved_from_scratch(builtins: list[Puzzle]) -> None:
    checked = 0
    for puzzle in builtins:
        deal = puzzle.deal()
        side = deal.rules.side_of(puzzle.seat)
        if sum(deal.hand_sizes()) + deal.boneyard_size > 16:
            continue  # plain minimax would take minutes: the next test covers these
        legal = list(deal.legal_moves())
        values = {}
        for move in legal:
            child = deal.copy()
            child.push(move)
            values[move] = minimax(child, side, margin_value)
        best = puzzle.best
        assert values[best.move] == best.value
        for move, value in values.items():
            if not best.accepts(move):
                assert values[best.move] - value >= MARGIN, (puzzle.key, str(move))
        assert puzzle.margin == min(
            values[best.move] - v for m, v in values.items() if not best.accepts(m)
        )
        checked += 1
    assert checked >= 8


def test_every_choice_value_and_the_margin_hold_for_every_built_in(builtins: list[Puzzle]) -> None:
    for puzzle in builtins:
        deal = puzzle.deal()
        again = dict(exact_values(deal))
        assert len(puzzle.choices) >= 2
        covered = [m for c in puzzle.choices for m in (c.move, *c.also)]
        assert sorted(map(str, covered)) == sorted(map(str, deal.legal_moves()))
        for choice in puzzle.choices:
            for move in (choice.move, *choice.also):
                assert again[move] == choice.value
        others = [c.value for i, c in enumerate(puzzle.choices) if i != puzzle.answer]
        assert puzzle.margin == puzzle.best.value - max(others) >= MARGIN


def test_a_finished_match_read_from_its_record_gives_puzzles_of_its_own_deals() -> None:
    rules = Rules.make("block", players=2, target=30)
    state = load_record(json.loads(json.dumps(match_record(played_match(rules, 7)))))
    assert state.over
    found = match_puzzles(state, source="match 1")
    assert found
    for puzzle in found:
        deal = state.deals[puzzle.deal_number - 1]
        assert puzzle.hands == deal.dealt
        assert puzzle.stock == deal.stock
        assert list(puzzle.moves) == deal.moves()[: puzzle.ply]
        assert puzzle.deal().turn == puzzle.seat
        assert puzzle.key.startswith("match 1/")


def test_nothing_comes_from_a_deal_or_match_in_play() -> None:
    rules = Rules.make("block", players=2, target=500)
    state = played_match(rules, 3, deals=2)  # two deals over, the match not
    assert not state.over
    assert state.deal.over
    with pytest.raises(ValueError, match="in play"):
        match_puzzles(state, source="match 2")
    live = next_deal(state, random.Random(1))
    while len(live.deal.moves()) < 6:
        live = play(live, live.legal_moves()[0])
    with pytest.raises(ValueError, match="in play"):
        deal_puzzles(live.deal, source="match 2", deal_number=3)
    with pytest.raises(ValueError, match="in play"):
        match_puzzles(live, source="match 2")


def test_a_puzzle_round_trips_through_json(builtins: list[Puzzle]) -> None:
    for puzzle in builtins:
        doc = json.loads(json.dumps(puzzle.to_json()))
        again = Puzzle.from_json(doc)
        assert again == puzzle
        assert again.position().deal.hands == puzzle.position().deal.hands
    with pytest.raises(ValueError, match="not a"):
        Puzzle.from_json({"format": "something else"})
    broken = builtins[0].to_json() | {"answer": 9}
    with pytest.raises(ValueError, match="answer"):
        Puzzle.from_json(broken)


def test_the_same_tile_at_two_equal_ends_is_one_choice() -> None:
    # seat 0 leads 6-6; seat 1 then lays 6-5 at either end, both showing 6
    rules = Rules.make("block", players=2, hand=3)
    hands = [[tile(6, 6), tile(6, 1), tile(0, 0)], [tile(6, 5), tile(2, 3), tile(2, 2)]]
    deal = Deal.start(rules, hands, [], None)
    values = exact_values(deal)  # the lead: one move
    assert deal.layout.lead is None
    assert len(values) == 1
    deal.play(deal.legal_moves()[0])  # 6-6 led; both ends show 6
    values = exact_values(deal)
    assert {str(m) for m, _ in values} == {"5-6 west", "5-6 east"}
    assert len(_choices(deal, values)) == 1


def test_the_built_in_set_is_the_same_every_time() -> None:
    first = [p.to_json() for p in builtin_puzzles(6)]
    builtin_puzzle.cache_clear()
    assert [p.to_json() for p in builtin_puzzles(6)] == first
