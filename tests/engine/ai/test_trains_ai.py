"""Mexican Train's AI levels: legal moves, no peeking, determinism, what the normal
level prefers, the hard level's sampled worlds, and normal against easy."""

from __future__ import annotations

import random
import statistics
from typing import Any

import pytest

from bot.engine import MatchState, Move, Rules, Tile, legal_moves, play, start_match, view
from bot.engine.ai import LEVELS, SearchSettings, choose_move, trains_search
from bot.engine.ai.trains_normal import longest_chain, normal_train_move, read_trains
from bot.engine.ai.trains_search import (
    Planner,
    build_train_deal,
    chain_path,
    quick_move,
    rank_train_moves,
    sample_hands,
)
from bot.engine.deal import deal_tiles
from bot.engine.errors import DominoError
from bot.engine.mexican import TrainDeal
from bot.engine.tiles import PIPS, SUIT_MASKS, full_set, mask_of, tile
from bot.engine.trains import MEXICAN

SMALL = SearchSettings(work=3_000, worlds=6, seconds=60.0)
"""A small search, far from the deadline: the work budget alone decides."""

TABLES: list[dict[str, Any]] = [
    {"players": 2, "set": 9},
    {"players": 3, "set": 12},
    {"players": 4, "set": 9},
    {"players": 5, "set": 12},
    {"players": 6, "set": 9},
    {"players": 8, "set": 12},
]


def T(text: str) -> Tile:
    return Tile.parse(text)


def table_id(table: dict[str, Any]) -> str:
    return f"{table['players']}p-d{table['set']}"


def position(table: dict[str, Any], seed: int) -> MatchState | None:
    """A round dealt from ``seed`` after some random moves, or ``None`` if it is over."""
    rules = Rules.make("mexican", **table)
    rng = random.Random(seed)
    hands, stock = deal_tiles(rules, rng)
    state = start_match(rules, hands, stock)
    for _ in range(rng.randrange(0, 6 * rules.players)):
        if state.deal.over:
            return None
        state = play(state, rng.choice(legal_moves(state)))
    return None if state.deal.over else state


# -- every level, legal moves -----------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_every_level_returns_a_legal_move(table: dict[str, Any], level: str):
    checked = 0
    for seed in range(40):
        state = position(table, seed)
        if state is None:
            continue
        seat = state.turn
        move = choose_move(view(state, seat), level, random.Random(seed), SMALL)
        assert move in legal_moves(state), f"seed {seed}: {move}"
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_round_plays_to_its_end(level: str):
    rules = Rules.make("mexican", players=4, set=9)
    rng = random.Random(level)
    hands, stock = deal_tiles(rules, rng)
    state = start_match(rules, hands, stock)
    while not state.deal.over:
        seat = state.turn
        move = choose_move(view(state, seat), level, rng, SMALL)
        assert move in legal_moves(state)
        state = play(state, move, seat)
    assert state.deal.result is not None


# -- no peeking -------------------------------------------------------------------------


def replay(rules: Rules, hands: list[list[Tile]], stock: list[Tile], moves: list[Move]):
    try:
        state = start_match(rules, hands, stock)
        for move in moves:
            state = play(state, move)
    except DominoError:
        return None
    return state


