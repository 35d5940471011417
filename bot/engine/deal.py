"""One deal: dealing, who leads, legal moves, forced draws and passes, the deal's end.

:class:`Deal` is the mutable core the AI runs thousands of playouts on:
:meth:`Deal.push` applies a move known to be legal, :meth:`Deal.copy` branches.
Everything else goes through :mod:`bot.engine.match`, whose states never change.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from itertools import product
from typing import Self

from .errors import DealOverError, DominoError, IllegalMoveError, MoveFault, NotYourTurnError
from .events import Drew, Event, Passed, Played
from .layout import NOT_OPEN, Layout
from .moves import _SINGLE, Move, Placement
from .resolve import resolve_move
from .rules import Rules
from .scoring import DealEnd, DealResult, score_deal
from .tiles import (
    DOUBLES_MASK,
    SUIT_MASKS,
    TILES,
    Tile,
    full_set,
    heaviest_key,
    mask_of,
    tile,
    tiles_in,
)

LATVIAN_LEAD_ORDER = (1, 2, 3, 4, 5, 6, 0)


class VoidDealError(DominoError):
    """Latvian: no double was dealt, so the deal is void and dealt again
    (RULES.md#latvian-dominoes)."""


def deal_tiles(
    rules: Rules, rng: random.Random, number: int = 1
) -> tuple[list[list[Tile]], list[Tile]]:
    """Shuffle the set and deal ``rules.hand`` tiles to each seat; the rest is the stock.

    A latvian deal without a double is void and dealt again from the same ``rng``.
    Mexican Train leaves deal ``number``'s engine out (it lies in the station).
    """
    tiles = list(full_set(rules.set))
    if rules.game == "mexican":
        engine = rules.set - number + 1
        tiles.remove(tile(engine, engine))
    size = rules.hand
    while True:
        rng.shuffle(tiles)
        hands = [tiles[i * size : (i + 1) * size] for i in range(rules.players)]
        stock = tiles[rules.players * size :]
        if rules.game != "latvian" or any(t.is_double for h in hands for t in h):
            return hands, stock


def fixed_lead(rules: Rules, hands: Sequence[int]) -> tuple[int, Tile] | None:
    """The seat that must lead and the tile it must lead, where the rules fix them.

    ``None`` for all fives, whose leader is drawn or follows the last deal, and for
    Mexican Train, which has no lead (the round's number fixes who moves first).
    Raises :class:`VoidDealError` for a latvian deal without a double.
    """
    if rules.game in ("allfives", "mexican"):
        return None
    held = 0
    for h in hands:
        held |= h
    latvian = rules.game == "latvian"
    for n in LATVIAN_LEAD_ORDER if latvian else range(rules.set, -1, -1):
        d = tile(n, n)
        if held >> d & 1:
            return _holder(hands, d), d
    if latvian:
        raise VoidDealError("no double was dealt, so the deal is void")
    heaviest = max(tiles_in(held), key=heaviest_key)
    return _holder(hands, heaviest), heaviest


def _holder(hands: Sequence[int], t: Tile) -> int:
    return next(seat for seat, h in enumerate(hands) if h >> t & 1)


class _Fits(dict[int, tuple[Move, ...]]):
    """``fits[mask]``: the moves laying each tile of ``mask`` on one end, built once per mask."""

    def __init__(self, end: int) -> None:
        super().__init__()
        self.end = end

    def __missing__(self, mask: int) -> tuple[Move, ...]:
        moves = self[mask] = tuple(_SINGLE[(t << 3) | (self.end << 1)] for t in tiles_in(mask))
        return moves


_FITS = tuple(_Fits(end) for end in range(4))
_new_tuple = tuple.__new__


@cache
def _facts(rules: Rules) -> tuple[bool, bool, tuple[int, ...], int]:
    """Per-rules constants a deal needs: fives, latvian, the side of each seat, sides."""
    side_of = tuple(rules.side_of(s) for s in range(rules.players))
    return rules.scoring == "fives", rules.game == "latvian", side_of, len(rules.sides)


class Deal:
    """The state of one deal. Build it with :meth:`start`."""

    __slots__ = (
        "_legal",
        "base_totals",
        "dealt",
        "drawn",
        "end",
        "fives",
        "forced",
        "hands",
        "history",
        "latvian",
        "layout",
        "lead_tile",
        "leader",
        "n",
        "passes",
        "play_points",
        "result",
        "rules",
        "side_of",
        "stock",
        "turn",
    )

    rules: Rules
    n: int
    hands: list[int]
    dealt: tuple[tuple[Tile, ...], ...]
    stock: tuple[Tile, ...]
    drawn: int
    layout: Layout
    leader: int
    lead_tile: Tile | None
    turn: int
    passes: int
    forced: Tile | None
    history: list[Event]
    end: DealEnd | None
    result: DealResult | None
    play_points: list[int]
    base_totals: tuple[float, ...]
    fives: bool
    latvian: bool
    side_of: tuple[int, ...]
    _legal: list[Move] | None

    @classmethod
    def start(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[Tile]],
        stock: Sequence[Tile],
        leader: int | None = None,
        base_totals: Sequence[float] | None = None,
    ) -> Deal:
        """A deal as dealt. ``leader`` is needed only where the rules do not fix it.

        ``base_totals`` are the sides' match totals before this deal (all fives
        ends the match the moment a side reaches the target).
        """
        self = cls.__new__(cls)
        masks = [mask_of(h) for h in hands]
        fixed = fixed_lead(rules, masks)
        lead: Tile | None = None
        if fixed is not None:
            leader, lead = fixed
        elif leader is None:
            raise ValueError("the rules draw the leader: say which seat leads")
        self._setup(rules, masks, stock, leader, lead, base_totals)
        self.dealt = tuple(tuple(sorted(h)) for h in hands)
        return self

    def _setup(
        self,
        rules: Rules,
        hands: list[int],
        stock: Sequence[Tile],
        leader: int,
        lead_tile: Tile | None,
        base_totals: Sequence[float] | None,
    ) -> None:
        """Every field of a deal as dealt but ``dealt``: ``leader`` to move."""
        self.rules = rules
        self.n = rules.players
        self.hands = hands
        self.stock = tuple(stock)
        self.drawn = 0
        self.layout = Layout(rules.layout or "line", rules.set)
        self.leader = self.turn = leader
        self.lead_tile = lead_tile
        self.passes = 0
        self.forced = None
        self.history = []
        self.end = None
        self.result = None
        self.fives, self.latvian, self.side_of, n_sides = _facts(rules)
        self.play_points = [0] * n_sides
        self.base_totals = tuple(base_totals) if base_totals else (0,) * n_sides
        self._legal = None

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.rules = self.rules
        new.n = self.n
        new.hands = self.hands[:]
        new.dealt = self.dealt
        new.stock = self.stock
        new.drawn = self.drawn
        new.layout = self.layout.copy()
        new.leader = self.leader
        new.lead_tile = self.lead_tile
        new.turn = self.turn
        new.passes = self.passes
        new.forced = self.forced
        new.history = self.history[:]
        new.end = self.end
        new.result = self.result
        new.fives = self.fives
        new.latvian = self.latvian
        new.side_of = self.side_of
        new.play_points = self.play_points[:]
        new.base_totals = self.base_totals
        new._legal = self._legal
        return new

    # -- reading -------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.end is not None

    def hand(self, seat: int) -> tuple[Tile, ...]:
        return tuple(tiles_in(self.hands[seat]))

    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(h.bit_count() for h in self.hands)

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """Tiles still to draw (draw games), top first; empty in block."""
        return self.stock[self.drawn :] if self.rules.draws else ()

    @property
    def boneyard_size(self) -> int:
        return len(self.stock) - self.drawn if self.rules.draws else 0

    def moves(self) -> list[Move]:
        """Every move written so far (the record's moves)."""
        return [e.move for e in self.history if type(e) is Played]

    def legal_moves(self) -> list[Move]:
        """The moves the seat to move may make; empty once the deal is over.

        The list is the deal's own (the fast path): read it, don't change it.
        :func:`bot.engine.legal_moves` hands out a copy.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._moves_for(self.turn)
        return legal

    def _moves_for(self, seat: int) -> list[Move]:
        layout = self.layout
        hand = self.hands[seat]
        if layout.lead is None:
            if self.lead_tile is not None:
                return [Move.lead(self.lead_tile)]
            return [Move.lead(t) for t in tiles_in(hand)]
        if self.forced is not None:
            hand = 1 << self.forced
        if self.latvian:
            return self._latvian_moves(hand)
        values = layout.values
        closed = layout.closed
        west, east, north, south = values
        moves = [*_FITS[0][hand & SUIT_MASKS[west]], *_FITS[1][hand & SUIT_MASKS[east]]]
        if north != NOT_OPEN and not closed[2]:
            moves += _FITS[2][hand & SUIT_MASKS[north]]
        if south != NOT_OPEN and not closed[3]:
            moves += _FITS[3][hand & SUIT_MASKS[south]]
        return moves

    def _latvian_moves(self, hand: int) -> list[Move]:
        layout = self.layout
        moves: list[Move] = []
        for end in layout.open_ends():
            v = layout.values[end]
            fits = hand & SUIT_MASKS[v]
            for t in tiles_in(fits & ~DOUBLES_MASK):
                moves.append(_SINGLE[(t << 3) | (end << 1)])
                moves.append(_SINGLE[(t << 3) | (end << 1) | 1])
        # Doubles: each may go on any open end showing its number, several at once.
        by_double: dict[Tile, list[Placement | None]] = {}
        for end in layout.open_ends():
            d = TILES[(layout.values[end] * (layout.values[end] + 3)) // 2]
            if hand >> d & 1:
                opts = by_double.setdefault(d, [None])
                opts.append(Placement(d, end, False))
                opts.append(Placement(d, end, True))
        for combo in product(*by_double.values()):
            placed = tuple(p for p in combo if p is not None)
            if len(placed) == 1:
                p = placed[0]
                assert p.end is not None
                moves.append(Move.single(p.tile, p.end, p.closed))
            elif placed:
                moves.append(Move(tuple(sorted(placed, key=lambda p: p.end or 0))))
        return moves

    # -- changing ------------------------------------------------------------

    def play(self, move: Move, seat: int | None = None) -> None:
        """Apply ``move`` after checking it against :meth:`legal_moves`.

        An illegal move changes nothing and raises :class:`IllegalMoveError` whose
        fault :func:`~bot.engine.resolve.resolve_move` names.
        """
        if self.end is not None:
            raise DealOverError()
        if seat is not None and seat != self.turn:
            raise NotYourTurnError(seat, self.turn)
        if move.canonical() not in self.legal_moves():
            resolve_move(self, move.placements, exact=True)  # raises, naming the fault
            raise IllegalMoveError(MoveFault.NOT_LEGAL, move=move)  # e.g. doubles out of order
        self.push(move)

    def push(self, move: Move) -> None:
        """Apply a move known to be legal (the fast path: no checks)."""
        seat = self.turn
        layout = self.layout
        hand = self.hands[seat]
        for p in move.placements:
            layout.place(p)
            hand &= ~(1 << p[0])
        self.hands[seat] = hand
        self.forced = None
        self._legal = None
        if self.fives:
            count = layout.count()
            points = count if count and count % 5 == 0 else 0
            self.history.append(Played(seat, move, count, points))
            if points:
                side = self.side_of[seat]
                self.play_points[side] += points
                target = self.rules.target or 0
                if self.base_totals[side] + self.play_points[side] >= target:
                    self._finish(DealEnd.TARGET, target_side=side)
                    return
        else:
            self.history.append(_new_tuple(Played, (seat, move, 0, 0)))
        if not hand:
            self._finish(DealEnd.DOMINO, out_seat=seat)
            return
        if self.latvian and layout.is_dead():
            self._finish(DealEnd.DEAD)
            return
        self.passes = 0
        self._advance(seat)

    def _advance(self, seat: int) -> None:
        """Pass the turn on, doing the forced draws and passes, until someone can lay."""
        n = self.n
        hands = self.hands
        fit = self.layout.fit_mask()
        while True:
            seat = seat + 1 if seat + 1 < n else 0
            if hands[seat] & fit:
                self.turn = seat
                self._legal = self._moves_for(seat)
                return
            stock = self.stock
            if self.rules.draws and self.drawn < len(stock):
                hand = hands[seat]
                start = self.drawn
                fits = False
                while self.drawn < len(stock):
                    t = stock[self.drawn]
                    self.drawn += 1
                    hand |= 1 << t
                    if fit >> t & 1:
                        fits = True
                        break
                hands[seat] = hand
                self.history.append(Drew(seat, stock[start : self.drawn]))
                if fits:
                    self.turn = seat
                    self.forced = stock[self.drawn - 1]
                    return
            self.history.append(_new_tuple(Passed, (seat,)))
            self.passes += 1
            if self.passes >= n:
                self.turn = seat
                self._finish(DealEnd.BLOCKED)
                return

    def _finish(
        self, end: DealEnd, out_seat: int | None = None, target_side: int | None = None
    ) -> None:
        self.end = end
        self._legal = []
        last = self.history[-1]
        last_move = last.move if out_seat is not None and type(last) is Played else None
        self.result = score_deal(
            self.rules,
            end,
            [tuple(tiles_in(h)) for h in self.hands],
            out_seat=out_seat,
            last_move=last_move,
            play_points=self.play_points,
            target_side=target_side,
        )
