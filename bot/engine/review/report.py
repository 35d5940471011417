"""A deal's review as a value: per-move rows, per-seat accuracy, the biggest mistakes.

Every value here is frozen and plain (tiles, moves, numbers), written to JSON and read
back by :meth:`DealReview.to_json` / :meth:`DealReview.from_json` for storage; a stored
review whose ``version`` is not :data:`REVIEW_VERSION` is computed anew.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from ..moves import End, Move, Placement
from ..tiles import TILES

REVIEW_VERSION = 1
"""Bumped whenever what a review computes changes: a stored review of another version is
stale."""

UNITS = ("points", "wins", "penalty", "minus", "pips")
"""What a review's values count: ``points`` (block and draw scored by points, all fives:
the deal's points for the seat's side less the best other side's), ``wins`` (one point a
deal: won 1, drawn 0, lost -1), ``penalty`` (penalty scoring: the others' mean penalty
less the side's own), ``minus`` (latvian: the others' mean minus points less the seat's
own), ``pips`` (Mexican Train: the others' mean pips less the seat's own)."""


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One move of the deal, as the review judged it.

    ``known_*``: valued from what the mover could know (the hard level's evaluation over
    sampled worlds consistent with its view); ``open_*``: with every hand open. A cost is
    the best move's value less the played one's, never negative, in the review's unit.
    A forced move (one legal option) is not judged: its costs are 0 and its bests it.
    """

    index: int
    """The move's place among the deal's moves, from 0 (draws and passes are no moves)."""
    seat: int
    played: Move
    options: int
    """Legal moves the mover had (1: forced)."""
    known_best: Move
    known_cost: float
    open_best: Move
    open_cost: float
    open_exact: bool
    """The open values are exact (the solver), not a playout estimate."""
    accuracy: float
    """This move's accuracy, 0–100 (:func:`bot.engine.review.accuracy.move_accuracy`)."""

    @property
    def forced(self) -> bool:
        return self.options <= 1


@dataclass(frozen=True, slots=True)
class SeatReview:
    """One seat's part of the deal."""

    seat: int
    decisions: int
    """Moves with a choice (forced moves are not counted)."""
    accuracy: float | None
    """The mean of its decisions' accuracies, 0–100; ``None`` with no decision."""
    known_loss: float
    """Its known costs summed."""
    open_loss: float
    """Its open costs summed."""
    best_moves: int
    """Decisions where it played a best known move."""


@dataclass(frozen=True, slots=True)
class DealReview:
    """The review of one finished deal (``deal``: its number in the match, from 1)."""

    version: int
    game: str
    players: int
    deal: int
    unit: str
    """One of :data:`UNITS`."""
    rows: tuple[MoveRow, ...]
    seats: tuple[SeatReview, ...]
    mistakes: tuple[int, ...]
    """The three biggest mistakes (indexes into :attr:`rows`), biggest first: by known
    cost, then open cost, then the earlier move; only moves that cost something."""
    approximate: bool
    """Some values are estimates beyond the known side's sampling: the open values of
    games or positions the exact solver does not cover (see :attr:`notes`)."""
    notes: tuple[str, ...]
    """Why it is approximate, as codes: ``open_playouts`` (open values from playouts in
    the real deal), ``known_horizon`` (Mexican Train's hard level looks a few moves
    ahead, then estimates), ``known_candidates`` (only the most promising moves were
    valued from the mover's view: very long move lists)."""
    worlds: int
    """Sampled worlds per decision at most (the known values)."""

    @property
    def series(self) -> tuple[tuple[int, float, float], ...]:
        """Per move, for a small chart: (seat, known cost, open cost)."""
        return tuple((r.seat, r.known_cost, r.open_cost) for r in self.rows)

    def seat(self, seat: int) -> SeatReview:
        return self.seats[seat]

    # -- storage -----------------------------------------------------------------

    def to_json(self) -> str:
        """Every field by its name, in order (tuples as JSON lists, rows as :func:`_values`)."""
        doc = {f.name: getattr(self, f.name) for f in fields(self)}
        doc["rows"] = [_values(r) for r in self.rows]
        doc["seats"] = [_values(s) for s in self.seats]
        return json.dumps(doc, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> DealReview:
        """The review written by :meth:`to_json`; ``ValueError`` for anything else."""
        try:
            doc = json.loads(text)
            return cls(
                version=int(doc["version"]),
                game=str(doc["game"]),
                players=int(doc["players"]),
                deal=int(doc["deal"]),
                unit=str(doc["unit"]),
                rows=tuple(MoveRow(*_read(ROW_READERS, r)) for r in doc["rows"]),
                seats=tuple(SeatReview(*_read(SEAT_READERS, s)) for s in doc["seats"]),
                mistakes=tuple(int(i) for i in doc["mistakes"]),
                approximate=bool(doc["approximate"]),
                notes=tuple(str(n) for n in doc["notes"]),
                worlds=int(doc["worlds"]),
            )
        except (KeyError, IndexError, TypeError, AttributeError) as e:
            raise ValueError(f"not a stored review: {e!r}") from None


def _values(row: MoveRow | SeatReview) -> list[Any]:
    """A row's fields in order, as a stored review writes them (a move: :func:`move_doc`)."""
    values = (getattr(row, f.name) for f in fields(row))
    return [move_doc(v) if isinstance(v, Move) else v for v in values]


def _read(readers: Sequence[Callable[[Any], Any]], values: Sequence[Any]) -> list[Any]:
    """A stored row's values read back, each by its field's reader."""
    return [read(values[i]) for i, read in enumerate(readers)]


def move_doc(move: Move) -> list[list[Any]]:
    """A move as JSON: per placement [tile index, end, closed, west, train]."""
    return [
        [int(p.tile), None if p.end is None else int(p.end), p.closed, p.west, p.train]
        for p in move.placements
    ]


def read_move(doc: Any) -> Move:
    """The move :func:`move_doc` wrote."""
    if not isinstance(doc, list) or not doc:
        raise ValueError("a move is a list of placements")
    placements = []
    for t, end, closed, west, train in doc:
        placements.append(
            Placement(
                TILES[int(t)],
                None if end is None else End(int(end)),
                bool(closed),
                None if west is None else int(west),
                None if train is None else int(train),
            )
        )
    return Move(tuple(placements))


ROW_READERS = (int, int, read_move, int, read_move, float, read_move, float, bool, float)
"""How each stored value of a :class:`MoveRow` is read, in its fields' order."""
SEAT_READERS = (int, int, lambda x: None if x is None else float(x), float, float, int)
"""The same for a :class:`SeatReview` (its accuracy may be None)."""