def twin_states(table: dict[str, Any], seed: int) -> tuple[MatchState, MatchState, int] | None:
    """Two states the seat to move cannot tell apart, with the hidden tiles split
    differently (another hand's tile swapped with a third hand's or an undrawn one)."""
    rules = Rules.make("mexican", **table)
    rng = random.Random(seed)
    hands, stock = deal_tiles(rules, rng)
    state = start_match(rules, hands, stock)
    moves = []
    for _ in range(rng.randrange(2, 4 * rules.players)):
        if state.deal.over:
            return None
        move = rng.choice(legal_moves(state))
        moves.append(move)
        state = play(state, move)
    if state.deal.over:
        return None
    seat = state.turn
    seen = view(state, seat)
    held = [set(state.deal.hand(s)) for s in range(rules.players)]
    undrawn = list(state.deal.boneyard)
    for _ in range(100):
        a = rng.choice([s for s in range(rules.players) if s != seat and held[s]])
        x = rng.choice(sorted(held[a]))
        others = [s for s in range(rules.players) if s not in (seat, a) and held[s]]
        b = rng.choice([*others, -1] if undrawn else others) if others or undrawn else None
        if b is None:
            return None
        y = rng.choice(sorted(held[b])) if b >= 0 else rng.choice(undrawn)
        new_hands = [[y if t == x else x if t == y else t for t in h] for h in hands]
        new_stock = [y if t == x else x if t == y else t for t in stock]
        twin = replay(rules, new_hands, new_stock, moves)
        if twin is None or twin.deal.over or twin.turn != seat:
            continue
        if view(twin, seat) == seen and twin.deal.hands != state.deal.hands:
            return state, twin, seat
    return None


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    "table", [{"players": 3, "set": 9}, {"players": 6, "set": 12}], ids=table_id
)
def test_hidden_tiles_do_not_change_the_decision(table: dict[str, Any], level: str):
    found = 0
    for seed in range(300):
        twins = twin_states(table, seed)
        if twins is None:
            continue
        state, twin, seat = twins
        if len(legal_moves(state)) < 2:
            continue
        found += 1
        a = choose_move(view(state, seat), level, random.Random(seed), SMALL)
        b = choose_move(view(twin, seat), level, random.Random(seed), SMALL)
        assert a == b, f"seed {seed}: {a} with one split of the hidden tiles, {b} with another"
        if found == 5:
            break
    assert found >= 3, "too few positions with a choice were built"


def test_the_hard_level_is_deterministic_under_its_budget():
    checked = 0
    for seed in range(30):
        state = position({"players": 5, "set": 12}, seed)
        if state is None or len(legal_moves(state)) < 3:
            continue
        know = read_trains(view(state, state.turn))
        first = rank_train_moves(know, random.Random(seed), SMALL)
        again = rank_train_moves(know, random.Random(seed), SMALL)
        assert first == again
        checked += 1
        if checked == 4:
            break
    assert checked == 4


# -- what the seat knows ------------------------------------------------------------------


@pytest.mark.parametrize(
    "table", [{"players": 3, "set": 9}, {"players": 8, "set": 12}], ids=table_id
)
def test_what_a_seat_lacks_is_never_in_its_hand(table: dict[str, Any]):
    """Over whole rounds, from every seat's view: the tiles a seat is said to lack are
    not in its real hand, and the unseen tiles are exactly the others' and the boneyard."""
    rules = Rules.make("mexican", **table)
    lacking = 0
    for seed in range(4):
        rng = random.Random(seed)
        hands, stock = deal_tiles(rules, rng)
        state = start_match(rules, hands, stock)
        while not state.deal.over:
            seat = state.turn
            know = read_trains(view(state, seat))
            real = state.deal.hands
            hidden = mask_of(state.deal.boneyard)
            for s in range(rules.players):
                if s != seat:
                    hidden |= real[s]
                    assert not real[s] & know.lacks[s], f"seed {seed}: seat {s}"
                    lacking += bool(know.lacks[s])
            assert know.unseen == hidden
            state = play(state, rng.choice(legal_moves(state)), seat)
    assert lacking > 0


def test_sampled_worlds_fit_the_public_facts():
    for seed in range(20):
        state = position({"players": 6, "set": 12}, seed)
        if state is None:
            continue
        seat = state.turn
        know = read_trains(view(state, seat))
        rng = random.Random(seed)
        for _ in range(5):
            hands, boneyard = sample_hands(know, rng)
            assert hands[seat] == know.hand
            assert [h.bit_count() for h in hands] == list(know.hand_sizes)
            assert len(boneyard) == know.boneyard_size
            together = mask_of(boneyard)
            for s, h in enumerate(hands):
                assert not together & h
                together |= h
                if s != seat:
                    assert not h & know.lacks[s]
            assert together == know.unseen | know.hand


def test_the_real_hidden_tiles_rebuild_a_round_that_plays_the_same():
    for seed in range(12):
        state = position({"players": 4, "set": 12}, seed)
        if state is None:
            continue
        real = state.deal
        assert isinstance(real, TrainDeal)
        know = read_trains(view(state, real.turn))
        rebuilt = build_train_deal(know, list(real.hands), list(real.boneyard))
        copy = real.copy()
        rng = random.Random(seed)
        while copy.end is None:
            assert rebuilt.legal_moves() == copy.legal_moves()
            assert rebuilt.turn == copy.turn
            assert rebuilt.station.ends == copy.station.ends
            move = rng.choice(copy.legal_moves())
            copy.push(move)
            rebuilt.push(move)
        assert rebuilt.end == copy.end
        assert rebuilt.result is not None
        assert copy.result is not None
        assert rebuilt.result.score == copy.result.score


