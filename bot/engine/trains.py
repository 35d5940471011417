"""Mexican Train's table: the station, one personal train per seat, the Mexican train,
markers and the one unsatisfied double (RULES.md#mexican-train).

A train is named by its owner's seat, or :data:`MEXICAN`. Per-train lists hold one
entry per seat and the Mexican train's entry last, so ``station.ends[MEXICAN]`` is
the Mexican train's (Python reads index -1 as the last).
"""

from __future__ import annotations

from typing import NamedTuple

from .tiles import PIPS, SUIT_MASKS, Tile

MEXICAN = -1
"""The Mexican train's name (a seat's train is named by the seat)."""
NO_DOUBLE = -2
"""``Station.unsatisfied`` while no double waits to be satisfied."""


class Car(NamedTuple):
    """A tile on a train: ``inner`` touches the tile before it, ``outer`` is the train's end."""

    tile: Tile
    inner: int
    outer: int


def train_ids(players: int) -> tuple[int, ...]:
    """Every train of a table of ``players``: the seats' trains, then the Mexican train."""
    return (*range(players), MEXICAN)


class TrainName(int):
    """A train (its id) that reads as words in the engine's English messages."""

    __slots__ = ()

    def __str__(self) -> str:
        return "the Mexican train" if self == MEXICAN else f"seat {int(self)}'s train"


class Station:
    """The trains of one round. Mutable; :meth:`copy` before changing a shared one."""

    __slots__ = ("cars", "ends", "engine", "markers", "unsatisfied")

    def __init__(self, engine: int, players: int) -> None:
        self.engine = engine
        """The engine double's number (the engine lies in the station)."""
        self.cars: list[list[Car]] = [[] for _ in range(players + 1)]
        self.ends: list[int] = [engine] * (players + 1)
        """Each train's end number: the engine's while empty, else its last tile's free half."""
        self.markers: list[bool] = [False] * players
        """Which seats' trains carry their owner's marker (open to everybody)."""
        self.unsatisfied = NO_DOUBLE
        """The train whose last tile is a double waiting for a tile, or :data:`NO_DOUBLE`."""

    def copy(self) -> Station:
        new = Station.__new__(Station)
        new.engine = self.engine
        new.cars = [train[:] for train in self.cars]
        new.ends = self.ends[:]
        new.markers = self.markers[:]
        new.unsatisfied = self.unsatisfied
        return new

    # -- reading -------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.markers)

    def is_open(self, train: int, seat: int) -> bool:
        """Whether ``seat`` may lay on ``train`` when no double waits: its own, the
        Mexican train, or a train with its owner's marker."""
        return train in (seat, MEXICAN) or self.markers[train]

    def open_trains(self, seat: int) -> list[int]:
        """The trains ``seat`` may lay on now: only the unsatisfied double's while one waits."""
        if self.unsatisfied != NO_DOUBLE:
            return [self.unsatisfied]
        markers = self.markers
        return [t for t in train_ids(len(markers)) if t in (seat, MEXICAN) or markers[t]]

    def fit_mask(self, seat: int) -> int:
        """Bit mask of every tile ``seat`` could lay on some train open to it."""
        ends = self.ends
        if self.unsatisfied != NO_DOUBLE:
            return SUIT_MASKS[ends[self.unsatisfied]]
        fit = SUIT_MASKS[ends[seat]] | SUIT_MASKS[ends[MEXICAN]]
        for owner, marked in enumerate(self.markers):
            if marked:
                fit |= SUIT_MASKS[ends[owner]]
        return fit

    def any_fit_mask(self) -> int:
        """Bit mask of every tile that matches any train's end (the blocked test)."""
        ends = self.ends
        if self.unsatisfied != NO_DOUBLE:
            return SUIT_MASKS[ends[self.unsatisfied]]
        fit = 0
        for value in set(ends):
            fit |= SUIT_MASKS[value]
        return fit

    def tile_count(self) -> int:
        """Tiles laid on the trains (the engine not counted)."""
        return sum(len(train) for train in self.cars)

    # -- changing ------------------------------------------------------------

    def lay(self, tile: Tile, train: int, seat: int) -> None:
        """``seat`` lays ``tile`` on ``train`` (the caller has checked that it may)."""
        inner = self.ends[train]
        outer = PIPS[tile] - inner
        self.cars[train].append(Car(tile, inner, outer))
        self.ends[train] = outer
        if train == seat:
            self.markers[seat] = False
        if inner == outer:
            self.unsatisfied = train
        elif self.unsatisfied == train:
            self.unsatisfied = NO_DOUBLE
