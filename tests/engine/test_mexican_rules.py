"""Mexican Train (RULES.md#mexican-train): the worked examples, and properties over
random matches of 2–8 players on both sets."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from bot.engine import (
    MEXICAN,
    DealEnd,
    MatchState,
    Move,
    Passed,
    Played,
    Rules,
    RulesError,
    Tile,
    full_set,
    new_match,
    next_deal,
    play,
    start_match,
    view,
)
from bot.engine.mexican import TrainDeal
from bot.engine.scoring import score_deal
from bot.engine.tiles import tile
from bot.engine.trains import NO_DOUBLE


def T(text: str) -> Tile:
    return Tile.parse(text)


def rigged(players: int, hand: int, hands: list[str], stock_first: str = "") -> MatchState:
    """Round 1 on double-12 (engine 12-12) with these hands; the stock starts with
    ``stock_first``, the rest in set order."""
    rules = Rules.make("mexican", players=players, hand=hand)
    dealt = [[T(x) for x in h.split()] for h in hands]
    first = [T(x) for x in stock_first.split()]
    used = {t for h in dealt for t in h} | set(first) | {tile(12, 12)}
    stock = first + [t for t in full_set(12) if t not in used]
    return start_match(rules, dealt, stock)


def station(state: MatchState) -> TrainDeal:
    deal = state.deal
    assert isinstance(deal, TrainDeal)
    return deal


def on(text: str, train: int) -> Move:
    return Move.on_train(T(text), train)


# -- the worked examples --------------------------------------------------------------


def test_three_players_on_double_12_deal_15_each_and_the_engine_goes_down() -> None:
    state = new_match(Rules.make("mexican", players=3), random.Random(7))
    deal = station(state)
    assert deal.engine == tile(12, 12)
    assert [len(h) for h in deal.dealt] == [15, 15, 15]
    assert len(deal.stock) == 90 - 45 == 45
    assert tile(12, 12) not in {*deal.stock, *(t for h in deal.dealt for t in h)}
    assert deal.leader == 0
    while not state.deal.over:
        state = play(state, state.legal_moves()[0])
    state = next_deal(state, random.Random(8))
    second = station(state)
    assert (second.engine, second.leader, second.number) == (tile(11, 11), 1, 2)
    assert tile(12, 12) in {*second.stock, *(t for h in second.dealt for t in h)}


def test_the_rules_defaults_and_limits() -> None:
    assert Rules.make("mexican").set == 12
    assert Rules.make("mexican").deals == 13
    assert Rules.make("mexican", set=9).deals == 10
    assert [Rules.make("mexican", players=p).hand for p in (2, 4, 5, 6, 7, 8)] == [
        15,
        15,
        12,
        12,
        10,
        10,
    ]
    assert [Rules.make("mexican", set=9, players=p).hand for p in (2, 4, 5, 6)] == [10, 10, 8, 8]
    for bad in (
        {"set": 6},
        {"set": 9, "players": 7},
        {"players": 9},
        {"deals": 14},
        {"deals": 0},
        {"teams": True, "players": 4},
        {"layout": "line"},
        {"time_limit": 30},
    ):
        with pytest.raises(RulesError):
            Rules.make("mexican", **bad)


def test_trains_markers_and_a_drawn_tile_that_must_be_laid() -> None:
    state = rigged(
        3,
        5,
        ["12-5 5-5 5-9 12-6 1-1", "0-1 2-3 6-7 9-10 8-8", "0-2 1-3 3-4 8-10 0-9"],
        stock_first="3-12 4-4",
    )
    assert set(state.legal_moves()) == {
        on("12-5", 0),
        on("12-5", MEXICAN),
        on("12-6", 0),
        on("12-6", MEXICAN),
    }
    state = play(state, on("12-5", 0))
    deal = station(state)
    assert deal.station.ends[0] == 5
    # Seat 1 has no 12 and seat 0's train has no marker: it draws 3-12 and must lay it.
    assert (deal.turn, deal.forced) == (1, T("3-12"))
    assert set(state.legal_moves()) == {on("3-12", 1), on("3-12", MEXICAN)}
    state = play(state, on("12-3", 1))
    # Seat 2 has no 12, draws 4-4, which matches nothing: its marker goes out.
    deal = station(state)
    assert deal.station.markers == [False, False, True]
    assert deal.turn == 0
    assert on("12-6", 2) in state.legal_moves()  # seat 2's train is open to seat 0 now
    seen = view(state, 1)
    assert seen.station is not None
    assert seen.station.train(2).marker


def test_a_double_is_satisfied_by_its_layer_at_once() -> None:
    state = rigged(3, 4, ["12-5 5-5 5-9 1-1", "12-3 0-1 2-3 6-7", "12-4 0-2 1-3 8-10"])
    for move in (on("12-5", 0), on("12-3", 1), on("12-4", 2)):
        state = play(state, move)
    state = play(state, on("5-5", 0))
    deal = station(state)
    assert (deal.turn, deal.station.unsatisfied) == (0, 0)  # seat 0 moves again
    assert state.legal_moves() == [on("5-9", 0)]  # only a 5, on the double
    state = play(state, on("5-9", 0))
    deal = station(state)
    assert (deal.turn, deal.station.ends[0], deal.station.unsatisfied) == (1, 9, NO_DOUBLE)


def test_a_double_its_layer_cannot_satisfy_passes_to_the_next_seat() -> None:
    state = rigged(3, 3, ["12-5 5-5 1-1", "12-3 5-8 3-6", "12-4 0-2 1-3"], stock_first="6-2")
    for move in (on("12-5", 0), on("12-3", 1), on("12-4", 2), on("5-5", 0)):
        state = play(state, move)
    deal = station(state)
    # Seat 0 held no 5, drew 6-2: marker on its train; seat 1 must lay a 5 on the 5-5,
    # although its 3-6 fits its own train.
    assert deal.station.markers[0]
    assert deal.turn == 1
    assert state.legal_moves() == [on("5-8", 0)]
    state = play(state, on("5-8", 0))
    deal = station(state)
    assert deal.station.unsatisfied == NO_DOUBLE
    laid = next(i for i, e in enumerate(deal.history) if e == Played(1, on("5-8", 0)))
    assert deal.history[laid + 1].seat == 2  # the satisfying tile ended seat 1's turn


def test_going_out_on_an_unsatisfied_double_ends_the_round() -> None:
    state = rigged(3, 2, ["12-9 12-11", "12-3 9-9", "12-4 3-4"], stock_first="0-0")
    for move in (on("12-9", 0), on("12-3", MEXICAN), on("12-4", 2)):
        state = play(state, move)
    deal = station(state)
    assert deal.station.markers[0]  # seat 0 could not lay, drew 0-0: marker
    state = play(state, on("9-9", 0))
    result = state.deal.result
    assert result is not None
    assert result.end is DealEnd.DOMINO
    assert (result.winners, result.pips, result.score) == ((1,), (23, 0, 7), (23, 0, 7))
    assert state.totals == (23, 0, 7)


def test_round_end_scoring_of_the_worked_example() -> None:
    rules = Rules.make("mexican", players=3)
    hands = [(T("12-11"), T("0-0")), (), (T("3-4"),)]
    result = score_deal(rules, DealEnd.DOMINO, hands, out_seat=1)
    assert (result.winners, result.score) == ((1,), (23, 0, 7))
    blocked = score_deal(rules, DealEnd.BLOCKED, [(T("1-2"),), (T("0-3"),), (T("5-5"),)])
    assert (blocked.winners, blocked.score) == ((), (3, 3, 10))  # a tie for lowest


def test_a_view_shows_every_train_and_marker_but_no_other_hand() -> None:
    state = rigged(
        3,
        5,
        ["12-5 5-5 5-9 12-6 1-1", "0-1 2-3 6-7 9-10 8-8", "0-2 1-3 3-4 8-10 0-9"],
        stock_first="3-12 4-4",
    )
    state = play(play(state, on("12-5", 0)), on("12-3", 1))
    deal = station(state)
    for seat in (None, 0, 1, 2):
        seen = view(state, seat)
        assert seen.station is not None
        assert [len(t.cars) for t in seen.station.trains] == [1, 1, 0, 0]
        assert [t.marker for t in seen.station.trains] == [False, False, True, False]
        assert seen.hand == (deal.hand(seat) if seat is not None else ())
        draws = [e for e in seen.history if type(e).__name__ == "SeenDraw"]
        assert [(d.seat, d.count) for d in draws] == [(1, 1), (2, 1)]
        for d in draws:
            assert (d.tiles is not None) == (d.seat == seat)


# -- properties over random matches ------------------------------------------------------


def check_round(deal: TrainDeal) -> None:
    """Every invariant of a round at one moment."""
    st_ = deal.station
    n = deal.n
    # Tiles are conserved: hands, trains, boneyard and the engine are the set, once each.
    held = [t for h in range(n) for t in deal.hand(h)]
    laid = [car.tile for train in st_.cars for car in train]
    left = list(deal.stock[deal.drawn :])
    every = Counter([*held, *laid, *left, deal.engine])
    assert every == Counter(full_set(deal.rules.set))
    # Each train is a chain from the engine.
    for train in st_.cars:
        end = st_.engine
        for car in train:
            assert car.inner == end
            assert car.tile.has(end)
            end = car.outer
    # At most one unsatisfied double: only the station's waiting train ends in a double.
    ending_double = [i for i, train in enumerate(st_.cars) if train and train[-1].tile.is_double]
    if deal.over:
        assert len(ending_double) <= 1
    else:
        waiting = st_.unsatisfied
        assert ending_double == ([] if waiting == NO_DOUBLE else [waiting % (n + 1)])
    # A marker lies only on a train whose owner passed since last laying on it.
    for seat in range(n):
        last = None
        for e in deal.history:
            if type(e) is Passed and e.seat == seat:
                last = "passed"
            elif type(e) is Played and e.seat == seat and e.move.train == seat:
                last = "laid"
        assert st_.markers[seat] == (last == "passed")
    # Every legal move lays a matching tile on a train open to the mover.
    for move in deal.legal_moves():
        train = move.train
        assert train is not None
        assert move.tile.has(st_.ends[train])
        if st_.unsatisfied != NO_DOUBLE:
            assert train == st_.unsatisfied
        else:
            assert train in (deal.turn, MEXICAN) or st_.markers[train]
        if deal.forced is not None:
            assert move.tile == deal.forced


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    top=st.sampled_from([9, 12]),
    players=st.integers(2, 8),
    rounds=st.integers(1, 13),
)
def test_random_matches_keep_every_rule(seed: int, top: int, players: int, rounds: int) -> None:
    if top == 9 and players > 6:
        players = 6
    rounds = min(rounds, top + 1)
    rules = Rules.make("mexican", set=top, players=players, deals=rounds)
    rng = random.Random(seed)
    state = new_match(rules, rng)
    while True:
        while not state.deal.over:
            deal = station(state)
            check_round(deal)
            state = play(state, rng.choice(state.legal_moves()))
        check_round(station(state))
        if state.over:
            break
        state = next_deal(state, rng)
    note(str(state.totals))
    results = state.results
    assert len(results) == rounds
    for seat in range(players):
        assert state.totals[seat] == sum(r.pips[seat] for r in results)
    low = min(state.totals)
    assert state.winners == tuple(s for s in range(players) if state.totals[s] == low)
    for r in results:
        if r.end is DealEnd.DOMINO:
            assert r.out_seat is not None
            assert r.pips[r.out_seat] == 0