# -- the playout policy ---------------------------------------------------------------------


def test_a_chain_path_is_a_longest_chain():
    rng = random.Random(7)
    tiles = [t for t in full_set(12) if t != tile(12, 12)]
    for _ in range(40):
        hand = mask_of(rng.sample(tiles, rng.randrange(1, 16)))
        end = rng.randrange(13)
        path, nodes = chain_path(end, hand)
        assert nodes >= 0
        at = end
        for t in path:
            assert hand >> t & 1
            assert SUIT_MASKS[at] >> t & 1, f"{t} does not follow {at}"
            at = PIPS[t] - at
        assert len(set(path)) == len(path)
        assert (len(path), sum(PIPS[t] for t in path)) == longest_chain(end, hand, {})


def test_the_plans_stay_chains_of_the_hands_through_playouts():
    """Over whole playouts of sampled worlds, a seat's plan at its turn is a chain of
    tiles in its hand from its own train's end."""
    checked = 0
    for seed in range(6):
        state = position({"players": 5, "set": 12}, seed)
        if state is None:
            continue
        know = read_trains(view(state, state.turn))
        rng = random.Random(seed)
        hands, boneyard = sample_hands(know, rng)
        deal = build_train_deal(know, hands, boneyard)
        planner = Planner(deal)
        while deal.end is None:
            seat = deal.turn
            chain = planner.plan(deal, seat)
            at = deal.station.ends[seat]
            for t in chain:
                assert deal.hands[seat] >> t & 1
                assert SUIT_MASKS[at] >> t & 1
                at = PIPS[t] - at
            checked += len(chain)
            deal.push(planner.choose(deal, deal.legal_moves()))
    assert checked > 50


def test_the_playout_policy_keeps_its_chain():
    # as the normal level: lay the extra 12-3 on the Mexican train, keep 12-5 5-9
    state = table_of(["12-5 5-9 12-3", "0-1 0-2 0-3", "1-3 1-4 1-5"], "2-4 2-5 2-6")
    deal = state.deal
    assert isinstance(deal, TrainDeal)
    assert quick_move(deal, deal.legal_moves()) == Move.on_train(T("12-3"), MEXICAN)


def test_a_round_stopped_at_the_horizon_credits_each_hand_with_its_chain():
    state = table_of(["12-5 5-9 12-3", "0-1 0-2 0-3", "12-4 4-4 1-5"], "2-4 2-5 2-6")
    deal = state.deal
    assert isinstance(deal, TrainDeal)
    leaf = trains_search.LEAF_CHAIN
    # chains from 12: seat 0 12-5 5-9 (31 pips), seat 1 none, seat 2 12-4 4-4 (24 pips)
    own = 17 + 14 + 15 - leaf * 31
    others = [1 + 2 + 3, 16 + 8 + 6 - leaf * 24]
    value = trains_search.round_value(deal, 0, Planner(deal))
    assert value == pytest.approx(sum(others) / 2 - own)
    assert trains_search.round_value(deal, 0) == pytest.approx((6 + 30) / 2 - 46)


def test_the_search_keeps_the_normal_choice_unless_clearly_beaten(
    monkeypatch: pytest.MonkeyPatch,
):
    """With an unreachable margin (``PRIOR_Z``) the search plays the normal level's move;
    with none it sometimes plays another (so the prior decides those)."""
    positions = []
    for seed in range(40):
        state = position({"players": 4, "set": 12}, seed)
        if state is not None and len(legal_moves(state)) >= 3:
            positions.append((seed, read_trains(view(state, state.turn))))
    assert len(positions) >= 10
    positions = positions[:12]
    monkeypatch.setattr(trains_search, "PRIOR_Z", 1e9)
    for seed, know in positions:
        ranked = rank_train_moves(know, random.Random(seed), SMALL)
        assert ranked[0][0] == normal_train_move(know), f"seed {seed}"
    monkeypatch.setattr(trains_search, "PRIOR_Z", 0.0)
    other = sum(
        rank_train_moves(know, random.Random(seed), SMALL)[0][0] != normal_train_move(know)
        for seed, know in positions
    )
    assert other > 0


