"""The one place that works out which legal move a named move is, or why there is none.

A move is named as placements: tiles, each with the end it goes on (or none), face
down or not, and for the lead the half written first (it faces west). A match
record names moves so (RECORD.md), a player types them so (``bot/games/moves_text.py``),
and :meth:`Deal.play <bot.engine.deal.Deal.play>` explains a refused
:class:`~bot.engine.moves.Move` with the same checks. :func:`resolve_move` returns the
legal move, or raises an :class:`~bot.engine.errors.IllegalMoveError` whose
:class:`~bot.engine.errors.MoveFault` says why (the first fault found). Legality
itself is still decided by :meth:`Deal.legal_moves <bot.engine.deal.Deal.legal_moves>`:
the checks here only name the reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from .errors import DealOverError, IllegalMoveError, MoveFault, NotYourTurnError
from .layout import NOT_OPEN, Layout
from .moves import End, Move, Placement
from .tiles import Tile
from .trains import MEXICAN, NO_DOUBLE, TrainName

if TYPE_CHECKING:
    from .deal import Deal
    from .mexican import TrainDeal


def resolve_move(
    deal: Deal, named: Sequence[Placement], seat: int | None = None, *, exact: bool = False
) -> Move:
    """The legal move ``named`` names for ``seat`` (by default, the seat to move).

    ``named`` places each tile as a :class:`Placement`: ``end`` is ``None`` for the
    lead and, after the lead, for a tile that fits exactly one open end (it goes
    there), unless ``exact``, where every tile after the lead must name its end.
    ``west`` is the half written first: the lead shows it at west, and a refusal
    echoes the tile as it was written (``4-2``, not ``2-4``).

    Raises :class:`IllegalMoveError` (:class:`DealOverError` and
    :class:`NotYourTurnError` for those two faults) with the first fault found.
    """
    if deal.end is not None:
        raise DealOverError()
    turn = deal.turn
    if seat is not None and seat != turn:
        raise NotYourTurnError(seat, turn)
    if not named:
        raise IllegalMoveError(MoveFault.NO_TILE)
    hand = deal.hands[turn]
    seen: set[Tile] = set()
    for p in named:
        if p.tile in seen:
            raise IllegalMoveError(MoveFault.TILE_TWICE, tile=p.tile)
        seen.add(p.tile)
        if not hand >> p.tile & 1:
            raise IllegalMoveError(MoveFault.NOT_HELD, seat=turn, tile=p.tile, written=_written(p))
    if deal.rules.game == "mexican":
        return _on_train(cast("TrainDeal", deal), named)
    if any(p.train is not None for p in named):
        raise IllegalMoveError(MoveFault.TRAINS_ONLY_MEXICAN)
    if deal.layout.lead is None:
        return _lead(deal, named)

    forced = deal.forced
    if forced is not None and any(p.tile != forced for p in named):
        raise IllegalMoveError(MoveFault.MUST_LAY_DRAWN, seat=turn, tile=forced)
    if len(named) > 1:
        if not deal.latvian:
            raise IllegalMoveError(MoveFault.ONE_AT_A_TIME)
        if not all(p.tile.is_double for p in named):
            raise IllegalMoveError(MoveFault.ONLY_DOUBLES)
    if not deal.latvian and any(p.closed for p in named):
        raise IllegalMoveError(MoveFault.CLOSED_NOT_LATVIAN)
    layout = deal.layout
    ends: list[End] = []
    for p in named:
        if p.end is not None:
            _check_end(layout, p, p.end)
            ends.append(p.end)
        elif exact:
            raise IllegalMoveError(MoveFault.END_MISSING)
        else:
            ends.append(_the_end(layout, p.tile))
    if len(named) == 1:
        move = Move.single(named[0].tile, ends[0], named[0].closed)
    else:
        placed = (Placement(p.tile, end, p.closed) for p, end in zip(named, ends, strict=True))
        move = Move(tuple(sorted(placed, key=_end_of)))
    if move not in deal.legal_moves():
        raise IllegalMoveError(MoveFault.NOT_LEGAL, move=move)
    return move


def _on_train(deal: TrainDeal, named: Sequence[Placement]) -> Move:
    """Mexican Train: the one tile named, on the train named (or the one it can go on)."""
    if len(named) > 1:
        raise IllegalMoveError(MoveFault.ONE_AT_A_TIME)
    p = named[0]
    if p.end is not None:
        raise IllegalMoveError(MoveFault.ENDS_NOT_MEXICAN)
    if p.closed:
        raise IllegalMoveError(MoveFault.CLOSED_NOT_LATVIAN)
    seat = deal.turn
    forced = deal.forced
    if forced is not None and p.tile != forced:
        raise IllegalMoveError(MoveFault.MUST_LAY_DRAWN, seat=seat, tile=forced)
    station = deal.station
    if p.train is None:
        fits = [t for t in station.open_trains(seat) if p.tile.has(station.ends[t])]
        if not fits:
            raise IllegalMoveError(MoveFault.FITS_NO_TRAIN, tile=p.tile, seat=seat)
        if len(fits) > 1:
            names = tuple(TrainName(t) for t in fits)
            raise IllegalMoveError(MoveFault.TRAIN_AMBIGUOUS, tile=p.tile, trains=names)
        train = fits[0]
    else:
        train = p.train
        if not (train == MEXICAN or 0 <= train < deal.n):
            raise IllegalMoveError(MoveFault.NO_SUCH_TRAIN, train=TrainName(train))
        waiting = station.unsatisfied
        if waiting != NO_DOUBLE and train != waiting:
            raise IllegalMoveError(
                MoveFault.MUST_SATISFY, train=TrainName(waiting), number=station.ends[waiting]
            )
        if waiting == NO_DOUBLE and not station.is_open(train, seat):
            raise IllegalMoveError(MoveFault.TRAIN_NOT_OPEN, train=TrainName(train), seat=seat)
        number = station.ends[train]
        if not p.tile.has(number):
            raise IllegalMoveError(
                MoveFault.TRAIN_DOES_NOT_FIT,
                written=_written(p),
                train=TrainName(train),
                number=number,
            )
    move = Move.on_train(p.tile, train)
    if move not in deal.legal_moves():
        raise IllegalMoveError(MoveFault.NOT_LEGAL, move=move)
    return move


def _lead(deal: Deal, named: Sequence[Placement]) -> Move:
    if len(named) > 1:
        raise IllegalMoveError(MoveFault.LEAD_ALONE)
    p = named[0]
    if p.end is not None:
        raise IllegalMoveError(MoveFault.LEAD_WITH_END)
    if p.closed:
        raise IllegalMoveError(MoveFault.LEAD_CLOSED)
    if p.west is not None and not p.tile.has(p.west):
        raise IllegalMoveError(MoveFault.LEAD_HALF, tile=p.tile, west=p.west)
    if deal.lead_tile is not None and p.tile != deal.lead_tile:
        raise IllegalMoveError(MoveFault.MUST_LEAD, tile=deal.lead_tile)
    move = Move.lead(p.tile, p.west)
    if move.canonical() not in deal.legal_moves():
        raise IllegalMoveError(MoveFault.NOT_LEGAL, move=move)
    return move


def _check_end(layout: Layout, p: Placement, end: End) -> None:
    """Refuse ``p`` on ``end`` if that end is not open or does not show a half of it."""
    value = layout.values[end]
    if value == NOT_OPEN:
        if end in (End.NORTH, End.SOUTH) and layout.kind == "line":
            raise IllegalMoveError(MoveFault.NO_SUCH_END, end=end)
        if end in (End.NORTH, End.SOUTH) and layout.kind == "spinner":
            raise IllegalMoveError(MoveFault.END_NOT_OPEN_YET, end=end)
        raise IllegalMoveError(MoveFault.END_NOT_OPEN, end=end)
    if layout.closed[end]:
        raise IllegalMoveError(MoveFault.END_CLOSED, end=end)
    if not p.tile.has(value):
        raise IllegalMoveError(
            MoveFault.DOES_NOT_FIT, tile=p.tile, written=_written(p), end=end, number=value
        )


def _the_end(layout: Layout, t: Tile) -> End:
    """The one open end ``t`` fits, for a placement that names none."""
    values = layout.values
    fits = tuple(e for e in layout.open_ends() if t.has(values[e]))
    if not fits:
        raise IllegalMoveError(MoveFault.FITS_NO_END, tile=t)
    if len(fits) > 1:
        raise IllegalMoveError(MoveFault.END_AMBIGUOUS, tile=t, ends=fits)
    return fits[0]


def _end_of(p: Placement) -> int:
    return -1 if p.end is None else int(p.end)


def _written(p: Placement) -> str:
    """The tile as the move wrote it: ``4-2`` stays ``4-2``."""
    if p.west is not None and p.tile.has(p.west):
        return f"{p.west}-{p.tile.other(p.west)}"
    return str(p.tile)
