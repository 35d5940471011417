"""The service between Discord and the engine: check, apply, save, announce.

:class:`GameService` is the one facade the cogs and the playground use. The process
owns its games: every active game lives in memory and is read from there; the
database is read on start (:meth:`GameService.restore`), for games not in memory, and
by the history and leaderboards. Every change happens under that game's lock
(:mod:`bot.games.locks`) and is saved (one transaction) before it is handed to the
:class:`Publisher`, which announces it in the background: no lock is held across
anything but the write (and, for a new table, its first post). AI seats decide
outside the lock (in a process pool, :class:`~bot.games.ai_runner.AiRunner`); their
move is applied only if the game has not changed meanwhile.

The facade names the games (a channel's, a button's: checked where it was clicked),
reads them, opens and ends tables; its parts hold the rest, each one concern:

- :mod:`bot.games.memory`: the games held in memory, and reading a game;
- :mod:`bot.games.seats`: joining, leaving, adding an AI seat, starting the match;
- :mod:`bot.games.playing`: a player's move, checked and applied;
- :mod:`bot.games.autoplay`: the next deal and forced moves, played by themselves;
- :mod:`bot.games.saving`: saving a change, then handing it on; a stale save read again;
- :mod:`bot.games.turns`: turn timers, the idle limit, AI seats' moves;
- :mod:`bot.games.rematch`: the rematch offers of finished matches;
- :mod:`bot.games.restore`: the active games taken back after a start.

This module also holds the words the parts share (:class:`Note`, :class:`Update`,
:class:`Rematch`, the constants): the parts that use them import this module, so the
facade imports those parts when it is built.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal, Protocol

from bot.engine import Move, Rules, RulesError, call_time
from bot.engine.ai import LEVELS, Level
from bot.engine.view import HandView, PlayerView, hand_view
from bot.i18n import N_
from bot.storage import Announced, ChannelBusyError, Database

from .errors import GameError
from .feed import Position, position
from .holding import check_can_end
from .limits import Cooldowns, Limits, check_open_games
from .locks import LockTable
from .marks import AnnouncedMarks
from .memory import Memory
from .refs import Clicked, GameRef, InChannel, check_place
from .refusals import check_options, rules_refusal
from .restore import restore
from .session import CANCELLED, PLAYING, Seat, Session
from .settings import TIMER_RANGE, SettingsService, check_timer
from .snapshot import Snapshot, snapshot

if TYPE_CHECKING:
    from .playing import Moves
    from .rematch import Rematches
    from .saving import Saver
    from .seats import Seats
    from .turns import Turns

log = logging.getLogger(__name__)

AI_LEVELS = LEVELS
DEFAULT_AI = Level.NORMAL
IDLE_LIMIT = timedelta(hours=24)
REMATCH_LIFE = timedelta(minutes=30)
"""How long after a match ends its players may accept a rematch."""

NoteKind = Literal[
    "joined",
    "bot_added",
    "left",
    "left_lobby",
    "started",
    "rematch",
    "timeout",
    "replaced_by_ai",
    "no_humans",
    "everyone_left",
    "cancelled",
    "abandoned",
    "lapsed",
    "recovered",
    "time_up",
]
"""What a :class:`Note` tells: a seat taken or given up, a match started (again), a
turn timer played for a player or the AI took their seat, how a game ended without
its match ending (``no_humans`` left, ``everyone_left`` the lobby, ``cancelled`` by a
player, ``abandoned`` or ``lapsed`` idle), ``recovered``: a change announced again after
a restart or a stale save (no line of its own), ``time_up``: a timed session's time ran
out (the deal in play is its last)."""


class Decider(Protocol):
    """Where AI seats decide (:class:`~bot.games.ai_runner.AiRunner`)."""

    async def decide(self, seen: PlayerView, level: str, rng: random.Random) -> Any:
        """An object with a ``move`` attribute."""
        ...

    async def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Note:
    """Something the service did that the table should mention (besides the moves)."""

    kind: NoteKind
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
    """The one facade of the games: every action of the cogs and the playground."""

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
        from . import playing, rematch, saving, seats, turns  # (they import this module)

        self.db = db
        self.shards = shards
        """``(count, ids)``: this process runs those shards and restores only their
        servers' games (None: every game)."""
        self.clock = clock
        self.ai = ai
        self.settings = settings or SettingsService(db)
        self.publisher: Publisher | None = None
        self.ended: list[Callable[[Session], None]] = []
        """Told of every game that ended (its last save, or read so): the competitions
        record a table's result from here. Called under the game's lock: never blocks."""
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self._locks = LockTable()
        """The games' locks, each kept only while in use (:mod:`bot.games.locks`)."""
        self.limits = limits or Limits()
        self.reposts = Cooldowns(self.limits.repost_every, clock)
        """Who posted which channel's table again when (``/domino board``)."""
        self.marks = AnnouncedMarks(db.games)
        """What the tables show, written down by the publisher (group commits)."""
        self._memory = Memory(db, shards=shards, resume=self._resume)
        self._saver: Saver = saving.Saver(
            db, self._memory, clock=clock, publish=self._publish, changed=self._resume
        )
        self._turns: Turns = turns.Turns(
            self._memory, self._saver, self._locks, clock=clock, ai=ai, limits=self.limits
        )
        self._seats: Seats = seats.Seats(self._memory, self._saver, self._locks)
        self._moves: Moves = playing.Moves(self._memory, self._saver, self._locks)
        self._rematches: Rematches = rematch.Rematches(
            db,
            self._memory,
            self._locks,
            clock=clock,
            create=self._create,
            check_open_games=self._check_open_games,
        )

    @property
    def retry_delays(self) -> tuple[float, ...]:
        """Pauses before a failed save of the bot's own move is tried again."""
        return self._turns.retry_delays

    @retry_delays.setter
    def retry_delays(self, delays: tuple[float, ...]) -> None:
        self._turns.retry_delays = delays

    # -- lifecycle --------------------------------------------------------------

    async def restore(self) -> int:
        """After a start: take the active games into memory, in chunks, and resume them
        (:mod:`bot.games.restore`). Interactions are answered meanwhile."""
        return await restore(self._memory, self._saver, self._turns, self.clock)

    async def close(self) -> None:
        await self._turns.close()
        await self.marks.flush()

    def _resume(self, session: Session) -> None:
        """A game was saved or read: set its turn timer and AI task again (an ended one:
        tell :attr:`ended`)."""
        self._turns.after_change(session)
        if not session.active:
            for hook in self.ended:
                try:
                    hook(session)
                except Exception:
                    log.exception("game %d: a hook on its end failed", session.id)

    def _publish(self, update: Update) -> None:
        if self.publisher is not None:
            self.publisher.publish(update)

    # -- reading ----------------------------------------------------------------

    def in_play(self) -> int:
        """How many games (in the lobby or being played) this process holds now."""
        return len(self._memory)

    async def in_channel(self, channel_id: int) -> Session | None:
        """The channel's active game (from memory)."""
        return await self._memory.in_channel(channel_id)

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
        return await self._memory.latest_in_channel(channel_id)

    async def get(self, game_id: int) -> Session | None:
        return await self._memory.get(game_id)

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
        return game_id in self._memory

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
        self._memory.note_table(game_id, message_id)

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
        if channel_id in self._memory.by_channel:
            raise channel_busy()
        await self._check_open_games(guild_id, user_id)
        session = await self._create(
            guild_id, channel_id, user_id, rules, [Seat(name, user_id)], timer
        )
        await self._post_new_table(session)
        return session

    async def _create(
        self,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        rules: Rules,
        seats: Sequence[Seat],
        timer: int,
    ) -> Session:
        """A new game, stored (refused if the channel has a game meanwhile)."""
        try:
            row = await self.db.games.create(
                guild_id=guild_id,
                channel_id=channel_id,
                creator_id=creator_id,
                rules=rules.to_dict(),
                seats=[s.to_json() for s in seats],
                seed=self._seed_source(),
                timer=timer,
                now=self.clock(),
            )
        except ChannelBusyError:
            raise channel_busy() from None
        return Session.from_row(row)

    async def _check_open_games(self, guild_id: int, user_id: int) -> None:
        """Refuse a new game past the user's or the server's cap (:mod:`bot.games.limits`)."""
        in_server, held = await self.db.games.count_open(guild_id=guild_id, creator_id=user_id)
        check_open_games(self.limits, held=held, in_server=in_server)

    async def open_seated(
        self,
        *,
        guild_id: int,
        channel_id: int,
        seats: Sequence[Seat],
        options: dict[str, Any],
        timer: int = 0,
    ) -> Session:
        """Open a table with every seat taken (``seats`` in order: a person's, or an AI's
        with ``user_id`` None and its level; the first person holds the table), post it
        and start the match at once: a competition's table. No cap on open games (the
        competition is its own); nothing stays behind if Discord refuses the post."""
        rules = self.table_rules(options, timer)
        if len(seats) != rules.players:
            raise ValueError(f"{rules.players} seats need {rules.players} players")
        humans = [s.user_id for s in seats if s.user_id is not None]
        if channel_id in self._memory.by_channel:
            raise channel_busy()
        creator = humans[0] if humans else 0  # (an AI-only table: nobody's)
        session = await self._create(guild_id, channel_id, creator, rules, seats, timer)
        return await self._post_new_table(session, then_start=True, notes=())

    async def _post_new_table(
        self, session: Session, *, then_start: bool = False, notes: tuple[Note, ...] | None = None
    ) -> Session:
        """Adopt a game just created and post its table; nothing stays behind if Discord
        refuses. ``then_start``: start the match at once (a rematch; ``notes``: what the
        start tells, a rematch's by default)."""
        self._rematches.lapse(session.channel_id)  # a new game in the channel ends its offer
        async with self._locks.hold(session.id):
            self._memory.adopt(session)
            try:
                if self.publisher is not None:
                    await self.publisher.open_table(session)
            except Exception:
                log.warning("game %d: the table could not be posted", session.id, exc_info=True)
                await self._saver.end(session, CANCELLED, session.seats, announce=False)
                raise GameError(
                    N_("Discord did not let me post the table here, so no game was opened.")
                ) from None
            if then_start:
                current = self._memory.games.get(session.id, session)
                told = (Note("rematch"),) if notes is None else notes
                return await self._seats.start_match(current, *told)
            self._resume(session)
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
        """``user_id`` takes a seat at the table (:mod:`bot.games.seats`)."""
        return await self._seats.join(await self.game_id(game), user_id, name)

    async def leave(self, game: GameRef, user_id: int, *, confirmed: bool = True) -> Session:
        """``user_id`` gives up their seat: in a lobby it goes; in a match an AI takes it.

        The last human at a match ends it (``Note("no_humans")`` with the leaver's seat and
        name), only ``confirmed``: unconfirmed, the game is returned unchanged (the user
        still seated) once the leave is known to be allowed, and the caller asks."""
        return await self._seats.leave(await self.game_id(game), user_id, confirmed=confirmed)

    async def add_bot(self, game: GameRef, user_id: int, level: str | None) -> Session:
        """The table's holder adds an AI seat of ``level`` (default: normal)."""
        return await self._seats.add_bot(await self.game_id(game), user_id, level)

    async def start(self, game: GameRef, user_id: int) -> Session:
        """The table's holder starts the match once every seat is taken."""
        return await self._seats.start(await self.game_id(game), user_id)

    # -- rematch ------------------------------------------------------------------

    async def rematch(self, game: int | Clicked, user_id: int) -> Rematch:
        """``user_id`` accepts a rematch of the finished game ``game``.

        Every human seat of that game accepts with one click (AI seats accept by
        themselves); the last acceptance opens a new game in the same channel with the
        same seats in the same order, the same rules and timer, and starts it. The
        offer lapses :data:`REMATCH_LIFE` after the match ended, or once another game
        was opened in the channel. Acceptances are kept in memory (a restart forgets
        them: the players click again). See :mod:`bot.games.rematch`.
        """
        new = await self._rematches.accept(await self.game_id(game), user_id)
        if isinstance(new, Rematch):
            return new
        session = await self._post_new_table(new, then_start=True)
        return Rematch(frozenset(s.user_id for s in session.seats if s.user_id), (), session)

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
        train a Mexican Train tile goes on, as typed). See :mod:`bot.games.playing`."""
        game_id = await self.game_id(game)
        return await self._moves.play(
            game_id, user_id, move, text=text, end=end, closed=closed, train=train, token=token
        )

    async def play_choice(
        self, game: int | Clicked, user_id: int, token: str, index: int
    ) -> Session:
        """Play the ``index``-th legal move of the hand shown at ``token`` (a button)."""
        return await self._moves.play_choice(await self.game_id(game), user_id, token, index)

    async def end_game(
        self, game: GameRef, user_id: int, *, can_manage: bool, confirmed: bool = True
    ) -> Session:
        """End the game for ``user_id`` (its creator, or someone who can manage the server).

        A match in play ends only ``confirmed``: unconfirmed, it is returned unchanged
        (still playing) once the user is known to be allowed, and the caller asks.
        """
        game_id = await self.game_id(game)
        async with self._locks.hold(game_id):
            session = await self._memory.require(game_id)
            check_can_end(session, user_id, can_manage=can_manage)
            if session.status == PLAYING and not confirmed:
                return session
            return await self._saver.end(session, CANCELLED, session.seats, Note("cancelled"))

    async def call_time(self, game: GameRef) -> Session:
        """A latvian session's time ran out (a competition's timed round): the deal in
        play is its last. Nothing for a game not in play or told already."""
        game_id = await self.game_id(game)
        async with self._locks.hold(game_id):
            session = await self._memory.require(game_id)
            state = session.state
            if session.status != PLAYING or state is None or state.time_up:
                return session
            if state.rules.time_limit is None:
                raise GameError(N_("Only a timed latvian session can run out of time."))
            return await self._saver.commit(
                session, state=call_time(state), notes=(Note("time_up"),)
            )

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


def channel_busy() -> GameError:
    return GameError(N_("This channel already has a game. Finish it, or play in another channel."))


__all__ = [
    "AI_LEVELS",
    "TIMER_RANGE",
    "Clicked",
    "Decider",
    "GameRef",
    "GameService",
    "InChannel",
    "Note",
    "NoteKind",
    "Publisher",
    "Rematch",
    "Update",
    "rules_refusal",
    "turn_token",
]
