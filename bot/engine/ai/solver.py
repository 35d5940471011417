"""An exact solver for the end of a sampled deal on a line layout, two sides (or more,
*paranoid*: the other sides taken to play together against the mover's).

In a sampled world every tile is known, so the rest of a block or draw deal on a
``line`` layout is a game of perfect information whose whole state is the hands,
the two numbers the ends show, whose turn it is, the passes in a row and how far
the boneyard has been drawn. :class:`LineSolver` searches it to the end with
alpha-beta (the mover's side maximizes, the other side minimizes) and a
transposition table, and values finished deals exactly as
:func:`bot.engine.ai.evaluate.deal_value` does.

With ``chance`` (an experiment, setting ``chance``) the other side's seats are taken
to lay at random with that chance, each of the moves the engine lists for them equally
likely, and their best move otherwise: a position's value is ``chance`` times the mean
of its moves' plus the rest times the least (``1.0``: expectimax, the best reply to
players who move at random, where alpha-beta answers perfect ones).

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


def solvable(deal: Deal, paranoid: bool = False) -> bool:
    """Whether :class:`LineSolver` handles this deal: line layout, two sides (or more,
    when ``paranoid``), lead laid."""
    rules = deal.rules
    return (
        rules.layout == "line"
        and (len(rules.sides) == 2 or (paranoid and len(rules.sides) > 2))
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
        "chance",
        "draws",
        "n",
        "nodes",
        "ours",
        "scoring",
        "side",
        "side_of",
        "sides",
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
        chance: float = 0.0,
    ) -> None:
        rules = deal.rules
        self.chance = chance if len(rules.sides) == 2 else 0.0
        self.n = rules.players
        self.side_of = tuple(rules.side_of(s) for s in range(self.n))
        self.sides = len(rules.sides)
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
            return deal_value(child, self.side, self.win_bonus)
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
        if self.chance and not maximize:
            return self._mean(key, hands, hand, playable, w, e, seat, nxt, drawn)
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

    def _mean(
        self,
        key: tuple[object, ...],
        hands: list[int],
        hand: int,
        playable: int,
        w: int,
        e: int,
        seat: int,
        nxt: int,
        drawn: int,
    ) -> float:
        """With ``chance``: the value of an other side's turn, ``chance`` times the mean of
        the moves ``seat`` may make (the engine's list: a tile that fits both ends counts
        twice, even when they show the same number) plus the rest times the least, every
        child valued exactly."""
        total = 0.0
        least = INF
        count = 0
        for end_value, other, west in ((w, e, True), (e, w, False)):
            rest = playable & SUIT_MASKS[end_value]
            while rest:
                low = rest & -rest
                rest ^= low
                child = hands[:]
                left = child[seat] = hand ^ low
                if left:
                    new = PIPS[low.bit_length() - 1] - end_value
                    nw, ne = (new, other) if west else (other, new)
                    value = self._turn(child, nw, ne, nxt, 0, drawn, -INF, INF)
                else:
                    value = self._final(child, seat)
                total += value
                if value < least:
                    least = value
                count += 1
        chance = self.chance
        best = chance * total / count + (1.0 - chance) * least
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
        if self.sides > 2:
            return self._final_many(hands, out_seat)
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
        if target is not None:
            reached = self.base[me] + score >= target
            if reached != (self.base[1 - me] + other >= target):
                value += MATCH_BONUS if reached else -MATCH_BONUS
        return value

    def _final_many(self, hands: list[int], out_seat: int | None) -> float:
        """:meth:`_final` with three sides or more (``deal_value`` of the engine's
        scoring: the best other side is the one to beat)."""
        return self._side_values(hands, out_seat)[self.side]

    def _side_values(self, hands: list[int], out_seat: int | None) -> tuple[float, ...]:
        """The value of a finished deal (three sides or more) for each side."""
        n = self.sides
        pips = [0] * n
        side_of = self.side_of
        for seat, hand in enumerate(hands):
            pips[side_of[seat]] += mask_pips(hand)
        winner: int | None
        if out_seat is not None:
            winner = side_of[out_seat]
        else:
            least = min(pips)
            winner = pips.index(least) if pips.count(least) == 1 else None
        if self.scoring == "single":
            return tuple(0.0 if winner is None else (-1.0, 1.0)[winner == me] for me in range(n))
        if self.scoring == "penalty":
            return tuple((sum(pips) - pips[me]) / (n - 1) - pips[me] for me in range(n))
        score = [0] * n
        if winner is not None:
            gain = sum(pips) - pips[winner]
            if out_seat is None and self.blocked_minus:
                gain -= pips[winner]
            score[winner] = gain
        target = self.target
        reached = [target is not None and self.base[i] + score[i] >= target for i in range(n)]
        values = []
        for me in range(n):
            won = 0 if winner is None else (1 if winner == me else -1)
            best_other = max(score[i] for i in range(n) if i != me)
            value = float(score[me] - best_other) + self.win_bonus * won
            theirs = any(reached[i] for i in range(n) if i != me)
            if target is not None and reached[me] != theirs:
                value += MATCH_BONUS if reached[me] else -MATCH_BONUS
            values.append(value)
        return tuple(values)
