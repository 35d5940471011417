"""The seats of a table: taken, given up, given to an AI, and the match started.

Each action takes the game's lock, checks the game (a refusal changes nothing) and
saves the change (:class:`~bot.games.saving.Saver`). A seat given up in the lobby
goes; in a match the AI takes it, and the last human's leaving ends the match. The
right to start, to add an AI seat and to end the game is the table's holder's
(:mod:`bot.games.holding`): it moves on when its holder leaves.
"""

from __future__ import annotations

from bot.engine import new_match
from bot.i18n import N_

from .autoplay import advance
from .errors import GameError
from .holding import holder_after
from .locks import LockTable
from .memory import Memory
from .saving import Saver
from .service import AI_LEVELS, DEFAULT_AI, Note
from .session import CANCELLED, LOBBY, PLAYING, Seat, Session


class Seats:
    """Joining, leaving, adding an AI seat and starting the match."""

    def __init__(self, memory: Memory, saver: Saver, locks: LockTable) -> None:
        self.memory = memory
        self.saver = saver
        self.locks = locks

    async def join(self, game_id: int, user_id: int, name: str) -> Session:
        async with self.locks.hold(game_id):
            session = await self.memory.require(game_id, LOBBY)
            if session.seat_of(user_id) is not None:
                raise GameError(N_("You already have a seat at this table."))
            if session.full:
                raise GameError(N_("The table is full."))
            seats = (*session.seats, Seat(name, user_id))
            note = Note("joined", len(seats) - 1)
            return await self.saver.commit(session, seats=seats, note=note)

    async def leave(self, game_id: int, user_id: int, *, confirmed: bool = True) -> Session:
        """``user_id`` gives up their seat: in a lobby it goes; in a match an AI takes it.

        The last human at a match ends it (``Note("no_humans")`` with the leaver's seat and
        name), only ``confirmed``: unconfirmed, the game is returned unchanged (the user
        still seated) once the leave is known to be allowed, and the caller asks."""
        async with self.locks.hold(game_id):
            session = await self.memory.require(game_id)
            seat = session.seat_of(user_id)
            if seat is None:
                raise GameError(N_("You are not playing in this game."))
            if session.status == LOBBY:
                return await self._leave_lobby(session, seat)
            seats = list(session.seats)
            name = seats[seat].name
            seats[seat] = Seat(name, None, DEFAULT_AI)
            if not any(s.user_id is not None for s in seats):
                if not confirmed:
                    return session
                last = Note("no_humans", seat, {"name": name, "left": True})
                return await self.saver.end(session, CANCELLED, tuple(seats), last)
            creator = holder_after(session, tuple(seats), seat)
            note = Note("left", seat)
            return await self.saver.commit(
                session, seats=tuple(seats), creator_id=creator, note=note
            )

    async def _leave_lobby(self, session: Session, seat: int) -> Session:
        seats = session.seats[:seat] + session.seats[seat + 1 :]
        humans = [s for s in seats if s.user_id is not None]
        name = session.seats[seat].name
        if not seats:
            return await self.saver.end(session, CANCELLED, seats, Note("everyone_left"))
        if not humans:  # AI seats stay behind: the last human closed the table
            last = Note("no_humans", None, {"name": name, "left": True})
            return await self.saver.end(session, CANCELLED, seats, last)
        creator = session.creator_id
        if creator == session.seats[seat].user_id:
            creator = humans[0].user_id or creator
        left = Note("left_lobby", None, {"name": name})
        return await self.saver.commit(session, seats=seats, creator_id=creator, note=left)

    async def add_bot(self, game_id: int, user_id: int, level: str | None) -> Session:
        async with self.locks.hold(game_id):
            session = await self.memory.require(game_id, LOBBY)
            _require_creator(session, user_id)
            level = level or DEFAULT_AI
            if level not in AI_LEVELS:
                raise GameError(N_("The AI level is easy, normal or hard."))
            if session.full:
                raise GameError(N_("The table is full."))
            number = 1 + sum(1 for s in session.seats if s.is_ai)
            seats = (*session.seats, Seat(f"Bot {number}", None, level))
            note = Note("bot_added", len(seats) - 1)
            return await self.saver.commit(session, seats=seats, note=note)

    async def start(self, game_id: int, user_id: int) -> Session:
        async with self.locks.hold(game_id):
            session = await self.memory.require(game_id, LOBBY)
            _require_creator(session, user_id)
            if not session.full:
                raise GameError(
                    N_("The table needs {needed} players; {seated} are seated."),
                    needed=session.rules.players,
                    seated=len(session.seats),
                )
            return await self.start_match(session)

    async def start_match(self, session: Session, *notes: Note) -> Session:
        """Deal the first deal (the game's lock held by the caller)."""
        state = new_match(session.rules, session.deal_rng(1))
        started = session.with_(status=PLAYING)
        state = advance(started, state)
        return await self.saver.commit(
            session, state=state, status=PLAYING, notes=(*notes, Note("started"))
        )


def _require_creator(session: Session, user_id: int) -> None:
    if user_id != session.creator_id:
        raise GameError(N_("Only the player who opened the table can do that."))
