"""What Discord may be shown of a game: the public snapshot at the service–cog edge.

The cogs draw the table, the feed, the turn ping, a hand's caption and the deal
summaries from a :class:`Snapshot`, never from a :class:`~bot.games.session.Session`'s
match state: a snapshot is a tree of frozen values with no hidden tile anywhere in it
(no hand, no boneyard, no tile a seat drew, no face-down tile of the deal in play) and
no seed to deal them again. ``tests/test_architecture.py`` keeps the engine's state
types out of the cogs; ``tests/games/test_snapshot.py`` walks the tree.

A player's own tiles travel beside it, as the engine's
:class:`~bot.engine.view.HandView` of that seat alone (``GameService.player_hand``,
``Update.hand``).

Cheap enough to build for every announcement (docs/ARCHITECTURE.md, "The snapshot at
the cog edge"): the deal in play as everybody sees it, the finished deals' results
(public once a deal is over: every hand is revealed at its end), and the public events
of only the deals the feed tells (from the last turn of the seat to move on), so it
does not grow with a long match but by a result per finished deal.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from bot.engine import Rules, Tile
from bot.engine.mexican import TrainDeal
from bot.engine.scoring import DealResult
from bot.engine.view import PlayerView, ScoreView, SeenEvent, public_history, public_view

from .feed import Position, feed_start, laid_since, position
from .session import PLAYING, Seat, Seated, Session


@dataclass(frozen=True, slots=True)
class DealStory:
    """One deal's public events, as the feed tells them."""

    number: int
    """From 1."""
    events: tuple[SeenEvent, ...]
    """Every event of the deal as everybody sees it
    (:func:`~bot.engine.view.public_history`)."""
    engine: Tile | None
    """Mexican Train: the round's engine double (None in the other games)."""
    result: DealResult | None
    """How it ended, once it is over."""


@dataclass(frozen=True, slots=True)
class MatchSnapshot:
    """The match as everybody sees it at one moment."""

    board: PlayerView
    """The deal in play (:func:`~bot.engine.view.public_view`): its table or trains,
    hand sizes, the boneyard's size, whose turn, its public history; the totals and the
    finished deals' results."""
    score: ScoreView
    """The finished deals, the totals, and once over the winners and places: what a
    deal summary shows."""
    feed_seat: int | None
    """Whose last turn the feed starts from (:func:`bot.games.feed.feed_start`)."""
    feed_start: Position
    """Where the feed starts."""
    stories: tuple[DealStory, ...]
    """The deals from the feed's start to the deal in play, in order (only those: a long
    match does not make a snapshot grow)."""
    recent: tuple[tuple[int, Tile], ...]
    """The tiles laid face up on the table since the feed's start, with the seat that
    laid each (the board's badges)."""

    @property
    def rules(self) -> Rules:
        return self.board.rules

    @property
    def deal_number(self) -> int:
        """The deal in play (or the last one), from 1."""
        return self.board.deal_number

    @property
    def totals(self) -> tuple[float, ...]:
        """Per side, with the points the deal in play has scored so far (all fives)."""
        return self.board.totals

    @property
    def over(self) -> bool:
        """The match is over."""
        return self.board.over

    @property
    def position(self) -> Position:
        """Where the match stands (:func:`bot.games.feed.position`)."""
        return self.deal_number, len(self.board.history)

    @property
    def finished(self) -> int:
        """How many deals are over."""
        return len(self.score.results)

    @property
    def fives(self) -> bool:
        """All fives: the table's count scores (``board.table.count``)."""
        return self.rules.scoring == "fives"

    def summary(self, number: int) -> ScoreView | None:
        """The score as it stood when deal ``number`` (from 1) ended; None if it is not
        over."""
        return self.score.after(number)


@dataclass(frozen=True, slots=True)
class Snapshot(Seated):
    """One game as Discord may be shown it: a value, with no hidden tile in it."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    status: str
    rules: Rules
    seats: tuple[Seat, ...]
    version: int
    timer: int
    turn_token: str
    """Changes with every move (:func:`bot.games.service.turn_token`): hand buttons
    carry it."""
    match: MatchSnapshot | None
    """None before the first deal (a lobby, a game ended before it started)."""
    table_message_id: int | None = None
    announced_deals: int = 0
    ping_message_id: int | None = None
    ping_turn: str | None = None
    """What Discord was shown, as last written down (:class:`Session`)."""

    @property
    def playing(self) -> bool:
        return self.status == PLAYING and self.match is not None

    @property
    def turn(self) -> int | None:
        """The seat to move, while a deal is in play."""
        match = self.match
        if not self.playing or match is None or match.board.deal_over:
            return None
        return match.board.turn

    @property
    def turn_seat(self) -> Seat | None:
        turn = self.turn
        return self.seats[turn] if turn is not None else None

    @property
    def train_ends(self) -> tuple[int, ...]:
        """Mexican Train: each train's end number (``ends[MEXICAN]`` the last); else
        empty."""
        station = self.match.board.station if self.match is not None else None
        return station.ends if station is not None else ()


OWN = ("turn_token", "match")
"""The :class:`Snapshot` fields that are not the session's own."""


def snapshot(session: Session) -> Snapshot:
    """What may be shown of ``session``."""
    state = session.state
    match: MatchSnapshot | None = None
    token = "0"
    if state is not None:
        board = public_view(state)
        seat, start = feed_start(state)
        first = start[0]
        stories = [
            DealStory(
                number,
                public_history(deal) if number < state.deal_number else board.history,
                deal.engine if isinstance(deal, TrainDeal) else None,
                deal.result,
            )
            for number, deal in enumerate(state.deals[first - 1 :], start=first)
        ]
        match = MatchSnapshot(
            board=board,
            score=ScoreView(
                board.rules, board.results, board.totals, board.over, board.winners, state.places
            ),
            feed_seat=seat,
            feed_start=start,
            stories=tuple(stories),
            recent=tuple(laid_since(state, start)),
        )
        token = "{}.{}".format(*position(state))
    return Snapshot(
        **{f.name: getattr(session, f.name) for f in fields(Snapshot) if f.name not in OWN},
        turn_token=token,
        match=match,
    )
