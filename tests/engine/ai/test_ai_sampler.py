"""The hard level's guesses at the hidden tiles, and the deals it builds from them.

The sampler must only produce worlds consistent with what is public. The checks
here are written from RULES.md and the brief, independently of the sampler: when
a seat passed or drew while the table showed some numbers, it held no tile with
those numbers at that moment (the tiles it drew before the one that fitted had
none either), so its hand now can carry them only in tiles it drew afterwards.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    Deal,
    Drew,
    MatchState,
    Played,
    Rules,
    Tile,
    full_set,
    legal_moves,
    new_match,
    play,
    view,
)
from bot.engine.ai.determinize import World, build_deal, fixed_groups, sample_world
from bot.engine.ai.knowledge import read_view
from bot.engine.layout import Layout
from bot.engine.tiles import tiles_in

CONFIGS: list[dict[str, Any]] = [
    {"game": "block", "players": 2},
    {"game": "block", "players": 3, "layout": "spinner"},
    {"game": "block", "players": 4, "teams": True},
    {"game": "block", "players": 5, "set": 9},
    {"game": "draw", "players": 2},
    {"game": "draw", "players": 3},
    {"game": "draw", "players": 4, "set": 9, "layout": "spinner"},
    {"game": "draw", "players": 2, "set": 12, "hand": 4},
    {"game": "allfives", "players": 2},
    {"game": "allfives", "players": 4, "teams": True},
    {"game": "latvian", "players": 2},
    {"game": "latvian", "players": 3},
    {"game": "latvian", "players": 4},
]


def position(config: dict[str, Any], seed: int, length: int) -> MatchState:
    """A first deal after up to ``length`` random moves (stops before the deal ends)."""
    rng = random.Random(seed)
    state = new_match(Rules.make(**config), rng)
    for _ in range(length):
        moves = legal_moves(state)
        nxt = play(state, rng.choice(moves))
        if nxt.deal.over:
            break
        state = nxt
    return state


def lacking_rules(deal: Deal) -> list[tuple[int, set[int], int]]:
    """For each pass or draw of the deal: (seat, the numbers the open ends showed, how many
    tiles the seat kept from its later draws). Rebuilt from the real history on a fresh
    layout."""
    layout = Layout(deal.rules.layout, deal.rules.set)
    events = deal.history
    out: list[tuple[int, set[int], int]] = []
    for i, e in enumerate(events):
        if type(e) is Played:
            for p in e.move.placements:
                layout.place(p)
        else:
            showing = {layout.values[end] for end in layout.open_ends()}
            later = 0
            for j in range(i + 1, len(events)):
                f = events[j]
                if type(f) is Drew and f.seat == e.seat:
                    nxt = events[j + 1] if j + 1 < len(events) else None
                    forced = type(nxt) is Played and nxt.seat == e.seat
                    later += len(f.tiles) - forced
            out.append((e.seat, showing, later))
    return out


def hidden_tiles(deal: Deal, seat: int) -> set[Tile]:
    """Face-down tiles laid by seats other than ``seat``."""
    return {
        p.tile
        for e in deal.history
        if type(e) is Played and e.seat != seat
        for p in e.move.placements
        if p.closed
    }


def check_world(state: MatchState, world: World) -> None:
    deal = state.deal
    rules = state.rules
    seat = deal.turn
    know = read_view(view(state, seat))
    # the viewer's hand, the sizes, and every tile exactly once
    assert world.hands[seat] == deal.hands[seat]
    assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in deal.hands]
    on_table = {laid.tile for laid in deal.layout.laid_tiles()}
    visible = on_table - hidden_tiles(deal, seat)
    everything: list[Tile] = [*visible, *world.hidden, *world.stock]
    for h in world.hands:
        everything.extend(tiles_in(h))
    assert sorted(everything) == sorted(full_set(rules.set))
    if rules.draws:
        assert len(world.stock) == deal.boneyard_size
    # passes and draws: numbers lacked then come back only with later draws
    for s, lacked, later in lacking_rules(deal):
        if s != seat:
            carrying = [t for t in tiles_in(world.hands[s]) if t.low in lacked or t.high in lacked]
            assert len(carrying) <= later, (s, lacked, carrying, later)
    # a face-down tile carries the number of the end it closed
    for h, t in zip(know.hidden, world.hidden, strict=True):
        assert t.has(deal.layout.arms[h.end][-1].inner)


def true_world(state: MatchState) -> World:
    """The real hidden tiles, as a world."""
    deal = state.deal
    know = read_view(view(state, deal.turn))
    hidden = [deal.layout.arms[h.end][-1].tile for h in know.hidden]
    stock = list(deal.boneyard) if state.rules.draws else list(deal.stock)
    return World(list(deal.hands), hidden, stock)


SAMPLED_POSITIONS = given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**32 - 1),
    length=st.integers(0, 60),
    sample_seed=st.integers(0, 2**32 - 1),
)
"""A position (game, deal seed, random moves played) and a seed for the sampler."""


@settings(max_examples=150, deadline=None)
@SAMPLED_POSITIONS
def test_sampled_worlds_respect_sizes_passes_draws_and_face_down_tiles(
    config: dict[str, Any], seed: int, length: int, sample_seed: int
):
    state = position(config, seed, length)
    know = read_view(view(state, state.turn))
    check_world(state, true_world(state))  # the checks hold for the truth itself
    rng = random.Random(sample_seed)
    for _ in range(5):
        world = sample_world(know, rng)
        assert not world.relaxed
        check_world(state, world)


def test_block_hands_never_hold_a_number_their_seat_passed_on():
    rules_config = {"game": "block", "players": 4, "teams": True}
    checked = 0
    for seed in range(60):
        state = position(rules_config, seed, 18)
        passes = lacking_rules(state.deal)
        if not passes:
            continue
        know = read_view(view(state, state.turn))
        rng = random.Random(seed)
        for _ in range(20):
            world = sample_world(know, rng)
            for s, lacked, _ in passes:
                if s != state.turn:
                    assert all(
                        not (t.low in lacked or t.high in lacked) for t in tiles_in(world.hands[s])
                    )
                    checked += 1
    assert checked > 50


def test_the_lead_proves_which_doubles_were_not_dealt():
    # Two players in block: the leader's double is the highest dealt, so no hand holds
    # a higher double.
    for seed in range(30):
        state = position({"game": "block", "players": 2}, seed, 1)
        lead = state.deal.layout.lead
        assert lead is not None
        if not lead.tile.is_double:
            continue
        know = read_view(view(state, state.turn))
        rng = random.Random(seed)
        for _ in range(20):
            world = sample_world(know, rng)
            for t in tiles_in(world.hands[1 - state.turn]):
                assert not (t.is_double and t.low > lead.tile.low)


def test_the_true_world_builds_the_real_deal():
    """With the real hidden tiles, the built deal plays exactly like the real one."""
    for config in CONFIGS:
        for seed in range(12):
            state = position(config, seed, 3 + seed * 3)
            real: Deal = state.deal.copy()
            know = read_view(view(state, state.turn))
            built = build_deal(know, true_world(state))
            rng = random.Random(seed)
            while real.end is None:
                assert built.legal_moves() == real.legal_moves()
                assert built.turn == real.turn
                move = rng.choice(real.legal_moves())
                real.push(move)
                built.push(move)
            assert built.end == real.end
            assert built.result == real.result


def test_a_built_deal_sets_every_slot_of_deal():
    """``build_deal`` fills ``Deal``'s slots one by one: a new slot must be added there."""
    state = position({"game": "draw", "players": 3}, 1, 5)
    know = read_view(view(state, state.turn))
    built = build_deal(know, sample_world(know, random.Random(1)))
    for name in Deal.__slots__:
        assert hasattr(built, name), f"build_deal does not set Deal.{name}"


