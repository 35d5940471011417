"""An exact solver for three sides or more where each seat plays for its own side.

:class:`~bot.engine.ai.solver.LineSolver` with three sides or more plays
*paranoid*: the other sides together against the mover's, which measured worse
in 3-player draw than playouts (two normal players do not gang up on the third).
:class:`MaxnSolver` searches the same sampled world with *max^n*: every finished
deal has a value for each side (the engine's scoring seen from that side), and
at each turn the seat lays what is best for its own side; between moves equally
good for it, the one worse for the side searching (a cautious tie-break), then
the lower values in order. No
alpha-beta cut-offs apply, so it visits more nodes than the paranoid search; the
transposition table keeps each position's values.
"""

from __future__ import annotations

from ..deal import Deal
from ..moves import End
from ..tiles import PIPS, SUIT_MASKS
from .solver import LineSolver, SearchLimit

Values = tuple[float, ...]
"""A position's value for each side."""


class MaxnSolver(LineSolver):
    """Exact max^n values of positions of one sampled line-layout deal, read for ``side``."""

    __slots__ = ("vectors",)

    def __init__(self, deal: Deal, side: int, budget: int, win_bonus: float) -> None:
        super().__init__(deal, side, budget, win_bonus)
        self.vectors: dict[tuple[int, ...], Values] = {}

    def value(self, deal: Deal) -> float:
        return self.values(deal)[self.side]

    def values(self, deal: Deal) -> Values:
        """The value of ``deal`` as it stands for every side."""
        ends = deal.layout.values
        return self._next(
            deal.hands[:], ends[End.WEST], ends[End.EAST], deal.turn, deal.passes, deal.drawn
        )

    def _next(self, hands: list[int], w: int, e: int, seat: int, passes: int, drawn: int) -> Values:
        """Values with ``seat`` to act (before any forced draw)."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise SearchLimit
        fit = SUIT_MASKS[w] | SUIT_MASKS[e]
        hand = hands[seat]
        playable = hand & fit
        if not playable and self.draws and drawn < len(self.stock):
            hands, hand, playable, drawn = self._draw(hands, seat, fit, drawn)
        nxt = seat + 1 if seat + 1 < self.n else 0
        if not playable:
            if passes + 1 >= self.n:
                return self._side_values(hands, None)
            return self._next(hands, w, e, nxt, passes + 1, drawn)
        lo, hi = (w, e) if w <= e else (e, w)
        key = (*hands, lo, hi, seat, passes, drawn)
        found = self.vectors.get(key)
        if found is not None:
            return found
        mine = self.side_of[seat]
        ours = self.side
        best: Values | None = None
        rest = playable
        while rest:
            low = rest & -rest
            rest ^= low
            t = low.bit_length() - 1
            child = hands[:]
            child[seat] = hand & ~low
            ends = []
            if SUIT_MASKS[w] >> t & 1:
                ends.append((PIPS[t] - w, e))
            if SUIT_MASKS[e] >> t & 1 and (w != e or not ends):
                ends.append((w, PIPS[t] - e))
            for nw, ne in ends:
                if not child[seat]:
                    values = self._side_values(child, seat)
                else:
                    values = self._next(child, nw, ne, nxt, 0, drawn)
                if best is None or _prefers(values, best, mine, ours):
                    best = values
        assert best is not None
        self.vectors[key] = best
        return best


def _prefers(values: Values, best: Values, mine: int, ours: int) -> bool:
    """Whether the mover (side ``mine``) lays for ``values`` rather than ``best``: better
    for its side; as good, worse for ``ours``; then the lower values in order (so the
    choice does not hang on the order the moves are tried)."""
    if values[mine] != best[mine]:
        return values[mine] > best[mine]
    if values[ours] != best[ours]:
        return values[ours] < best[ours]
    return values < best
