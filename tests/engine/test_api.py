"""The engine API the rest of the project lives on: states as values, errors, views, JSON."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from bot.engine import (
    DealNotOverError,
    DealOverError,
    End,
    IllegalMoveError,
    MatchOverError,
    Move,
    NotYourTurnError,
    Rules,
    Tile,
    deal_tiles,
    full_set,
    legal_moves,
    new_match,
    next_deal,
    play,
    start_match,
    state_from_json,
    state_to_json,
    view,
)
from bot.engine.match import MatchState


def T(text: str) -> Tile:
    return Tile.parse(text)


def tiles_within(obj: object) -> set[Tile]:
    """Every tile anywhere inside a view (dataclasses, tuples, dicts)."""
    if isinstance(obj, Tile):
        return {obj}
    if isinstance(obj, Move):
        return tiles_within(obj.placements)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        fields = [getattr(obj, f.name) for f in dataclasses.fields(obj)]
        return set().union(*(tiles_within(x) for x in fields))
    if isinstance(obj, dict):
        return tiles_within(list(obj.keys())) | tiles_within(list(obj.values()))
    if isinstance(obj, (tuple, list, set, frozenset)):
        return set().union(*(tiles_within(x) for x in obj)) if obj else set()
    return set()


def finish_deal(state: MatchState, rng: random.Random) -> MatchState:
    while not state.deal.over:
        state = play(state, rng.choice(legal_moves(state)))
    return state


def test_play_returns_a_new_state_and_leaves_the_old_one_untouched():
    state = new_match(Rules.make("draw", players=3), random.Random(1))
    before = json.dumps(state_to_json(state))
    move = legal_moves(state)[0]
    after = play(state, move)
    assert after is not state
    assert json.dumps(state_to_json(state)) == before
    assert json.dumps(state_to_json(after)) != before


def test_an_illegal_move_raises_and_changes_nothing():
    state = new_match(Rules.make("block"), random.Random(2))
    before = json.dumps(state_to_json(state))
    other = 1 - state.turn
    foreign = Move.lead(state.deal.hand(other)[0])
    with pytest.raises(IllegalMoveError, match="does not hold"):
        play(state, foreign)
    assert json.dumps(state_to_json(state)) == before


def test_a_move_out_of_turn_raises_not_your_turn():
    state = new_match(Rules.make("block"), random.Random(3))
    with pytest.raises(NotYourTurnError) as caught:
        play(state, legal_moves(state)[0], seat=1 - state.turn)
    assert caught.value.turn == state.turn


def test_a_tile_on_an_end_it_does_not_fit_names_the_end_and_its_number():
    rules = Rules.make("block", hand=2)
    hands = [[T("6-6"), T("4-2")], [T("6-1"), T("0-0")]]
    stock = [t for t in full_set(6) if t not in {*hands[0], *hands[1]}]
    state = play(start_match(rules, hands, stock), Move.lead(T("6-6")))
    with pytest.raises(IllegalMoveError, match=r"0-0 does not fit east \(shows 6\)"):
        play(state, Move.single(T("0-0"), End.EAST))
    with pytest.raises(IllegalMoveError, match="no north end"):
        play(state, Move.single(T("6-1"), End.NORTH))


def test_moves_after_the_deal_and_deals_after_the_match_are_refused():
    rng = random.Random(4)
    state = finish_deal(new_match(Rules.make("block", scoring="single"), rng), rng)
    assert state.over
    with pytest.raises(DealOverError):
        play(state, Move.lead(T("6-6")))
    with pytest.raises(MatchOverError):
        next_deal(state, rng)


def test_next_deal_waits_for_the_current_deal_to_end():
    rng = random.Random(5)
    state = new_match(Rules.make("draw"), rng)
    with pytest.raises(DealNotOverError):
        next_deal(state, rng)


def test_same_seed_same_match():
    def run(seed: int) -> str:
        rng = random.Random(seed)
        state = new_match(Rules.make("allfives", players=4, teams=True), rng)
        while not state.over:
            state = finish_deal(state, rng)
            if not state.over:
                state = next_deal(state, rng)
        return json.dumps(state_to_json(state))

    assert run(11) == run(11)
    assert run(11) != run(12)


def test_latvian_deal_without_a_double_is_dealt_again():
    class Rigged(random.Random):
        """Deals the doubles into the stock first, then shuffles normally."""

        calls = 0

        def shuffle(self, x):  # type: ignore[override]
            Rigged.calls += 1
            if Rigged.calls == 1:
                x.sort(key=lambda t: (t.is_double, t))
            else:
                super().shuffle(x)

    rules = Rules.make("latvian", players=2)
    hands, _stock = deal_tiles(rules, Rigged(1))
    assert Rigged.calls >= 2
    assert any(t.is_double for h in hands for t in h)


def test_allfives_first_leader_is_drawn_and_the_winner_leads_the_next_deal():
    rng = random.Random(6)
    rules = Rules.make("allfives", target=1000)
    leaders = set()
    for seed in range(20):
        leaders.add(new_match(rules, random.Random(seed)).deal.leader)
    assert leaders == {0, 1}
    state = finish_deal(new_match(rules, rng), rng)
    while not state.deal.result or not state.deal.result.winners:
        state = finish_deal(next_deal(state, rng), rng)
    winner = state.deal.result.out_seat
    if winner is None:
        winner = state.deal.result.winners[0]
    assert next_deal(state, rng).deal.leader == winner


def test_state_json_round_trips_in_the_middle_of_a_deal():
    rng = random.Random(7)
    state = new_match(Rules.make("latvian", players=3), rng)
    for _ in range(5):
        if state.deal.over:
            break
        state = play(state, rng.choice(legal_moves(state)))
    doc = json.loads(json.dumps(state_to_json(state)))
    again = state_from_json(doc)
    assert state_to_json(again) == doc
    assert again.turn == state.turn
    assert legal_moves(again) == legal_moves(state)
    assert [again.deal.hand(s) for s in range(3)] == [state.deal.hand(s) for s in range(3)]


def test_a_view_holds_its_own_hand_and_no_other():
    state = new_match(Rules.make("draw", players=4), random.Random(8))
    seen = view(state, 1)
    assert seen.hand == state.deal.hand(1)
    others = {t for s in (0, 2, 3) for t in state.deal.hand(s)}
    assert tiles_within(seen) & others == set()
    assert set(seen.hand) <= tiles_within(seen)
    assert seen.hand_sizes == (5, 5, 5, 5)
    assert seen.legal_moves == (() if state.turn != 1 else tuple(legal_moves(state)))


def test_face_down_tiles_are_hidden_from_other_seats_until_the_deal_ends():
    rules = Rules.make("latvian", hand=4)
    hands = [[T("1-1"), T("1-6"), T("0-3"), T("0-5")], [T("1-4"), T("4-2"), T("6-6"), T("2-5")]]
    stock = [t for t in full_set(6) if t not in {*hands[0], *hands[1]}]
    state = play(start_match(rules, hands, stock), Move.lead(T("1-1")))
    state = play(state, Move.single(T("1-4"), End.NORTH, closed=True))
    mine, theirs = view(state, 1), view(state, 0)
    assert mine.table.arms[End.NORTH][0].tile == T("1-4")
    assert theirs.table.arms[End.NORTH][0].tile is None
    assert theirs.table.arms[End.NORTH][0].closed
    assert theirs.history[-1].placements[0].tile is None  # type: ignore[union-attr]
    assert T("1-4") not in tiles_within(theirs)
    assert T("1-4") in tiles_within(mine)
