"""The normal and hard levels make the obvious good move in constructed positions,
and the hard level's search is deterministic for a seed under its work budget."""

from __future__ import annotations

import random

import pytest

from bot.engine import End, MatchState, Move, Rules, Tile, full_set, play, start_match, view
from bot.engine.ai import SearchSettings, choose_move
from bot.engine.ai.knowledge import read_view
from bot.engine.ai.search import rank_moves

W, E, N, S = End.WEST, End.EAST, End.NORTH, End.SOUTH


def T(text: str) -> Tile:
    return Tile.parse(text)


def match(rules: Rules, hands: list[str], leader: int | None = None) -> MatchState:
    dealt = [[T(t) for t in hand.split()] for hand in hands]
    used = {t for hand in dealt for t in hand}
    stock = [t for t in full_set(rules.set) if t not in used]
    return start_match(rules, dealt, stock, leader)


def moves_of(state: MatchState, *moves: Move) -> MatchState:
    for move in moves:
        state = play(state, move)
    return state


def decide(state: MatchState, level: str, seed: int = 0) -> Move:
    settings = SearchSettings(work=60_000, seconds=60.0)
    return choose_move(view(state, state.turn), level, random.Random(seed), settings)


def test_normal_takes_a_fifteen_count_in_allfives():
    # Seat 0 leads 6-6 (the spinner), seat 1 lays 1-6 on its east side: count 12 + 1.
    # Seat 0 may lay 1-3 east (count 15), 1-2 east (14) or the heavier 5-6 west (6).
    state = match(
        Rules.make("allfives", players=2),
        ["2-5 5-5 1-3 5-6 1-2 6-6 4-5", "0-1 4-6 0-2 1-6 1-4 2-6 2-4"],
        leader=0,
    )
    state = moves_of(state, Move.lead(T("6-6")), Move.single(T("1-6"), E))
    assert state.turn == 0
    assert decide(state, "normal") == Move.single(T("1-3"), E)


def test_normal_plays_a_double_that_would_otherwise_be_stranded():
    # Five of the six other 2-tiles are on the table, only 1-2 is unseen, and the east
    # end shows 2. Seat 0 holds 2-2 and the heavier 6-5 (west, on the 6): if the 2 end
    # is covered, 2-2 can never be laid.
    state = match(
        Rules.make("block", players=2),
        ["6-6 2-3 0-2 4-5 2-2 5-6 1-1", "2-6 0-3 2-5 2-4 1-3 1-4 0-0"],
    )
    state = moves_of(
        state,
        Move.lead(T("6-6")),
        Move.single(T("2-6"), E),
        Move.single(T("2-3"), E),
        Move.single(T("0-3"), E),
        Move.single(T("0-2"), E),
        Move.single(T("2-5"), E),
        Move.single(T("4-5"), E),
        Move.single(T("2-4"), E),
    )
    assert state.turn == 0
    assert state.deal.layout.values[:2] == [6, 2]
    assert decide(state, "normal") == Move.single(T("2-2"), E)


def latvian_two_doubles() -> MatchState:
    # Lead 1-1 opens four ends showing 1; north becomes 4 and south 6. Seat 1 holds
    # 4-4 and 6-6 and nothing else that fits: it may lay either double or both at once.
    state = match(
        Rules.make("latvian", players=2, deals=1),
        ["1-1 1-6 0-3 2-3 0-5 3-5 5-5", "1-4 4-4 6-6 2-5 2-2 3-3 0-2"],
    )
    return moves_of(state, Move.lead(T("1-1")), Move.single(T("1-4"), N), Move.single(T("1-6"), S))


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_latvian_lays_two_doubles_at_once(level: str):
    state = latvian_two_doubles()
    assert state.turn == 1
    move = decide(state, level)
    assert sorted(move.tiles) == [T("4-4"), T("6-6")]


def latvian_after_the_lead(second_hand: str) -> MatchState:
    """Latvian, two players: seat 0 leads 1-1 (four ends showing 1); seat 1 to play."""
    state = match(
        Rules.make("latvian", players=2, deals=1),
        ["1-1 0-0 0-1 1-2 1-3 1-4 6-6", second_hand],
    )
    return moves_of(state, Move.lead(T("1-1")))


def test_normal_closes_an_end_it_cannot_follow():
    # 1-5 is seat 1's only tile with a 1; it holds no other 5, and six 5s are unseen:
    # laid face up, the 5 would be the opponent's; face down it closes the end.
    state = latvian_after_the_lead("1-5 0-2 0-3 2-3 2-4 3-4 0-4")
    move = decide(state, "normal")
    assert move.tile == T("1-5")
    assert move.placements[0].closed


def test_normal_keeps_open_an_end_it_can_follow():
    # The same, but seat 1 also holds 5-6: the 5 end is worth keeping open.
    state = latvian_after_the_lead("1-5 5-6 0-2 0-3 2-3 2-4 3-4")
    move = decide(state, "normal")
    assert move.tile == T("1-5")
    assert not move.placements[0].closed


def passed_on_four_and_six() -> MatchState:
    """Teams; seat 1 passed while the ends showed 6 and 4; seat 0 to play on 5 | 6."""
    hands = [
        "1-4 4-5 3-6 0-0 0-1 1-1 0-2",
        "1-2 1-3 0-3 2-2 2-3 3-3 1-5",
        "6-6 5-6 0-4 2-5 0-6 2-6 3-4",
        "1-6 4-6 5-5 0-5 3-5 2-4 4-4",
    ]
    state = match(Rules.make("block", players=4, teams=True), hands)
    return moves_of(
        state,
        Move.lead(T("6-6")),  # seat 2
        Move.single(T("1-6"), E),  # seat 3: 6 | 1
        Move.single(T("1-4"), E),  # seat 0: 6 | 4, and seat 1 passes
        Move.single(T("5-6"), W),  # seat 2: 5 | 4
        Move.single(T("4-6"), E),  # seat 3: 5 | 6
    )


def test_normal_plays_the_numbers_the_next_opponent_passed_on():
    # 4-5 west leaves 4 | 6, both numbers seat 1 lacks; 3-6 east (as heavy) leaves 5 | 3.
    state = passed_on_four_and_six()
    assert state.turn == 0
    assert any(type(e).__name__ == "Passed" and e.seat == 1 for e in state.deal.history)
    assert {str(m) for m in state.legal_moves()} == {"4-5 west", "3-6 east"}
    assert decide(state, "normal") == Move.single(T("4-5"), W)


def test_hard_is_deterministic_for_a_seed_under_its_work_budget():
    """Same view, seed and budget: the same values for every candidate, not just the
    same move (the deadline is far off, so only the budget stops the search)."""
    state = match(
        Rules.make("draw", players=3),
        ["6-6 5-6 0-4 2-5 0-6", "1-6 4-6 5-5 0-5 3-5", "1-4 4-5 3-6 0-0 0-1"],
    )
    state = moves_of(state, Move.lead(T("6-6")), Move.single(T("1-6"), E))
    assert len(state.legal_moves()) >= 3
    know = read_view(view(state, state.turn))
    settings = SearchSettings(work=30_000, worlds=10_000, seconds=600.0)
    for seed in range(3):
        first = rank_moves(know, random.Random(seed), settings)
        again = rank_moves(know, random.Random(seed), settings)
        assert first == again
    assert rank_moves(know, random.Random(0), settings) != rank_moves(
        know, random.Random(1), settings
    )