# -- the normal level's preferences -------------------------------------------------------


def table_of(hands: list[str], stock: str, players: int = 3) -> MatchState:
    rules = Rules.make("mexican", players=players, hand=len(hands[0].split()))
    dealt = [[T(t) for t in h.split()] for h in hands]
    used = {t for h in dealt for t in h} | {tile(12, 12)}
    first = [T(t) for t in stock.split()]
    rest = [t for t in full_set(12) if t not in used and t not in first]
    return start_match(rules, dealt, first + rest)


def test_the_longest_chain_runs_through_the_hand():
    hand = mask_of(T(t) for t in ["12-5", "5-9", "9-3", "3-3", "12-7", "1-2"])
    assert longest_chain(12, hand, {}) == (4, 17 + 14 + 12 + 6)
    assert longest_chain(4, hand, {}) == (0, 0)


def test_normal_keeps_its_chain_and_lays_an_extra_on_the_mexican_train():
    # Seat 0: 12-5 5-9 chain from its train's 12; 12-3 is an extra. Own train closed:
    # lay the extra on the Mexican train, keep 12-5 for the own train.
    state = table_of(["12-5 5-9 12-3", "0-1 0-2 0-3", "1-3 1-4 1-5"], "2-4 2-5 2-6")
    move = choose_move(view(state, 0), "normal", random.Random(1))
    assert move == Move.on_train(T("12-3"), MEXICAN)


def test_normal_lays_a_double_it_can_follow():
    # Seat 0 lays 12-6; seats 1 and 2 hold no 12, draw and pass. Seat 0 may lay 6-6
    # (and move again: 6-2 on it) or 6-2: the double first.
    state = table_of(["12-6 6-6 6-2 0-9", "0-1 0-2 0-3 0-4", "1-3 1-4 1-5 1-6"], "2-4 2-5")
    state = play(state, Move.on_train(T("12-6"), 0))
    assert state.turn == 0
    assert set(legal_moves(state)) == {Move.on_train(T("6-6"), 0), Move.on_train(T("6-2"), 0)}
    move = choose_move(view(state, 0), "normal", random.Random(1))
    assert move == Move.on_train(T("6-6"), 0)
    state = play(state, move)
    assert choose_move(view(state, 0), "normal", random.Random(1)) == Move.on_train(T("6-2"), 0)


def test_normal_does_not_open_a_double_it_cannot_follow():
    # Seat 0 lays 12-9 on the Mexican train; seats 1 and 2 hold no 12 nor 9. Then 9-9 on
    # the Mexican train (no 9 to follow it) or 12-1: 12-1, though lighter.
    state = table_of(["12-9 9-9 12-1 7-8", "0-1 0-2 0-3 0-4", "1-3 1-4 1-5 1-6"], "2-4 2-5")
    state = play(state, Move.on_train(T("12-9"), MEXICAN))
    assert state.turn == 0
    # (12-1 may go on any train: seats 1 and 2 put their markers out)
    assert Move.on_train(T("9-9"), MEXICAN) in legal_moves(state)
    assert {m.tile for m in legal_moves(state)} == {T("9-9"), T("12-1")}
    assert choose_move(view(state, 0), "normal", random.Random(1)).tile == T("12-1")


# -- strength ------------------------------------------------------------------------------


def test_normal_beats_easy_over_duplicate_rounds():
    """One normal seat at a table of easy seats, rotating through every seat: it ends
    rounds with fewer pips than the others (deterministic seeds; the benchmark measures
    the size of the gap)."""
    rules = Rules.make("mexican", players=4, set=9)
    margins = []
    for deal in range(6):
        hands, stock = deal_tiles(rules, random.Random(f"deal/{deal}"))
        for normal_seat in range(rules.players):
            rng = random.Random(f"{deal}/{normal_seat}")
            state = start_match(rules, hands, stock)
            while not state.deal.over:
                seat = state.turn
                level = "normal" if seat == normal_seat else "easy"
                state = play(state, choose_move(view(state, seat), level, rng), seat)
            result = state.deal.result
            assert result is not None
            pips = result.score
            others = (sum(pips) - pips[normal_seat]) / (len(pips) - 1)
            margins.append(pips[normal_seat] - others)
    assert statistics.fmean(margins) < -3
