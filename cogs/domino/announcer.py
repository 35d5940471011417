"""Announcing saved changes in Discord: the table, the deal summaries, the turn ping.

:class:`TablePublisher` is the service's :class:`~bot.games.service.Publisher`.
The service hands it every saved change and goes on; one worker per game sends
them in order, outside every lock:

- **Coalesced**: changes that arrive while a worker is busy (a burst of AI moves)
  are merged into one (the latest state wins, the narration keeps every move),
  so a fast AI sequence is one table edit, well inside Discord's per-channel limits.
- **Every step on its own**: each finished deal's summary is posted once; the
  table is edited (or posted again when its message is gone); the player to move
  is pinged once per turn, the new ping sent before the old one is deleted, and
  the last ping deleted when no human is to move (an AI's turn, the match over).
  A failed table edit never skips the ping.
- **The hand of the player to move** refreshes itself: after the table and before the
  ping (so a pinged player finds their hand ready), the live hand message of each player
  whose turn came (or went by without their hand) is edited (:mod:`cogs.domino.hands`).
  A refresh Discord refuses (the message deleted, the token expired, 403) costs one
  log line and forgets that hand.
- **Retried**: a 429 or a 5xx (after discord.py's own retries) is retried with
  backoff, honouring ``retry_after``; newer changes merge in meanwhile. Missing
  permissions or a deleted channel end the attempt with one log line.
- **Recorded**: once the table shows a version, it is written down
  (``announced_version``), so that a restart announces what a crash left unsaid.
- **Recovered**: after a restart a change that was saved but never shown is announced
  (``Note("recovered")``), without a line of its own: nothing happened in the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.games.service import Note, Update, turn_token
from bot.games.session import PLAYING, Session
from bot.i18n import Translator

from .hands import LiveHands, owner_hand, wants_refresh
from .language import public_translator
from .narrate import narrate
from .table import (
    deal_over_line,
    finished_count,
    summary_file,
    table_message,
    table_view,
    text_names,
    turn_ping,
)

if TYPE_CHECKING:
    from bot.client import DominoBot

log = logging.getLogger(__name__)

RETRY_DELAYS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0)
"""Seconds to wait before each retry of a failed announcement; then it gives up
until the game's next change (or ``/domino board``)."""


class Retry(Exception):
    """Discord is busy or failing: try the announcement again later."""

    def __init__(self, after: float = 0.0) -> None:
        super().__init__(after)
        self.after = after


@dataclass(slots=True)
class _Job:
    """The changes not announced yet, merged; who waits for them."""

    update: Update
    repost: bool = False
    waiters: list[asyncio.Future[bool]] = field(default_factory=list)

    def then(self, later: _Job) -> _Job:
        return _Job(
            self.update.then(later.update),
            self.repost or later.repost,
            [*self.waiters, *later.waiters],
        )


@dataclass(slots=True)
class _Shown:
    """What this process showed of one game in Discord."""

    table: int | None = None
    version: int | None = None
    """The game version the table shows (a retry does not edit it again)."""
    deals: int = 0
    ping: int | None = None
    ping_turn: str | None = None


@dataclass(frozen=True, slots=True)
class _Outlet:
    """What every step of one announcement works with."""

    channel: discord.abc.Messageable
    update: Update
    shown: _Shown
    tr: Translator
    repost: bool