@settings(max_examples=100, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32 - 1), length=st.integers(0, 60))
def test_what_a_seat_surely_lacks_it_really_lacks(config: dict[str, Any], seed: int, length: int):
    """The normal level's voids (from passes and draws) never name a tile the seat holds,
    and the unseen tiles are exactly the other hands, the stock and hidden face-down tiles."""
    state = position(config, seed, length)
    deal = state.deal
    know = read_view(view(state, deal.turn))
    for s in range(state.rules.players):
        assert deal.hands[s] & know.voids[s] == 0
    others = 0
    for s in range(state.rules.players):
        if s != deal.turn:
            others |= deal.hands[s]
    stock = set(deal.boneyard if state.rules.draws else deal.stock)
    hidden = hidden_tiles(deal, deal.turn)
    assert set(tiles_in(know.unseen)) == set(tiles_in(others)) | stock | hidden


@settings(max_examples=100, deadline=None)
@SAMPLED_POSITIONS
def test_fixed_groups_sample_the_same_worlds(
    config: dict[str, Any], seed: int, length: int, sample_seed: int
):
    """Until a seat draws, what each hand may hold is the same in every world: sampling
    with the groups worked out once gives exactly the worlds sampling without them does."""
    state = position(config, seed, length)
    know = read_view(view(state, state.turn))
    fixed = fixed_groups(know)
    drew = any(type(e) is Drew and e.seat != state.turn for e in state.deal.history)
    assert (fixed is None) is drew
    if fixed is None:
        return
    for k in range(3):
        plain = sample_world(know, random.Random(sample_seed + k))
        assert sample_world(know, random.Random(sample_seed + k), fixed) == plain
