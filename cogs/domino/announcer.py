"""Announcing saved changes in Discord: the table with its turn ping, the deal summaries.

:class:`TablePublisher` is the service's :class:`~bot.games.service.Publisher`.
The service hands it every saved change and goes on; one worker per game sends
them in order, outside every lock:

- **One live table at the bottom of the channel, carrying the turn ping**: on each change
  the table is posted anew (the previous one deleted), its text pinging the human whose
  turn just came (``allowed_mentions`` for that one user; a table posted again for the
  same turn shows the line without notifying anyone). With no interaction to carry it
  and no ping due, it is edited in place instead.
- **Carried by the players' interactions** (:mod:`cogs.domino.carriers`): the table and
  the summaries go out as public followups of the freshest interaction in the channel
  (the move's own), and an old table is deleted through the interaction that posted it:
  routes Discord does not count against the token's global budget. Only without a
  living interaction (a restart, a turn timer after 14 quiet minutes) do the counted
  channel routes serve, through the process's pacer (:mod:`bot.pacer`), the table of a
  human's turn first and deletions last.
- **Coalesced**: changes that arrive while a worker is busy (a burst of AI moves, or
  a counted call waiting its turn) are merged into one (the latest state wins, the
  narration keeps every move).
- **Every live hand** refreshes itself (:mod:`cogs.domino.live_hands`): the hand of the
  player to move before the table (so a pinged player finds their hand ready), the
  others after it (their edits never hold up the ping).
  A refresh Discord refuses (the message deleted, the token expired, 403) costs one
  log line and forgets that hand.
- **Retried**: a 429 or a 5xx (after discord.py's own retries) is retried with
  backoff, honouring ``retry_after``; newer changes merge in meanwhile. Missing
  permissions or a deleted channel end the attempt with one log line; an interaction
  Discord refuses to carry hands its message to the channel routes at once.
- **Recorded**: once the table shows a version, it is written down
  (``announced_version``, the table, the turn it pinged), so that a restart announces
  what a crash left unsaid and pings nobody twice.
- **Recovered**: after a restart a change that was saved but never shown is announced
  (``Note("recovered")``), without a line of its own: nothing happened in the game.

Every message is drawn from the game's public snapshot (:meth:`Update.shown
<bot.games.service.Update.shown>`), a hand from its owner's own tiles
(:meth:`Update.hand <bot.games.service.Update.hand>`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.games.service import Update
from bot.games.session import LOBBY, PLAYING, Session
from bot.games.snapshot import Snapshot, snapshot
from bot.i18n import Translator
from bot.pacer import Priority, priority

from .carriers import CLICK_UPDATES, OPENING, Carrier, Carriers
from .live_hands import LiveHands, owner_hand, wants_refresh
from .narrate import NOTES_KEPT, Feed, Noted, feed, noted
from .origin import public_translator
from .table import deal_over_line, summary_file, table_message, text_names, turn_ping

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


@dataclass(frozen=True, slots=True)
class _Posted:
    """A message of ours and the interaction that posted it (None: a channel route)."""

    id: int
    carrier: Carrier | None = None


@dataclass(slots=True)
class _Shown:
    """What this process showed of one game in Discord."""

    table: _Posted | None = None
    version: int | None = None
    """The game version the table shows (a retry does not edit it again)."""
    deals: int = 0
    ping_turn: str | None = None
    """The turn whose player the table pinged (nobody is pinged twice for a turn)."""
    old_ping: int | None = None
    """A ping message of its own, as earlier versions posted: deleted at the next change."""
    summary: _Posted | None = None
    """The latest deal summary (it shows the match so far): deleted when the next comes."""


@dataclass(frozen=True, slots=True)
class _Outlet:
    """What every step of one announcement works with."""

    channel: discord.abc.Messageable
    update: Update
    game: Snapshot
    """What may be shown of the game after the update."""
    shown: _Shown
    tr: Translator
    repost: bool


class TablePublisher:
    """Keeps each game's messages up to date (the service's publisher)."""

    def __init__(self, bot: DominoBot) -> None:
        self.bot = bot
        self.delays = RETRY_DELAYS
        self.hands = LiveHands(bot.clock)
        """Every player's live hand message (the cog shows them, the announcer refreshes)."""
        self.carriers = Carriers(bot.clock)
        """The interactions that carry each channel's messages (the cog registers them)."""
        self._jobs: dict[int, _Job] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._shown: dict[int, _Shown] = {}
        self._notes: dict[int, list[Noted]] = {}
        """Each game's latest notes, where they happened (for the table's feed)."""
        self._chores: set[asyncio.Task[None]] = set()
        """Deletions of old messages, off the games' workers (a counted one may wait)."""
        self.edits = 0
        """Table messages edited or posted (for tests and benchmarks)."""

    # -- the service's side ----------------------------------------------------------

    async def open_table(self, session: Session) -> None:
        """Post a new game's lobby now; raises if Discord refuses (nothing is queued).

        Carried by the interaction that opens it (:data:`~.carriers.OPENING`: the public
        "thinking…" of ``/domino new`` becomes the lobby, a rematch click's followup is
        one); else a counted channel message."""
        game = snapshot(session)
        tr = await public_translator(self.bot, game.guild_id)
        embed, view, files = await table_message(game, tr, Feed([], None))
        channel = await self._channel(game.channel_id)
        if channel is None:
            raise discord.InvalidData(f"channel {game.channel_id} takes no messages")
        opening = OPENING.get()
        carrier = self.carriers.find(opening) if opening is not None else None
        if carrier is not None and (
            carrier.channel_id != game.channel_id or not self.carriers.usable(carrier)
        ):
            carrier = None  # a thread's lobby, or an opening not answered yet: the channel
        message = {"embed": embed, "view": view, "files": files}
        posted = await self._post(channel, carrier, Priority.TURN, **message)
        self._shown[game.id] = _Shown(table=posted, version=game.version)
        self.bot.games.note_table_message(game.id, posted.id)
        self._record(game, self._shown[game.id])

    def publish(self, update: Update) -> None:
        told = noted(update)
        if told:
            kept = self._notes.setdefault(update.after.id, [])
            kept += told
            del kept[:-NOTES_KEPT]
        self._queue(_Job(update))

    async def repost(self, session: Session) -> bool:
        """Post the table again at the bottom of the channel (``/domino board``).

        Waits until it is done; False if Discord did not take it.
        """
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue(_Job(Update(session, session), repost=True, waiters=[done]))
        return await done

    async def close(self) -> None:
        tasks = [*self._workers.values(), *self._chores]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def settled(self) -> None:
        """Wait until every queued announcement and deletion is done (tests)."""
        while self._workers or self._chores:
            await asyncio.gather(*self._workers.values(), *self._chores, return_exceptions=True)

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
            if (left := self._jobs.pop(game_id, None)) is not None:
                _settle(left, ok=False)
            if not self.bot.games.is_active(game_id):
                self._shown.pop(game_id, None)
                self._notes.pop(game_id, None)
                self.hands.forget_game(game_id)

    async def _announce(self, job: _Job) -> None:
        """Every step of one (merged) change; raises :class:`Retry` if one must be retried."""
        update = job.update
        game = update.shown()
        shown = self._shown.get(game.id)
        if shown is None:
            # what an earlier process showed, as it wrote it down
            table = game.table_message_id
            old_ping = game.ping_message_id
            shown = self._shown[game.id] = _Shown(
                table=None if table is None else _Posted(table),
                deals=game.announced_deals,
                ping_turn=game.ping_turn,
                old_ping=old_ping if old_ping != table else None,
            )
        tr = await public_translator(self.bot, game.guild_id)
        try:
            channel = await self._channel(game.channel_id)
        except discord.HTTPException as error:
            _give_up_unless_retry(game, "reach its channel", error)
            return
        if channel is None:
            log.warning("game %d: channel %d takes no messages", game.id, game.channel_id)
            return
        out = _Outlet(channel, update, game, shown, tr, job.repost)
        retry: Retry | None = None
        steps: dict[str, Callable[[_Outlet], Coroutine[Any, Any, None]]] = {
            "summaries": self._summaries,
            # the hand of the player to move before the table pings them; every other
            # live hand after the table: their edits never hold up the ping
            "turn_hand": partial(self._hands, mover=True),
            "table": self._table,
            "other_hands": partial(self._hands, mover=False),
        }
        for name, step in steps.items():
            try:
                try:
                    await step(out)
                except discord.HTTPException as error:
                    _give_up_unless_retry(game, name, error)
                except (aiohttp.ClientError, TimeoutError, OSError) as error:
                    log.warning("game %d: %s failed (%r); retrying", game.id, name, error)
                    raise Retry() from None
            except Retry as again:
                retry = again if retry is None or again.after > retry.after else retry
        if retry is not None:
            raise retry
        self._record(game, shown)

    async def _summaries(self, out: _Outlet) -> None:
        """Each finished deal's summary, once; the one before it deleted (a summary shows
        the match so far), so a long match leaves one summary above its table."""
        game, shown, tr = out.game, out.shown, out.tr
        finished = game.match.finished if game.match is not None else 0
        for number in range(shown.deals + 1, finished + 1):
            file = await summary_file(game, number, tr)
            if file is not None:
                content = deal_over_line(game, number, tr)
                carrier = await self.carriers.best(game.channel_id)
                posted = await self._post(
                    out.channel, carrier, Priority.NORMAL, content=content, files=[file]
                )
                if shown.summary is not None:
                    self._later(self._delete(out, shown.summary))
                shown.summary = posted
            shown.deals = number

    async def _table(self, out: _Outlet) -> None:
        """Post the table anew at the bottom of the channel, pinging the human whose turn
        came; without an interaction to carry it and no ping due, edit it in place."""
        update, shown, tr = out.update, out.shown, out.tr
        game = out.game
        seat = game.turn_seat
        user = seat.user_id if seat is not None and game.status == PLAYING else None
        turn = game.turn_token if user is not None else None
        ping_due = turn is not None and turn != shown.ping_turn
        if (
            shown.version == game.version
            and shown.table is not None
            and not out.repost
            and not ping_due
        ):
            return  # already shown (this is a retry for another step)
        (before, _), (after, _) = update.span()
        new_deal = before != 0 and after != 0 and after != before  # the deal numbers
        told = feed(game, self._notes.get(game.id, ()), tr, text_names(game))
        embed, view, files = await table_message(game, tr, told)
        content = turn_ping(game, user, tr) if user is not None else None
        mentions = (
            discord.AllowedMentions(users=[discord.Object(user)])
            if ping_due and user is not None
            else discord.AllowedMentions.none()
        )
        carrier = await self.carriers.best(game.channel_id)
        old = shown.table
        in_place = game.status == LOBBY or carrier is None or self._editable(old, carrier)
        if old is not None and in_place and not (out.repost or new_deal or ping_due):
            # nobody to ping: edit it in place (a lobby stays where players click it)
            if await self._edit(
                out, old, carrier, content=content, embed=embed, view=view, attachments=files
            ):
                self.edits += 1
                shown.version = game.version
                shown.ping_turn = turn
                return
            for file in files:
                file.reset()
        level = Priority.TURN if ping_due else Priority.NORMAL
        kwargs: dict[str, Any] = {"embed": embed, "view": view, "files": files}
        if content is not None:
            kwargs["content"] = content
        posted = await self._post(out.channel, carrier, level, allowed_mentions=mentions, **kwargs)
        self.edits += 1
        shown.table = posted
        shown.version = game.version
        shown.ping_turn = turn
        self.bot.games.note_table_message(game.id, posted.id)
        if old is not None and old.id != posted.id:
            self._later(self._delete(out, old))
        if shown.old_ping is not None:
            self._later(self._delete(out, _Posted(shown.old_ping)))
            shown.old_ping = None

    async def _hands(self, out: _Outlet, *, mover: bool) -> None:
        """Refresh the live hands the change made stale (``mover``: only the hand of the
        player to move; else only the others). Only the owner's own hand, in their own
        ephemeral message; one edit per hand, and never a hand shown already."""
        game = out.game
        seat = game.turn_seat
        to_move = seat.user_id if seat is not None else None
        for user_id, slot in self.hands.slots(game.id):
            if (user_id == to_move) != mover:
                continue
            async with slot.lock:
                hand = slot.hand
                if hand is None or not wants_refresh(hand, game, user_id):
                    continue
                if not self.hands.usable(hand):
                    slot.hand = None  # its token is (nearly) dead: never touched again
                    continue
                shown = await owner_hand(game, out.update.hand, user_id, hand.tr)
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
                        game.id,
                        error.status,
                        error.code,
                    )
                    slot.hand = None
                    continue
                self.hands.refreshed += 1
                slot.hand = replace(
                    hand,
                    version=game.version,
                    turn=game.turn_token if offers_moves else None,
                )

    # -- sending: through a carrier while one lives, else the counted channel routes --

    async def _post(
        self,
        channel: discord.abc.Messageable,
        carrier: Carrier | None,
        level: Priority,
        **kwargs: Any,
    ) -> _Posted:
        """Post a public message: a followup of ``carrier``, or (without one, or if Discord
        refuses it) a counted channel message with ``level``."""
        if carrier is not None:
            try:
                carried = await carrier.interaction.followup.send(wait=True, **kwargs)
                return _Posted(carried.id, carrier)
            except discord.HTTPException as error:
                if error.status == 429 or error.status >= 500:
                    raise
                log.info(
                    "channel %d: an interaction could not carry a message (%d, code %d);"
                    " the channel route does",
                    carrier.channel_id,
                    error.status,
                    error.code,
                )
                self.carriers.kill(carrier)
                for file in kwargs.get("files", ()):
                    file.reset()
        with priority(level):
            message = await channel.send(**kwargs)
        return _Posted(message.id)

    def _editable(self, posted: _Posted | None, carrier: Carrier | None) -> bool:
        """Whether ``posted`` can be edited without a counted call."""
        if posted is None:
            return False
        if posted.carrier is not None and self.carriers.usable(posted.carrier):
            return True
        return carrier is not None and _clicked(carrier, posted.id)

    async def _edit(
        self, out: _Outlet, posted: _Posted, carrier: Carrier | None, **kwargs: Any
    ) -> bool:
        """Edit a message of ours; False if it is gone. Uncounted through the interaction
        that posted it or one clicked on it, while it lives; else the channel route."""
        try:
            for way in (posted.carrier, carrier):
                if way is None or not self.carriers.usable(way):
                    continue
                try:
                    if way is posted.carrier:
                        await way.interaction.followup.edit_message(posted.id, **kwargs)
                        return True
                    if _clicked(way, posted.id):
                        await way.interaction.edit_original_response(**kwargs)
                        return True
                except discord.HTTPException as error:
                    if error.status in (404, 429) or error.status >= 500:
                        raise
                    self.carriers.kill(way)
                    for file in kwargs.get("attachments", ()):
                        file.reset()
            with priority(Priority.COSMETIC):
                message = out.channel.get_partial_message(posted.id)  # type: ignore[attr-defined]
                await message.edit(**kwargs)
            return True
        except discord.NotFound:
            return False

    def _later(self, chore: Coroutine[Any, Any, None]) -> None:
        """Run ``chore`` beside the game's worker: a deletion never holds up the next table."""
        task = asyncio.get_running_loop().create_task(chore)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _delete(self, out: _Outlet, posted: _Posted) -> None:
        """Delete a message of ours (through its carrier while it lives); a failure only
        leaves it in the channel."""
        carrier = posted.carrier
        if carrier is not None and self.carriers.usable(carrier):
            try:
                await carrier.interaction.followup.delete_message(posted.id)
                return
            except discord.NotFound:
                return
            except discord.HTTPException:
                pass  # the channel route below
        with priority(Priority.COSMETIC), contextlib.suppress(discord.HTTPException):
            await out.channel.get_partial_message(posted.id).delete()  # type: ignore[attr-defined]

    # -- helpers ----------------------------------------------------------------------

    def _record(self, game: Snapshot, shown: _Shown) -> None:
        """Write down what the table shows (a restart announces anything after it)."""
        self.bot.games.note_announced(
            game.id,
            version=game.version,
            deals=shown.deals,
            table_message_id=None if shown.table is None else shown.table.id,
            ping=(shown.old_ping, shown.ping_turn),
        )

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return channel if isinstance(channel, discord.abc.Messageable) else None


def _clicked(carrier: Carrier, message_id: int) -> bool:
    """Whether ``carrier`` is a click on that message acknowledged as its update (its
    original response is then the message itself)."""
    message = carrier.interaction.message
    return (
        message is not None
        and message.id == message_id
        and carrier.interaction.response.type in CLICK_UPDATES
    )


def _give_up_unless_retry(game: Snapshot, what: str, error: discord.HTTPException) -> None:
    """Raise :class:`Retry` for an error worth retrying; log the others in one line."""
    status = error.status
    if status == 429 or status >= 500:
        raise Retry(_retry_after(error))
    log.warning(
        "game %d in channel %d: could not %s (%d %s)",
        game.id,
        game.channel_id,
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
