"""One round of Mexican Train (RULES.md#mexican-train): a :class:`Deal` on trains.

The round's engine lies in the station; each seat lays on the trains open to it,
draws one tile when it cannot (and lays it at once if it can), and puts its
marker out when it still cannot. A double must be satisfied before anything else:
its layer moves again, then every seat in turn. The engine performs the
draws, markers and passes; a player only ever chooses a tile and a train.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from .deal import Deal
from .events import Drew, Passed, Played
from .moves import Move
from .rules import Rules
from .scoring import DealEnd
from .tiles import SUIT_MASKS, Tile, mask_of, tile, tiles_in
from .trains import Station

_new_tuple = tuple.__new__


def engine_of(rules: Rules, number: int) -> int:
    """The engine double of round ``number`` (from 1): 12-12, 11-11, …."""
    return rules.set - number + 1


def first_seat(rules: Rules, number: int) -> int:
    """The seat that moves first in round ``number``."""
    return (number - 1) % rules.players


class TrainDeal(Deal):
    """A round of Mexican Train. Build it with :meth:`start_round`."""

    __slots__ = ("number", "station")

    number: int
    station: Station

    @classmethod
    def start_round(
        cls,
        rules: Rules,
        number: int,
        hands: Sequence[Sequence[Tile]],
        stock: Sequence[Tile],
        base_totals: Sequence[float] | None = None,
    ) -> TrainDeal:
        """Round ``number`` (from 1) as dealt: ``hands`` and ``stock`` are the set less
        the round's engine."""
        self = cls._blank(rules, number, [mask_of(h) for h in hands], stock, base_totals)
        self.dealt = tuple(tuple(sorted(h)) for h in hands)
        self.station = Station(engine_of(rules, number), rules.players)
        self._offer(self.leader)
        return self

    @classmethod
    def position(
        cls,
        rules: Rules,
        number: int,
        station: Station,
        hands: Sequence[int],
        boneyard: Sequence[Tile],
        turn: int,
        forced: Tile | None = None,
    ) -> TrainDeal:
        """Round ``number`` in mid play, for the AI's sampled worlds: ``station`` (copied),
        ``hands`` as tile masks, the ``boneyard`` in drawing order and ``turn``, the seat to move
        (``forced``: the tile it drew and must lay). The history starts empty."""
        self = cls._blank(rules, number, list(hands), boneyard, None)
        self.dealt = tuple(tuple(tiles_in(h)) for h in hands)
        self.station = station.copy()
        self.turn = turn
        self.forced = forced
        self._legal = self._moves_for(turn)
        return self

    @classmethod
    def _blank(
        cls,
        rules: Rules,
        number: int,
        hands: list[int],
        stock: Sequence[Tile],
        base_totals: Sequence[float] | None,
    ) -> TrainDeal:
        """A round with everything but its ``dealt`` hands and its station set (its
        ``layout`` unused: the trains are the table)."""
        self = cls.__new__(cls)
        self._setup(rules, hands, stock, first_seat(rules, number), None, base_totals)
        self.number = number
        return self

    def copy(self) -> Self:
        new = super().copy()
        new.number = self.number
        new.station = self.station.copy()
        return new

    # -- reading -------------------------------------------------------------

    @property
    def engine(self) -> Tile:
        """The round's engine double, in the station."""
        return tile(self.station.engine, self.station.engine)

    def _moves_for(self, seat: int) -> list[Move]:
        station = self.station
        hand = self.hands[seat] if self.forced is None else 1 << self.forced
        ends = station.ends
        on_train = Move.on_train
        return [
            on_train(t, train)
            for train in station.open_trains(seat)
            for t in tiles_in(hand & SUIT_MASKS[ends[train]])
        ]

    # -- changing ------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Apply a move known to be legal (the fast path: no checks)."""
        seat = self.turn
        p = move.placements[0]
        train = p.train
        assert train is not None
        station = self.station
        station.lay(p.tile, train, seat)
        self.hands[seat] &= ~(1 << p.tile)
        self.forced = None
        self._legal = None
        self.history.append(_new_tuple(Played, (seat, move, 0, 0)))
        if not self.hands[seat]:
            self._finish(DealEnd.DOMINO, out_seat=seat)
            return
        self.passes = 0
        if station.unsatisfied == train and p.tile.is_double:
            self._offer(seat)  # the layer of a double moves again at once
        else:
            self._offer(seat + 1 if seat + 1 < self.n else 0)

    def _offer(self, seat: int) -> None:
        """Give ``seat`` the turn, drawing for it and passing for it (marker out) as the
        rules force, on round the table, until a seat can lay or the round is blocked."""
        station = self.station
        hands = self.hands
        n = self.n
        while True:
            fit = station.fit_mask(seat)
            if hands[seat] & fit:
                self.turn = seat
                self._legal = self._moves_for(seat)
                return
            if self.drawn < len(self.stock):
                t = self.stock[self.drawn]
                self.drawn += 1
                hands[seat] |= 1 << t
                self.history.append(Drew(seat, (t,)))
                if fit >> t & 1:
                    self.turn = seat
                    self.forced = t
                    self._legal = self._moves_for(seat)
                    return
            station.markers[seat] = True
            self.history.append(_new_tuple(Passed, (seat,)))
            self.passes += 1
            if self.drawn >= len(self.stock) and not self._anyone_can_lay():
                self.turn = seat
                self._finish(DealEnd.BLOCKED)
                return
            seat = seat + 1 if seat + 1 < n else 0

    def _anyone_can_lay(self) -> bool:
        """Some tile in some hand matches some train's end (the double's, while one
        waits), whether or not that train is open to its holder yet."""
        fit = self.station.any_fit_mask()
        return any(h & fit for h in self.hands)
