"""The service between Discord and the engine: check, apply, save, announce.

The process owns its games: every active game lives in memory (``_games``) and
is read from there; the database is read on start (:meth:`GameService.restore`),
for games not in memory, and by the history and leaderboards. Every change
happens under that game's lock and is saved (one transaction) before it is
handed to the :class:`Publisher`, which announces it in the background: no lock
is held across anything but the write. AI seats decide outside the lock (in a
process pool, :class:`~bot.games.ai_runner.AiRunner`); their move is applied only
if the game has not changed meanwhile.
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
from bot.engine.ai import LEVELS, Level
from bot.engine.record import record_gain, record_head
from bot.engine.view import HandView, PlayerView, hand_view
from bot.i18n import N_
from bot.storage import (
    Announced,
    ChannelBusyError,
    Database,
    FinishedMatch,
    GameRow,
    MatchDeal,
    MatchSeat,
    RecordAppend,
    StaleGameError,
    StorageError,
)

from .errors import GameError, StaleError
from .feed import Position, position
from .holding import check_can_end, holder_after
from .limits import Cooldowns, Limits, check_open_games
from .locks import LockTable
from .marks import AnnouncedMarks
from .moves_text import parse_wanted, resolve, train_words
from .refs import Clicked, GameRef, InChannel, check_place
from .refusals import check_options, rules_refusal
from .retries import RETRY_DELAYS, Backoff
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
from .settings import TIMER_RANGE, SettingsService, check_timer
from .snapshot import Snapshot, snapshot

log = logging.getLogger(__name__)

AI_LEVELS = LEVELS
DEFAULT_AI = Level.NORMAL
IDLE_LIMIT = timedelta(hours=24)
REMATCH_LIFE = timedelta(minutes=30)
"""How long after a match ends its players may accept a rematch."""
RECOVERY_WINDOW = timedelta(days=1)
"""How long after its end a game whose end was never shown is announced by a restart."""
RESTORE_CHUNK = 25
"""Games parsed per step on start; the event loop answers interactions in between."""


class Decider(Protocol):
    """Where AI seats decide (:class:`~bot.games.ai_runner.AiRunner`)."""

    async def decide(self, seen: PlayerView, level: str, rng: random.Random) -> Any:
        """An object with a ``move`` attribute."""
        ...

    async def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Note:
    """Something the service did that the table should mention (besides the moves)."""

    kind: str
    seat: int | None = None
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Update:
    """A change to announce: the game before (``None`` when new) and after.

    The publisher reads it through :meth:`shown`, :meth:`span` and :meth:`hand`, never
    through the sessions' match state."""

    before: Session | None
    after: Session
    notes: tuple[Note, ...] = ()

    def then(self, later: Update) -> Update:
        """This change followed by ``later``, as one (the latest state wins)."""
        return Update(self.before, later.after, (*self.notes, *later.notes))

    def shown(self) -> Snapshot:
        """What may be shown of the game after the change (no hidden tile)."""
        return snapshot(self.after)

    def span(self) -> tuple[Position, Position]:
        """Where in the match the change began and ended (:func:`~.feed.position`)."""
        before = self.before.state if self.before is not None else None
        return position(before), position(self.after.state)

    def hand(self, seat: int) -> HandView | None:
        """``seat``'s own hand after the change, for its owner's eyes only (None before
        the first deal)."""
        state = self.after.state
        return None if state is None else hand_view(state, seat)


@dataclass(frozen=True, slots=True)
class Rematch:
    """Where a rematch stands after a click: who accepted, who is still awaited (names),
    and the new game once every human seat has accepted."""

    accepted: frozenset[int]
    waiting: tuple[str, ...]
    session: Session | None = None


@dataclass(slots=True)
class _Offer:
    """A finished game's rematch offer: its channel, when the match ended, who accepted."""

    channel_id: int
    ended_at: datetime
    accepted: set[int] = field(default_factory=set)


