"""A finished deal of a match, replayed move by move: each position before a move.

The review values every move from the position before it (:func:`positions`), and the
picture of a mistake draws that position (:func:`position_before`): the table, the
mover's hand, the move played. Only finished deals: once a deal is over its record
shows every hand, so nothing here is hidden from anyone.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from ..deal import Deal
from ..errors import DominoError
from ..events import Played
from ..match import MatchState, start_deal
from ..mexican import TrainDeal
from ..moves import Move
from ..rules import Rules
from ..tiles import Tile
from ..view import PlayerView, StationView, TableView, layout_view, public_view, station_view


class NotReviewable(DominoError):
    """The deal asked for is not in the match, or not over."""


@dataclass(frozen=True, slots=True)
class Step:
    """A move of the deal and the match as it stood just before it."""

    index: int
    """The move's place among the deal's moves, from 0."""
    seat: int
    before: MatchState
    move: Move

    @property
    def deal(self) -> Deal:
        return self.before.deal


@dataclass(frozen=True, slots=True)
class Position:
    """What a picture of one move shows: the table before it, the mover's hand, the move
    played (and the legal moves). Public once the deal is over."""

    rules: Rules
    deal: int
    index: int
    seat: int
    hand: tuple[Tile, ...]
    table: TableView
    station: StationView | None
    """Mexican Train's trains (``table`` is then empty)."""
    legal: tuple[Move, ...]
    played: Move
    board: PlayerView
    """A spectator's view of the position, its table revealed (a face-down tile face up):
    what a picture of the board is drawn from."""


def finished_deal(state: MatchState, deal: int) -> Deal:
    """Deal ``deal`` (from 1) of ``state``; :class:`NotReviewable` unless it is over."""
    if not 0 < deal <= len(state.deals):
        raise NotReviewable(f"the match has no deal {deal}")
    found = state.deals[deal - 1]
    if not found.over:
        raise NotReviewable(f"deal {deal} is not over")
    return found


def steps(state: MatchState, deal: int) -> Iterator[Step]:
    """Every move of finished deal ``deal`` (from 1), with the match just before it."""
    done = finished_deal(state, deal)
    rules = state.rules
    earlier = state.deals[: deal - 1]
    current = start_deal(
        rules, deal, done.dealt, done.stock, done.leader, base_totals=done.base_totals
    )
    index = 0
    for event in done.history:
        if type(event) is not Played:
            continue  # draws and passes: the engine does them after each move
        before = MatchState(rules, (*earlier, current))
        yield Step(index, event.seat, before, event.move)
        current = current.copy()
        current.push(event.move)
        index += 1


def position_before(state: MatchState, deal: int, index: int) -> Position:
    """The position before move ``index`` (from 0) of finished deal ``deal`` (from 1)."""
    for step in steps(state, deal):
        if step.index == index:
            return position_of(step)
    raise NotReviewable(f"deal {deal} has no move {index + 1}")


def position_of(step: Step) -> Position:
    """The picture's values of one step."""
    d = step.deal
    station = station_view(d.station) if isinstance(d, TrainDeal) else None
    count = d.layout.count() if d.fives else 0
    table = layout_view(d.layout, frozenset(), count)
    return Position(
        rules=d.rules,
        deal=step.before.deal_number,
        index=step.index,
        seat=step.seat,
        hand=d.hand(step.seat),
        table=table,
        station=station,
        legal=tuple(d.legal_moves()),
        played=step.move,
        board=replace(public_view(step.before), table=table),
    )
