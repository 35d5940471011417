"""Deals replayed for the AI's tests: a seat's knowledge next to the real hands."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from bot.engine import Deal, Rules, deal_tiles, new_match, play, view
from bot.engine.ai import choose_move
from bot.engine.ai.determinize import World, sample_world
from bot.engine.ai.knowledge import Choice, Knowledge, read_view
from bot.engine.ai.solver import solvable


def seat_zero_turns(rules: Rules, level: str, deals: int) -> Iterator[tuple[Knowledge, World]]:
    """Seat 0's knowledge and the real world at each of its turns, over ``deals`` deals
    played by ``level`` in every seat."""
    for seed in range(deals):
        rng = random.Random(seed)
        state = new_match(rules, rng)
        while not state.deal.over:
            seat = state.deal.turn
            seen = view(state, seat)
            if seat == 0:
                yield read_view(seen), World(list(state.deal.hands), [], [])
            state = play(state, choose_move(seen, level, rng), seat)


def exact_choices(
    rules: Rules, deals: int, seed: int
) -> Iterator[tuple[Knowledge, World, list[tuple[Choice, int]]]]:
    """At seat 0's turns (normal players), the real world and a sampled one, each with
    the exact choices of the other seats and the chooser's hand then in that world."""
    rng = random.Random(seed)
    for know, real in seat_zero_turns(rules, "normal", deals):
        for world in (real, sample_world(know, rng)):
            pairs = [
                (c, world.hands[c.seat] | c.later | (1 << c.tile)) for c in know.choices if c.exact
            ]
            yield know, world, pairs


def endgame(config: dict[str, Any], seed: int, tiles_left: int) -> Deal | None:
    """A deal of ``config`` played by random moves (random match scores before it) until
    ``tiles_left`` tiles or fewer are in hands and boneyard, if it is solvable then."""
    rules = Rules.make(**config)
    rng = random.Random(seed)
    hands, stock = deal_tiles(rules, rng)
    deal = Deal.start(rules, hands, stock)
    deal.base_totals = tuple(rng.choice((0, 10, 15)) for _ in rules.sides)
    while deal.end is None and sum(deal.hand_sizes()) + deal.boneyard_size > tiles_left:
        deal.push(rng.choice(deal.legal_moves()))
    return deal if deal.end is None and solvable(deal) else None
