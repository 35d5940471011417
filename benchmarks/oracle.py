"""Experiments only: a hard level that is told a real hand, to measure what reading
it would be worth (``ai_regret.py --variant NAME:oracle=...``, ``ai_arena.py
--oracle``). Never a player: it sees what it should not.

``partner`` and ``next`` tell the search that seat's hand; ``all`` tells it every
hand (the omniscient ceiling). For 4-player block, where no tile sleeps.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.engine import MatchState
from bot.engine.ai import search
from bot.engine.ai.determinize import World, sample_world
from bot.engine.ai.knowledge import Knowledge

ORACLES = ("partner", "next", "all")
Sampler = Callable[[Knowledge, random.Random], World]


def oracle_sampler(real: list[int], target: int | None) -> Sampler:
    """A sampler that knows seat ``target``'s real hand (``None``: every hand): each
    sampled world is mended so that seat holds it, the tiles it displaces dealt at
    random to the other hidden hands (their passes are not respected: an experiment's
    upper bound, not a player)."""

    def sample(know: Knowledge, rng: random.Random) -> World:
        world = sample_world(know, rng)
        if target is None:
            return World(list(real), world.hidden, world.stock)
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


def tell(state: MatchState, seat: int, oracle: str) -> None:
    """Make the hard level's next search (in this process) see what ``oracle`` names
    from ``state``'s real hands, for ``seat`` to decide; ``""``: play fair."""
    sampler: Sampler = sample_world
    if oracle:
        players = state.rules.players
        target = None if oracle == "all" else (seat + (2 if oracle == "partner" else 1)) % players
        sampler = oracle_sampler(list(state.deal.hands), target)
    setattr(search, "sample_world", sampler)  # noqa: B010 (the experiment's sampler)
