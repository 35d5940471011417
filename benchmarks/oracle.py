"""Experiments only: a hard level that is told a real hand, to measure what reading
it would be worth (``ai_regret.py --variant NAME:oracle=...``, ``ai_arena.py
--oracle``). Never a player: it sees what it should not.

``partner`` and ``next`` tell the search that seat's hand; ``all`` tells it every
hand (the omniscient ceiling); ``partner_...`` one kind of fact about the partner's
hand (:data:`ORACLES`). For 4-player block, where no tile sleeps; ``all`` in draw
games too (the boneyard's real order with the hands).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot.engine import MatchState
from bot.engine.ai import search
from bot.engine.ai.determinize import World, sample_world
from bot.engine.ai.knowledge import Knowledge
from bot.engine.layout import Layout
from bot.engine.tiles import SUIT_MASKS, TILES, Tile

PARTIAL = ("long", "one", "void", "1", "2")
ORACLES = ("partner", "next", "all", *(f"partner_{k}" for k in PARTIAL))
"""Besides whole hands, what the partner's hand says of one kind (``partner_...``):
``long``, the most tiles it holds of one number and every number it holds that many
of; ``one``, one number it holds most of (not how many); ``void``, the numbers it
lacks; ``1``, ``2``, its heaviest one or two tiles. Told by rejection from the fair
sampler, so every public fact still holds: what a convention, or a reading, telling
that much could be worth at most."""
TRIES = 2_000
"""Worlds tried for one that agrees; then the last one is used."""
Sampler = Callable[[Knowledge, random.Random, Any], World]
"""``sample_world``'s signature (the view, the rng and its fixed groups)."""


def oracle_sampler(
    real: list[int],
    target: int | None,
    boneyard: list[Tile] | None = None,
    table: Layout | None = None,
) -> Sampler:
    """A sampler that knows seat ``target``'s real hand (``None``: every hand, and in
    draw games the real ``boneyard`` too, and the real face-down tiles of ``table``):
    each sampled world is mended so that seat holds it, the tiles it displaces dealt at
    random to the other hidden hands (their passes are not respected: an experiment's
    upper bound, not a player)."""

    def sample(know: Knowledge, rng: random.Random, fixed: Any = None) -> World:
        world = sample_world(know, rng, fixed)
        if target is None:
            stock = world.stock if boneyard is None else list(boneyard)
            hidden = world.hidden
            if table is not None:  # a face-down tile closes its road: it is the last
                hidden = [table.arms[h.end][-1].tile for h in know.hidden]
            return World(list(real), hidden, stock)
        others = [s for s in range(len(real)) if s not in (know.seat, target)]
        pool = world.hands[target]
        for s in others:
            pool |= world.hands[s]
        tiles = [t for t in range(pool.bit_length()) if (pool & ~real[target]) >> t & 1]
        rng.shuffle(tiles)
        hands = list(world.hands)
        hands[target] = real[target]
        for s in others:
            count = world.hands[s].bit_count()
            hands[s] = sum(1 << t for t in tiles[:count])
            del tiles[:count]
        return World(hands, world.hidden, world.stock)

    return sample


def long_numbers(hand: int) -> tuple[int, int]:
    """The most tiles ``hand`` holds of one number 0-6, and the numbers held that often
    (a mask)."""
    counts = [(hand & SUIT_MASKS[n]).bit_count() for n in range(7)]
    top = max(counts)
    return top, sum(1 << n for n in range(7) if counts[n] == top)


def void_numbers(hand: int) -> int:
    """The numbers 0-6 ``hand`` holds no tile of (a mask)."""
    return sum(1 << n for n in range(7) if not hand & SUIT_MASKS[n])


def agreement(real: int, what: str) -> Callable[[int], bool]:
    """Whether a hand agrees with ``real`` on ``what`` (see :data:`ORACLES`)."""
    if what == "long":
        return lambda hand: long_numbers(hand) == long_numbers(real)
    if what == "one":
        numbers = long_numbers(real)[1]
        one = SUIT_MASKS[(numbers & -numbers).bit_length() - 1]
        return lambda hand: (hand & one).bit_count() == long_numbers(hand)[0]
    if what == "void":
        return lambda hand: void_numbers(hand) == void_numbers(real)
    tiles = sorted(
        (t for t in range(real.bit_length()) if real >> t & 1), key=lambda t: (-TILES[t].pips, t)
    )
    need = sum(1 << t for t in tiles[: int(what)])
    return lambda hand: hand & need == need


def partial_sampler(real: int, target: int, what: str) -> Sampler:
    """A sampler whose worlds agree with seat ``target``'s real hand ``real`` on ``what``
    (rejection from the fair sampler, at most :data:`TRIES` worlds)."""
    agrees = agreement(real, what)

    def sample(know: Knowledge, rng: random.Random, fixed: Any = None) -> World:
        world = sample_world(know, rng, fixed)
        for _ in range(TRIES):
            if agrees(world.hands[target]):
                break
            world = sample_world(know, rng, fixed)
        return world

    return sample


def tell(state: MatchState, seat: int, oracle: str) -> None:
    """Make the hard level's next search (in this process) see what ``oracle`` names
    from ``state``'s real hands, for ``seat`` to decide; ``""``: play fair."""
    sampler: Sampler = sample_world
    if oracle:
        players = state.rules.players
        target = None if oracle == "all" else (seat + (1 if oracle == "next" else 2)) % players
        what = oracle.removeprefix("partner_")
        if target is not None and what in PARTIAL:
            sampler = partial_sampler(state.deal.hands[target], target, what)
        else:
            deal = state.deal
            boneyard = list(deal.boneyard) if deal.rules.draws else None
            sampler = oracle_sampler(list(deal.hands), target, boneyard, deal.layout)
    setattr(search, "sample_world", sampler)  # noqa: B010 (the experiment's sampler)
