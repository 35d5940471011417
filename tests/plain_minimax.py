"""A plain minimax over a deal's own rules (no pruning, no solver, no table): what the
solver, the puzzle finder and the review are checked against."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.deal import Deal


def minimax(deal: Deal, side: int, leaf: Callable[[Deal, int], float]) -> float:
    """The value for ``side`` when both sides play perfectly, by the engine's moves;
    ``leaf(deal, side)`` values a finished deal."""
    if deal.end is not None:
        return leaf(deal, side)
    values = []
    for move in deal.legal_moves():
        child = deal.copy()
        child.push(move)
        values.append(minimax(child, side, leaf))
    return max(values) if deal.side_of[deal.turn] == side else min(values)
