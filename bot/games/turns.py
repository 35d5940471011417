"""What the bot does by itself: turn timers, the idle limit, AI seats' moves.

After every save (:meth:`Turns.after_change`) a game gets one *watchdog* task: it
sleeps until the turn timer of the human to move or the game's idle limit (a
lobby's sooner), then acts if the game did not change meanwhile (any change cancels
it and sets a new one). A human whose timer runs out has a move played for them by
the AI; after :data:`~bot.games.session.MISSED_TURNS_LIMIT` in a row the AI takes the
seat, and a match whose last human it replaced ends.

When an AI seat is to move, one task per game plays AI moves one at a time until a
human is to move. The AI decides outside the game's lock (in a process pool); its
move is applied under the lock only if the game has not changed meanwhile.

A save of the bot's own move that fails is tried again after a pause
(:mod:`bot.games.retries`), the task staying the game's meanwhile: nobody else would
move it.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import Any

from bot.engine import Move, play, view
from bot.storage import StorageError

from .autoplay import advance
from .errors import GameError, StaleError
from .holding import holder_after
from .limits import Limits
from .locks import LockTable
from .memory import Memory
from .retries import RETRY_DELAYS, Backoff
from .saving import Saver
from .service import DEFAULT_AI, IDLE_LIMIT, Decider, Note
from .session import ABANDONED, CANCELLED, LOBBY, MISSED_TURNS_LIMIT, Seat, Session

log = logging.getLogger(__name__)


class Turns:
    """The games' watchdogs (turn timers, idle limits) and AI tasks."""

    def __init__(
        self,
        memory: Memory,
        saver: Saver,
        locks: LockTable,
        *,
        clock: Callable[[], datetime],
        ai: Decider,
        limits: Limits,
    ) -> None:
        self.memory = memory
        self.saver = saver
        self.locks = locks
        self.clock = clock
        self.ai = ai
        self.limits = limits
        self.retry_delays: tuple[float, ...] = RETRY_DELAYS
        """Pauses before a failed save of the bot's own move is tried again."""
        self.closed = False
        self.watchdogs: dict[int, asyncio.Task[None]] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        """The AI tasks (and any other kept task): cancelled on close."""
        self.ai_running: set[int] = set()
        """The games with an AI task (one per game, from its spawn on)."""

    def after_change(self, session: Session) -> None:
        """Restart the watchdog; let the AI move if it is an AI's turn."""
        old = self.watchdogs.pop(session.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if self.closed or not session.active:
            return
        now = self.clock()
        idle = self.limits.lobby_idle if session.status == LOBBY else IDLE_LIMIT
        delay = (session.updated_at + idle - now).total_seconds()
        seat = session.turn_seat
        if seat is not None and not seat.is_ai and session.timer:
            started = session.turn_started_at or session.updated_at
            delay = min(delay, (started - now).total_seconds() + session.timer)
        self.watchdogs[session.id] = self.spawn(
            self.watch(session.id, session.version, delay), keep=False
        )
        if seat is not None and seat.is_ai and session.id not in self.ai_running:
            self.ai_running.add(session.id)  # one AI task per game, from its spawn on
            self.spawn(self.ai_turns(session.id))

    def spawn(self, coro: Coroutine[Any, Any, None], keep: bool = True) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro)
        if keep:
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        task.add_done_callback(_log_failure)
        return task

    async def close(self) -> None:
        """Stop every watchdog and AI task (no new one starts)."""
        self.closed = True
        tasks = [*self.watchdogs.values(), *self.tasks]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.watchdogs.clear()
        self.tasks.clear()

    # -- timers -------------------------------------------------------------------------

    async def watch(self, game_id: int, version: int, delay: float) -> None:
        """Sleep until the turn timer or the idle limit, then act if nothing changed.

        An act whose save fails is tried again after a pause, this task staying the
        game's watchdog meanwhile (a change to the game cancels it, as ever)."""
        backoff = Backoff(self.retry_delays)
        while True:
            try:
                await asyncio.sleep(max(delay, 0))
            except asyncio.CancelledError:
                return
            try:
                await self.on_time(game_id, version)
            except StaleError:
                return  # the game was read again, with a watchdog of its own
            except StorageError as error:
                delay = backoff.warn(log, game_id, "what its timer did", error)
                continue
            return

    async def on_time(self, game_id: int, version: int) -> None:
        """The game's timer ran out at ``version``: the idle limit ends it (a lobby's
        sooner), a human's turn timer plays for them; a match whose last human the timer
        replaced ends as if they had left."""
        session = self.memory.games.get(game_id)
        if session is None or session.version != version or not session.active:
            return
        idle = self.clock() - session.updated_at
        if session.status == LOBBY and idle >= self.limits.lobby_idle:
            minutes = int(self.limits.lobby_idle.total_seconds() // 60)
            lapsed = Note("lapsed", None, {"minutes": minutes})
            await self.end_unchanged(session, CANCELLED, session.seats, lapsed)
            return
        if idle >= IDLE_LIMIT:
            await self.end_unchanged(session, ABANDONED, session.seats, Note("abandoned"))
            return
        turn = session.turn
        if turn is None or session.turn_seat is None or session.turn_seat.is_ai:
            return
        seat = session.seats[turn]
        missed = seat.missed + 1
        seats = list(session.seats)
        notes = [Note("timeout", turn)]
        creator = None
        if missed >= MISSED_TURNS_LIMIT:
            seats[turn] = Seat(seat.name, None, DEFAULT_AI)
            replaced = Note("replaced_by_ai", turn, {"missed": missed})
            if not any(s.user_id is not None for s in seats):  # nobody left to play for
                await self.end_unchanged(
                    session, CANCELLED, tuple(seats), replaced, Note("no_humans")
                )
                return
            notes.append(replaced)
            creator = holder_after(session, tuple(seats), turn)
        else:
            seats[turn] = Seat(seat.name, seat.user_id, None, missed)
        await self.ai_move(session, DEFAULT_AI, tuple(notes), tuple(seats), creator)

    async def end_unchanged(
        self, session: Session, status: str, seats: tuple[Seat, ...], *notes: Note
    ) -> None:
        """End the game as ``session`` has it, unless it changed meanwhile (a timer's end)."""
        async with self.locks.hold(session.id):
            if self.memory.games.get(session.id) is session:
                await self.saver.end(session, status, seats, *notes)

    # -- AI seats -----------------------------------------------------------------------

    async def ai_turns(self, game_id: int) -> None:
        """Let AI seats move, one move at a time, until a human is to move. A move whose
        save fails is tried again after a pause (:mod:`bot.games.retries`): the game
        waits on this task, and nothing else would move it."""
        backoff = Backoff(self.retry_delays)
        try:
            while not self.closed:
                session = self.memory.games.get(game_id)
                seat = session.turn_seat if session is not None else None
                if session is None or seat is None or not seat.is_ai:
                    return
                try:
                    await self.ai_move(session, seat.ai or DEFAULT_AI, ())
                except StaleError:
                    continue  # the game was read again (Saver.stale): look again
                except StorageError as error:
                    await asyncio.sleep(backoff.warn(log, game_id, "an AI move", error))
                    continue
                backoff.reset()
        finally:
            self.ai_running.discard(game_id)

    async def ai_move(
        self,
        session: Session,
        level: str,
        notes: tuple[Note, ...],
        seats: tuple[Seat, ...] | None = None,
        creator_id: int | None = None,
    ) -> Session | None:
        """Decide for the seat to move (no lock held), then apply it if nothing changed."""
        state = session.state
        turn = session.turn
        assert state is not None
        assert turn is not None
        rng = random.Random(f"{session.seed}:ai:{state.deal_number}:{len(state.deal.history)}")
        try:
            decision = await self.ai.decide(view(state, turn), level, rng)
            chosen: Move = decision.move
        except Exception:
            log.exception("game %d: the %s AI failed; playing any legal move", session.id, level)
            chosen = rng.choice(state.legal_moves())
        async with self.locks.hold(session.id):
            current = self.memory.games.get(session.id)
            if current is None or current.version != session.version:
                return None  # the game moved on while the AI thought; look again
            move = chosen
            if move.canonical() not in state.legal_moves():  # never trust a player, even ours
                log.error("game %d: the %s AI played an illegal move", session.id, level)
                move = rng.choice(state.legal_moves())
            after = play(state, move, turn)
            after = advance(session, after)
            return await self.saver.commit(
                session, state=after, seats=seats, creator_id=creator_id, notes=notes
            )


def _log_failure(task: asyncio.Task[Any]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None and not isinstance(error, GameError):
        log.error("a game task failed", exc_info=error)
