"""An exact solver for the end of a sampled deal on a line layout, two sides.

In a sampled world every tile is known, so the rest of a block or draw deal on a
``line`` layout is a game of perfect information whose whole state is the hands,
the two numbers the ends show, whose turn it is, the passes in a row and how far
the boneyard has been drawn. :class:`LineSolver` searches it to the end with
alpha-beta (the mover's side maximizes, the other side minimizes) and a
transposition table, and values finished deals exactly as
:func:`bot.engine.ai.evaluate.deal_value` does.

It gives up (raises :class:`SearchLimit`) past a node budget, and the caller falls
back on playouts.
"""

from __future__ import annotations

from ..deal import Deal
from ..moves import End, Move
from ..tiles import PIPS, SUIT_MASKS, mask_pips
from .evaluate import MATCH_BONUS, WIN_BONUS, deal_value

INF = float("inf")
_EXACT, _LOWER, _UPPER = 0, 1, 2


class SearchLimit(Exception):
    """The solver used up its node budget."""


def solvable(deal: Deal) -> bool:
    """Whether :class:`LineSolver` handles this deal: line layout, two sides, points,
    single or penalty scoring, lead laid."""
    rules = deal.rules
    return (
        rules.layout == "line"
        and len(rules.sides) == 2
        and rules.scoring in ("points", "single", "penalty")
        and deal.layout.lead is not None
        and deal.end is None
    )


