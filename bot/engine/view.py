"""What one seat may see: its own hand and everything public, nothing else.

Downstream code (the bot, the renderer, the AI) that works from a
:class:`PlayerView` cannot leak another player's hand by accident: the view
holds no hidden tile. Face-down (closed) tiles are hidden too, except from the
seat that laid them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .deal import Deal
from .events import Drew, Event, Passed, Played
from .layout import Laid, Layout
from .match import MatchState
from .mexican import TrainDeal
from .moves import End, Move, Placement
from .rules import Rules
from .scoring import DealResult
from .tiles import Tile
from .trains import MEXICAN, NO_DOUBLE, Car, Station, train_ids


@dataclass(frozen=True, slots=True)
class SeenLaid:
    """A tile on the table as a seat sees it: ``tile`` is ``None`` for a hidden face-down tile."""

    tile: Tile | None
    inner: int
    outer: int | None
    closed: bool


@dataclass(frozen=True, slots=True)
class SeenPlacement:
    tile: Tile | None
    """``None`` for a face-down tile laid by another seat."""
    end: End | None
    closed: bool
    train: int | None = None
    """Mexican Train: the train the tile went on (a seat, or ``MEXICAN``)."""
    west: int | None = None
    """A lead: the half that faces west (as :class:`~bot.engine.moves.Placement` has it)."""

    def placement(self) -> Placement:
        """The placement itself, to write a move in words (a face-up tile only)."""
        assert self.tile is not None, "a face-down tile laid by another seat is not known"
        return Placement(self.tile, self.end, self.closed, self.west, self.train)


@dataclass(frozen=True, slots=True)
class SeenPlay:
    seat: int
    placements: tuple[SeenPlacement, ...]
    count: int
    points: int


@dataclass(frozen=True, slots=True)
class SeenDraw:
    seat: int
    count: int
    tiles: tuple[Tile, ...] | None
    """The drawn tiles, for the drawer only."""


@dataclass(frozen=True, slots=True)
class SeenPass:
    seat: int


SeenEvent = SeenPlay | SeenDraw | SeenPass


@dataclass(frozen=True, slots=True)
class TableView:
    lead: SeenLaid | None
    arms: tuple[tuple[SeenLaid, ...], ...]
    """Indexed by :class:`End`; innermost tile first."""
    ends: dict[End, int]
    """Every open end and the number it shows."""
    closed: dict[End, int]
    """Every closed end and the number it was closed on (the far half stays hidden)."""
    spinner: Tile | None
    spinner_arm: End | None
    spinner_index: int
    count: int


@dataclass(frozen=True, slots=True)
class TrainView:
    """One train of a Mexican Train table, all public."""

    train: int
    """Its name: the owner's seat, or ``MEXICAN``."""
    cars: tuple[Car, ...]
    """Its tiles from the station out; ``cars[-1].outer`` is its end."""
    end: int
    """The number a tile must show to go on it (the engine's while it is empty)."""
    marker: bool
    """Whether its owner's marker is on it (the Mexican train is always open)."""


@dataclass(frozen=True, slots=True)
class StationView:
    """Mexican Train's table: the engine and every train (RULES.md#mexican-train)."""

    engine: int
    """The engine double's number (it lies in the station)."""
    trains: tuple[TrainView, ...]
    """Each seat's train in seat order, then the Mexican train."""
    unsatisfied: int | None
    """The train whose double waits to be satisfied, or ``None``."""

    def train(self, train: int) -> TrainView:
        """The train named ``train`` (a seat, or ``MEXICAN``)."""
        return self.trains[train]

    @property
    def players(self) -> int:
        """The seats (each has a train; the Mexican train is the last)."""
        return len(self.trains) - 1

    @property
    def ends(self) -> tuple[int, ...]:
        """Each train's end number, indexed by train (``ends[MEXICAN]`` is the last)."""
        return tuple(t.end for t in self.trains)


def station_view(station: Station) -> StationView:
    trains = tuple(
        TrainView(
            train,
            tuple(station.cars[train]),
            station.ends[train],
            train != MEXICAN and station.markers[train],
        )
        for train in train_ids(station.players)
    )
    waiting = station.unsatisfied
    return StationView(station.engine, trains, None if waiting == NO_DOUBLE else waiting)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's view of a match at one moment."""

    seat: int | None
    """``None`` for a spectator (sees only what is public)."""
    rules: Rules
    deal_number: int
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, ...]
    boneyard_size: int
    turn: int
    deal_over: bool
    table: TableView
    history: tuple[SeenEvent, ...]
    legal_moves: tuple[Move, ...]
    """The seat's legal moves when it is its turn, else empty."""
    forced: Tile | None
    """A tile this seat drew and must lay."""
    totals: tuple[float, ...]
    results: tuple[DealResult, ...]
    """Finished deals (every hand is revealed at a deal's end)."""
    over: bool
    winners: tuple[int, ...]
    station: StationView | None = None
    """Mexican Train's trains (``table`` is then empty); ``None`` in the other games."""


@dataclass(frozen=True, slots=True)
class HandView:
    """One seat's own tiles and, on its turn, its moves: what a hand message shows.

    A part of :class:`PlayerView` (the same values), cheap enough to build on every
    click: no table, no history.
    """

    seat: int
    hand: tuple[Tile, ...]
    legal_moves: tuple[Move, ...]
    """The seat's legal moves when it is its turn, else empty."""
    forced: Tile | None
    """A tile this seat drew and must lay."""