class Publisher(Protocol):
    async def open_table(self, session: Session) -> None:
        """Post a new game's table now; raise if Discord refuses."""
        ...

    def publish(self, update: Update) -> None:
        """Announce a saved change (queued: never blocks the caller, never raises)."""
        ...

    async def repost(self, session: Session) -> bool:
        """Post the table again (``/domino board``); False if Discord did not take it."""
        ...


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
        ai: Decider,
        settings: SettingsService | None = None,
        seed_source: Callable[[], int] | None = None,
        shards: tuple[int, tuple[int, ...]] | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.db = db
        self.shards = shards
        """``(count, ids)``: this process runs those shards and restores only their
        servers' games (None: every game)."""
        self.clock = clock
        self.ai = ai
        self.settings = settings or SettingsService(db)
        self.publisher: Publisher | None = None
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self._locks = LockTable()
        """The games' locks, each kept only while in use (:mod:`bot.games.locks`)."""
        self._games: dict[int, Session] = {}
        self._by_channel: dict[int, int] = {}
        self._tables: dict[int, int] = {}
        self._watchdogs: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ai_running: set[int] = set()
        self._rematches: dict[int, _Offer] = {}
        """Rematch offers by finished game id (in memory: a restart forgets them)."""
        self._restored = asyncio.Event()
        self._closed = False
        self.retry_delays = RETRY_DELAYS
        """Pauses before a failed save of the bot's own move is tried again."""
        self.limits = limits or Limits()
        self.reposts = Cooldowns(self.limits.repost_every, clock)
        """Who posted which channel's table again when (``/domino board``)."""
        """Pauses before a failed save of the bot's own move is tried again."""
        self.marks = AnnouncedMarks(db.games)
        """What the tables show, written down by the publisher (group commits)."""

    # -- lifecycle --------------------------------------------------------------

    async def restore(self) -> int:
        """After a start: take the active games into memory, in chunks, and resume them.

        Interactions are answered meanwhile (a game not restored yet is read from
        the database on demand). Games whose last change never reached Discord
        (a crash between saving and announcing) are announced again
        (``Note("recovered")``, which adds no line to the table: nothing happened in
        the game), the games that ended so within a day too. Nothing else is sent: a
        restart costs Discord no call per game.
        """
        restored = 0
        after_id = 0
        while not self._closed:
            rows = await self.db.games.active(
                after_id=after_id, limit=RESTORE_CHUNK, shards=self.shards
            )
            if not rows:
                break
            after_id = rows[-1].id
            for row in rows:
                session = self._games.get(row.id)  # an interaction may have loaded it
                if session is None:
                    session = self._adopt(Session.from_row(row))
                restored += 1
                if row.announced_version < row.version and session.version == row.version:
                    self._announce(Update(session, session, (Note("recovered"),)))
                if session.id not in self._watchdogs:
                    self._after_change(session)
            await asyncio.sleep(0)
        self._restored.set()
        log.info("restored %d active games", restored)
        if not self._closed:
            try:
                await self._announce_ended()
            except StorageError:
                log.warning("could not read the games that ended unannounced", exc_info=True)
        return restored

    async def _announce_ended(self) -> None:
        """Announce the games whose final save landed but whose end Discord was never
        shown (a crash between the two), if they ended within :data:`RECOVERY_WINDOW`:
        their table shows the result and a finished match its Rematch button."""
        since = self.clock() - RECOVERY_WINDOW
        rows = await self.db.games.unannounced(ended_since=since, shards=self.shards)
        ended = 0
        for row in rows:
            if row.active:
                continue  # restored above
            try:
                session = Session.from_row(row)
            except Exception:  # one unreadable game must not keep the others unannounced
                log.warning("game %d: its end could not be read to announce it", row.id)
                continue
            self._announce(Update(session, session, (Note("recovered"),)))
            ended += 1
        if ended:
            log.info("announcing the end of %d games a restart interrupted", ended)

    async def close(self) -> None:
        self._closed = True
        tasks = [*self._watchdogs.values(), *self._tasks]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._watchdogs.clear()
        self._tasks.clear()
        await self.marks.flush()

    # -- reading ----------------------------------------------------------------

    def in_play(self) -> int:
        """How many games (in the lobby or being played) this process holds now."""
        return len(self._games)

    async def in_channel(self, channel_id: int) -> Session | None:
        """The channel's active game (from memory)."""
        game_id = self._by_channel.get(channel_id)
        if game_id is not None:
            return self._games[game_id]
        if self._restored.is_set():
            return None
        row = await self.db.games.active_in_channel(channel_id)
        return self._load(row) if row else None

    async def channel_game(self, channel_id: int) -> Session:
        """The channel's active game, or the refusal that says there is none."""
        session = await self.in_channel(channel_id)
        if session is None:
            raise GameError(N_("There is no game in this channel. Open one with /domino new."))
        return session

    async def table_to_post(self, channel_id: int, user_id: int) -> Session:
        """The channel's game, for ``user_id`` to post its table again (``/domino board``):
        refused if there is none, or if they posted it within
        :attr:`~bot.games.limits.Limits.repost_every`."""
        session = await self.channel_game(channel_id)
        self.reposts.take(user_id, channel_id)
        return session

    async def game_id(self, game: GameRef) -> int:
        """The id of the game ``game`` names: refused if a channel has none in play, or
        if a button was clicked in another server or channel than its game's."""
        if isinstance(game, InChannel):
            return (await self.channel_game(game.channel_id)).id
        if isinstance(game, Clicked):
            session = await self.get(game.game_id)
            if session is not None:  # (an unknown id is refused as such by the action)
                check_place(session, game)
            return game.game_id
        return game

    async def latest_in_channel(self, channel_id: int) -> Session | None:
        """The channel's active game, else its most recent one."""
        active = await self.in_channel(channel_id)
        if active is not None:
            return active
        row = await self.db.games.latest_in_channel(channel_id)
        return self._load(row) if row else None

    async def get(self, game_id: int) -> Session | None:
        cached = self._games.get(game_id)
        if cached is not None:
            return cached
        if not 0 < game_id < 2**63:
            return None  # no such id in the database (and SQLite could not even ask)
        row = await self.db.games.get(game_id)
        return self._load(row) if row else None

    async def player_hand(self, game: GameRef, user_id: int) -> tuple[Snapshot, HandView]:
        """``user_id``'s hand and, on their turn, their moves (beside what the table
        shows).

        Also for a finished match (the last hand, no moves), so that the click that
        ends a match can show how it ended.
        """
        session = await self.get(await self.game_id(game))
        if session is None:
            raise GameError(N_("There is no such game."))
        seat = session.seat_of(user_id)
        if seat is None:
            raise GameError(N_("You are not playing in this game."))
        if session.state is None:
            if not session.active:
                raise GameError(N_("This game is over."))
            raise GameError(N_("The game has not started yet."))
        return snapshot(session), hand_view(session.state, seat)

    async def moves_for(self, channel_id: int, user_id: int) -> list[Move]:
        """The moves ``user_id`` may make now in the channel's game (none off their turn)."""
        session = await self.in_channel(channel_id)
        if session is None or session.state is None:
            return []
        seat = session.seat_of(user_id)
        if seat is None or session.turn != seat:
            return []
        return list(session.state.legal_moves())

    def is_active(self, game_id: int) -> bool:
        """Whether the game is in the lobby or in play (in memory)."""
        return game_id in self._games

    def note_announced(
        self,
        game_id: int,
        *,
        version: int,
        deals: int,
        table_message_id: int | None,
        ping: tuple[int | None, str | None],
    ) -> None:
        """The publisher's word that Discord shows the game at ``version`` (with ``deals``
        summaries, that table message and that turn ping); written down soon, so a
        restart announces only what came after."""
        self.marks.note(Announced(game_id, version, deals, table_message_id, ping))

    def note_table_message(self, game_id: int, message_id: int) -> None:
        """Where the publisher drew the table (it writes it down with the announcement)."""
        cached = self._games.get(game_id)
        if cached is not None:
            self._tables[game_id] = message_id
            self._games[game_id] = cached.with_(table_message_id=message_id)

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
        """Open a table and post it; nothing stays behind if Discord refuses the post."""
        rules = self.table_rules(options, timer)
        if timer is None:
            timer = (await self.settings.get(guild_id)).default_timer or 0
        check_timer(timer)
        if channel_id in self._by_channel:
            raise _channel_busy()
        await self._check_open_games(guild_id, user_id)
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
            raise _channel_busy() from None
        session = Session.from_row(row)
        await self._post_new_table(session)
        return session

    async def _check_open_games(self, guild_id: int, user_id: int) -> None:
        """Refuse a new game past the user's or the server's cap (:mod:`bot.games.limits`)."""
        in_server, held = await self.db.games.count_open(guild_id=guild_id, creator_id=user_id)
        check_open_games(self.limits, held=held, in_server=in_server)

    async def _post_new_table(self, session: Session, *, then_start: bool = False) -> Session:
        """Adopt a game just created and post its table; nothing stays behind if Discord
        refuses. ``then_start``: start the match at once (a rematch)."""
        now = self.clock()
        self._rematches = {  # a new game in the channel ends its offer; old ones go too
            game: offer
            for game, offer in self._rematches.items()
            if offer.channel_id != session.channel_id and now - offer.ended_at <= REMATCH_LIFE
        }
        async with self._locks.hold(session.id):
            self._adopt(session)
            try:
                if self.publisher is not None:
                    await self.publisher.open_table(session)
            except Exception:
                log.warning("game %d: the table could not be posted", session.id, exc_info=True)
                await self._end(session, CANCELLED, session.seats, announce=False)
                raise GameError(
                    N_("Discord did not let me post the table here, so no game was opened.")
                ) from None
            if then_start:
                current = self._games.get(session.id, session)
                return await self._start(current, Note("rematch"))
            self._after_change(session)
        return session

    @staticmethod
    def table_rules(options: dict[str, Any], timer: int | None = None) -> Rules:
        """The rules of a table with these options, or the refusal that names the option
        at fault (checked before anything is created)."""
        given = {k: v for k, v in options.items() if v is not None}
        try:
            rules = Rules.from_dict(given)
        except RulesError as e:
            raise rules_refusal(e, options) from None
        check_options(rules, given)
        if timer is not None:
            check_timer(timer)
        return rules

    async def join(self, game: GameRef, user_id: int, name: str) -> Session:
        game_id = await self.game_id(game)
        async with self._locks.hold(game_id):
            session = await self._require(game_id, LOBBY)
            if session.seat_of(user_id) is not None:
                raise GameError(N_("You already have a seat at this table."))
            if session.full:
                raise GameError(N_("The table is full."))
            seats = (*session.seats, Seat(name, user_id))
            return await self._commit(session, seats=seats, note=Note("joined", len(seats) - 1))

    async def leave(self, game: GameRef, user_id: int, *, confirmed: bool = True) -> Session:
        """``user_id`` gives up their seat: in a lobby it goes; in a match an AI takes it.

        The last human at a match ends it (``Note("no_humans")`` with the leaver's seat and
        name), only ``confirmed``: unconfirmed, the game is returned unchanged (the user
        still seated) once the leave is known to be allowed, and the caller asks."""
        game_id = await self.game_id(game)
        async with self._locks.hold(game_id):
            session = await self._require(game_id)
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
                return await self._end(session, CANCELLED, tuple(seats), last)
            creator = holder_after(session, tuple(seats), seat)
            note = Note("left", seat)
            return await self._commit(session, seats=tuple(seats), creator_id=creator, note=note)

    async def _leave_lobby(self, session: Session, seat: int) -> Session:
        seats = session.seats[:seat] + session.seats[seat + 1 :]
        humans = [s for s in seats if s.user_id is not None]
        name = session.seats[seat].name
        if not seats:
            return await self._end(session, CANCELLED, seats, Note("everyone_left"))
        if not humans:  # AI seats stay behind: the last human closed the table
            last = Note("no_humans", None, {"name": name, "left": True})
            return await self._end(session, CANCELLED, seats, last)
        creator = session.creator_id
        if creator == session.seats[seat].user_id:
            creator = humans[0].user_id or creator
        left = Note("left_lobby", None, {"name": name})
        return await self._commit(session, seats=seats, creator_id=creator, note=left)

    async def add_bot(self, game: GameRef, user_id: int, level: str | None) -> Session:
        game_id = await self.game_id(game)
        async with self._locks.hold(game_id):
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

    async def start(self, game: GameRef, user_id: int) -> Session:
        game_id = await self.game_id(game)
        async with self._locks.hold(game_id):
            session = await self._require(game_id, LOBBY)
            self._require_creator(session, user_id)
            if not session.full:
                raise GameError(
                    N_("The table needs {needed} players; {seated} are seated."),
                    needed=session.rules.players,
                    seated=len(session.seats),
                )
            return await self._start(session)

    async def _start(self, session: Session, *notes: Note) -> Session:
        """Deal the first deal (the game's lock held)."""
        state = new_match(session.rules, session.deal_rng(1))
        started = session.with_(status=PLAYING)
        state = self._continue(started, state)
        return await self._commit(
            session, state=state, status=PLAYING, notes=(*notes, Note("started"))
        )

    # -- rematch ------------------------------------------------------------------

    async def rematch(self, game: int | Clicked, user_id: int) -> Rematch:
        """``user_id`` accepts a rematch of the finished game ``game``.

        Every human seat of that game accepts with one click (AI seats accept by
        themselves); the last acceptance opens a new game in the same channel with the
        same seats in the same order, the same rules and timer, and starts it. The
        offer lapses :data:`REMATCH_LIFE` after the match ended, or once another game
        was opened in the channel. Acceptances are kept in memory (a restart forgets
        them: the players click again).
        """
        row = await self._accept_rematch(await self.game_id(game), user_id)
        if isinstance(row, Rematch):
            return row
        session = await self._post_new_table(Session.from_row(row), then_start=True)
        return Rematch(frozenset(s.user_id for s in session.seats if s.user_id), (), session)

    async def _accept_rematch(self, game_id: int, user_id: int) -> Rematch | GameRow:
        """Record the acceptance: where the offer stands, or the new game's row."""
        async with self._locks.hold(game_id):
            finished = await self.get(game_id)
            if finished is None:
                raise GameError(N_("There is no such game."))
            if finished.status != FINISHED:
                raise GameError(N_("Only a match played to its end can have a rematch."))
            if finished.seat_of(user_id) is None:
                raise GameError(N_("Only the players of that match can accept its rematch."))
            if self.clock() - finished.updated_at > REMATCH_LIFE:
                self._rematches.pop(game_id, None)
                raise GameError(
                    N_("This rematch offer has lapsed: it lasts {n} minutes after the match."),
                    n=int(REMATCH_LIFE.total_seconds() // 60),
                )
            active = await self.in_channel(finished.channel_id)
            if active is not None:
                raise _channel_busy()
            latest = await self.db.games.latest_in_channel(finished.channel_id)
            if latest is not None and latest.id != game_id:
                self._rematches.pop(game_id, None)
                raise GameError(
                    N_("This rematch offer has lapsed: a new game was opened in this channel.")
                )
            offer = self._rematches.setdefault(
                game_id, _Offer(finished.channel_id, finished.updated_at)
            )
            accepted = offer.accepted
            humans = [s for s in finished.seats if s.user_id is not None]
            if user_id in accepted:
                raise GameError(
                    N_("You're already in for the rematch. Waiting for {names}."),
                    names=", ".join(s.name for s in humans if s.user_id not in accepted),
                )
            waiting = tuple(
                s.name for s in humans if s.user_id not in accepted and s.user_id != user_id
            )
            if waiting:
                accepted.add(user_id)
                return Rematch(frozenset(accepted), waiting)
            # everyone is in: the same seats, rules and timer, in the same channel
            seats = [Seat(s.name, s.user_id, s.ai).to_json() for s in finished.seats]
            creator = finished.creator_id
            if finished.seat_of(creator) is None:
                creator = humans[0].user_id or creator
            await self._check_open_games(finished.guild_id, creator)
            accepted.add(user_id)
            try:
                row = await self.db.games.create(
                    guild_id=finished.guild_id,
                    channel_id=finished.channel_id,
                    creator_id=creator,
                    rules=finished.rules.to_dict(),
                    seats=seats,
                    seed=self._seed_source(),
                    timer=finished.timer,
                    now=self.clock(),
                )
            except ChannelBusyError:
                raise _channel_busy() from None
            self._rematches.pop(game_id, None)
            return row

    # -- playing ----------------------------------------------------------------

    async def play(
        self,
        game: GameRef,
        user_id: int,
        move: Move | None = None,
        *,
        text: str | None = None,
        end: str | None = None,
        closed: bool | None = None,
        train: str | None = None,
        token: str | None = None,
    ) -> Session:
        """Play a move for ``user_id``: a :class:`Move`, or typed text (``train``: the
        train a Mexican Train tile goes on, as typed)."""
        game_id = await self.game_id(game)
        async with self._locks.hold(game_id):
            session, seat = await self._mover(game_id, user_id, token)
            state = session.state
            assert state is not None
            if move is None:
                names = session.names
                trains = train_words(seat, names) if session.rules.mexican else None
                wanted = parse_wanted(text or "", end, closed, trains=trains, train_text=train)
                move = resolve(state.deal, seat, wanted, names)
            elif move.canonical() not in state.legal_moves():
                raise StaleError(N_("That move is no longer possible."))
            return await self._apply(session, seat, move)

    async def play_choice(
        self, game: int | Clicked, user_id: int, token: str, index: int
    ) -> Session:
        """Play the ``index``-th legal move of the hand shown at ``token`` (a button)."""
        game_id = await self.game_id(game)
        async with self._locks.hold(game_id):
            session, seat = await self._mover(game_id, user_id, token)
            state = session.state
            assert state is not None
            legal = state.legal_moves()
            if not 0 <= index < len(legal):
                raise StaleError(N_("That move is no longer possible."))
            return await self._apply(session, seat, legal[index])

    async def _mover(self, game_id: int, user_id: int, token: str | None) -> tuple[Session, int]:
        """The game and the seat of ``user_id``, who must be the one to move."""
        session = await self._require(game_id, PLAYING)
        seat = session.seat_of(user_id)
        if seat is None:
            raise GameError(N_("You are not playing in this game."))
        if token is not None and token != turn_token(session):
            raise StaleError(N_("This hand is out of date: the game has moved on."))
        if session.turn != seat:
            turn = session.turn_seat
            raise GameError(
                N_("It's not your turn: {name} is playing."),
                name=turn.name if turn else "",
            )
        return session, seat

    async def _apply(self, session: Session, seat: int, move: Move) -> Session:
        state = session.state
        assert state is not None
        state = play(state, move, seat)
        seats = _reset_missed(session.seats, seat)
        state = self._continue(session, state)
        return await self._commit(session, state=state, seats=seats)

    async def end_game(
        self, game: GameRef, user_id: int, *, can_manage: bool, confirmed: bool = True
    ) -> Session:
        """End the game for ``user_id`` (its creator, or someone who can manage the server).

        A match in play ends only ``confirmed``: unconfirmed, it is returned unchanged
        (still playing) once the user is known to be allowed, and the caller asks.
        """
        game_id = await self.game_id(game)
        async with self._locks.hold(game_id):
            session = await self._require(game_id)
            check_can_end(session, user_id, can_manage=can_manage)
            if session.status == PLAYING and not confirmed:
                return session
            return await self._end(session, CANCELLED, session.seats, Note("cancelled"))

    async def export_record(self, channel_id: int) -> tuple[int, dict[str, Any]]:
        """The id and public record of the channel's latest game.

        Only the finished deals are public: a deal in play would show hidden hands.
        """
        session = await self.latest_in_channel(channel_id)
        record = session.record() if session is not None else None
        if session is not None and record is not None and session.state is not None:
            if not session.state.deal.over:
                record["deals"] = record["deals"][:-1]
            if record["deals"]:
                return session.id, record
        raise GameError(N_("There is no finished deal to export in this channel yet."))

    # -- automatic turns ----------------------------------------------------------

    def _continue(self, session: Session, state: MatchState) -> MatchState:
        """Deal the next deal when one ends, and lay a drawn tile that can go only one way."""
        while True:
            deal = state.deal
            if deal.over:
                if state.over:
                    return state
                state = next_deal(state, session.deal_rng(state.deal_number + 1))
                continue
            seat = session.seats[deal.turn]
            legal = deal.legal_moves()
            if not seat.is_ai and deal.forced is not None and len(legal) == 1:
                state = play(state, legal[0])
                continue
            return state

    async def _ai_turns(self, game_id: int) -> None:
        """Let AI seats move, one move at a time, until a human is to move. A move whose
        save fails is tried again after a pause (:mod:`bot.games.retries`): the game
        waits on this task, and nothing else would move it."""
        backoff = Backoff(self.retry_delays)
        try:
            while not self._closed:
                session = self._games.get(game_id)
                seat = session.turn_seat if session is not None else None
                if session is None or seat is None or not seat.is_ai:
                    return
                try:
                    await self._ai_move(session, seat.ai or DEFAULT_AI, ())
                except StaleError:
                    continue  # the game was read again (:meth:`_stale`): look again
                except StorageError as error:
                    await asyncio.sleep(backoff.warn(log, game_id, "an AI move", error))
                    continue
                backoff.reset()
        finally:
            self._ai_running.discard(game_id)

    async def _ai_move(
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
        async with self._locks.hold(session.id):
            current = self._games.get(session.id)
            if current is None or current.version != session.version:
                return None  # the game moved on while the AI thought; look again
            move = chosen
            if move.canonical() not in state.legal_moves():  # never trust a player, even ours
                log.error("game %d: the %s AI played an illegal move", session.id, level)
                move = rng.choice(state.legal_moves())
            after = play(state, move, turn)
            after = self._continue(session, after)
            return await self._commit(
                session, state=after, seats=seats, creator_id=creator_id, notes=notes
            )

    async def _watch(self, game_id: int, version: int, delay: float) -> None:
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
                await self._on_time(game_id, version)
            except StaleError:
                return  # the game was read again, with a watchdog of its own
            except StorageError as error:
                delay = backoff.warn(log, game_id, "what its timer did", error)
                continue
            return

    async def _on_time(self, game_id: int, version: int) -> None:
        """The game's timer ran out at ``version``: the idle limit ends it (a lobby's
        sooner), a human's turn timer plays for them; a match whose last human the timer
        replaced ends as if they had left."""
        session = self._games.get(game_id)
        if session is None or session.version != version or not session.active:
            return
        idle = self.clock() - session.updated_at
        if session.status == LOBBY and idle >= self.limits.lobby_idle:
            minutes = int(self.limits.lobby_idle.total_seconds() // 60)
            lapsed = Note("lapsed", None, {"minutes": minutes})
            await self._end_unchanged(session, CANCELLED, session.seats, lapsed)
            return
        if idle >= IDLE_LIMIT:
            await self._end_unchanged(session, ABANDONED, session.seats, Note("abandoned"))
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
                await self._end_unchanged(
                    session, CANCELLED, tuple(seats), replaced, Note("no_humans")
                )
                return
            notes.append(replaced)
            creator = holder_after(session, tuple(seats), turn)
        else:
            seats[turn] = Seat(seat.name, seat.user_id, None, missed)
        await self._ai_move(session, DEFAULT_AI, tuple(notes), tuple(seats), creator)

    async def _end_unchanged(
        self, session: Session, status: str, seats: tuple[Seat, ...], *notes: Note
    ) -> None:
        """End the game as ``session`` has it, unless it changed meanwhile (a timer's end)."""
        async with self._locks.hold(session.id):
            if self._games.get(session.id) is session:
                await self._end(session, status, seats, *notes)

    def _after_change(self, session: Session) -> None:
        """Restart the watchdog; let the AI move if it is an AI's turn."""
        old = self._watchdogs.pop(session.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if self._closed or not session.active:
            return
        now = self.clock()
        idle = self.limits.lobby_idle if session.status == LOBBY else IDLE_LIMIT
        delay = (session.updated_at + idle - now).total_seconds()
        seat = session.turn_seat
        if seat is not None and not seat.is_ai and session.timer:
            started = session.turn_started_at or session.updated_at
            delay = min(delay, (started - now).total_seconds() + session.timer)
        self._watchdogs[session.id] = self._spawn(
            self._watch(session.id, session.version, delay), keep=False
        )
        if seat is not None and seat.is_ai and session.id not in self._ai_running:
            self._ai_running.add(session.id)  # one AI task per game, from its spawn on
            self._spawn(self._ai_turns(session.id))

    def _spawn(self, coro: Coroutine[Any, Any, None], keep: bool = True) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro)
        if keep:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_log_failure)
        return task

    # -- saving -------------------------------------------------------------------

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
        """Save the change in one transaction, then hand it to the publisher, set timers.

        Only what is new is written (:func:`_record_append`): a move costs the same to
        save at deal 100 as at deal 1."""
        seats = seats if seats is not None else session.seats
        state = state if state is not None else session.state
        all_notes = (*([note] if note else []), *notes)
        if state is not None and state.over:
            return await self._end(session, FINISHED, seats, *all_notes, state=state)
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
            raise await self._stale(session.id) from None
        after = self._adopt(
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
        self._announce(Update(session, after, all_notes))
        self._after_change(after)
        return after

    async def _end(
        self,
        session: Session,
        status: str,
        seats: tuple[Seat, ...],
        *notes: Note,
        state: MatchState | None = None,
        announce: bool = True,
    ) -> Session:
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
            raise await self._stale(session.id) from None
        after = self._adopt(
            session.with_(
                version=saved.version, updated_at=now, state=state, seats=seats, status=status
            )
        )
        if announce:
            self._announce(Update(session, after, tuple(notes)))
        self._after_change(after)
        return after

    async def _stale(self, game_id: int) -> StaleError:
        """A save found the game changed in the database since it was read (another
        save landed, or one whose answer was lost): the game is read again and goes on
        from there (its timer and AI task set, a change Discord was not shown
        announced); the player is told to try again. If it cannot be read either, that
        :class:`StorageError` is raised (the game stays as it was in memory, and the next
        action reads it again)."""
        row = await self.db.games.get(game_id)
        table = self._tables.get(game_id)  # where the publisher drew it (kept)
        self._forget(game_id)
        if row is not None:
            if table is not None and row.active:
                self._tables[game_id] = table
            session = self._load(row)  # adopted with its timer and AI task if active
            if not session.active:
                self._after_change(session)  # its timer stops
            if row.announced_version < row.version:
                self._announce(Update(session, session, (Note("recovered"),)))
        return StaleError(N_("The game changed at the same moment. Please try again."))

    def _announce(self, update: Update) -> None:
        if self.publisher is not None:
            self.publisher.publish(update)

    # -- helpers --------------------------------------------------------------------

    def _adopt(self, session: Session) -> Session:
        """Keep an active game in memory (and forget a finished one)."""
        table = self._tables.get(session.id)
        if table is not None and table != session.table_message_id:
            session = session.with_(table_message_id=table)
        if session.active:
            self._games[session.id] = session
            self._by_channel[session.channel_id] = session.id
        else:
            self._forget(session.id)
        return session

    def _forget(self, game_id: int) -> None:
        self._tables.pop(game_id, None)
        gone = self._games.pop(game_id, None)
        if gone is not None and self._by_channel.get(gone.channel_id) == game_id:
            del self._by_channel[gone.channel_id]

    def _load(self, row: Any) -> Session:
        """A game read from the database: adopted if active, of a server this process
        serves, and not in memory yet (a game of another shard, named by a button
        clicked elsewhere, is only read: its own process runs it)."""
        cached = self._games.get(row.id)
        if cached is not None:
            return cached
        session = Session.from_row(row)
        if not session.active or not self._serves(session):
            return session
        self._adopt(session)
        self._after_change(session)  # its turn timer, its AI seat's move
        return session

    def _serves(self, session: Session) -> bool:
        """Whether this process runs the game's server (its shards' servers, or all)."""
        if self.shards is None:
            return True
        count, ids = self.shards
        return (session.guild_id >> 22) % count in ids

    async def _require(self, game_id: int, status: str | None = None) -> Session:
        session = await self.get(game_id)
        if session is None:
            raise GameError(N_("There is no such game."))
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


def _channel_busy() -> GameError:
    return GameError(N_("This channel already has a game. Finish it, or play in another channel."))


def _reset_missed(seats: tuple[Seat, ...], seat: int) -> tuple[Seat, ...]:
    if not seats[seat].missed:
        return seats
    s = seats[seat]
    return (*seats[:seat], Seat(s.name, s.user_id, s.ai, 0), *seats[seat + 1 :])


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


def _log_failure(task: asyncio.Task[Any]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None and not isinstance(error, GameError):
        log.error("a game task failed", exc_info=error)


__all__ = [
    "AI_LEVELS",
    "TIMER_RANGE",
    "Clicked",
    "Decider",
    "GameError",
    "GameRef",
    "GameService",
    "InChannel",
    "Note",
    "Publisher",
    "Rematch",
    "StaleError",
    "Update",
    "rules_refusal",
    "turn_token",
]