class LineSolver:
    """Exact values of positions of one sampled line-layout deal, for ``side``.

    One solver serves every position of the same world (its transposition table is
    shared); ``budget`` caps the nodes it may visit in all.
    """

    __slots__ = (
        "base",
        "blocked_minus",
        "budget",
        "draws",
        "match_bonus",
        "n",
        "nodes",
        "ours",
        "scoring",
        "side",
        "side_of",
        "stock",
        "table",
        "target",
        "win_bonus",
    )

    def __init__(
        self,
        deal: Deal,
        side: int,
        budget: int,
        win_bonus: float = WIN_BONUS,
        match_bonus: float = MATCH_BONUS,
    ) -> None:
        rules = deal.rules
        self.n = rules.players
        self.side_of = tuple(rules.side_of(s) for s in range(self.n))
        self.side = side
        self.ours = tuple(s == side for s in self.side_of)
        self.scoring = rules.scoring
        self.blocked_minus = rules.blocked_scoring == "minus_own"
        self.target = rules.target
        self.base = deal.base_totals
        self.draws = rules.draws
        self.stock = deal.stock
        self.budget = budget
        self.nodes = 0
        self.win_bonus = win_bonus
        self.match_bonus = match_bonus
        self.table: dict[tuple[object, ...], tuple[int, float]] = {}

    def value(self, deal: Deal) -> float:
        """The exact value of ``deal`` as it stands (a :func:`solvable` deal of this
        solver's world, perhaps further on)."""
        values = deal.layout.values
        return self._turn(
            deal.hands[:],
            values[End.WEST],
            values[End.EAST],
            deal.turn,
            deal.passes,
            deal.drawn,
            -INF,
            INF,
        )

    def after(self, deal: Deal, move: Move) -> float:
        """The exact value of ``move`` played in ``deal`` (left as it is): the finished
        deal's value when the move ends it."""
        child = deal.copy()
        child.push(move)
        if child.end is not None:
            return deal_value(child, self.side, self.win_bonus, self.match_bonus)
        return self.value(child)

    # -- search ------------------------------------------------------------------

    def _turn(
        self,
        hands: list[int],
        w: int,
        e: int,
        seat: int,
        passes: int,
        drawn: int,
        alpha: float,
        beta: float,
    ) -> float:
        """Value with ``seat`` to act (before any forced draw)."""
        west = SUIT_MASKS[w]
        east = SUIT_MASKS[e]
        fit = west | east
        n = self.n
        while True:  # a seat that passes is a node too, but needs no call of its own
            nodes = self.nodes + 1
            self.nodes = nodes
            if nodes > self.budget:
                raise SearchLimit
            hand = hands[seat]
            playable = hand & fit
            if not playable and self.draws and drawn < len(self.stock):
                hands, hand, playable, drawn = self._draw(hands, seat, fit, drawn)
            nxt = seat + 1 if seat + 1 < n else 0
            if playable:
                break
            passes += 1
            if passes >= n:
                return self._final(hands, None)
            seat = nxt

        key = (*hands, w, e, seat, passes, drawn) if w <= e else (*hands, e, w, seat, passes, drawn)
        entry = self.table.get(key)
        if entry is not None:
            flag, stored = entry
            if flag == _EXACT:
                return stored
            if flag == _LOWER and stored >= beta:
                return stored
            if flag == _UPPER and stored <= alpha:
                return stored

        maximize = self.side_of[seat] == self.side
        a0, b0 = alpha, beta
        # moves that leave the next seat nothing to lay first, then heavier tiles:
        # good moves first make the cut-offs come sooner (a tile that fits both ends is
        # laid at both, unless they show the same number)
        follow = hands[nxt]
        moves: list[tuple[int, int, int, int]] = []  # order key, tile bit, ends
        rest = playable & west
        while rest:
            low = rest & -rest
            rest ^= low
            pips = PIPS[low.bit_length() - 1]
            nw = pips - w
            moves.append(((not follow & (SUIT_MASKS[nw] | east)) * 100 + pips, low, nw, e))
        if w != e:
            rest = playable & east
            while rest:
                low = rest & -rest
                rest ^= low
                pips = PIPS[low.bit_length() - 1]
                ne = pips - e
                moves.append(((not follow & (west | SUIT_MASKS[ne])) * 100 + pips, low, w, ne))
        if len(moves) > 1:
            moves.sort(reverse=True)
        best = -INF if maximize else INF
        for _, low, nw, ne in moves:
            child = hands[:]
            left = child[seat] = hand ^ low
            if left:
                value = self._turn(child, nw, ne, nxt, 0, drawn, alpha, beta)
            else:
                value = self._final(child, seat)
            if maximize:
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
            elif value < best:
                best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        if best <= a0:
            self.table[key] = (_UPPER, best)
        elif best >= b0:
            self.table[key] = (_LOWER, best)
        else:
            self.table[key] = (_EXACT, best)
        return best

    def _draw(
        self, hands: list[int], seat: int, fit: int, drawn: int
    ) -> tuple[list[int], int, int, int]:
        """``seat`` draws until a tile fits ``fit`` or the boneyard is empty: the new
        hands, its hand, what it may lay (the drawn tile, or nothing) and tiles drawn."""
        stock = self.stock
        hand = hands[seat]
        forced = -1
        while drawn < len(stock):
            top = stock[drawn]
            drawn += 1
            hand |= 1 << top
            if fit >> top & 1:
                forced = top
                break
        hands = hands[:]
        hands[seat] = hand
        return hands, hand, (1 << forced) if forced >= 0 else 0, drawn

    def _final(self, hands: list[int], out_seat: int | None) -> float:
        """The value of a finished deal (a domino by ``out_seat``, or blocked)."""
        me = self.side
        mine = theirs = 0
        for ours, hand in zip(self.ours, hands):  # noqa: B905 (a hot loop; same lengths)
            if ours:
                mine |= hand
            else:
                theirs |= hand
        mine = mask_pips(mine)
        theirs = mask_pips(theirs)
        if out_seat is not None:
            won = 1 if self.side_of[out_seat] == me else -1
        elif mine != theirs:
            won = 1 if mine < theirs else -1
        else:
            won = 0
        scoring = self.scoring
        if scoring == "single":
            return float(won)
        if scoring == "penalty":
            return float(theirs - mine)
        # the winning side scores the other side's pips (less its own, blocked, when
        # the rules say so)
        minus = out_seat is None and self.blocked_minus
        if won > 0:
            score, other = theirs - mine if minus else theirs, 0
        elif won < 0:
            score, other = 0, mine - theirs if minus else mine
        else:
            score = other = 0
        value = float(score - other) + self.win_bonus * won
        target = self.target
        if target is not None and self.match_bonus:
            reached = self.base[me] + score >= target
            if reached != (self.base[1 - me] + other >= target):
                value += self.match_bonus if reached else -self.match_bonus
        return value