class TablePublisher:
    """Keeps each game's messages up to date (the service's publisher)."""

    def __init__(
        self,
        bot: DominoBot,
        *,
        delays: tuple[float, ...] = RETRY_DELAYS,
        hands: LiveHands | None = None,
    ) -> None:
        self.bot = bot
        self.delays = delays
        self.hands = hands if hands is not None else LiveHands(bot.clock)
        """Every player's live hand message (the cog shows them, the announcer refreshes)."""
        self._jobs: dict[int, _Job] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._shown: dict[int, _Shown] = {}
        self.edits = 0
        """Table messages edited or posted (for tests and benchmarks)."""

    # -- the service's side ----------------------------------------------------------

    async def open_table(self, session: Session) -> None:
        """Post a new game's lobby now; raises if Discord refuses (nothing is queued)."""
        tr = await public_translator(self.bot, session.guild_id)
        channel = await self._channel(session.channel_id)
        if channel is None:
            raise discord.InvalidData(f"channel {session.channel_id} takes no messages")
        embed, view, files = await table_message(session, tr, [])
        message = await channel.send(embed=embed, view=view, files=files)
        self._shown[session.id] = _Shown(table=message.id, version=session.version)
        self.bot.games.note_table_message(session.id, message.id)
        self._record(session, self._shown[session.id])

    def publish(self, update: Update) -> None:
        self._queue(_Job(update))

    async def repost(self, session: Session) -> bool:
        """Post the table again at the bottom of the channel (``/domino board``).

        Waits until it is done; False if Discord did not take it.
        """
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue(_Job(Update(session, session), repost=True, waiters=[done]))
        return await done

    async def close(self) -> None:
        workers = list(self._workers.values())
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)

    # -- the worker --------------------------------------------------------------------

    def _queue(self, job: _Job) -> None:
        game_id = job.update.after.id
        pending = self._jobs.get(game_id)
        self._jobs[game_id] = pending.then(job) if pending else job
        if game_id not in self._workers:
            worker = asyncio.get_running_loop().create_task(self._drain(game_id))
            self._workers[game_id] = worker

    async def _drain(self, game_id: int) -> None:
        failures = 0
        try:
            while (job := self._jobs.pop(game_id, None)) is not None:
                try:
                    await self._announce(job)
                except Retry as retry:
                    newer = self._jobs.pop(game_id, None)
                    self._jobs[game_id] = job.then(newer) if newer else job
                    if failures >= len(self.delays):
                        log.warning("game %d: Discord keeps failing; announcing later", game_id)
                        _settle(self._jobs.pop(game_id), ok=False)
                        break
                    await asyncio.sleep(max(self.delays[failures], retry.after))
                    failures += 1
                    continue
                except Exception:
                    log.exception("game %d: announcing a change failed", game_id)
                    _settle(job, ok=False)
                    continue
                failures = 0
                _settle(job, ok=True)
        finally:
            del self._workers[game_id]
            for job in [self._jobs.pop(game_id, None)]:
                if job is not None:
                    _settle(job, ok=False)
            if not self.bot.games.is_active(game_id):
                self._shown.pop(game_id, None)
                self.hands.forget_game(game_id)

    async def _announce(self, job: _Job) -> None:
        """Every step of one (merged) change; raises :class:`Retry` if one must be retried."""
        update = job.update
        session = update.after
        shown = self._shown.get(session.id)
        if shown is None:
            # what an earlier process showed, as it wrote it down
            shown = self._shown[session.id] = _Shown(
                table=session.table_message_id,
                deals=session.announced_deals,
                ping=session.ping_message_id,
                ping_turn=session.ping_turn,
            )
        tr = await public_translator(self.bot, session.guild_id)
        try:
            channel = await self._channel(session.channel_id)
        except discord.HTTPException as error:
            _give_up_unless_retry(session, "reach its channel", error)
            return
        if channel is None:
            log.warning("game %d: channel %d takes no messages", session.id, session.channel_id)
            return
        out = _Outlet(channel, update, shown, tr, job.repost)
        retry: Retry | None = None
        for step in (self._summaries, self._table, self._hands, self._ping):
            try:
                try:
                    await step(out)
                except discord.HTTPException as error:
                    _give_up_unless_retry(session, step.__name__.strip("_"), error)
                except (aiohttp.ClientError, TimeoutError, OSError) as error:
                    log.warning("game %d: %s failed (%r); retrying", session.id, step, error)
                    raise Retry() from None
            except Retry as again:
                retry = again if retry is None or again.after > retry.after else retry
        if retry is not None:
            raise retry
        self._record(session, shown)

    async def _summaries(self, out: _Outlet) -> None:
        """Each finished deal's summary, once."""
        channel, session, shown, tr = out.channel, out.update.after, out.shown, out.tr
        for number in range(shown.deals + 1, finished_count(session) + 1):
            file = await summary_file(session, number, tr)
            if file is not None:
                content = deal_over_line(session, number, tr)
                await channel.send(content=content, file=file)
            shown.deals = number

    async def _table(self, out: _Outlet) -> None:
        """Edit the table message, or post it again (a new deal, ``/domino board``, gone)."""
        channel, update, shown, tr = out.channel, out.update, out.shown, out.tr
        session = update.after
        if shown.version == session.version and shown.table is not None and not out.repost:
            return  # already shown (this is a retry for another step)
        before = update.before
        new_deal = (
            before is not None
            and before.state is not None
            and session.state is not None
            and session.state.deal_number != before.state.deal_number
        )
        lines = narrate(update, tr, text_names(session))
        embed, view, files = await table_message(session, tr, lines)
        old = shown.table
        if old is not None and not (out.repost or new_deal):
            try:
                message = channel.get_partial_message(old)  # type: ignore[attr-defined]
                await message.edit(embed=embed, view=view, attachments=files)
                self.edits += 1
                shown.version = session.version
                return
            except discord.NotFound:
                pass  # deleted: post a new one
            for file in files:
                file.reset()
        message = await channel.send(embed=embed, view=view, files=files)
        self.edits += 1
        shown.table = message.id
        shown.version = session.version
        self.bot.games.note_table_message(session.id, message.id)
        if old is not None and old != message.id:
            await _delete_quietly(channel, old)

    async def _ping(self, out: _Outlet) -> None:
        """Ping the human to move, once per turn; the old ping goes once it is answered."""
        channel, session, shown, tr = out.channel, out.update.after, out.shown, out.tr
        seat = session.turn_seat
        human = seat is not None and seat.user_id is not None and session.status == PLAYING
        turn = turn_token(session) if human else None
        if turn == shown.ping_turn:
            return
        old = shown.ping
        if seat is not None and seat.user_id is not None and turn is not None:
            view = table_view(session, tr)
            message = await channel.send(
                turn_ping(session, seat.user_id, tr),
                view=view,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(seat.user_id)]),
            )
            shown.ping = message.id
        else:
            shown.ping = None
        shown.ping_turn = turn
        if old is not None:
            await _delete_quietly(channel, old)

    async def _hands(self, out: _Outlet) -> None:
        """Refresh the live hands the change made stale: the owner's turn came, or went by
        while the hand still offered moves. Only the owner's own hand, in their own
        ephemeral message; one edit per hand, and never a hand shown already."""
        session = out.update.after
        for user_id, slot in self.hands.slots(session.id):
            async with slot.lock:
                hand = slot.hand
                if hand is None or not wants_refresh(hand, session, user_id):
                    continue
                if not self.hands.usable(hand):
                    slot.hand = None  # its token is (nearly) dead: never touched again
                    continue
                shown = await owner_hand(session, user_id, hand.tr)
                if shown is None:
                    slot.hand = None
                    continue
                message, offers_moves = shown
                try:
                    await hand.interaction.edit_original_response(**message)
                except discord.HTTPException as error:
                    if error.status == 429 or error.status >= 500:
                        raise  # retried with the announcement
                    log.info(
                        "game %d: a player's hand message could not be refreshed (%d, code %d);"
                        " it is no longer kept up to date",
                        session.id,
                        error.status,
                        error.code,
                    )
                    slot.hand = None
                    continue
                self.hands.refreshed += 1
                slot.hand = replace(
                    hand,
                    version=session.version,
                    turn=turn_token(session) if offers_moves else None,
                )

    # -- helpers ----------------------------------------------------------------------

    def _record(self, session: Session, shown: _Shown) -> None:
        """Write down what the table shows (a restart announces anything after it)."""
        self.bot.games.note_announced(
            session.id,
            version=session.version,
            deals=shown.deals,
            table_message_id=shown.table,
            ping=(shown.ping, shown.ping_turn),
        )

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return channel if isinstance(channel, discord.abc.Messageable) else None


def _give_up_unless_retry(session: Session, what: str, error: discord.HTTPException) -> None:
    """Raise :class:`Retry` for an error worth retrying; log the others in one line."""
    status = error.status
    if status == 429 or status >= 500:
        raise Retry(_retry_after(error))
    log.warning(
        "game %d in channel %d: could not %s (%d %s)",
        session.id,
        session.channel_id,
        what,
        status,
        error.text[:200],
    )


def _retry_after(error: discord.HTTPException) -> float:
    headers = getattr(error.response, "headers", None) or {}
    with contextlib.suppress(TypeError, ValueError):
        return float(headers.get("Retry-After", 0))
    return 0.0


def _settle(job: _Job, *, ok: bool) -> None:
    for waiter in job.waiters:
        if not waiter.done():
            waiter.set_result(ok)


async def _delete_quietly(channel: discord.abc.Messageable, message_id: int) -> None:
    with contextlib.suppress(discord.HTTPException):
        await channel.get_partial_message(message_id).delete()  # type: ignore[attr-defined]


__all__ = ["Note", "Retry", "TablePublisher"]
