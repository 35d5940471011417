"""Saving a change: one transaction, then the publisher, then the game's timers.

Every change the service makes goes through :meth:`Saver.commit` (or
:meth:`Saver.end`, a game's last save), called with the game's lock held: the change
is written in one transaction that checks the game's version, kept in memory, handed
to the publisher (which announces it in the background, never waited for) and the
game's turn timer and AI task are set again (the ``changed`` hook). A save writes only
what is new (:func:`_record_append`): a move costs the same to save at deal 100 as at
deal 1; the whole record is written once, when the game ends.

A save that finds the game changed in the database since it was read (another save
landed, or one whose answer was lost) reads it again (:meth:`Saver.stale`): the game
goes on from there, and the player is told to try again.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot.engine import MatchState, state_to_json
from bot.engine.record import record_gain, record_head
from bot.i18n import N_
from bot.storage import (
    Database,
    FinishedMatch,
    MatchDeal,
    MatchSeat,
    RecordAppend,
    StaleGameError,
)

from .errors import StaleError
from .memory import Memory
from .service import Note, Update
from .session import FINISHED, Seat, Session


class Saver:
    """Saves the service's changes (the game's lock held by the caller)."""

    def __init__(
        self,
        db: Database,
        memory: Memory,
        *,
        clock: Callable[[], datetime],
        publish: Callable[[Update], None],
        changed: Callable[[Session], None],
    ) -> None:
        self.db = db
        self.memory = memory
        self.clock = clock
        self.publish = publish
        """Hands a saved change to the publisher (never blocks, never raises)."""
        self.changed = changed
        """Sets the game's turn timer and AI task again after a save."""

    async def commit(
        self,
        session: Session,
        *,
        state: MatchState | None = None,
        seats: tuple[Seat, ...] | None = None,
        status: str | None = None,
        creator_id: int | None = None,
        note: Note | None = None,
        notes: tuple[Note, ...] | list[Note] = (),
    ) -> Session:
        """Save the change in one transaction, then hand it to the publisher, set timers.

        A match the change ends is saved by :meth:`end`."""
        seats = seats if seats is not None else session.seats
        state = state if state is not None else session.state
        all_notes = (*([note] if note else []), *notes)
        if state is not None and state.over:
            return await self.end(session, FINISHED, seats, *all_notes, state=state)
        now = self.clock()
        turn_changed = state is not session.state
        try:
            version = await self.db.games.update(
                session.id,
                session.version,
                now=now,
                status=status,
                seats=[s.to_json() for s in seats],
                log=_record_append(session, state, seats),
                turn_started_at=now if turn_changed else None,
                creator_id=creator_id,
            )
        except StaleGameError:
            raise await self.stale(session.id) from None
        after = self.memory.adopt(
            session.with_(
                version=version,
                updated_at=now,
                state=state,
                seats=seats,
                status=status or session.status,
                creator_id=creator_id or session.creator_id,
                turn_started_at=now if turn_changed else session.turn_started_at,
            )
        )
        self.announce(session, after, all_notes)
        self.changed(after)
        return after

    async def end(
        self,
        session: Session,
        status: str,
        seats: tuple[Seat, ...],
        *notes: Note,
        state: MatchState | None = None,
        announce: bool = True,
    ) -> Session:
        """The game's last save: its whole record, and a finished match's result for the
        leaderboard (in the same transaction)."""
        state = state if state is not None else session.state
        now = self.clock()
        record = _record(state, seats) or {}  # the whole record, once per game
        match = _finished_match(state, seats, now, record) if status == FINISHED else None
        try:
            saved = await self.db.games.finish(
                session.id,
                session.version,
                now=now,
                status=status,
                state=record,
                seats=[s.to_json() for s in seats],
                match=match,
            )
        except StaleGameError:
            raise await self.stale(session.id) from None
        after = self.memory.adopt(
            session.with_(
                version=saved.version, updated_at=now, state=state, seats=seats, status=status
            )
        )
        if announce:
            self.announce(session, after, tuple(notes))
        self.changed(after)
        return after

    async def stale(self, game_id: int) -> StaleError:
        """A save found the game changed in the database since it was read (another
        save landed, or one whose answer was lost): the game is read again and goes on
        from there (its timer and AI task set, a change Discord was not shown
        announced); the player is told to try again. If it cannot be read either, that
        :class:`StorageError` is raised (the game stays as it was in memory, and the next
        action reads it again)."""
        memory = self.memory
        row = await self.db.games.get(game_id)
        table = memory.tables.get(game_id)  # where the publisher drew it (kept)
        memory.forget(game_id)
        if row is not None:
            if table is not None and row.active:
                memory.tables[game_id] = table
            session = memory.load(row)  # adopted with its timer and AI task if active
            if not session.active:
                self.changed(session)  # its timer stops
            if row.announced_version < row.version:
                self.recovered(session)
        return StaleError(N_("The game changed at the same moment. Please try again."))

    def announce(self, before: Session | None, after: Session, notes: tuple[Note, ...]) -> None:
        """Hand a saved change to the publisher."""
        self.publish(Update(before, after, notes))

    def recovered(self, session: Session) -> None:
        """Announce a saved change that Discord was not shown (a crash or a lost answer
        between saving and announcing): ``Note("recovered")`` adds no line to the table."""
        self.announce(session, session, (Note("recovered"),))


def _record(state: MatchState | None, seats: tuple[Seat, ...]) -> dict[str, Any] | None:
    if state is None:
        return None
    return state_to_json(state, [s.name for s in seats])


def _record_append(
    session: Session, state: MatchState | None, seats: tuple[Seat, ...]
) -> RecordAppend | None:
    """What a save of ``state`` adds to the stored record of ``session`` (saved with
    ``session.state``): the head when it is new or changed, the deals and moves since.
    Costs as much as what is new, never the whole match."""
    if state is None:
        return None
    before = session.state
    names = [s.name for s in seats]
    head = None
    if before is None or names != session.names or state.time_up != before.time_up:
        head = record_head(state, names)
    deals, moves = record_gain(before, state)
    return RecordAppend(head, deals, moves)


def _finished_match(
    state: MatchState | None, seats: tuple[Seat, ...], now: datetime, record: dict[str, Any]
) -> FinishedMatch | None:
    """A finished match as the leaderboard stores it (seats, places, deals)."""
    if state is None:
        return None
    rules = state.rules
    totals = state.totals
    places = state.places
    winners = set(state.winners)
    match_seats = tuple(
        MatchSeat(
            seat=i,
            user_id=seat.user_id,
            ai_level=seat.ai,
            name=seat.name,
            side=rules.side_of(i),
            total=float(totals[rules.side_of(i)]),
            won=i in winners,
            place=float(places[rules.side_of(i)]) if places is not None else None,
        )
        for i, seat in enumerate(seats)
    )
    deals = tuple(
        MatchDeal(
            deal=n,
            end_kind=result.end,
            winners=tuple(result.winners),
            score=tuple(float(x) for x in result.score),
        )
        for n, result in enumerate(state.results, 1)
    )
    return FinishedMatch(
        game=rules.game,
        finished_at=now,
        record=record,
        seats=match_seats,
        deals=deals,
    )
