"""Sample deals for tests, benchmarks and the documentation's pictures.

:func:`full_deal` lays a whole set (28 or 91 tiles) as one board (:func:`full_match`
holds it as a match, to draw from its public view). The tiles
follow an Eulerian circuit of the set, a chain through all tiles starting and
ending on the top double. One exists for double-6 and double-12, where every
number appears an even number of times (counting a double twice); double-9
has none. Real play stops one tile short of
that, because a deal ends the moment its first player goes out and someone
always holds a tile; the last tile is then laid on the layout directly.
"""

from __future__ import annotations

import random
from itertools import pairwise

from bot.engine.deal import Deal
from bot.engine.match import MatchState, decide_match, new_match, next_deal, play
from bot.engine.mexican import TrainDeal
from bot.engine.moves import End, Move, Placement
from bot.engine.rules import LayoutKind, Rules
from bot.engine.tiles import Tile, full_set, tile
from bot.engine.trains import NO_DOUBLE

__all__ = ["finished_match", "full_deal", "full_match", "mexican_late", "random_match"]


def random_match(rules: Rules, seed: int, moves: int | None = None) -> MatchState:
    """A match of random legal moves: ``moves`` of them, or until the first deal ends."""
    rng = random.Random(seed)
    state = new_match(rules, rng)
    made = 0
    while not state.deal.over and (moves is None or made < moves):
        state = play(state, rng.choice(state.legal_moves()))
        made += 1
    return state


def finished_match(rules: Rules, seed: int, deals: int = 1) -> MatchState:
    """A match of random legal moves played for ``deals`` whole deals (or to its end)."""
    rng = random.Random(seed)
    state = new_match(rules, rng)
    for number in range(deals):
        if number:
            state = next_deal(state, rng)
        while not state.deal.over:
            state = play(state, rng.choice(state.legal_moves()))
        if state.over:
            break
    return state


def _circuit(top: int) -> list[Tile]:
    """Every tile of double-``top`` in one chain from ``top`` back to ``top``, top double first."""
    unused: dict[int, list[int]] = {n: [] for n in range(top + 1)}
    for t in full_set(top):
        unused[t.low].append(t.high)
        if not t.is_double:
            unused[t.high].append(t.low)
    for others in unused.values():
        others.sort()
    stack, path = [top], []
    while stack:  # Hierholzer's algorithm
        v = stack[-1]
        if unused[v]:
            w = unused[v].pop()
            if w != v:
                unused[w].remove(v)
            stack.append(w)
        else:
            path.append(stack.pop())
    steps = [tile(a, b) for a, b in pairwise(path)]
    first = steps.index(tile(top, top))
    return steps[first:] + steps[:first]


def _arm_sequences(top: int, kind: LayoutKind) -> dict[End, list[Tile]]:
    """The circuit after the lead, dealt out to the arms; each arm starts on ``top``."""
    chain = _circuit(top)[1:]
    if kind == "line":
        half = len(chain) // 2
        return {End.EAST: chain[:half], End.WEST: chain[half:][::-1]}
    # Cut the chain wherever it comes back to the top number, and share the loops out.
    loops: list[list[Tile]] = [[]]
    value = top
    for t in chain:
        loops[-1].append(t)
        value = t.other(value)
        if value == top:
            loops.append([])
    arms: dict[End, list[Tile]] = {end: [] for end in End}
    for loop in sorted((x for x in loops if x), key=len, reverse=True):
        min(arms.values(), key=len).extend(loop)  # the shortest arm, west first on a tie
    return arms


def full_deal(top: int = 6, kind: LayoutKind = "line", players: int = 2) -> Deal:
    """A block deal of double-``top`` with every tile of the set on the table.

    ``kind`` is ``"line"`` or ``"spinner"`` (the top double leads and spins).
    Seats take turns; the final tile is laid on the layout after the deal ended.
    ``top`` is 6 or 12 (double-9 cannot be laid as one chain).
    """
    if top % 2:
        raise ValueError(f"double-{top} cannot be laid in one chain; use double-6 or double-12")
    arms = _arm_sequences(top, kind)
    queues = {end: list(seq) for end, seq in arms.items() if seq}
    moves = [Move.lead(tile(top, top))]
    while queues:
        for end in (End.WEST, End.EAST, End.NORTH, End.SOUTH):
            if end in queues:
                moves.append(Move.single(queues[end].pop(0), end))
                if not queues[end]:
                    del queues[end]
    hands: list[list[Tile]] = [[] for _ in range(players)]
    for i, move in enumerate(moves):
        hands[i % players].append(move.tile)
    hand = len(moves) // players  # rules only check it; the first seats hold one more
    rules = Rules.make("block", set=top, players=players, hand=hand, layout=kind)
    deal = Deal.start(rules, hands, [])
    for move in moves:
        if deal.over:
            placement = move.placements[0]
            deal.layout.place(Placement(placement.tile, placement.end))
            deal.hands = [h & ~(1 << placement.tile) for h in deal.hands]
        else:
            deal.push(move)
    return deal


def full_match(top: int = 6, kind: LayoutKind = "line", players: int = 2) -> MatchState:
    """:func:`full_deal` as the one deal of a match (what pictures are drawn from)."""
    deal = full_deal(top, kind, players)
    assert deal.result is not None
    return MatchState(deal.rules, (deal,), outcome=decide_match(deal.rules, [deal.result]))


_D12 = "0-12 7-9 8-11 10-10 3-12 5-6 11-12 2-9 1-7 6-8 4-10 9-12"
HAND_D12 = tuple(map(Tile.parse, _D12.split()))
"""Twelve tiles of double-12 (three of them, 10-10, 3-12 and 11-12, playable in the
samples): a hand that needs numerals above 6."""


def mexican_late(players: int = 4, seed: int = 0) -> MatchState:
    """A round of Mexican Train (double-12) late in play: long trains, markers out on
    some of them and a double waiting to be satisfied.

    The seats play random legal moves, on their own train seven times in ten when they
    can (as people do). The state is the last one of the round's first deal with a
    double waiting and at least two markers out (before the round ends).
    """
    rules = Rules.make("mexican", players=players)
    for attempt in range(seed, seed + 50):
        rng = random.Random(attempt)
        state = new_match(rules, rng)
        found: MatchState | None = None
        while not state.deal.over:
            moves = state.legal_moves()
            own = [m for m in moves if m.train == state.deal.turn]
            state = play(state, rng.choice(own if own and rng.random() < 0.7 else moves))
            deal = state.deal
            assert isinstance(deal, TrainDeal)
            station = deal.station
            if not deal.over and station.unsatisfied != NO_DOUBLE and sum(station.markers) >= 2:
                found = state
        if found is not None:
            return found
    raise AssertionError(f"no late Mexican Train round from seed {seed}")  # pragma: no cover