def hand_view(state: MatchState, seat: int) -> HandView:
    """``seat``'s hand and moves (as :func:`view` gives them)."""
    deal = state.deal
    mine = seat == deal.turn and not deal.over
    return HandView(
        seat=seat,
        hand=deal.hand(seat),
        legal_moves=tuple(deal.legal_moves()) if mine else (),
        forced=deal.forced if mine else None,
    )


def view(state: MatchState, seat: int | None) -> PlayerView:
    """What ``seat`` may see of ``state`` (``None``: a spectator)."""
    deal = state.deal
    mine = seat is not None and seat == deal.turn and not deal.over
    return PlayerView(
        seat=seat,
        rules=state.rules,
        deal_number=state.deal_number,
        hand=deal.hand(seat) if seat is not None else (),
        hand_sizes=deal.hand_sizes(),
        boneyard_size=deal.boneyard_size,
        turn=deal.turn,
        deal_over=deal.over,
        table=table_view(deal, seat),
        history=tuple(_seen_event(e, seat, deal.over) for e in deal.history),
        legal_moves=tuple(deal.legal_moves()) if mine else (),
        forced=deal.forced if mine else None,
        totals=state.totals,
        results=state.results,
        over=state.over,
        winners=state.winners,
        station=station_view(deal.station) if isinstance(deal, TrainDeal) else None,
    )


def public_view(state: MatchState) -> PlayerView:
    """What everybody may see of ``state``: a spectator's :func:`view` (no hand at all).

    Public pictures (the board image) are drawn from this, never from the state.
    """
    return view(state, None)


def public_history(deal: Deal) -> tuple[SeenEvent, ...]:
    """Every event of ``deal`` as everybody sees it: how many tiles a seat drew, never
    which; a face-down tile unnamed while the deal is in play (revealed once it is over).
    ``public_view(state).history`` is this for the deal in play."""
    over = deal.over
    return tuple(_seen_event(e, None, over) for e in deal.history)


@dataclass(frozen=True, slots=True)
class ScoreView:
    """A match's score as everybody sees it: what a deal summary shows.

    The finished deals' results (every hand is revealed at a deal's end), the totals,
    and once the match is over its winners and a latvian session's place points. Nothing
    of a deal in play but the points it has scored (all fives counts, in ``totals``).
    """

    rules: Rules
    results: tuple[DealResult, ...]
    """The finished deals, in order (deal ``k`` is ``results[k - 1]``)."""
    totals: tuple[float, ...]
    """Per side (:attr:`Rules.sides`)."""
    over: bool
    winners: tuple[int, ...]
    places: tuple[float, ...] | None
    """A latvian session's place points, once it is over."""

    def totals_after(self, deals: int) -> tuple[float, ...]:
        """Per side, what the first ``deals`` finished deals scored."""
        results = self.results[:deals]
        return tuple(sum(r.score[i] for r in results) for i in range(len(self.rules.sides)))

    def after(self, number: int) -> ScoreView | None:
        """The match as it stood when deal ``number`` (from 1) ended; None if that deal
        is not over. Its winners only if it was the match's last deal."""
        if not 0 < number <= len(self.results):
            return None
        last = self.over and number == len(self.results)
        return ScoreView(
            self.rules,
            self.results[:number],
            self.totals_after(number),
            last,
            self.winners if last else (),
            self.places if last else None,
        )


def score_view(state: MatchState) -> ScoreView:
    """The score of ``state`` as everybody may see it."""
    return ScoreView(
        state.rules, state.results, state.totals, state.over, state.winners, state.places
    )


def table_view(deal: Deal, seat: int | None) -> TableView:
    """The table of ``deal`` as ``seat`` sees it (``None``: a spectator)."""
    count = deal.layout.count() if deal.fives else 0
    return layout_view(deal.layout, _hidden_tiles(deal, seat), count)


def layout_view(layout: Layout, hidden: frozenset[Tile] = frozenset(), count: int = 0) -> TableView:
    """``layout`` with the tiles in ``hidden`` face down and unknown; ``count`` as given.

    :func:`table_view` works out ``hidden`` and ``count`` from a deal; a bare layout
    (tests, pictures of a position) has neither a deal nor hidden tiles.
    """

    def seen(laid: Laid) -> SeenLaid:
        if laid.tile in hidden:
            return SeenLaid(None, laid.inner, None, True)
        return SeenLaid(laid.tile, laid.inner, laid.outer, laid.closed)

    return TableView(
        lead=seen(layout.lead) if layout.lead else None,
        arms=tuple(tuple(seen(x) for x in arm) for arm in layout.arms),
        ends={e: layout.values[e] for e in layout.open_ends()},
        closed={e: layout.arms[e][-1].inner for e in End if layout.closed[e]},
        spinner=layout.spinner,
        spinner_arm=layout.spinner_arm,
        spinner_index=layout.spinner_index,
        count=count,
    )


def _hidden_tiles(deal: Deal, seat: int | None) -> frozenset[Tile]:
    """Face-down tiles laid by other seats, while the deal is in play."""
    if deal.over:
        return frozenset()
    return frozenset(
        p.tile
        for e in deal.history
        if type(e) is Played and e.seat != seat
        for p in e.move.placements
        if p.closed
    )


def _seen_event(event: Event, seat: int | None, revealed: bool) -> SeenEvent:
    if type(event) is Played:
        own = revealed or event.seat == seat
        placements = tuple(
            SeenPlacement(p.tile if own or not p.closed else None, p.end, p.closed, p.train, p.west)
            for p in event.move.placements
        )
        return SeenPlay(event.seat, placements, event.fives_count, event.points)
    if type(event) is Drew:
        return SeenDraw(event.seat, len(event.tiles), event.tiles if event.seat == seat else None)
    assert type(event) is Passed
    return SeenPass(event.seat)
