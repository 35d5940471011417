"""Guessing the hidden tiles: sampled worlds consistent with everything public, as deals.

A *world* gives every tile the viewer cannot see a place: another seat's hand,
a hidden face-down tile, or the stock (the boneyard in its drawing order, or the
tiles out of play in block). :func:`sample_world` draws one at random such that

* every hand has its public size, and the stock the rest;
* a seat that passed or drew while the table showed numbers X held no tile
  carrying X at that moment, and the tiles it drew before the one that fitted
  carried none either; tiles it drew later may carry X;
* the lead proves which tiles no hand was dealt (a higher double, say);
* a hidden face-down tile carries the number of the end it closed (a double,
  when it was laid with other doubles).

A seat's hand is a mix of the tiles it was dealt and the tiles of each draw it
kept, each part with its own forbidden tiles; which part each tile the seat laid
came from is chosen at random, weighted by the parts' sizes. :func:`build_deal`
turns a world into a :class:`Deal` ready for playouts.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..deal import Deal
from ..layout import Laid as LaidTile
from ..layout import Layout
from ..tiles import PIPS, SUIT_MASKS, TILES, Tile, tiles_in
from .knowledge import Choice, Drawn, Knowledge, Laid, Void

RANDOM_ORIGINS = 4
"""Tries with the origins of laid tiles chosen at random, before the oldest-first choice."""
ATTEMPTS = 12
"""Random fills tried before the exact (matching) fill is used."""


@dataclass(slots=True)
class World:
    """One guess at the hidden tiles."""

    hands: list[int]
    """Every seat's hand as a tile mask (the viewer's own as it is)."""
    hidden: list[Tile]
    """The tile under each hidden face-down tile (``Knowledge.hidden`` order)."""
    stock: list[Tile]
    """The tiles in no hand and not on the table; for draw games, top first."""
    relaxed: bool = False
    """Set when no consistent world was found and some constraint was dropped."""


@dataclass(slots=True)
class _Group:
    """``count`` tiles to choose, each from ``allowed``; ``seat`` -1 is a hidden tile."""

    seat: int
    count: int
    allowed: int
    hidden: int = -1


def sample_world(know: Knowledge, rng: random.Random, fixed: list[_Group] | None = None) -> World:
    """A random world consistent with ``know`` (see the module docstring); ``fixed``:
    its :func:`fixed_groups`, when a caller samples many worlds of the same view."""
    groups: list[_Group] = []
    for attempt in range(ATTEMPTS):
        groups = fixed or _groups(know, rng, oldest=attempt >= RANDOM_ORIGINS)
        world = _fill_greedy(know, groups, rng)
        if world is not None:
            return world
    world = _fill_matching(know, groups, rng)
    if world is not None:
        return world
    relaxed = [_Group(g.seat, g.count, know.unseen, g.hidden) for g in groups]
    world = _fill_greedy(know, relaxed, rng)
    assert world is not None, "hand sizes do not add up"
    world.relaxed = True
    return world


def fixed_groups(know: Knowledge) -> list[_Group] | None:
    """What each other seat's hand may hold, when that is the same in every world: no
    seat has drawn, so each hand is one part and no laid tile's origin is a choice
    (``None`` otherwise; the rng handed to :func:`_groups` is never drawn from). A
    search computes them once for all its worlds."""
    if any(isinstance(step, Drawn) for story in know.stories for step in story):
        return None
    return _groups(know, random.Random(0)) or None


def _groups(know: Knowledge, rng: random.Random, oldest: bool = False) -> list[_Group]:
    """What each other seat's hand (and hidden tile) may hold, split by origin.

    Each tile a seat laid is put down to a part of its hand that could have held it:
    at random, weighted by the parts' sizes, or (``oldest``) the oldest such part,
    which keeps the hand as free as possible: if any choice of origins is
    consistent, that one is.
    """
    groups: list[_Group] = []
    hand_size = know.rules.hand
    for seat, story in enumerate(know.stories):
        if seat == know.seat:
            continue
        # Each part of the hand: [tiles left in it, tiles it may not hold].
        parts: list[list[int]] = [[hand_size, know.not_dealt]]
        for step in story:
            if isinstance(step, Void | Drawn):
                for part in parts:
                    if part[0]:
                        part[1] |= step.fit
                if isinstance(step, Drawn):
                    parts.append([step.kept, step.fit])
            elif isinstance(step, Laid):
                _pick_part(parts, rng, 1 << step.tile, oldest=oldest)[0] -= 1
            else:
                forbidden = 0
                if not step.forced:
                    part = _pick_part(parts, rng, step.allowed & know.unseen, True, oldest)
                    part[0] -= 1
                    forbidden = part[1]
                index = next(
                    i for i, h in enumerate(know.hidden) if h.seat == seat and h.end == step.end
                )
                groups.append(_Group(-1, 1, step.allowed & ~forbidden & know.unseen, index))
        left = 0
        for count, forbidden in parts:
            if count > 0:
                groups.append(_Group(seat, count, know.unseen & ~forbidden))
                left += count
        if left != know.hand_sizes[seat]:
            # The story does not add up (it cannot, for a real history): fall back
            # to the seat's present hand size with what it surely lacks now.
            groups = [g for g in groups if g.seat != seat]
            groups.append(_Group(seat, know.hand_sizes[seat], know.unseen & ~know.voids[seat]))
    return groups


def _pick_part(
    parts: list[list[int]],
    rng: random.Random,
    tiles: int,
    any_of: bool = False,
    oldest: bool = False,
) -> list[int]:
    """The part a laid tile came from: one that still has tiles and could hold it
    (``any_of``: hold one of ``tiles``), the oldest or chosen with weight its size (no
    random number is drawn when only one part could)."""
    fitting = [p for p in parts if p[0] > 0 and ((tiles & ~p[1]) if any_of else not (tiles & p[1]))]
    if not fitting:
        fitting = [p for p in parts if p[0] > 0] or parts
    if oldest or len(fitting) == 1:
        return fitting[0]
    total = sum(max(p[0], 0) for p in fitting)
    if total <= 0:
        return fitting[-1]
    r = rng.randrange(total)
    for p in fitting:
        r -= max(p[0], 0)
        if r < 0:
            return p
    return fitting[-1]


def _fill_greedy(know: Knowledge, groups: list[_Group], rng: random.Random) -> World | None:
    """Fill the most constrained group first, each with a random choice; ``None`` on a
    dead end."""
    pool = know.unseen
    placed: list[tuple[_Group, Tile]] = []
    todo = list(range(len(groups)))
    while todo:
        best = -1
        best_slack = 1 << 30
        for i in todo:
            g = groups[i]
            slack = (g.allowed & pool).bit_count() - g.count
            if slack < best_slack:
                best, best_slack = i, slack
        if best_slack < 0:
            return None
        todo.remove(best)
        g = groups[best]
        for t in rng.sample(list(tiles_in(g.allowed & pool)), g.count):
            pool &= ~(1 << t)
            placed.append((g, t))
    return _world(know, placed, rng)


def _fill_matching(know: Knowledge, groups: list[_Group], rng: random.Random) -> World | None:
    """An exact fill by bipartite matching (slots to tiles, in random order), for when
    the greedy fill keeps running into dead ends; ``None`` if none exists."""
    slots = [i for i, g in enumerate(groups) for _ in range(g.count)]
    rng.shuffle(slots)
    owner: dict[int, int] = {}  # tile -> slot index

    def augment(slot: int, seen: set[int]) -> bool:
        options = list(tiles_in(groups[slots[slot]].allowed & know.unseen))
        rng.shuffle(options)
        for t in options:
            if t in seen:
                continue
            seen.add(t)
            if t not in owner or augment(owner[t], seen):
                owner[t] = slot
                return True
        return False

    for slot in range(len(slots)):
        if not augment(slot, set()):
            return None
    return _world(know, [(groups[slots[slot]], TILES[t]) for t, slot in owner.items()], rng)


def _world(know: Knowledge, placed: list[tuple[_Group, Tile]], rng: random.Random) -> World:
    """The world where each tile of ``placed`` went to its group, the rest to the stock
    (shuffled)."""
    hands = [0] * know.rules.players
    hands[know.seat] = know.hand
    hidden: list[Tile] = [TILES[0]] * len(know.hidden)
    pool = know.unseen
    for g, t in placed:
        pool &= ~(1 << t)
        if g.seat >= 0:
            hands[g.seat] |= 1 << t
        else:
            hidden[g.hidden] = t
    stock = list(tiles_in(pool))
    rng.shuffle(stock)
    return World(hands, hidden, stock)


def play_weight(
    know: Knowledge,
    world: World,
    heft: tuple[float, ...],
    signal: dict[int, tuple[float, ...]] | None = None,
) -> float:
    """How well ``world`` explains the tiles the other seats chose to lay.

    Players tend to lay their heavy tiles and doubles first: a seat is taken to
    choose among the tiles it could lay with chance proportional to ``heft[tile]``
    (the tiles it could lay: its hand now, plus what it laid since, that fitted the
    table then). The likelihood of a world is the product over the seats of their
    choices' chances. Choices followed by a draw or a hidden tile are skipped (the
    hand then is not known from the world).

    ``signal`` reads some seats' choices as signals of their long number too: such a
    seat is taken to choose among the placements it could make (a tile on an open
    number) with its heft times ``signal[seat][k]``, ``k`` the tiles it would have
    kept carrying the number the placement leaves open.
    """
    hands = world.hands
    heavy: dict[int, float] = {}
    for c in know.choices:
        if not c.exact:
            continue
        tile = int(c.tile)
        hand = hands[c.seat] | c.later | (1 << tile)
        kept = signal.get(c.seat) if signal else None
        if kept is not None:
            total = _signal_total(c, hand, heft, kept)
            rest = (hands[c.seat] | c.later) & SUIT_MASKS[c.exposed]
            chosen = heft[tile] * kept[rest.bit_count()]
        else:
            total = sum((heft[t] for t in tiles_in(hand & c.fit)), 0.0)
            chosen = heft[tile]
        heavy[c.seat] = heavy.get(c.seat, 1.0) * chosen / total
    return math.prod(heavy.values(), start=1.0)


def _signal_total(
    c: Choice, hand: int, weights: tuple[float, ...], kept: tuple[float, ...]
) -> float:
    """The summed weights of the placements open to a seat holding ``hand`` at choice
    ``c`` (see :func:`play_weight`)."""
    total = 0.0
    ends = c.ends
    while ends:
        low = ends & -ends
        value = low.bit_length() - 1
        ends ^= low
        for t in tiles_in(hand & SUIT_MASKS[value]):
            rest = (hand ^ (1 << t)) & SUIT_MASKS[PIPS[t] - value]
            total += weights[t] * kept[rest.bit_count()]
    return total


def signal_table(gamma: float, count: int = 14) -> tuple[float, ...]:
    """``exp(gamma * k)`` for ``k`` below ``count``: the weight of a placement that keeps
    ``k`` tiles of the number it leaves open."""
    return tuple(math.exp(gamma * k) for k in range(count))


def tile_heft(beta: float, double_bonus: float, count: int) -> tuple[float, ...]:
    """``exp(beta * (pips + double_bonus if a double))`` for each tile id below ``count``."""
    return tuple(
        math.exp(beta * (PIPS[t] + (double_bonus if TILES[t].is_double else 0)))
        for t in range(count)
    )


def world_layout(know: Knowledge, world: World) -> Layout:
    """The table of ``world``: the public one, with the hidden face-down tiles filled in."""
    layout = know.layout.copy()
    for h, t in zip(know.hidden, world.hidden, strict=True):
        arm = layout.arms[h.end]
        last = arm[-1]
        arm[-1] = LaidTile(t, last.inner, PIPS[t] - last.inner, True)
        layout.values[h.end] = PIPS[t] - last.inner
        layout.on_table |= 1 << t
    return layout


def build_deal(know: Knowledge, world: World) -> Deal:
    """A :class:`Deal` in the position the viewer sees, with ``world``'s hidden tiles.

    Set up as dealt, then brought to the position (``Deal.start`` would deal and lead
    afresh); its history holds only what happens from now on.
    """
    deal = Deal.__new__(Deal)
    lead = _lead_tile(know)
    deal._setup(know.rules, world.hands[:], world.stock, know.leader, lead, know.base_totals)
    deal.dealt = tuple(tuple(tiles_in(h)) for h in world.hands)
    deal.layout = world_layout(know, world)
    deal.turn = know.seat
    deal.passes = know.passes
    deal.forced = know.forced
    deal.play_points = list(know.play_points)
    return deal


def _lead_tile(know: Knowledge) -> Tile | None:
    """The tile that must lead, while the lead is still to be laid (else ``None``)."""
    if know.placements or know.rules.game == "allfives":
        return None
    leads = {m.tile for m in know.legal}
    return next(iter(leads)) if len(leads) == 1 else None
