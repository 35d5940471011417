"""The service between Discord and the engine: load, check, apply, save, announce.

Every change to a game happens under that game's lock and is saved (one
transaction) before it is announced. The cogs call the public coroutines with
plain ids and names; announcements go out through a :class:`Publisher`.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from bot.engine import (
    MatchState,
    Move,
    Rules,
    RulesError,
    new_match,
    next_deal,
    play,
    state_to_json,
    view,
)
from bot.engine.rules import MAX_PLAYERS, TARGET_RANGE
from bot.engine.view import PlayerView
from bot.i18n import N_
from bot.storage import (
    ChannelBusyError,
    Database,
    FinishedMatch,
    MatchDeal,
    MatchSeat,
    StaleGameError,
)

from .errors import GameError, StaleError
from .moves_text import parse_wanted, resolve
from .session import (
    ABANDONED,
    CANCELLED,
    FINISHED,
    LOBBY,
    MISSED_TURNS_LIMIT,
    PLAYING,
    Seat,
    Session,
)

log = logging.getLogger(__name__)

AI_LEVELS = ("easy", "normal", "hard")
DEFAULT_AI = "normal"
IDLE_LIMIT = timedelta(hours=24)
TIMER_RANGE = (10, 3600)

AiPlayer = Callable[[PlayerView, str, random.Random], Move]


def random_player(seen: PlayerView, level: str, rng: random.Random) -> Move:
    """The simplest AI: any legal move."""
    return rng.choice(seen.legal_moves)


@dataclass(frozen=True, slots=True)
class Note:
    """Something the service did that the table should mention (besides the moves)."""

    kind: str
    seat: int | None = None
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Update:
    """A change to announce: the game before (``None`` when new) and after."""

    before: Session | None
    after: Session
    notes: tuple[Note, ...] = ()


class Publisher(Protocol):
    async def publish(self, update: Update) -> None: ...


def turn_token(session: Session) -> str:
    """Changes with every move: hand buttons carry it to refuse stale clicks."""
    if session.state is None:
        return "0"
    return f"{session.state.deal_number}.{len(session.state.deal.history)}"


class GameService:
    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], datetime],
        ai_player: AiPlayer = random_player,
        seed_source: Callable[[], int] | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.ai_player = ai_player
        self.publisher: Publisher | None = None
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, Session] = {}
        self._watchdogs: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ai_running: set[int] = set()
        self._closed = False

    # -- lifecycle --------------------------------------------------------------

    async def restore(self) -> int:
        """After a start: watch every active game again and let AI seats resume."""
        rows = await self.db.games.active()
        for row in rows:
            session = Session.from_row(row)
            self._cache[session.id] = session
            self._after_change(session)
        log.info("restored %d active games", len(rows))
        return len(rows)

    async def close(self) -> None:
        self._closed = True
        tasks = [*self._watchdogs.values(), *self._tasks]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._watchdogs.clear()
        self._tasks.clear()

    # -- reading ----------------------------------------------------------------

    async def in_channel(self, channel_id: int) -> Session | None:
        row = await self.db.games.active_in_channel(channel_id)
        return self._session(row) if row else None

    async def latest_in_channel(self, channel_id: int) -> Session | None:
        row = await self.db.games.latest_in_channel(channel_id)
        return self._session(row) if row else None

    async def get(self, game_id: int) -> Session | None:
        row = await self.db.games.get(game_id)
        return self._session(row) if row else None

    async def player_view(self, game_id: int, user_id: int) -> tuple[Session, PlayerView]:
        session = await self._require(game_id)
        seat = session.seat_of(user_id)
        if seat is None:
            raise GameError(N_("You are not playing in this game."))
        if session.state is None:
            raise GameError(N_("The game has not started yet."))
        return session, view(session.state, seat)

    # -- the lobby ----------------------------------------------------------------

    async def open_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        options: dict[str, Any],
        timer: int | None = None,
    ) -> Session:
        try:
            rules = Rules.from_dict({k: v for k, v in options.items() if v is not None})
        except RulesError as e:
            raise rules_refusal(e, options) from None
        if timer is None:
            timer = await self.db.guilds.default_timer(guild_id) or 0
        if timer and not TIMER_RANGE[0] <= timer <= TIMER_RANGE[1]:
            raise GameError(
                N_("The timer is 0 (off) or {low} to {high} seconds."),
                low=TIMER_RANGE[0],
                high=TIMER_RANGE[1],
            )
        try:
            row = await self.db.games.create(
                guild_id=guild_id,
                channel_id=channel_id,
                creator_id=user_id,
                rules=rules.to_dict(),
                seats=[Seat(name, user_id).to_json()],
                seed=self._seed_source(),
                timer=timer,
                now=self.clock(),
            )
        except ChannelBusyError:
            raise GameError(
                N_("This channel already has a game. Finish it, or play in another channel.")
            ) from None
        session = self._session(row)
        await self._publish(Update(None, session))
        self._after_change(session)
        return session

    async def join(self, game_id: int, user_id: int, name: str) -> Session:
        async with self._lock(game_id):
            session = await self._require(game_id, LOBBY)
            if session.seat_of(user_id) is not None:
                raise GameError(N_("You already have a seat at this table."))
            if session.full:
                raise GameError(N_("The table is full."))
            seats = (*session.seats, Seat(name, user_id))
            return await self._commit(session, seats=seats, note=Note("joined", len(seats) - 1))

    async def leave(self, game_id: int, user_id: int) -> Session:
        async with self._lock(game_id):
            session = await self._require(game_id)
            seat = session.seat_of(user_id)
            if seat is None:
                raise GameError(N_("You are not playing in this game."))
            if session.status == LOBBY:
                return await self._leave_lobby(session, seat)
            seats = list(session.seats)
            seats[seat] = Seat(seats[seat].name, None, DEFAULT_AI)
            note = Note("left", seat)
            if not any(s.user_id is not None for s in seats):
                return await self._end(session, CANCELLED, tuple(seats), Note("everyone_left"))
            return await self._commit(session, seats=tuple(seats), note=note)

    async def _leave_lobby(self, session: Session, seat: int) -> Session:
        seats = session.seats[:seat] + session.seats[seat + 1 :]
        humans = [s for s in seats if s.user_id is not None]
        if not humans:
            return await self._end(session, CANCELLED, seats, Note("everyone_left"))
        creator = session.creator_id
        if creator == session.seats[seat].user_id:
            creator = humans[0].user_id or creator
        left = Note("left_lobby", None, {"name": session.seats[seat].name})
        return await self._commit(session, seats=seats, creator_id=creator, note=left)

    async def add_bot(self, game_id: int, user_id: int, level: str | None) -> Session:
        async with self._lock(game_id):
            session = await self._require(game_id, LOBBY)
            self._require_creator(session, user_id)
            level = level or DEFAULT_AI
            if level not in AI_LEVELS:
                raise GameError(N_("The AI level is easy, normal or hard."))
            if session.full:
                raise GameError(N_("The table is full."))
            number = 1 + sum(1 for s in session.seats if s.is_ai)
            seats = (*session.seats, Seat(f"Bot {number}", None, level))
            return await self._commit(session, seats=seats, note=Note("bot_added", len(seats) - 1))

    async def start(self, game_id: int, user_id: int) -> Session:
        async with self._lock(game_id):
            session = await self._require(game_id, LOBBY)
            self._require_creator(session, user_id)
            if not session.full:
                raise GameError(
                    N_("The table needs {needed} players; {seated} are seated."),
                    needed=session.rules.players,
                    seated=len(session.seats),
                )
            state = new_match(session.rules, session.deal_rng(1))
            started = session.with_(status=PLAYING)
            state, notes = self._continue(started, state)
            return await self._commit(
                session, state=state, status=PLAYING, notes=(Note("started"), *notes)
            )

    # -- playing ----------------------------------------------------------------

    async def play(
        self,
        game_id: int,
        user_id: int,
        move: Move | None = None,
        *,
        text: str | None = None,
        end: str | None = None,
        closed: bool | None = None,
        token: str | None = None,
    ) -> Session:
        """Play a move for ``user_id``: a :class:`Move` from a button, or typed text."""
        async with self._lock(game_id):
            session = await self._require(game_id, PLAYING)
            seat = session.seat_of(user_id)
            if seat is None:
                raise GameError(N_("You are not playing in this game."))
            if token is not None and token != turn_token(session):
                raise StaleError(N_("This hand is out of date: the game has moved on."))
            state = session.state
            assert state is not None
            if session.turn != seat:
                turn = session.turn_seat
                raise GameError(
                    N_("It's not your turn: {name} is playing."),
                    name=turn.name if turn else "",
                )
            if move is None:
                move = resolve(state.deal, seat, parse_wanted(text or "", end, closed))
            elif move.canonical() not in state.legal_moves():
                raise StaleError(N_("That move is no longer possible."))
            state = play(state, move, seat)
            seats = _reset_missed(session.seats, seat)
            state, notes = self._continue(session, state)
            return await self._commit(session, state=state, seats=seats, notes=notes)

    async def end_game(self, game_id: int, user_id: int, *, can_manage: bool) -> Session:
        async with self._lock(game_id):
            session = await self._require(game_id)
            if user_id != session.creator_id and not can_manage:
                raise GameError(
                    N_("Only the game's creator or someone with Manage Server can end it.")
                )
            return await self._end(session, CANCELLED, session.seats, Note("cancelled"))

    # -- automatic turns ----------------------------------------------------------

    def _continue(self, session: Session, state: MatchState) -> tuple[MatchState, list[Note]]:
        """Deal the next deal when one ends, and lay a drawn tile that can go only one way."""
        notes: list[Note] = []
        while True:
            deal = state.deal
            if deal.over:
                notes.append(Note("deal_over", None, {"deal": state.deal_number}))
                if state.over:
                    return state, notes
                state = next_deal(state, session.deal_rng(state.deal_number + 1))
                notes.append(Note("deal_started", state.deal.leader, {"deal": state.deal_number}))
                continue
            seat = session.seats[deal.turn]
            legal = deal.legal_moves()
            if not seat.is_ai and deal.forced is not None and len(legal) == 1:
                state = play(state, legal[0])
                continue
            return state, notes

    async def _ai_turns(self, game_id: int) -> None:
        """Let AI seats move, one move at a time, until a human is to move."""
        self._ai_running.add(game_id)
        try:
            await self._ai_loop(game_id)
        finally:
            self._ai_running.discard(game_id)

    async def _ai_loop(self, game_id: int) -> None:
        while not self._closed:
            async with self._lock(game_id):
                session = await self._require(game_id)
                if not session.playing:
                    return
                seat = session.turn_seat
                if seat is None or not seat.is_ai:
                    return
                state = session.state
                assert state is not None
                await self._ai_move(session, state, session.turn or 0, seat.ai or DEFAULT_AI, ())

    async def _ai_move(
        self,
        session: Session,
        state: MatchState,
        turn: int,
        level: str,
        notes: tuple[Note, ...],
        seats: tuple[Seat, ...] | None = None,
    ) -> Session:
        seen = view(state, turn)
        rng = random.Random(f"{session.seed}:ai:{state.deal_number}:{len(state.deal.history)}")
        move = await asyncio.to_thread(self.ai_player, seen, level, rng)
        if move.canonical() not in state.legal_moves():  # never trust a player, even ours
            log.error("game %d: the %s AI chose an illegal move; playing any", session.id, level)
            move = rng.choice(state.legal_moves())
        state = play(state, move, turn)
        state, more = self._continue(session, state)
        return await self._commit(session, state=state, seats=seats, notes=(*notes, *more))

    async def _watch(self, game_id: int, version: int, delay: float) -> None:
        """Sleep until the turn timer or the idle limit, then act if nothing changed."""
        try:
            await asyncio.sleep(max(delay, 0))
        except asyncio.CancelledError:
            return
        async with self._lock(game_id):
            session = await self._require(game_id)
            if session.version != version or not session.active:
                return
            if self.clock() - session.updated_at >= IDLE_LIMIT:
                await self._end(session, ABANDONED, session.seats, Note("abandoned"))
                return
            turn = session.turn
            if turn is None or session.turn_seat is None or session.turn_seat.is_ai:
                return
            seat = session.seats[turn]
            missed = seat.missed + 1
            seats = list(session.seats)
            notes = [Note("timeout", turn)]
            if missed >= MISSED_TURNS_LIMIT:
                seats[turn] = Seat(seat.name, None, DEFAULT_AI)
                notes.append(Note("replaced_by_ai", turn, {"missed": missed}))
            else:
                seats[turn] = Seat(seat.name, seat.user_id, None, missed)
            state = session.state
            assert state is not None
            await self._ai_move(session, state, turn, DEFAULT_AI, tuple(notes), tuple(seats))

    def _after_change(self, session: Session) -> None:
        """Restart the watchdog; let the AI move if it is an AI's turn."""
        old = self._watchdogs.pop(session.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if self._closed or not session.active:
            return
        now = self.clock()
        delay = (session.updated_at + IDLE_LIMIT - now).total_seconds()
        seat = session.turn_seat
        if seat is not None and not seat.is_ai and session.timer:
            started = session.turn_started_at or session.updated_at
            delay = min(delay, (started - now).total_seconds() + session.timer)
        self._watchdogs[session.id] = self._spawn(
            self._watch(session.id, session.version, delay), keep=False
        )
        if seat is not None and seat.is_ai and session.id not in self._ai_running:
            self._spawn(self._ai_turns(session.id))

    def _spawn(self, coro: Coroutine[Any, Any, None], keep: bool = True) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro)
        if keep:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_log_failure)
        return task

    # -- saving -------------------------------------------------------------------

    async def set_table_message(self, game_id: int, message_id: int | None) -> None:
        """Remember where the table is drawn (no lock: the publisher calls it mid-change)."""
        await self.db.games.set_table_message(game_id, message_id)
        cached = self._cache.get(game_id)
        if cached is not None:
            self._cache[game_id] = cached.with_(table_message_id=message_id)

    async def _commit(
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
        """Save the change in one transaction, then announce it and set the timers."""
        seats = seats if seats is not None else session.seats
        state = state if state is not None else session.state
        if state is not None and state.over:
            return await self._end(
                session, FINISHED, seats, *([note] if note else []), *notes, state=state
            )
        now = self.clock()
        turn_changed = state is not session.state
        try:
            row = await self.db.games.save(
                session.id,
                session.version,
                now=now,
                status=status,
                seats=[s.to_json() for s in seats],
                state=_record(state, seats),
                turn_started_at=now if turn_changed else None,
                creator_id=creator_id,
            )
        except StaleGameError:
            self._cache.pop(session.id, None)
            raise StaleError(N_("The game changed at the same moment. Please try again.")) from None
        after = self._session(row)
        all_notes = (*([note] if note else []), *notes)
        await self._publish(Update(session, after, all_notes))
        self._after_change(after)
        return after

    async def _end(
        self,
        session: Session,
        status: str,
        seats: tuple[Seat, ...],
        *notes: Note,
        state: MatchState | None = None,
    ) -> Session:
        state = state if state is not None else session.state
        now = self.clock()
        match = _finished_match(session, state, seats, now) if status == FINISHED else None
        try:
            row = await self.db.games.finish(
                session.id,
                session.version,
                now=now,
                status=status,
                state=_record(state, seats) or {},
                seats=[s.to_json() for s in seats],
                match=match,
            )
        except StaleGameError:
            self._cache.pop(session.id, None)
            raise StaleError(N_("The game changed at the same moment. Please try again.")) from None
        after = self._session(row)
        await self._publish(Update(session, after, tuple(notes)))
        self._after_change(after)
        return after

    async def _publish(self, update: Update) -> None:
        if self.publisher is None:
            return
        try:
            await self.publisher.publish(update)
        except Exception:
            # The change is saved; the next action or /domino board redraws the table.
            log.warning("game %d: announcing the change failed", update.after.id, exc_info=True)

    # -- helpers --------------------------------------------------------------------

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def _session(self, row: Any) -> Session:
        cached = self._cache.get(row.id)
        if cached is not None and cached.version == row.version:
            return cached
        session = Session.from_row(row)
        if session.active:
            self._cache[session.id] = session
        else:
            self._cache.pop(session.id, None)
        return session

    async def _require(self, game_id: int, status: str | None = None) -> Session:
        row = await self.db.games.get(game_id)
        if row is None:
            raise GameError(N_("There is no such game."))
        session = self._session(row)
        if not session.active:
            raise GameError(N_("This game is over."))
        if status == LOBBY and session.status != LOBBY:
            raise GameError(N_("The game has already started."))
        if status == PLAYING and session.status != PLAYING:
            raise GameError(N_("The game has not started yet."))
        return session

    @staticmethod
    def _require_creator(session: Session, user_id: int) -> None:
        if user_id != session.creator_id:
            raise GameError(N_("Only the player who opened the table can do that."))


def _reset_missed(seats: tuple[Seat, ...], seat: int) -> tuple[Seat, ...]:
    if not seats[seat].missed:
        return seats
    s = seats[seat]
    return (*seats[:seat], Seat(s.name, s.user_id, s.ai, 0), *seats[seat + 1 :])


def _record(state: MatchState | None, seats: tuple[Seat, ...]) -> dict[str, Any] | None:
    if state is None:
        return None
    return state_to_json(state, [s.name for s in seats])


def _finished_match(
    session: Session, state: MatchState | None, seats: tuple[Seat, ...], now: datetime
) -> FinishedMatch | None:
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
        record=_record(state, seats) or {},
        seats=match_seats,
        deals=deals,
    )


