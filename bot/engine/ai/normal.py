"""The ``normal`` level: a sound heuristic player that scores each legal move.

Scores are in pips (points), so the terms trade off in the deal's own units:

* **shed weight**: the pips a move lays (pips left in hand are what a side loses
  on a domino or a block); doubles get a bonus, more so when few tiles are left
  that could ever open their number (a double that would be stranded);
* **keep a following**: how many tiles left in hand fit the ends after the move,
  and how many different numbers the hand still holds (variety);
* **the other seats**: for the seats that play next, the chance that they can lay
  on the ends the move leaves, from the unseen tiles of those numbers and what
  each seat is known to lack (its passes and draws). Leaving an opponent nothing
  to play is good, leaving the partner nothing is bad; an end only the mover can
  follow (every other tile of the number seen) is good; numbers the partner has
  laid count as the partner's strong numbers;
* **all fives**: the count a move scores, less the best count the next opponent
  could likely reply with;
* **latvian**: several doubles at once add up (so laying them all is usually
  best), going out on 0-0 or 6-6 earns the bonus, and closing an end is judged by
  the same terms (closing an end the mover cannot follow but opponents likely can
  is good);
* **ends of the deal**: going out wins outright; a move that blocks the game (or
  leaves a latvian deal dead) is scored by the estimated pip counts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..layout import Layout
from ..moves import Move, Placement
from ..scoring import DOUBLE_BLANK, DOUBLE_SIX
from ..tiles import PIPS, SUIT_MASKS, mask_of, mask_pips, tiles_in
from .knowledge import Knowledge

W_OUT = 1000.0
W_PIPS = 1.0
W_PIPS_FIVES = 0.4
W_DOUBLE = 3.0
W_STRAND = 10.0
W_FOLLOW = 2.0
W_STUCK = 4.0
W_VARIETY = 1.0
W_BLOCK = 6.0
SEAT_DECAY = (1.0, 0.45, 0.25, 0.15, 0.1, 0.1, 0.1)
W_CONTROL = 2.0
W_PARTNER_NUMBER = 1.0
W_FIVES = 1.0
W_REPLY = 0.7
W_DEAL_END = 1.0
LATVIAN_BLANK_BONUS = 6.0
"""0-0 alone left in hand is worth 25, not 0: shedding it is worth a few pips."""


def normal_move(know: Knowledge, rng: random.Random) -> Move:
    """The best-scoring legal move (ties broken by ``rng``)."""
    moves = know.legal
    scores = score_moves(know, moves)
    best = max(scores)
    tied = [m for m, s in zip(moves, scores, strict=True) if s >= best - 1e-9]
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def score_moves(know: Knowledge, moves: Sequence[Move]) -> list[float]:
    """The heuristic score of each move (higher is better)."""
    ctx = _Context(know)
    return [ctx.score(m) for m in moves]


class _Context:
    """Facts shared by every move of one decision."""

    def __init__(self, know: Knowledge) -> None:
        rules = know.rules
        self.know = know
        self.hand = know.hand
        self.every = know.every
        self.unseen = know.unseen
        self.unseen_count = max(1, know.unseen.bit_count())
        self.fives = rules.scoring == "fives"
        self.latvian = rules.game == "latvian"
        self.w_pips = W_PIPS_FIVES if self.fives else W_PIPS
        n = rules.players
        me = know.seat
        self.order = [(me + k) % n for k in range(1, n)]
        partner = know.partner
        self.partner_numbers = [0] * 13
        if partner is not None:
            for t in tiles_in(know.played[partner]):
                self.partner_numbers[t.low] += 1
                if not t.is_double:
                    self.partner_numbers[t.high] += 1

    def can_play(self, seat: int, fit: int) -> float:
        """The chance that ``seat`` holds a tile of ``fit`` (from the unseen tiles it may hold)."""
        return self._holds(seat, (self.unseen & fit & ~self.know.voids[seat]).bit_count())

    def _holds(self, seat: int, k: int) -> float:
        """The chance that ``seat`` holds one of ``k`` unseen tiles (0 for an empty hand)."""
        share = min(1.0, self.know.hand_sizes[seat] / self.unseen_count)
        return 1.0 - (1.0 - share) ** k

    def score(self, move: Move) -> float:
        know = self.know
        rules = know.rules
        after = self.hand & ~mask_of(move.tiles)
        layout = know.layout.copy()
        for p in move.placements:
            layout.place(p)
        values = [layout.values[e] for e in layout.open_ends()]
        fit = layout.fit_mask() & self.every

        score = 0.0
        if after == 0:
            score += W_OUT
            if self.latvian:
                score += 50 * (DOUBLE_SIX in move.tiles) + 25 * (DOUBLE_BLANK in move.tiles)
        for t in move.tiles:
            score += self.w_pips * PIPS[t]
            if t.is_double:
                score += W_DOUBLE + W_STRAND * self._strand_risk(t.low, t)
                if self.latvian and t == DOUBLE_BLANK:
                    score += LATVIAN_BLANK_BONUS
        if after:
            follow = (after & fit).bit_count()
            score += W_FOLLOW * min(follow, 3)
            if follow == 0:
                score -= W_STUCK
            score += W_VARIETY * sum(1 for v in range(rules.set + 1) if after & SUIT_MASKS[v])

        me_side = rules.side_of(know.seat)
        for k, seat in enumerate(self.order):
            sign = 1.0 if rules.side_of(seat) != me_side else -1.0
            score += sign * W_BLOCK * SEAT_DECAY[k] * (1.0 - self.can_play(seat, fit))
        for v in set(values):
            if after & SUIT_MASKS[v] and not self.unseen & SUIT_MASKS[v]:
                score += W_CONTROL
            if know.partner is not None:
                score += W_PARTNER_NUMBER * min(2, self.partner_numbers[v])

        if self.fives:
            count = layout.count()
            if count and count % 5 == 0:
                score += W_FIVES * count
            score -= W_REPLY * self._reply_threat(layout, values, fit)

        if after and not fit & (self.unseen | after):
            score += W_DEAL_END * self._deal_end_margin(after)  # nobody can lay: blocked
        elif after and self.latvian and layout.is_dead():
            score += W_DEAL_END * self._deal_end_margin(after)
        return score

    def _strand_risk(self, number: int, double: int) -> float:
        """0 when plenty of tiles could still open ``number``, up to 1 when none can."""
        openers = ((self.unseen | self.hand) & SUIT_MASKS[number] & ~(1 << double)).bit_count()
        return max(0.0, (4 - openers) / 4)

    def _reply_threat(self, layout: Layout, values: list[int], fit: int) -> float:
        """All fives: what the next seat, if an opponent, could likely score in reply."""
        know = self.know
        rules = know.rules
        nxt = self.order[0]
        if rules.side_of(nxt) == rules.side_of(know.seat):
            return 0.0
        candidates = self.unseen & fit & ~know.voids[nxt]
        best = 0
        hits = 0
        for end in layout.open_ends():
            v = layout.values[end]
            for t in tiles_in(candidates & SUIT_MASKS[v]):
                trial = layout.copy()
                trial.place(Placement(t, end))
                count = trial.count()
                if count and count % 5 == 0:
                    hits += 1
                    best = max(best, count)
        return best * self._holds(nxt, hits)

    def _deal_end_margin(self, after: int) -> float:
        """The deal ends now (blocked or dead): the others' estimated pips minus the side's."""
        know = self.know
        rules = know.rules
        per_tile = mask_pips(self.unseen) / self.unseen_count
        me_side = rules.side_of(know.seat)
        mine = float(mask_pips(after))
        if self.latvian:
            held = set(tiles_in(after))
            if held == {DOUBLE_BLANK}:
                mine = 25.0
            elif held == {DOUBLE_SIX}:
                mine = 50.0
        sides: dict[int, float] = {}
        for seat in range(rules.players):
            side = rules.side_of(seat)
            est = mine if seat == know.seat else know.hand_sizes[seat] * per_tile
            sides[side] = sides.get(side, 0.0) + est
        own = sides.pop(me_side)
        if not sides:
            return 0.0
        return min(sides.values()) - own
