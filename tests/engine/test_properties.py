"""Property tests of the rules engine, checked against ``docs/RULES.md`` and ``docs/RECORD.md``.

Random complete matches of every game, set, player count, team setting, layout
and scoring mode are played through the public API, and every step is checked
against small independent re-implementations written here from RULES.md: a model
of the table (arms, ends, spinner, hub, closed ends), the legal moves, the forced
draws and passes, the all-fives count, the deal results and the match outcome.

Moves are chosen by Hypothesis (``st.data()``) where a walk is short, and by a
seeded ``random.Random`` for whole matches. Bugs these properties found are pinned at
the end of the file as regression tests.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import random
from collections.abc import Callable, Iterable
from enum import Enum
from itertools import product
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from bot.engine import (
    DealOverError,
    Drew,
    End,
    IllegalMoveError,
    MatchState,
    Move,
    NotYourTurnError,
    Passed,
    Placement,
    Played,
    Rules,
    RulesError,
    Tile,
    call_time,
    full_set,
    legal_moves,
    new_match,
    next_deal,
    play,
    replay_summary,
    start_match,
    state_from_json,
    state_to_json,
    tile,
    view,
)
from bot.engine.__main__ import main as replay_main

W, E, N, S = End.WEST, End.EAST, End.NORTH, End.SOUTH

# -- the options, restated (RULES.md, game by game) ------------------------------

GAMES = ("block", "draw", "allfives", "latvian")
SET_SIZE = {6: 28, 9: 55, 12: 91}
MAX_PLAYERS = {6: 4, 9: 6, 12: 8}  # block and draw; allfives and latvian: double-6, 2-4
HAND_TABLE = {  # RULES.md#block-game
    6: {2: 7, 3: 5, 4: 5, "teams": 7},
    9: {2: 10, 3: 8, 4: 8, "teams": 10, 5: 7, 6: 7},
    12: {2: 12, 3: 10, 4: 10, "teams": 12, 5: 9, 6: 9, 7: 8, 8: 8},
}
SCORINGS = {
    "block": ("points", "single", "penalty"),
    "draw": ("points", "single", "penalty"),
    "allfives": ("fives",),
    "latvian": ("places",),
}
LAYOUTS = {
    "block": ("line", "spinner"),
    "draw": ("line", "spinner"),
    "allfives": ("spinner",),
    "latvian": ("hub",),
}
PLACE_POINTS_SUM = {2: 4 + 3, 3: 4 + 3 + 2, 4: 4 + 3 + 2 + 1}

DEAL_LIMIT = 400
"""No match with the small targets drawn here should need anywhere near this many deals."""


def settings_for(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None)


# -- strategies ------------------------------------------------------------------


@st.composite
def rules_dicts(draw: st.DrawFn, games: tuple[str, ...] = GAMES) -> dict[str, Any]:
    """A valid rules dict (RULES.md, game by game), with small targets so matches end quickly."""
    game = draw(st.sampled_from(games))
    d: dict[str, Any] = {"game": game}
    if game in ("block", "draw"):
        top = draw(st.sampled_from((6, 9, 12)))
        players = draw(st.integers(2, MAX_PLAYERS[top]))
        teams = players == 4 and draw(st.booleans())
        scoring = draw(st.sampled_from(SCORINGS[game] if not teams else ("points", "single")))
        layout = draw(st.sampled_from(LAYOUTS[game]))
        d.update(set=top, players=players, teams=teams, scoring=scoring, layout=layout)
        if scoring == "points":
            d["blocked_scoring"] = draw(st.sampled_from(("others", "minus_own")))
    else:
        top = 6
        players = draw(st.integers(2, 4))
        d["players"] = players
        if game == "allfives" and players == 4 and draw(st.booleans()):
            d["teams"] = True
        if game == "latvian":
            length = draw(st.sampled_from(("deals", "time", "both")))
            if length != "time":
                d["deals"] = draw(st.integers(1, 4))
            if length != "deals":
                d["time_limit"] = draw(st.integers(1, 90))
    if game == "allfives" or d.get("scoring") in ("points", "penalty"):
        d["target"] = draw(st.integers(20, 150))
    if draw(st.integers(0, 3)) == 0:  # a game may set its own hand size (RECORD.md)
        d["hand"] = draw(st.integers(1, SET_SIZE[top] // players))
    return d


def rules_st(games: tuple[str, ...] = GAMES) -> st.SearchStrategy[Rules]:
    return rules_dicts(games).map(Rules.from_dict)


seeds = st.integers(0, 2**32 - 1)


# -- RULES.md, re-implemented independently --------------------------------------


def sides_of(rules: Rules) -> list[tuple[int, ...]]:
    """Partnerships 0+2 against 1+3 with teams, else one player per side.

    RULES.md#what-every-game-shares.
    """
    if rules.teams:
        return [(0, 2), (1, 3)]
    return [(s,) for s in range(rules.players)]


def side_index(rules: Rules, seat: int) -> int:
    return next(i for i, side in enumerate(sides_of(rules)) if seat in side)


def seats_of(rules: Rules, side_indexes: Iterable[int]) -> tuple[int, ...]:
    sides = sides_of(rules)
    return tuple(sorted(s for i in side_indexes for s in sides[i]))


def pips(tiles: Iterable[Tile]) -> int:
    return sum(t.low + t.high for t in tiles)


def round5(n: int) -> int:
    """Round to the nearest 5, halves up (13 → 15, 12 → 10; RULES.md#all-fives)."""
    low = n - n % 5
    return low + 5 if n % 5 >= 3 else low


class Table:
    """The layout rebuilt from the placements alone (RULES.md#what-every-game-shares)."""

    def __init__(self, kind: str, top: int) -> None:
        self.kind = kind
        self.top = top
        self.lead: Tile | None = None
        self.arms: dict[End, list[Tile]] = {e: [] for e in End}
        self.ends: dict[End, int] = {}
        self.closed: dict[End, int] = {}
        """Closed ends and the number each was closed on (the face-down tile's near half)."""
        self.spinner: Tile | None = None
        self.spinner_arm: End | None = None  # None while the spinner is the lead
        self.spinner_index = -1
        self.laid: list[Tile] = []

    @classmethod
    def of(cls, rules: Rules, history: Iterable[Any]) -> Table:
        table = cls(rules.layout, rules.set)
        for event in history:
            if type(event) is Played:
                for p in event.move.placements:
                    table.place(p)
        return table

    def long_sides_filled(self) -> bool:
        if self.spinner is None:
            return False
        if self.spinner_arm is None:
            return bool(self.arms[W]) and bool(self.arms[E])
        return len(self.arms[self.spinner_arm]) > self.spinner_index + 1

    def place(self, p: Placement) -> None:
        t = p.tile
        assert t not in self.laid, f"{t} laid twice"
        self.laid.append(t)
        if p.end is None:
            assert self.lead is None, "a second lead"
            west = t.high if p.west is None else p.west
            self.lead = t
            self.ends = {W: west, E: t.other(west)}
            if t.is_double and self.kind == "hub":
                self.ends[N] = self.ends[S] = west
            if t.is_double and self.kind == "spinner":
                self.spinner = t
            return
        assert p.end in self.ends, f"{p.end} is not open"
        assert p.end not in self.closed, f"{p.end} is closed"
        value = self.ends[p.end]
        assert t.has(value), f"{t} does not fit {p.end} ({value})"
        self.arms[p.end].append(t)
        self.ends[p.end] = t.other(value)
        if p.closed:
            self.closed[p.end] = value
        if self.kind != "spinner":
            return
        if self.spinner is None:
            if t.is_double and p.end in (W, E):
                self.spinner, self.spinner_arm = t, p.end
                self.spinner_index = len(self.arms[p.end]) - 1
        elif N not in self.ends and self.long_sides_filled():
            self.ends[N] = self.ends[S] = self.spinner.low

    def open_ends(self) -> dict[End, int]:
        return {e: v for e, v in self.ends.items() if e not in self.closed}

    def fits(self, t: Tile) -> bool:
        return any(t.has(v) for v in self.open_ends().values())

    def fives_count(self) -> int:
        """The all-fives count of the open ends, spinner layout (RULES.md#all-fives)."""
        if self.lead is None:
            return 0
        total = 0
        for end in (W, E):
            arm = self.arms[end]
            tip = arm[-1] if arm else self.lead
            if tip == self.spinner or end in self.closed:
                continue  # the spinner is counted once, below
            total += 2 * self.ends[end] if arm and tip.is_double else self.ends[end]
        for end in (N, S):
            arm = self.arms[end]
            if arm and end not in self.closed:
                total += 2 * self.ends[end] if arm[-1].is_double else self.ends[end]
        if self.spinner is not None and not self.long_sides_filled():
            total += 2 * self.spinner.low
        return total

    def is_dead(self) -> bool:
        """Dead: no open end, or every open end's number is all on the table.

        RULES.md#latvian-dominoes.
        """
        laid = set(self.laid)
        return all(
            all(tile(v, k) in laid for k in range(self.top + 1)) for v in self.open_ends().values()
        )


def expected_lead(rules: Rules, hands: list[tuple[Tile, ...]]) -> Tile | None:
    """The tile the rules make the leader lead (``None`` for all fives: any tile).

    RULES.md#block-game, #all-fives and #latvian-dominoes.
    """
    held = {t for h in hands for t in h}
    if rules.game == "allfives":
        return None
    if rules.game == "latvian":
        order = [1, 2, 3, 4, 5, 6, 0]
    else:
        order = list(range(rules.set, -1, -1))
    for k in order:
        if tile(k, k) in held:
            return tile(k, k)
    assert rules.game != "latvian", "a latvian deal without a double must be dealt again"
    return max(held, key=lambda t: (t.low + t.high, t.high))


def expected_moves(
    rules: Rules, table: Table, hand: Iterable[Tile], lead: Tile | None
) -> set[Move]:
    """Every legal move of a seat holding ``hand`` (the lead tile, if the rules fix it).

    RULES.md#what-every-game-shares and each game's section.
    """
    hand = list(hand)
    if table.lead is None:
        if lead is not None:
            return {Move.lead(lead)} if lead in hand else set()
        return {Move.lead(t) for t in hand}
    ends = table.open_ends()
    if rules.game != "latvian":
        return {Move.single(t, e) for e, v in ends.items() for t in hand if t.has(v)}
    moves = {
        Move.single(t, e, closed)
        for e, v in ends.items()
        for t in hand
        if t.has(v) and not t.is_double
        for closed in (False, True)
    }
    choices = [
        [None] + [Placement(d, e, c) for e, v in ends.items() if v == d.low for c in (False, True)]
        for d in hand
        if d.is_double
    ]
    for combo in product(*choices):
        placed = sorted((p for p in combo if p is not None), key=lambda p: p.end)
        if len(placed) == 1:
            moves.add(Move.single(placed[0].tile, placed[0].end, placed[0].closed))
        elif placed:
            moves.add(Move(tuple(placed)))
    return moves


def latvian_value(hand: tuple[Tile, ...]) -> int:
    """The latvian value of a hand left (RULES.md#latvian-dominoes)."""
    specials = {
        frozenset({tile(0, 0)}): 25,
        frozenset({tile(6, 6)}): 50,
        frozenset({tile(0, 0), tile(6, 6)}): 75,
    }
    return specials.get(frozenset(hand), pips(hand))


def place_points(totals: list[float]) -> list[float]:
    """Lowest total first, 4/3/2/1, ties share their places' average (RULES.md#latvian-dominoes)."""
    out = []
    for t in totals:
        lower = sum(1 for u in totals if u < t)
        tied = sum(1 for u in totals if u == t)
        spanned = range(lower + 1, lower + tied + 1)
        out.append(sum(5 - p for p in spanned) / tied)
    return out


def played_events(history: Iterable[Any]) -> list[Played]:
    return [e for e in history if type(e) is Played]


def fives_play_points(rules: Rules, history: Iterable[Any]) -> list[int]:
    got = [0] * len(sides_of(rules))
    for e in played_events(history):
        got[side_index(rules, e.seat)] += e.points
    return got


def expected_totals(state: MatchState) -> list[float]:
    rules = state.rules
    totals = [0.0] * len(sides_of(rules))
    for deal in state.deals:
        gained = (
            deal.result.score
            if deal.result is not None
            else fives_play_points(rules, deal.history)
            if rules.scoring == "fives"
            else [0] * len(totals)
        )
        for i, g in enumerate(gained):
            totals[i] += g
    return totals


# -- the checks --------------------------------------------------------------------


def hands_of(state: MatchState) -> list[tuple[Tile, ...]]:
    return [state.deal.hand(s) for s in range(state.rules.players)]


def check_partition(state: MatchState) -> None:
    """Property 1: hands + table + boneyard + out of play = the whole set, no overlaps."""
    rules, deal = state.rules, state.deal
    table = [laid.tile for laid in deal.layout.laid_tiles()]
    mask = 0
    for t in table:
        mask |= 1 << t
    assert mask == deal.layout.on_table, "laid_tiles() disagrees with the on_table mask"
    places = [*(list(h) for h in hands_of(state)), table, list(deal.boneyard)]
    if not rules.draws:
        assert deal.boneyard == ()
        places.append(list(deal.stock))  # block: out of play
    everything = [t for place in places for t in place]
    assert len(everything) == len(set(everything)), f"a tile in two places: {places}"
    assert set(everything) == set(full_set(rules.set)), "tiles lost or from another set"


def check_table_model(state: MatchState) -> Table:
    """The engine's ends agree with the table rebuilt from the moves alone."""
    deal = state.deal
    table = Table.of(state.rules, deal.history)
    layout = deal.layout
    assert layout.shown() == table.ends
    assert {e for e in End if layout.closed[e]} == set(table.closed)
    assert layout.spinner == table.spinner
    seen = view(state, None).table
    assert seen.ends == table.open_ends()
    assert seen.closed == table.closed
    assert seen.spinner == table.spinner
    assert sorted(table.laid) == sorted(x.tile for x in layout.laid_tiles())
    return table


def check_deal_start(state: MatchState) -> None:
    """A fresh deal: hands as the rules say, the right leader and lead (RULES.md, game by game)."""
    rules, deal = state.rules, state.deal
    assert deal.history == []
    assert not deal.over
    assert len(deal.dealt) == rules.players
    assert all(len(h) == rules.hand for h in deal.dealt)
    assert sorted([*(t for h in deal.dealt for t in h), *deal.stock]) == list(full_set(rules.set))
    hands = [tuple(h) for h in deal.dealt]
    lead = expected_lead(rules, hands)
    if lead is not None:
        assert lead in hands[deal.leader], f"seat {deal.leader} does not hold the lead {lead}"
        assert legal_moves(state) == [Move.lead(lead)]
    elif len(state.deals) > 1:  # all fives: the last winner leads (RULES.md#all-fives)
        last = state.deals[-2].result
        assert last is not None
        if last.winners:
            want = (
                last.out_seat
                if last.out_seat is not None
                else min(last.winners, key=lambda s: (last.pips[s], s))
            )
            assert deal.leader == want
    assert deal.turn == deal.leader
    check_partition(state)


def check_play(before: MatchState, move: Move, after: MatchState, before_json: str) -> None:
    """One move: properties 1, 2, 5, 6 and the deal's end."""
    rules = before.rules
    n = rules.players
    b, a = before.deal, after.deal
    mover = b.turn
    # 2: the move was legal, and play left its input alone.
    assert is_legal(move, legal_moves(before))
    assert json.dumps(state_to_json(before)) == before_json, "play changed its input state"
    assert after.deals[:-1] == before.deals[:-1]
    assert a.history[: len(b.history)] == b.history
    new = a.history[len(b.history) :]
    assert new[0] == Played(mover, move, new[0].fives_count, new[0].points)
    check_partition(after)
    table = check_table_model(after)

    # 6: the all-fives count, and points exactly on positive multiples of 5.
    if rules.scoring == "fives":
        count = table.fives_count()
        assert new[0].fives_count == count
        assert new[0].points == (count if count > 0 and count % 5 == 0 else 0)
    else:
        assert new[0].fives_count == 0
        assert new[0].points == 0

    # 5: the forced draws and passes that follow the move.
    hands = [set(b.hand(s)) for s in range(n)]
    assert set(move.tiles) <= hands[mover]
    hands[mover] -= set(move.tiles)
    boneyard = list(b.boneyard)
    forced = None
    seat = (mover + 1) % n
    events = new[1:]
    i = 0
    while i < len(events):
        e = events[i]
        assert e.seat == seat, f"{e} out of turn (seat {seat} was next)"
        fitting = [t for t in hands[seat] if table.fits(t)]
        assert not fitting, f"seat {seat} held {fitting}, which fit, yet {type(e).__name__}"
        if type(e) is Drew:
            assert rules.draws, "a draw in block"
            k = len(e.tiles)
            assert k >= 1, "an empty draw"
            assert list(e.tiles) == boneyard[:k], "not drawn from the top"
            boneyard = boneyard[k:]
            assert not any(table.fits(t) for t in e.tiles[:-1]), "drew past a fitting tile"
            hands[seat] |= set(e.tiles)
            if table.fits(e.tiles[-1]):
                assert i == len(events) - 1, "events after a draw that fits"
                forced = e.tiles[-1]
                break
            assert not boneyard, "stopped drawing before a tile fit"
            i += 1
            assert events[i : i + 1] == [Passed(seat)], "no pass after a fruitless draw"
        else:
            assert type(e) is Passed
            assert not boneyard, "passed while the boneyard had tiles"
            seat = (seat + 1) % n
            i += 1
    assert [set(a.hand(s)) for s in range(n)] == hands
    assert list(a.boneyard) == boneyard
    if rules.game == "latvian" and table.is_dead() and hands[mover] and not a.over:
        raise AssertionError("the layout is dead and the deal went on")
    if rules.game == "latvian" and table.is_dead() and hands[mover]:
        assert a.result is not None
        assert a.result.end in ("dead", "target")
        assert not events

    if not a.over:
        assert not after.over
        assert a.turn == seat  # the next seat able to lay (having drawn, if forced)
        assert a.forced == forced
        assert hands[mover], "a seat emptied its hand and the deal went on"
        if rules.scoring == "fives":
            base = expected_totals(before)
            side = side_index(rules, mover)
            assert base[side] + new[0].points < rules.target or new[0].points == 0
        hand = [forced] if forced is not None else hands[a.turn]
        legal = legal_moves(after)
        assert legal, "the seat to move has no legal move"
        assert len(legal) == len(set(legal))
        assert set(legal) == expected_moves(rules, table, hand, None)
        if forced is not None:
            assert all(m.tiles == (forced,) for m in legal)
        for m in legal:  # latvian several-doubles moves: doubles on distinct open ends
            if len(m.placements) > 1:
                ends = [p.end for p in m.placements]
                assert rules.game == "latvian"
                assert len(set(ends)) == len(ends)
                assert all(p.tile.is_double and p.end in table.open_ends() for p in m.placements)
        assert sum(1 for e in reversed(events) if type(e) is Passed) < n
    else:
        check_result(after)


def check_result(state: MatchState) -> None:
    """Property 4: a finished deal's result, recomputed from RULES.md (each game's section)."""
    rules, deal = state.rules, state.deal
    r = deal.result
    assert r is not None
    assert deal.over
    assert legal_moves(state) == []
    n = rules.players
    sides = sides_of(rules)
    hands = hands_of(state)
    assert r.hands == tuple(tuple(sorted(h)) for h in hands)
    assert r.pips == tuple(pips(h) for h in hands)
    side_pips = [sum(pips(hands[s]) for s in side) for side in sides]
    history = deal.history
    played = played_events(history)
    table = Table.of(rules, history)
    base = [0.0] * len(sides)
    for d in state.deals[:-1]:
        assert d.result is not None
        for i, g in enumerate(d.result.score):
            base[i] += g

    # How the deal ended.
    target_side = None
    if rules.scoring == "fives":
        running = [0] * len(sides)
        for e in played:
            side = side_index(rules, e.seat)
            running[side] += e.points
            if e.points and base[side] + running[side] >= rules.target:
                assert e is history[-1], "the target was reached and the deal went on"
                assert r.end == "target"
                target_side = side
        assert list(r.play_points) == running
    if r.end == "target":
        assert target_side is not None
        assert r.out_seat is None
    elif r.end == "domino":
        assert r.out_seat is not None
        assert hands[r.out_seat] == ()
        assert history[-1] == played[-1]
        assert played[-1].seat == r.out_seat
    else:
        assert r.out_seat is None
        assert all(hands), "a player is out, yet the deal did not end in a domino"
        if r.end == "blocked":
            assert not (rules.game == "latvian" and table.is_dead()), "dead, not blocked"
            tail = history[-n:]
            assert len(tail) == n
            assert all(type(e) is Passed for e in tail)
            assert len({e.seat for e in tail}) == n
        else:
            assert r.end == "dead"
            assert rules.game == "latvian"
            assert history[-1] == played[-1]
            assert table.is_dead()

    # Who won the deal.
    values = None
    if rules.scoring == "places":
        values = [
            -25 * (tile(0, 0) in played[-1].move.tiles) - 50 * (tile(6, 6) in played[-1].move.tiles)
            if s == r.out_seat
            else latvian_value(hands[s])
            for s in range(n)
        ]
        assert r.values == tuple(values)
    else:
        assert r.values is None
    measure = values if values is not None else side_pips
    if r.end == "target":
        win = target_side
    elif r.end == "domino":
        assert r.out_seat is not None
        win = side_index(rules, r.out_seat)
    else:
        low = [i for i, m in enumerate(measure) if m == min(measure)]
        win = low[0] if len(low) == 1 else None
    assert r.winners == (seats_of(rules, [win]) if win is not None else ())

    # What each side scored.
    zero = [0] * len(sides)
    score = list(zero)
    if rules.scoring == "points":
        if win is not None:
            score[win] = sum(side_pips) - side_pips[win]
            if r.end == "blocked" and rules.blocked_scoring == "minus_own":
                score[win] -= side_pips[win]
    elif rules.scoring == "penalty":
        score = [pips(hands[s]) for s in range(n)]
    elif rules.scoring == "fives":
        bonus = list(zero)
        if win is not None and r.end != "target":
            bonus[win] = round5(sum(side_pips) - side_pips[win])
        assert list(r.bonus) == bonus
        assert all(p > 0 and p % 5 == 0 for p in (e.points for e in played) if p)
        assert all(b == 0 or b % 5 == 0 for b in bonus)
        score = [p + b for p, b in zip(r.play_points, bonus, strict=True)]
    elif rules.scoring == "places":
        assert values is not None
        score = values
    assert list(r.score) == score


def check_outcome(state: MatchState) -> None:
    """Property 4 (match level) and 3: totals, whether the match is over, who won."""
    rules = state.rules
    totals = expected_totals(state)
    assert list(state.totals) == totals
    deal = state.deal
    if not deal.over:
        assert not state.over
        return
    scoring = rules.scoring
    places = None
    if scoring == "single":
        over = True
        assert len(state.deals) == 1
        assert deal.result is not None
        winners: tuple[int, ...] = deal.result.winners
    elif scoring in ("points", "fives"):
        reached = [i for i, t in enumerate(totals) if t >= rules.target]
        assert len(reached) <= 1, "two sides reached the target"
        over = bool(reached)
        winners = seats_of(rules, reached)
    elif scoring == "penalty":
        over = max(totals) >= rules.target
        winners = seats_of(rules, [i for i, t in enumerate(totals) if t == min(totals)])
    else:
        over = state.time_up or (rules.deals is not None and len(state.deals) >= rules.deals)
        winners = seats_of(rules, [i for i, t in enumerate(totals) if t == min(totals)])
        places = place_points(totals)
        assert sum(places) == PLACE_POINTS_SUM[rules.players]
    assert state.over == over
    if over:
        assert state.winners == winners
        assert state.places == (tuple(places) if places is not None else None)
    else:
        assert state.winners == ()
        assert state.places is None


# -- playing matches ---------------------------------------------------------------

Pick = Callable[[MatchState, list[Move]], Move]


def turned(move: Move) -> Move:
    """A lead laid the other way round: the same lead, low half west.

    RULES.md#what-every-game-shares.
    """
    t = move.tile
    return Move.lead(t, t.low) if move.is_lead and not t.is_double else move


def pick_with(rng: random.Random) -> Pick:
    def pick(state: MatchState, moves: list[Move]) -> Move:
        move = moves[rng.randrange(len(moves))]
        return turned(move) if move.is_lead and rng.random() < 0.5 else move

    return pick


def pick_with_data(data: st.DataObject) -> Pick:
    def pick(state: MatchState, moves: list[Move]) -> Move:
        move = moves[data.draw(st.integers(0, len(moves) - 1), label="move")]
        return turned(move) if move.is_lead and data.draw(st.booleans(), label="turn") else move

    return pick


def time_call_at(rules: Rules, seed: int) -> int | None:
    """Latvian sessions with a time limit: after how many moves the time runs out."""
    if rules.time_limit is None:
        return None
    return random.Random(seed ^ 0x5EED).randrange(0, 60)


def walk(
    rules: Rules,
    seed: int,
    pick: Pick,
    *,
    full_checks: bool = True,
    max_plays: int | None = None,
    on_state: Callable[[MatchState], None] | None = None,
) -> MatchState:
    """Play a match (or its first ``max_plays`` moves), checking every step."""
    deal_rng = random.Random(seed)
    state = new_match(rules, deal_rng)
    time_at = time_call_at(rules, seed)
    plays = 0
    if full_checks:
        check_deal_start(state)
    if on_state:
        on_state(state)
    while not state.over:
        if time_at is not None and plays >= time_at and not state.time_up:
            state = call_time(state)
            if full_checks:
                check_outcome(state)
            continue
        if max_plays is not None and plays >= max_plays:
            break
        if state.deal.over:
            assert len(state.deals) < DEAL_LIMIT, "the match does not end"
            state = next_deal(state, deal_rng)
            if full_checks:
                check_deal_start(state)
                check_outcome(state)
        else:
            # 3: a deal lays at least one tile per move, so it ends within the set's size.
            moves_so_far = len(played_events(state.deal.history))
            assert moves_so_far < rules.tile_count, "the deal does not end"
            moves = legal_moves(state)
            move = pick(state, moves)
            before_json = json.dumps(state_to_json(state)) if full_checks else ""
            after = play(state, move, seat=state.turn)
            if full_checks:
                check_play(state, move, after, before_json)
                check_outcome(after)
            state = after
            plays += 1
        if on_state:
            on_state(state)
    return state


# -- 0. the rules ------------------------------------------------------------------


def expected_rules_fields(d: dict[str, Any]) -> dict[str, Any]:
    """The fields ``Rules`` must have for the options ``d``, defaults from RULES.md."""
    game = d["game"]
    top = d.get("set", 6)
    players = d.get("players", 2)
    teams = d.get("teams", False)
    scoring = d.get("scoring", SCORINGS[game][0])
    if game in ("allfives", "latvian"):
        hand = 7
    else:
        hand = HAND_TABLE[top]["teams" if teams else players]
    defaults = {"points": 100 if players == 2 or teams else 61, "penalty": 50, "fives": 250}
    target = d.get("target", defaults.get(scoring))
    time_limit = d.get("time_limit")
    deals = d.get("deals", 4 if time_limit is None else None) if game == "latvian" else None
    return {
        "game": game,
        "set": top,
        "players": players,
        "teams": teams,
        "scoring": scoring,
        "target": target if scoring not in ("single", "places") else None,
        "layout": d.get("layout", LAYOUTS[game][0]),
        "hand": d.get("hand", hand),
        "blocked_scoring": d.get("blocked_scoring", "others"),
        "deals": deals,
        "time_limit": time_limit,
    }


DROPPABLE = ("target", "blocked_scoring", "layout", "scoring", "hand", "deals", "time_limit")


@settings_for(300)
@given(d=rules_dicts(), drop=st.sets(st.sampled_from(DROPPABLE)))
def test_valid_rules_are_accepted_with_rules_md_defaults(d: dict[str, Any], drop: set[str]):
    if not d.get("teams"):
        d.pop("teams", None)
    for key in drop:
        d.pop(key, None)
    rules = Rules.make(**d)
    assert dataclasses.asdict(rules) == expected_rules_fields(d)
    assert Rules.from_dict(rules.to_dict()) == rules
    assert rules.sides == tuple(sides_of(rules))


@st.composite
def invalid_rules(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    """A valid rules dict with exactly one option made invalid, and that option's name."""
    d = draw(rules_dicts())
    game = d["game"]
    top = d.get("set", 6)
    players = d["players"]
    limit = MAX_PLAYERS[top] if game in ("block", "draw") else 4
    kinds = ["game", "set", "players", "teams", "scoring", "layout", "hand"]
    kinds += ["blocked_scoring", "deals", "time_limit", "unknown"]
    if game == "allfives" or d.get("scoring") in ("points", "penalty"):
        kinds.append("target")
    if d.get("teams") and d.get("scoring") in ("points", "single"):
        kinds.append("penalty with teams")
    kind = draw(st.sampled_from(kinds))
    option = kind
    if kind == "game":
        d["game"] = draw(st.sampled_from(["chess", "Block", "", "fives", 6, ["draw"]]))
    elif kind == "set":
        bad = [0, 1, 5, 7, 10, 13, -6, "6", True, 6.0]
        if game in ("allfives", "latvian"):
            bad += [9, 12]
        d["set"] = draw(st.sampled_from(bad))
    elif kind == "players":
        d["players"] = draw(st.sampled_from([0, 1, -2, limit + 1, limit + 5, True, "2", 2.0]))
    elif kind == "teams":
        if game == "latvian" or players != 4:
            d["teams"] = True
        else:
            d["teams"] = draw(st.sampled_from(["yes", 1, 0, "true"]))
    elif kind == "scoring":
        allowed = SCORINGS[game]
        others = [s for s in ("points", "single", "penalty", "fives", "places") if s not in allowed]
        d["scoring"] = draw(st.sampled_from([*others, "golf", "", 1]))
    elif kind == "penalty with teams":
        d["scoring"], option = "penalty", "scoring"
        d.pop("target", None)
        d.pop("blocked_scoring", None)
    elif kind == "layout":
        bad_layouts = [x for x in ("line", "spinner", "hub", "star", "") if x not in LAYOUTS[game]]
        d["layout"] = draw(st.sampled_from(bad_layouts))
    elif kind == "hand":
        most = SET_SIZE[top] // players
        d["hand"] = draw(st.sampled_from([0, -1, most + 1, SET_SIZE[top], "7", True]))
    elif kind == "target":
        d["target"] = draw(st.sampled_from([0, -5, 1001, 5000, "100", True]))
    elif kind == "blocked_scoring":
        d["blocked_scoring"] = draw(st.sampled_from(["both", "", "minus", 1]))
    elif kind == "deals":
        d["deals"] = draw(st.sampled_from([0, -1, 101, "4", True])) if game == "latvian" else 2
    elif kind == "time_limit":
        d["time_limit"] = draw(st.sampled_from([0, -3, "10", True])) if game == "latvian" else 30
    else:
        option = draw(st.sampled_from(["colour", "targets", "Players", "seed"]))
        d[option] = 1
    return d, option


@settings_for(300)
@given(case=invalid_rules())
def test_invalid_rules_raise_rules_error_naming_the_option(case: tuple[dict[str, Any], str]):
    d, option = case
    with pytest.raises(RulesError) as info:
        Rules.from_dict(d)
    assert isinstance(info.value, ValueError)
    assert info.value.option == option, info.value.message


# -- 1, 2, 4, 5, 6: whole matches, every step checked ------------------------------


@settings_for(250)
@given(rules=rules_st(), seed=seeds)
def test_random_matches_follow_the_rules_at_every_step(rules: Rules, seed: int):
    """Properties 1-6 on whole matches, moves from a seeded rng."""
    state = walk(rules, seed, pick_with(random.Random(seed + 1)))
    assert state.over
    # 3: the match ends, and sessions have their length.
    if rules.scoring == "single":
        assert len(state.deals) == 1
    if rules.scoring == "places" and not state.time_up:
        assert len(state.deals) == rules.deals
    if rules.scoring == "places":
        assert state.places is not None
        assert sum(state.places) == PLACE_POINTS_SUM[rules.players]


@settings_for(120)
@given(rules=rules_st(("allfives",)), seed=seeds)
def test_all_fives_counts_and_scores_at_every_step(rules: Rules, seed: int):
    """Property 6 (and the rest) on all-fives matches only, where the count matters."""
    state = walk(rules, seed, pick_with(random.Random(seed + 1)))
    assert state.over
    counts = [e for d in state.deals for e in played_events(d.history)]
    assert all(e.points in (0, e.fives_count) for e in counts)


@settings_for(200)
@given(rules=rules_st(), seed=seeds, data=st.data())
def test_moves_chosen_by_hypothesis_follow_the_rules(rules: Rules, seed: int, data: st.DataObject):
    """Properties 1-6 with Hypothesis choosing the moves (up to 120 of them)."""
    walk(rules, seed, pick_with_data(data), max_plays=120)


# -- 2: illegal moves, wrong seats, no mutation ------------------------------------


def snapshot(state: MatchState) -> tuple[Any, ...]:
    deal = state.deal
    return (
        json.dumps(state_to_json(state)),
        hands_of(state),
        deal.layout.on_table,
        [laid.tile for laid in deal.layout.laid_tiles()],
        list(deal.history),
        list(legal_moves(state)),
        deal.turn,
        deal.forced,
        state.totals,
    )


def is_legal(move: Move, legal: list[Move]) -> bool:
    """In ``legal``, or a lead laid the other way round (the same lead)."""
    if move in legal:
        return True
    if len(move.placements) != 1:
        return False
    p = move.placements[0]
    return (
        p.end is None
        and not p.closed
        and (p.west is None or p.west in p.tile.halves)
        and Move.lead(p.tile) in legal
    )


@st.composite
def wrong_moves(draw: st.DrawFn, state: MatchState) -> Move:
    """A move aimed at being illegal: another seat's tile, a wrong end, a closed end..."""
    rules, deal = state.rules, state.deal
    me = deal.turn
    mine = list(deal.hand(me))
    others = [t for s in range(rules.players) if s != me for t in deal.hand(s)]
    anything = list(full_set(12))
    pools = [p for p in (mine, others, anything) if p]
    count = draw(st.sampled_from((1, 1, 1, 2, 3)))
    placements = []
    for _ in range(count):
        t = draw(st.sampled_from(draw(st.sampled_from(pools))))
        # A lead (no end) alone; several tiles each name an end (see the odd moves below).
        end = draw(st.sampled_from([*End, None] if count == 1 else list(End)))
        closed = end is not None and draw(st.booleans())
        placements.append(Placement(t, end, closed, None))
    return Move(tuple(placements))


@settings_for(120)
@given(rules=rules_st(), seed=seeds, data=st.data())
def test_illegal_moves_and_wrong_seats_are_refused_and_change_nothing(
    rules: Rules, seed: int, data: st.DataObject
):
    """Property 2: a move outside legal_moves raises IllegalMoveError and changes nothing."""
    tried = 0

    def try_wrong(state: MatchState) -> None:
        nonlocal tried
        if state.over:
            return
        before = snapshot(state)
        legal = legal_moves(state)
        if state.deal.over:
            with pytest.raises(DealOverError):
                play(state, Move.lead(tile(0, 0)))
        else:
            move = data.draw(wrong_moves(state), label="wrong move")
            if not is_legal(move, legal):
                tried += 1
                with pytest.raises(IllegalMoveError):
                    play(state, move)
            seat = data.draw(
                st.sampled_from([s for s in range(rules.players) if s != state.turn]), label="seat"
            )
            with pytest.raises(NotYourTurnError):
                play(state, legal[0], seat=seat)
            play(state, legal[0], seat=state.turn)  # the right seat may play it
        assert snapshot(state) == before

    final = walk(rules, seed, pick_with(random.Random(seed + 1)), max_plays=40, on_state=try_wrong)
    if final.over:
        with pytest.raises(DealOverError):
            play(final, Move.lead(tile(0, 0)))
    note(f"illegal moves tried: {tried}")


# -- 7: records --------------------------------------------------------------------


def check_record_round_trip(state: MatchState, via_cli: bool) -> None:
    doc = state_to_json(state)
    text = json.dumps(doc)
    again = json.loads(text)
    assert again == doc
    replayed = state_from_json(again)
    summary = replay_summary(state)
    assert replay_summary(replayed) == summary
    assert json.loads(json.dumps(summary)) == summary
    assert state_to_json(replayed) == doc
    assert len(replayed.deals) == len(state.deals)
    for mine, theirs in zip(state.deals, replayed.deals, strict=True):
        assert theirs.history == mine.history
        assert theirs.result == mine.result
        assert theirs.dealt == mine.dealt
        assert theirs.stock == mine.stock
    assert replayed.over == state.over
    assert replayed.winners == state.winners
    assert replayed.totals == state.totals
    assert replayed.places == state.places
    assert legal_moves(replayed) == legal_moves(state)
    # The summary says what the state says.
    assert summary["over"] == state.over
    assert summary["winners"] == list(state.winners)
    assert summary["totals"] == list(state.totals)
    assert summary["sides"] == [list(side) for side in sides_of(state.rules)]
    assert summary["places"] == (list(state.places) if state.places is not None else None)
    for entry, deal in zip(summary["deals"], state.deals, strict=True):
        if deal.result is None:
            assert entry["end"] == "open"
            assert entry["winners"] == []
        else:
            assert entry["end"] == deal.result.end
            assert entry["score"] == list(deal.result.score)
    if via_cli:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = replay_main(["replay", "-"], stdin=io.StringIO(text))
        assert status == 0
        assert json.loads(out.getvalue()) == summary


def written_otherwise(state: MatchState, rng: random.Random) -> dict[str, Any]:
    """The same record written with RECORD.md's freedoms: no ``players`` (the number of
    hands), no ``leader`` where the rules fix it, no ``end`` where the tile fits exactly
    one open end, latvian one-tile moves as a ``tiles`` list of one entry."""
    doc = state_to_json(state)
    del doc["rules"]["players"]
    previous = None
    for deal_doc, deal in zip(doc["deals"], state.deals, strict=True):
        drawn_leader = state.rules.game == "allfives" and not (previous and previous.winners)
        if not drawn_leader and rng.random() < 0.8:
            del deal_doc["leader"]
        previous = deal.result
        table = Table(state.rules.layout, state.rules.set)
        events = played_events(deal.history)
        for i, (move_doc, event) in enumerate(zip(deal_doc["moves"], events, strict=True)):
            entries = move_doc.get("tiles", [move_doc])
            for entry, p in zip(entries, event.move.placements, strict=True):
                fits = [e for e, v in table.open_ends().items() if p.tile.has(v)]
                if p.end is not None and fits == [p.end] and rng.random() < 0.8:
                    del entry["end"]
            latvian = state.rules.game == "latvian"  # the tiles form is latvian's only
            if latvian and "tiles" not in move_doc and rng.random() < 0.3:
                deal_doc["moves"][i] = {
                    "seat": move_doc.pop("seat"),
                    "tiles": [move_doc],
                }
            for p in event.move.placements:
                table.place(p)
    return doc


@settings_for(150)
@given(
    rules=rules_st(),
    seed=seeds,
    stop=st.none() | st.integers(0, 150),
    cli=st.booleans(),
    otherwise=st.booleans(),
)
def test_records_round_trip_and_replay_to_the_same_match(
    rules: Rules, seed: int, stop: int | None, cli: bool, otherwise: bool
):
    """Property 7: finished matches and matches stopped anywhere, mid-deal included;
    and the same record written with the freedoms RECORD.md allows replays the same."""
    state = walk(rules, seed, pick_with(random.Random(seed + 1)), full_checks=False, max_plays=stop)
    note(f"deals: {len(state.deals)}, over: {state.over}, open: {not state.deal.over}")
    check_record_round_trip(state, cli)
    if otherwise:
        doc = json.loads(json.dumps(written_otherwise(state, random.Random(seed))))
        replayed = state_from_json(doc)
        assert replay_summary(replayed) == replay_summary(state)
        assert state_to_json(replayed) == state_to_json(state)


# -- 8: views -----------------------------------------------------------------------


def tiles_anywhere(obj: Any, out: list[Tile]) -> None:
    """Every ``Tile`` inside ``obj``, however deeply nested."""
    if type(obj) is Tile:
        out.append(obj)
    elif obj is None or isinstance(obj, (str, int, float, Enum)):
        return
    elif isinstance(obj, Move):
        tiles_anywhere(obj.placements, out)
    elif dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            tiles_anywhere(getattr(obj, f.name), out)
    elif isinstance(obj, dict):
        tiles_anywhere(list(obj.items()), out)
    elif isinstance(obj, (tuple, list, set, frozenset)):
        for x in obj:
            tiles_anywhere(x, out)
    else:
        raise AssertionError(f"a view holds a {type(obj).__name__}, which this walk cannot read")


def face_down(state: MatchState) -> dict[Tile, int]:
    """Tiles laid face down in the current deal, and who laid them."""
    return {
        p.tile: e.seat
        for e in played_events(state.deal.history)
        for p in e.move.placements
        if p.closed
    }


def check_views(state: MatchState) -> None:
    """Property 8: a seat's view shows its own hand and no other hand, nor hidden tiles."""
    rules, deal = state.rules, state.deal
    hands = hands_of(state)
    hidden = face_down(state) if not deal.over else {}
    for seat in [*range(rules.players), None]:
        v = view(state, seat)
        assert v.seat == seat
        assert v.hand == (hands[seat] if seat is not None else ())
        assert v.hand_sizes == tuple(len(h) for h in hands)
        assert v.boneyard_size == len(deal.boneyard)
        secret = {t for s in range(rules.players) if s != seat for t in hands[s]}
        secret |= {t for t, by in hidden.items() if by != seat}
        found: list[Tile] = []
        for f in dataclasses.fields(v):
            if f.name != "results":  # finished deals are public, hands and all
                tiles_anywhere(getattr(v, f.name), found)
        leaked = secret & set(found)
        assert not leaked, f"seat {seat} sees {sorted(map(str, leaked))}"
        if seat is not None and seat == deal.turn and not deal.over:
            assert list(v.legal_moves) == legal_moves(state)
            assert v.forced == deal.forced
        else:
            assert v.legal_moves == ()
            assert v.forced is None
        assert len(v.history) == len(deal.history)
        for seen, event in zip(v.history, deal.history, strict=True):
            assert seen.seat == event.seat
            if type(event) is Drew:
                assert seen.count == len(event.tiles)
                assert seen.tiles == (event.tiles if seat == event.seat else None)
        # Face-down tiles of other seats: a tile back on the table.
        for laid in [v.table.lead, *(x for arm in v.table.arms for x in arm)]:
            if laid is not None and laid.tile is None:
                assert laid.closed
                assert laid.outer is None
        shown = sum(1 for arm in v.table.arms for x in arm if x.tile is None)
        assert shown == sum(1 for by in hidden.values() if by != seat)


def check_face_down_ends(state: MatchState) -> None:
    """Property 8, face-down tiles: nothing in a view names a tile hidden from it.

    A tile back shows the number its end was closed on (``inner``, public before);
    the far half is the hidden tile's other half, so showing it would name the tile.
    """
    deal = state.deal
    if deal.over:
        return
    table = Table.of(state.rules, deal.history)
    for seat in [*range(state.rules.players), None]:
        v = view(state, seat)
        for end, inner in table.closed.items():
            laid = v.table.arms[end][-1]
            assert laid.closed
            assert v.table.closed[end] == laid.inner == inner
            if laid.tile is None:  # hidden from this seat
                assert laid.outer is None
                assert v.table.ends.get(end) in (None, inner), (
                    f"seat {seat} sees {end} show {v.table.ends.get(end)}: "
                    f"the face-down tile is {inner}-{v.table.ends.get(end)}"
                )


@settings_for(100)
@given(rules=rules_st(), seed=seeds, data=st.data())
def test_views_show_a_seat_its_own_hand_and_nothing_hidden(
    rules: Rules, seed: int, data: st.DataObject
):
    """Property 8 at every step of a match's first 100 moves (Hypothesis picks the moves)."""
    walk(
        rules,
        seed,
        pick_with_data(data),
        full_checks=False,
        max_plays=100,
        on_state=check_views,
    )


@settings_for(80)
@given(rules=rules_st(("latvian",)), seed=seeds)
def test_views_do_not_give_face_down_tiles_away(rules: Rules, seed: int):
    """Property 8, face-down tiles, over latvian matches (random moves, many face down)."""
    walk(
        rules,
        seed,
        pick_with(random.Random(seed + 1)),
        full_checks=False,
        on_state=check_face_down_ends,
    )


# -- 9: determinism -----------------------------------------------------------------


@settings_for(80)
@given(rules=rules_st(), seed=seeds, data=st.data())
def test_same_seed_and_same_choices_give_the_same_record(
    rules: Rules, seed: int, data: st.DataObject
):
    """Property 9: replaying the same choices from the same seed gives the same record."""
    choices: list[int] = []

    def first(state: MatchState, moves: list[Move]) -> Move:
        i = data.draw(st.integers(0, len(moves) - 1), label="move")
        choices.append(i)
        return moves[i]

    one = walk(rules, seed, first, full_checks=False, max_plays=80)
    replay = iter(choices)
    two = walk(rules, seed, lambda s, m: m[next(replay)], full_checks=False, max_plays=80)
    assert next(replay, None) is None
    assert state_to_json(two) == state_to_json(one)
    assert replay_summary(two) == replay_summary(one)
    three = walk(rules, seed, pick_with(random.Random(seed)), full_checks=False)
    four = walk(rules, seed, pick_with(random.Random(seed)), full_checks=False)
    assert state_to_json(three) == state_to_json(four)


# -- lead orientation (RULES.md#what-every-game-shares) -----------------------------


@settings_for(60)
@given(rules=rules_st(), seed=seeds, data=st.data())
def test_a_lead_shows_at_west_the_half_it_was_led_with(
    rules: Rules, seed: int, data: st.DataObject
):
    """A lead written a-b shows a at west and b at east, as written; the record keeps
    it, and a record whose lead is written either way round replays so.

    RULES.md#what-every-game-shares.
    """
    state = new_match(rules, random.Random(seed))
    leads = [m.tile for m in legal_moves(state)]
    t = data.draw(st.sampled_from(sorted(leads, key=lambda x: x.is_double)), label="lead")
    for west in (t.low, t.high):
        move = Move.lead(t, west)
        assert str(move) == f"{west}-{t.other(west)}"
        after = play(state, move, seat=state.turn)
        ends = view(after, None).table.ends
        assert (ends[W], ends[E]) == (west, t.other(west))
        doc = state_to_json(after)
        assert doc["deals"][0]["moves"][0]["tile"] == f"{west}-{t.other(west)}"
        replayed = view(state_from_json(doc), None).table.ends
        assert (replayed[W], replayed[E]) == (west, t.other(west))


# -- oracle self-checks on RULES.md#worked-examples ---------------------------------


def test_the_fives_count_oracle_agrees_with_the_worked_examples():
    def counts(lead: Placement, *moves: tuple[int, int, End]) -> list[int]:
        table = Table("spinner", 6)
        table.place(lead)
        out = [table.fives_count()]
        for a, b, end in moves:
            table.place(Placement(tile(a, b), end))
            out.append(table.fives_count())
        return out

    five_five = Placement(tile(5, 5), None)
    assert counts(five_five, (5, 0, W), (5, 3, E), (5, 2, N), (5, 6, S)) == [10, 10, 3, 5, 11]
    six_four = Placement(tile(6, 4), None, False, 6)
    assert counts(six_four, (4, 4, E), (4, 1, E), (4, 3, N), (4, 5, S)) == [10, 14, 7, 10, 15]
    assert [round5(n) for n in (13, 12, 8, 11, 0, 2, 3)] == [15, 10, 10, 10, 0, 0, 5]


def test_the_places_and_values_oracles_agree_with_the_worked_examples():
    assert place_points([-25, 13, 50, 7]) == [4, 2, 1, 3]
    assert place_points([5, 9, 9, 20]) == [4, 2.5, 2.5, 1]
    assert place_points([3, 3, 8]) == [3.5, 3.5, 2]
    hands = {"0-0": 25, "6-6": 50, "0-0 6-6": 75, "0-0 1-2": 3, "6-6 0-1": 13}
    for text, value in hands.items():
        assert latvian_value(tuple(Tile.parse(x) for x in text.split())) == value


def test_the_legal_moves_oracle_agrees_with_the_latvian_example():
    """RULES.md#worked-examples: ends N4 E1 S6 W1, hand 4-4 6-6 2-5: 4-4 N, 6-6 S, or both."""
    table = Table("hub", 6)
    for p in [
        Placement(tile(1, 1), None),
        Placement(tile(1, 4), N),
        Placement(tile(1, 6), S),
    ]:
        table.place(p)
    moves = expected_moves(Rules.make("latvian"), table, [tile(4, 4), tile(6, 6), tile(2, 5)], None)
    assert {str(m).replace(" closed", "") for m in moves} == {
        "4-4 north",
        "6-6 south",
        "4-4 north + 6-6 south",
    }
    assert len(moves) == 2 + 2 + 4  # each laid open or face down


# -- regressions: bugs these properties found, fixed in 5590b1c --------------------

LATVIAN_HANDS = (
    ["1-1", "1-3", "2-4", "2-5", "2-6", "3-4", "3-5"],
    ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2"],
)
ALLFIVES_HANDS = (["3-5", "1-1", "2-2"], ["1-3", "4-4", "6-6"])


def tiles(texts: Iterable[str]) -> list[Tile]:
    return [Tile.parse(x) for x in texts]


def small_match(game: str, hands: Iterable[Iterable[str]], **options: Any) -> MatchState:
    dealt = [tiles(h) for h in hands]
    used = {t for h in dealt for t in h}
    stock = [t for t in full_set(6) if t not in used]
    leader = 0 if game == "allfives" else None
    return start_match(Rules.make(game, **options), dealt, stock, leader)


def small_allfives_doc(moves: list[dict[str, Any]]) -> dict[str, Any]:
    used = {t for h in ALLFIVES_HANDS for t in tiles(h)}
    return {
        "rules": {"game": "allfives", "players": 2, "hand": 3},
        "deals": [
            {
                "hands": [list(h) for h in ALLFIVES_HANDS],
                "stock": [str(t) for t in full_set(6) if t not in used],
                "leader": 0,
                "moves": moves,
            }
        ],
    }


def test_regression_a_closed_end_does_not_show_the_far_half_of_its_face_down_tile():
    state = small_match("latvian", LATVIAN_HANDS, deals=1)
    state = play(state, Move.lead(tile(1, 1)))  # seat 0 leads 1-1
    state = play(state, Move.single(tile(0, 1), W, closed=True))  # seat 1: 0-1 face down on W
    seen = view(state, 0).table
    assert seen.arms[W][0].tile is None
    assert seen.ends.get(W) in (None, 1)  # was 0, naming the tile 0-1


def test_regression_a_lead_laid_low_half_west_shows_it_at_west():
    state = small_match("allfives", ALLFIVES_HANDS, hand=3)
    move = Move.lead(tile(3, 5), 3)
    assert str(move) == "3-5"  # was "5-3"
    assert view(play(state, move), None).table.ends[W] == 3  # was 5


def test_regression_a_record_lead_written_low_half_first_replays_as_written():
    doc = small_allfives_doc(
        [{"seat": 0, "tile": "3-5"}, {"seat": 1, "tile": "3-1", "end": "west"}]
    )
    state = state_from_json(doc)  # was RecordError: 3-1 does not fit west (shows 5)
    assert view(state, None).table.ends[W] == 1


def test_regression_a_face_down_lead_is_refused():
    state = small_match("latvian", LATVIAN_HANDS, deals=1)
    with pytest.raises(IllegalMoveError):  # was accepted, and written as an open lead
        play(state, Move((Placement(tile(1, 1), None, True),)))


def test_regression_a_lead_with_a_west_half_not_on_the_tile_is_an_illegal_move():
    state = small_match("latvian", LATVIAN_HANDS, deals=1)
    with pytest.raises(IllegalMoveError):  # was a bare ValueError
        play(state, Move((Placement(tile(1, 1), None, False, 4),)))
    with pytest.raises(IllegalMoveError):
        Move.lead(tile(1, 1), 4)


# -- engine bugs, minimal reproductions ------------------------------------------------


def test_bug_several_doubles_one_without_an_end_is_not_an_illegal_move_error():
    hands = [
        ["1-1", "2-2", "3-3", "0-4", "0-5", "0-6", "4-5"],
        ["1-2", "1-3", "0-1", "0-2", "0-3", "1-4", "1-5"],
    ]
    state = small_match("latvian", hands, deals=1)
    state = play(state, Move.lead(tile(1, 1)))  # seat 0
    state = play(state, Move.single(tile(1, 2), W))  # seat 1: W shows 2; E, N, S show 1
    move = Move((Placement(tile(2, 2), W), Placement(tile(3, 3), None)))
    try:
        play(state, move)
    except IllegalMoveError:
        return
    raise AssertionError("accepted")


def test_bug_changing_the_list_legal_moves_returns_changes_the_state():
    state = small_match("latvian", LATVIAN_HANDS, deals=1)
    moves = legal_moves(state)
    lead = moves[0]
    moves.remove(lead)  # e.g. a bot striking out a move it does not like
    assert legal_moves(state) == [lead]
    play(state, lead)


@st.composite
def odd_moves(draw: st.DrawFn, state: MatchState) -> Move:
    """Any ``Move`` value at all: leads face down or with a west half not on the tile,
    legal moves with a tile added that names no end, besides the ordinary wrong moves."""
    deal = state.deal
    hand = list(deal.hand(deal.turn))
    legal = legal_moves(state)
    kind = draw(st.sampled_from(("lead", "several", "several", "ordinary")))
    if kind == "lead":
        leads = [m.tile for m in legal if m.is_lead] or hand
        t = draw(st.sampled_from(leads))
        closed = draw(st.booleans())
        west = draw(st.none() | st.sampled_from(t.halves) | st.integers(0, 12))
        return Move((Placement(t, None, closed, west),))
    if kind == "several":
        doubles = [m for m in legal if all(t.is_double for t in m.tiles)]
        base = list(draw(st.sampled_from(doubles or legal)).placements)
        held_doubles = [t for t in hand if t.is_double]
        extra = draw(st.sampled_from(draw(st.sampled_from([held_doubles or hand, hand]))))
        at = draw(st.sampled_from([len(base), *range(len(base) + 1)]))
        base.insert(at, Placement(extra, None, draw(st.booleans()), None))
        return Move(tuple(base))
    return draw(wrong_moves(state))


@settings(max_examples=80, deadline=None)
@given(rules=rules_st((*GAMES, "latvian")), seed=seeds, data=st.data())
def test_any_move_value_outside_legal_moves_is_an_illegal_move_error(
    rules: Rules, seed: int, data: st.DataObject
):
    """Property 2 for every ``Move`` value, odd ones included: outside legal_moves (a lead
    turned round aside), it raises IllegalMoveError and changes nothing. Tried on states
    of a match's first 30 moves, often those where several doubles could be laid."""
    states: list[MatchState] = []
    walk(
        rules,
        seed,
        pick_with(random.Random(seed + 1)),
        full_checks=False,
        max_plays=30,
        on_state=lambda state: None if state.deal.over else states.append(state),
    )
    doubles = [
        state
        for state in states
        if any(all(t.is_double for t in m.tiles) for m in legal_moves(state))
    ]
    for _ in range(8):
        pool = data.draw(st.sampled_from([p for p in (doubles, states) if p]), label="pool")
        state = data.draw(st.sampled_from(pool), label="state")
        move = data.draw(odd_moves(state), label="move")
        before = snapshot(state)
        if is_legal(move, legal_moves(state)):
            play(state, move)
        else:
            with pytest.raises(IllegalMoveError):
                play(state, move)
        assert snapshot(state) == before