def rules_refusal(error: RulesError, options: dict[str, Any]) -> GameError:
    """The engine refused the table's options: say why in the user's language.

    The engine's own message is English; this keys a translatable message on the
    option it names and recomputes any numbers from the rules tables.
    """
    game = str(options.get("game"))
    top = options.get("set") or 6
    option = error.option
    high = MAX_PLAYERS.get((game, top))
    if option == "players" and high is not None:
        return GameError(
            N_("This game takes {low} to {high} players on the double-{set} set."),
            low=2,
            high=high,
            set=top,
        )
    if option == "set":
        return GameError(N_("Only the block and draw games use the double-9 and double-12 sets."))
    if option == "teams":
        if game == "latvian":
            return GameError(N_("Latvian dominoes is played without teams."))
        return GameError(N_("Teams need exactly 4 players."))
    if option == "scoring":
        if options.get("scoring") == "penalty" and options.get("teams"):
            return GameError(N_("Minus-point scoring (penalty) is played without teams."))
        return GameError(N_("This game has its own scoring: leave the scoring option out."))
    if option == "layout":
        return GameError(N_("This game has its own layout: leave the layout option out."))
    if option == "target":
        low, high = TARGET_RANGE
        return GameError(N_("The target is {low} to {high} points."), low=low, high=high)
    if option in ("deals", "time_limit"):
        if game != "latvian":
            return GameError(N_("Only a Latvian session has a number of deals."))
        return GameError(N_("A Latvian session has 1 to 100 deals."))
    if option == "hand":
        return GameError(N_("This set has too few tiles for so many hands."))
    if option == "game":
        return GameError(N_("Choose a game: block, draw, allfives or latvian."))
    return GameError(N_("These game options don't work together."))


def _log_failure(task: asyncio.Task[Any]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None and not isinstance(error, GameError):
        log.error("a game task failed", exc_info=error)


__all__ = [
    "AI_LEVELS",
    "GameError",
    "GameService",
    "Note",
    "Publisher",
    "StaleError",
    "Update",
    "turn_token",
]
