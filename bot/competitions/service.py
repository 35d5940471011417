"""Running club competitions: the referee's and the players' actions, the tables' games.

:class:`CompetitionService` keeps every open competition in memory (read back on start,
:meth:`CompetitionService.restore`), changes it under its own lock, and saves each change
(``db.competitions``, with the version check) before telling the :class:`Herald` (the
Discord side: a thread for each table, the competition's message, a round's results).

Each table is played as a normal game (:meth:`GameService.open_seated`: its seats
filled, started at once). The game service tells :attr:`GameService.ended` of every game
that ends; a competition's table records its result from there (:func:`table_result`: a
seat an AI took over counts as its player's), and the round that result completes seats
the next (:func:`~.competition.record`). A table whose game ended while the bot was down
gets its result on start; a table whose game could not be opened is opened again then
(or by the referee's ``start``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, fields, replace
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol

from bot.games.background import Background
from bot.games.errors import GameError
from bot.games.locks import LockTable
from bot.games.service import GameService
from bot.games.session import Seat, Session
from bot.i18n import N_
from bot.storage import ChannelBusyError, Database, StaleGameError
from bot.storage.competitions import CompetitionRow

from . import competition as rules
from .competition import Competition, CompetitionError, Format, Table
from .results import table_result

log = logging.getLogger(__name__)

Event = Literal["opened", "entrants", "round", "finished", "cancelled", "removed"]
"""What the herald is told: the competition opened, its entrants changed, a round was
seated (with the previous round's results, if any), it finished, it was ended."""


@dataclass(frozen=True, slots=True)
class Held:
    """An open competition as the service holds it: its row's facts and its value."""

    id: int
    guild_id: int
    channel_id: int
    referee_id: int
    version: int
    message_id: int | None
    competition: Competition

    @staticmethod
    def from_row(row: CompetitionRow) -> Held:
        """The competition saved in ``row`` (its other fields are the row's as they are)."""
        return Held(
            **{f.name: getattr(row, f.name) for f in fields(Held) if f.name != "competition"},
            competition=rules.from_json(row.state),
        )

    def name_of(self, user_id: int) -> str:
        entrant = self.competition.entrant(user_id)
        return entrant.name if entrant is not None else str(user_id)

    def seat_of(self, player: int) -> Seat:
        """The game seat of an entrant: a person's, or an AI fill-in's (its level)."""
        entrant = self.competition.entrant(player)
        if entrant is not None and entrant.is_ai:
            return Seat(entrant.name, None, entrant.ai)
        return Seat(self.name_of(player), player)


class Herald(Protocol):
    """The Discord side of the competitions."""

    async def table_channel(self, held: Held, round_number: int, table: Table) -> int:
        """A channel for a table's game (a thread); raise :class:`GameError` if there
        can be none."""
        ...

    def announce(self, held: Held, event: Event) -> None:
        """Tell the channel (queued: never blocks, never raises)."""
        ...


def refusal(error: CompetitionError) -> GameError:
    """A competition's refusal as the cogs answer every refusal."""
    return GameError(error.message, **error.fields)


class CompetitionService:
    """Opening, checking in and out, starting, the tables' games, the referee's actions."""

    def __init__(
        self,
        db: Database,
        games: GameService,
        *,
        clock: Callable[[], datetime],
        seed_source: Callable[[], int] | None = None,
    ) -> None:
        self.db = db
        self.games = games
        self.clock = clock
        self.herald: Herald | None = None
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self._locks = LockTable()
        self.open: dict[int, Held] = {}
        self._by_game: dict[int, int] = {}
        self._work = Background(log, "a competition's task")
        self._clocks: dict[tuple[int, int], asyncio.Task[None]] = {}
        games.ended.append(self._game_ended)

    # -- reading --------------------------------------------------------------------

    def in_channel(self, channel_id: int) -> Held | None:
        return next((h for h in self.open.values() if h.channel_id == channel_id), None)

    def channel_competition(self, channel_id: int) -> Held:
        held = self.in_channel(channel_id)
        if held is None:
            raise GameError(N_("There is no competition in this channel."))
        return held

    async def get(self, competition_id: int) -> Held | None:
        held = self.open.get(competition_id)
        if held is not None:
            return held
        row = await self.db.competitions.get(competition_id)
        return None if row is None else Held.from_row(row)

    # -- lifecycle ------------------------------------------------------------------

    async def restore(self) -> int:
        """After a start: the open competitions read back; a table whose game ended
        meanwhile gets its result, a table without a game is opened."""
        rows = await self.db.competitions.open_all()
        for row in rows:
            held = self._keep(Held.from_row(row))
            try:
                await self._catch_up(held.id)
            except Exception:
                log.exception("competition %d: could not be resumed", held.id)
        return len(rows)

    @property
    def busy(self) -> bool:
        """Whether work is under way (tests)."""
        return self._work.busy

    async def settled(self) -> None:
        """Wait until every table's result heard so far is recorded (tests)."""
        await self._work.settled()

    async def close(self) -> None:
        clocks = list(self._clocks.values())
        for task in clocks:
            task.cancel()
        await asyncio.gather(*clocks, return_exceptions=True)
        await self._work.close()

    # -- the referee and the players ----------------------------------------------------

    async def open_competition(
        self,
        *,
        guild_id: int,
        channel_id: int,
        referee_id: int,
        can_manage: bool,
        fmt: Format,
        timer: int = 0,
    ) -> Held:
        """A referee (someone who can manage the server) opens a competition here."""
        if not can_manage:
            raise GameError(N_("Only someone who can manage the server can referee a competition."))
        checked = self.games.table_rules({**fmt.options, "players": 2}, timer)
        if checked.teams:
            raise GameError(N_("A competition's tables play without teams."))
        fmt = replace(fmt, options={**fmt.options, "timer": timer})
        c = rules.new_competition(fmt, self._seed_source())
        try:
            row = await self.db.competitions.create(
                guild_id=guild_id,
                channel_id=channel_id,
                referee_id=referee_id,
                status=c.status,
                state=rules.to_json(c),
                now=self.clock(),
            )
        except ChannelBusyError:
            raise GameError(N_("This channel already has an open competition.")) from None
        held = self._keep(Held.from_row(row))
        self._tell(held, "opened")
        return held

    async def note_message(self, competition_id: int, message_id: int) -> None:
        """Where the competition's message is (its Check in button)."""
        async with self._locks.hold(competition_id):
            held = await self._require(competition_id)
            await self._save(held, held.competition, message_id=message_id)

    async def check_in(self, competition_id: int, user_id: int, name: str) -> Held:
        return await self._change(
            competition_id, lambda c: rules.check_in(c, user_id, name), "entrants"
        )

    async def add_ai(
        self,
        competition_id: int,
        user_id: int,
        count: int,
        level: str,
        *,
        can_manage: bool,
        name: Callable[[int], str] | None = None,
    ) -> Held:
        """The referee adds ``count`` AI fill-ins of ``level`` during check-in (each
        named ``name(number)``: "AI 1 (normal)" in the server's language)."""
        return await self._change(
            competition_id,
            lambda c: rules.add_ai(c, count, level, name),
            "entrants",
            referee=(user_id, can_manage),
        )

    async def check_out(self, competition_id: int, user_id: int) -> Held:
        return await self._change(competition_id, lambda c: rules.check_out(c, user_id), "entrants")

    async def start(self, competition_id: int, user_id: int, *, can_manage: bool) -> Held:
        """The referee starts it: round 1 seated, a game opened for each table."""
        async with self._locks.hold(competition_id):
            held = await self._require(competition_id)
            self.check_referee(held, user_id, can_manage=can_manage)
            if held.competition.status == "checkin":
                held = await self._save(held, rules.start(held.competition))
                self._tell(held, "round")
            return await self._open_tables(held)

    async def remove(
        self, competition_id: int, user_id: int, player_id: int, *, can_manage: bool
    ) -> Held:
        """The referee removes a player: seated no more; a game in play goes on with an
        AI in their seat."""
        async with self._locks.hold(competition_id):
            held = await self._require(competition_id)
            self.check_referee(held, user_id, can_manage=can_manage)
            held = await self._save(held, rules.remove(held.competition, player_id))
            self._tell(held, "removed" if held.competition.status == "playing" else "entrants")
        for table in _in_play(held.competition):
            if player_id in table.players and table.game_id is not None:
                # (a refusal: the game ended meanwhile, or they had left it already)
                with contextlib.suppress(GameError):
                    await self.games.leave(table.game_id, player_id)
        return held

    async def reinstate(
        self, competition_id: int, user_id: int, player_id: int, *, can_manage: bool
    ) -> Held:
        """The referee takes a removal back: the player is seated from the next round."""
        return await self._change(
            competition_id,
            lambda c: rules.reinstate(c, player_id),
            "entrants",
            referee=(user_id, can_manage),
        )

    async def end_round(
        self, competition_id: int, user_id: int, round_number: int, *, can_manage: bool
    ) -> Held:
        """The referee ends round ``round_number`` early: the games still in play end now,
        each table's result is its totals as they stand (its finished deals), and the next
        round is seated. A round that is over already is refused (a late confirmation)."""
        async with self._locks.hold(competition_id):
            held = await self._require(competition_id)
            self.check_referee(held, user_id, can_manage=can_manage)
            current = held.competition.current
            if held.competition.status != "playing" or current is None:
                raise GameError(N_("The competition has no round in play."))
            if current.number != round_number:
                raise GameError(N_("Round {round} is over already."), round=round_number)
            playing = _games_in_play(held.competition)
        await self._each_game(playing, lambda g: self.games.end_game(g, user_id, can_manage=True))
        # (each table's result is recorded as its game's end is heard: GameService.ended)
        return self.open.get(competition_id) or held

    def check_referee(self, held: Held, user_id: int, *, can_manage: bool) -> None:
        """Refuse unless ``user_id`` may referee ``held`` (before a confirmation is asked)."""
        if user_id != held.referee_id and not can_manage:
            raise GameError(N_("Only the competition's referee can do that."))

    async def end(self, competition_id: int, user_id: int, *, can_manage: bool) -> Held:
        """The referee ends the competition: its tables' games end too."""
        held = await self._change(
            competition_id, rules.cancel, "cancelled", referee=(user_id, can_manage)
        )
        playing = _games_in_play(held.competition)
        await self._each_game(playing, lambda g: self.games.end_game(g, user_id, can_manage=True))
        return held

    async def _each_game(self, game_ids: list[int], act: Callable[[int], Awaitable[Any]]) -> None:
        """``act`` on those of these games still in play (one that ended meanwhile is let be)."""
        for game_id in game_ids:
            if self.games.is_active(game_id):
                with contextlib.suppress(GameError):
                    await act(game_id)

    # -- the tables -----------------------------------------------------------------

    def _game_ended(self, session: Session) -> None:
        """The game service's word that a game ended (under its lock: a task records it)."""
        competition_id = self._by_game.get(session.id)
        if competition_id is None:
            return
        self._work.spawn(self._table_ended(competition_id, session))

    async def _table_ended(self, competition_id: int, session: Session) -> None:
        async with self._locks.hold(competition_id):
            held = self.open.get(competition_id)
            if held is None:
                return
            await self._record(held, session)
        await self._catch_up(competition_id)

    async def _record(self, held: Held, session: Session) -> Held:
        """A table's result from its ended game (the competition's lock held)."""
        found = held.competition.table_of(session.id)
        self._by_game.pop(session.id, None)
        if found is None or session.state is None or held.competition.status != "playing":
            return held
        number, table = found
        if table.result is not None:
            return held
        result = table_result(session.state, table.players)
        after = rules.record(held.competition, number, table.number, result)
        held = await self._save(held, after)
        if after.status == "finished":
            self._tell(held, "finished")
        elif after.current is not None and after.current.number != number:
            self._tell(held, "round")
        return held

    async def _catch_up(self, competition_id: int) -> None:
        """Results of tables whose games ended unseen; games for tables without one."""
        async with self._locks.hold(competition_id):
            held = self.open.get(competition_id)
            if held is None or held.competition.status != "playing":
                return
            for table in _in_play(held.competition):
                if table.game_id is None:
                    continue
                session = await self.games.get(table.game_id)
                if session is not None and not session.active:
                    held = await self._record(held, session)
                elif session is not None:
                    self._by_game[table.game_id] = held.id
            if held.competition.status == "playing":
                await self._open_tables(held)

    async def _open_tables(self, held: Held) -> Held:
        """A game for each table of the current round that has none (the lock held)."""
        c = held.competition
        current = c.current
        if c.status != "playing" or current is None:
            return held
        minutes = rules.round_minutes(c)
        if minutes is not None and current.ends_at is None:
            ends_at = (self.clock() + timedelta(minutes=minutes)).isoformat()
            held = await self._save(held, rules.set_end(c, current.number, ends_at))
            c = held.competition
            current = c.current
            assert current is not None
        if current.ends_at is not None:
            self._arm_clock(held.id, current.number, current.ends_at)
        fmt = c.format
        timer = int(fmt.options.get("timer", 0) or 0)
        options = {k: v for k, v in fmt.options.items() if k != "timer"}
        for table in current.tables:
            if table.game_id is not None or table.result is not None:
                continue
            if self.herald is None:
                raise GameError(N_("The competition's tables can't be opened just now."))
            channel_id = await self.herald.table_channel(held, current.number, table)
            session = await self.games.open_seated(
                guild_id=held.guild_id,
                channel_id=channel_id,
                seats=[held.seat_of(p) for p in table.players],
                options={**options, "players": len(table.players)},
                timer=timer,
            )
            self._by_game[session.id] = held.id
            held = await self._save(
                held, rules.set_game(held.competition, current.number, table.number, session.id)
            )
            if not session.active:  # over at once (it cannot be, but then record it)
                held = await self._record(held, session)
        return held

    # -- a timed round's clock -----------------------------------------------------------

    def _arm_clock(self, competition_id: int, round_number: int, ends_at: str) -> None:
        """One clock a timed round: when it runs out, each table's deal in play is its last."""
        key = (competition_id, round_number)
        if key in self._clocks:
            return
        task = asyncio.get_running_loop().create_task(
            self._round_clock(competition_id, round_number, datetime.fromisoformat(ends_at))
        )
        self._clocks[key] = task
        task.add_done_callback(lambda _t: self._clocks.pop(key, None))
        task.add_done_callback(_log_failure)

    async def _round_clock(self, competition_id: int, round_number: int, ends: datetime) -> None:
        wait = (ends - self.clock()).total_seconds()
        if wait > 0:
            await asyncio.sleep(wait)
        await self.call_time(competition_id, round_number)

    async def call_time(self, competition_id: int, round_number: int) -> None:
        """Round ``round_number``'s time is up: every table still playing finishes the deal
        in play and ends (a latvian session's time limit); nothing if the round is over."""
        held = self.open.get(competition_id)
        current = None if held is None else held.competition.current
        if held is None or current is None or current.number != round_number:
            return
        await self._each_game(_games_in_play(held.competition), self.games.call_time)

    # -- keeping and saving ------------------------------------------------------------

    def _keep(self, held: Held) -> Held:
        if held.competition.status in ("checkin", "playing"):
            self.open[held.id] = held
            for game_id in _games_in_play(held.competition):
                self._by_game[game_id] = held.id
        else:
            self.open.pop(held.id, None)
        return held

    async def _require(self, competition_id: int) -> Held:
        held = self.open.get(competition_id)
        if held is None:
            raise GameError(N_("That competition is over."))
        return held

    async def _change(
        self,
        competition_id: int,
        change: Callable[[Competition], Competition],
        event: Event,
        *,
        referee: tuple[int, bool] | None = None,
    ) -> Held:
        """``change`` made under the competition's lock, saved and told; a referee's
        action names ``referee``: the user and whether they can manage the server."""
        async with self._locks.hold(competition_id):
            held = await self._require(competition_id)
            if referee is not None:
                self.check_referee(held, referee[0], can_manage=referee[1])
            held = await self._save(held, change(held.competition))
            self._tell(held, event)
            return held

    async def _save(
        self, held: Held, competition: Competition, *, message_id: int | None = None
    ) -> Held:
        try:
            row = await self.db.competitions.save(
                held.id,
                expected_version=held.version,
                status=competition.status,
                state=rules.to_json(competition),
                now=self.clock(),
                message_id=message_id,
            )
        except StaleGameError:
            fresh = await self.db.competitions.get(held.id)
            if fresh is not None:
                self._keep(Held.from_row(fresh))
            raise GameError(
                N_("The competition changed at the same moment. Please try again.")
            ) from None
        return self._keep(Held.from_row(row))

    def _tell(self, held: Held, event: Event) -> None:
        if self.herald is not None:
            self.herald.announce(held, event)


def _in_play(c: Competition) -> list[Table]:
    """The current round's tables without a result."""
    current = c.current
    if current is None:
        return []
    return [t for t in current.tables if t.result is None]


def _games_in_play(c: Competition) -> list[int]:
    """The games of the current round's tables without a result."""
    return [t.game_id for t in _in_play(c) if t.game_id is not None]


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a competition task failed", exc_info=task.exception())
