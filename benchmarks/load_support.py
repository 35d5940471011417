"""Many games at once against the real bot under SimCord: the pieces of ``load.py``.

SimCord's actors (``member.click``, ``member.slash``) run one operation at a time
and wait until the whole bot is idle after each one (SimCord refuses overlapping
operations). A load driver needs hundreds of interactions in flight, so
:class:`Harness` builds each interaction with SimCord's own payload builders and
hands it to the simulated gateway itself, without the operation guard and without
waiting for the bot to settle. Everything the bot sends back is timestamped where
it arrives: SimCord's HTTP router (:class:`Tap`). See ``docs/LOAD.md``.

SimCord internals used here (simcord 3.2; check them after an upgrade):

* ``simcord.http.router.dispatch``: every REST call of the bot, wrapped by :class:`Tap`;
* ``simcord.actors._resolve_visible_command``, ``_check_actor_channel``,
  ``_find_component`` and ``simcord.interactions.base_payload`` /
  ``build_options`` / ``nest_options`` / ``walk_to_subcommand``: what
  ``MemberActor.slash`` / ``click`` do before ``_dispatch_actor_interaction``;
* ``Env._schedule_timer`` (replaced before the bot starts by :class:`TimerPump`),
  ``Env._runtime.call_at``, ``Env._virtual_time`` and ``Env._work.callbacks`` (timers
  taken out, cancelled ones dropped): the virtual clock's timer bookkeeping;
* ``backend.http_requests``, ``backend.transcript``, ``backend.cdn._blobs``: logs and
  stored uploads, emptied twice a second so that the simulator's memory stays flat.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import random
import re
import resource
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402
from simcord import actors as sc_actors  # noqa: E402
from simcord import interactions as sc_interactions  # noqa: E402
from simcord._dpy_internals import real_monotonic  # noqa: E402
from simcord.backend import serializers  # noqa: E402
from simcord.backend.access import can_access_message  # noqa: E402
from simcord.components import walk_components  # noqa: E402
from simcord.enums import AppCommandType, ComponentType, InteractionType  # noqa: E402
from simcord.http import router as sc_router  # noqa: E402

from bot.games.session import Session, Status  # noqa: E402

now = time.perf_counter
MENTION = re.compile(r"<@!?(\d+)>")
TOKEN = re.compile(r"^domino:[ms]:\d+:(\d+)\.(\d+):\d+$")
ACK_ONLY = {5, 6}  # deferred callbacks: the reply comes later, through the webhook
GAME_OVER = (Status.FINISHED, Status.CANCELLED, Status.ABANDONED)


# -- what the bot sent -----------------------------------------------------------------


@dataclass(slots=True)
class Exchange:
    """One interaction: when it was sent, acknowledged and answered (perf_counter s)."""

    kind: str
    user_id: int
    channel_id: int
    interaction_id: int
    token: str
    sent: float
    custom_id: str | None = None
    ack_at: float | None = None
    reply_at: float | None = None
    ack_error: str | None = None
    reply_message_id: int | None = None
    progress: tuple[int, int] | None = None  # a move: (deal, history length) it was made at
    moved: bool | None = None  # a move: the bot answered with the hand past that move
    acked: asyncio.Future[None] | None = None
    replied: asyncio.Future[None] | None = None
    edited: asyncio.Event | None = None  # set on every later webhook call (a refresh)

    @property
    def ack_latency(self) -> float | None:
        return None if self.ack_at is None else self.ack_at - self.sent

    @property
    def reply_latency(self) -> float | None:
        return None if self.reply_at is None else self.reply_at - self.sent

    def _ack(self, at: float, error: str | None) -> None:
        if self.ack_at is None:
            self.ack_at = at
            self.ack_error = error
            if self.acked is not None and not self.acked.done():
                self.acked.set_result(None)

    def _reply(self, at: float, message_id: int | None) -> None:
        if self.reply_at is None:
            self.reply_at = at
            self.reply_message_id = message_id
            if self.replied is not None and not self.replied.done():
                self.replied.set_result(None)
        elif self.edited is not None:
            self.edited.set()

    async def reply(self, timeout: float) -> bool:
        """Wait for the answer; False on timeout."""
        assert self.replied is not None
        try:
            await asyncio.wait_for(asyncio.shield(self.replied), timeout)
        except TimeoutError:
            return False
        return True


@dataclass(slots=True)
class TableWrite:
    at: float
    progress: tuple[int, int] | None  # of the game state drawn, when it could be told
    status: str | None


@dataclass
class ChannelWatch:
    """What the bot posted in one channel: table writes and turn pings, in order."""

    tables: list[TableWrite] = field(default_factory=list)
    pings: list[tuple[float, int]] = field(default_factory=list)
    _waiters: list[asyncio.Future[None]] = field(default_factory=list)

    def _changed(self) -> None:
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def changed(self, timeout: float) -> None:
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(waiter, timeout)

    def ping_after(self, moment: float) -> int | None:
        for at, user in reversed(self.pings):
            if at < moment:
                return None
            return user
        return None

    @property
    def status(self) -> str | None:
        """The status of the game the latest table write showed (None: not known)."""
        return self.tables[-1].status if self.tables else None

    def table_after(self, moment: float, progress: tuple[int, int] | None) -> float | None:
        """When the first table write after ``moment`` showing more than ``progress`` landed."""
        for write in self.tables:
            if write.at < moment:
                continue
            if progress is None or write.progress is None or write.progress > progress:
                return write.at
        return None


def _session_on_stack() -> Session | None:
    """The game the bot is drawing: the innermost ``Session`` (or ``Update.after``) local
    on the call stack of the request being routed (the publisher's frames are on it)."""
    frame: FrameType | None = sys._getframe(3)
    for _ in range(80):
        if frame is None:
            return None
        for value in frame.f_locals.values():
            if isinstance(value, Session):
                return value
            after = getattr(value, "after", None)
            if isinstance(after, Session) and hasattr(value, "notes"):
                return after
        frame = frame.f_back
    return None


def progress_of(session: Session) -> tuple[int, int]:
    state = session.state
    if state is None:
        return (0, 0)
    return (state.deal_number, len(state.deal.history))


class Tap:
    """Timestamps every REST call of the bot at SimCord's HTTP router."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.by_id: dict[int, Exchange] = {}
        self.by_token: dict[str, Exchange] = {}
        self.channels: dict[int, ChannelWatch] = {}
        self.calls = 0
        self.counted = 0
        """Calls Discord counts against the token's global limit (not interaction routes)."""
        self.counted_wall: list[float] = []
        """When each counted call was made (wall clock: comparable between processes)."""
        self._offset = time.time() - now()
        self.limits = limits
        self.errors: dict[str, int] = {}
        self._original: Callable[..., Any] | None = None

    def install(self) -> None:
        assert self._original is None
        original = self._original = sc_router.dispatch

        def dispatch(backend: Any, method: str, path: str, **kw: Any) -> Any:
            at = now()
            if counted(path):
                self.counted += 1
                self.counted_wall.append(self.wall(at))
                if self.limits is not None:
                    refusal = self.limits.refusal(method, path)
                    if refusal is not None:
                        self._observe(method, path, kw.get("json"), at, None, refusal)
                        raise refusal
            try:
                result = original(backend, method, path, **kw)
            except Exception as error:
                self._observe(method, path, kw.get("json"), at, None, error)
                raise
            self._observe(method, path, kw.get("json"), at, result, None)
            return result

        sc_router.dispatch = dispatch

    def wall(self, at: float) -> float:
        """A ``perf_counter`` instant as wall-clock time."""
        return at + self._offset

    def uninstall(self) -> None:
        if self._original is not None:
            sc_router.dispatch = self._original
            self._original = None

    def watch(self, channel_id: int) -> ChannelWatch:
        watch = self.channels.get(channel_id)
        if watch is None:
            watch = self.channels[channel_id] = ChannelWatch()
        return watch

    def _observe(
        self,
        method: str,
        path: str,
        body: Any,
        at: float,
        result: Any,
        error: BaseException | None,
    ) -> None:
        self.calls += 1
        if error is not None:
            where = re.sub(r"/\d+", "/*", path.split("/simcord_")[0])
            key = f"{method} {where}: {error}"
            self.errors[key] = self.errors.get(key, 0) + 1
        parts = path.strip("/").split("/")
        body = body if isinstance(body, dict) else {}
        if parts[0] == "interactions" and parts[-1] == "callback" and len(parts) == 4:
            exchange = self.by_id.get(int(parts[1]))
            if exchange is None:
                return
            exchange._ack(at, None if error is None else str(error))
            if error is not None:
                exchange._reply(at, None)
            elif body.get("type") not in ACK_ONLY:
                message = ((result or {}).get("resource") or {}).get("message") or {}
                exchange._reply(at, int(message["id"]) if message.get("id") else None)
        elif parts[0] == "webhooks" and len(parts) >= 3:
            exchange = self.by_token.get(parts[2])
            public = method == "POST" and len(parts) == 3 and not _ephemeral(body)
            followup_edit = method == "PATCH" and len(parts) == 5 and parts[4] != "@original"
            if public or followup_edit:
                # the game's table (and its ping) carried by a player's interaction
                if error is None and exchange is not None:
                    self._public(exchange.channel_id, method, body, at)
            elif exchange is not None:
                ident = result.get("id") if isinstance(result, dict) else None
                exchange._reply(at, int(ident) if ident else None)
        elif parts[0] == "channels" and len(parts) in (3, 4) and parts[2] == "messages":
            if error is not None or not parts[1].isdigit():
                return
            if (method, len(parts)) not in (("POST", 3), ("PATCH", 4)):
                return
            self._public(int(parts[1]), method, body, at)

    def _public(self, channel_id: int, method: str, body: dict[str, Any], at: float) -> None:
        """A public message of the bot in a channel: a table write, a turn ping, or both."""
        watch = self.watch(channel_id)
        if body.get("embeds"):
            session = _session_on_stack()
            watch.tables.append(
                TableWrite(
                    at,
                    progress_of(session) if session is not None else None,
                    session.status if session is not None else None,
                )
            )
            watch._changed()
        pinged = (body.get("allowed_mentions") or {}).get("users") or []
        if method == "POST" and isinstance(body.get("content"), str) and pinged:
            found = MENTION.search(body["content"])
            if found:
                watch.pings.append((at, int(found[1])))
                watch._changed()


def counted(path: str) -> bool:
    """Whether Discord counts a call on ``path`` against the token's global limit: every
    route but an interaction's own (its callback, its webhook: followups, @original)."""
    return not path.startswith(("/interactions/", "/webhooks/"))


def _ephemeral(body: dict[str, Any]) -> bool:
    try:
        return bool(int(body.get("flags") or 0) & 64)
    except (TypeError, ValueError):
        return False


class _LimitedResponse:
    """Enough of an aiohttp response for the 429 :class:`discord.HTTPException` raised."""

    def __init__(self, retry_after: float, scope: str) -> None:
        self.status = 429
        self.reason = "Too Many Requests"
        self.headers = {"Retry-After": f"{retry_after:.3f}", "X-RateLimit-Scope": scope}


class Limits:
    """Discord's limits, simulated: the token's global limit on counted calls (shared by
    every process through a file: ``global_file``) and the per-channel limit on new
    messages. A call past either is refused with a 429 (and counted in :attr:`refused`)."""

    def __init__(
        self,
        global_per_s: float,
        global_file: Path | None = None,
        channel_posts: int = 5,
        channel_window: float = 5.0,
    ) -> None:
        self.global_per_s = global_per_s
        self.global_file = global_file
        self.channel_posts = channel_posts
        self.channel_window = channel_window
        self._calls: list[float] = []
        self._posts: dict[str, list[float]] = {}
        self.refused: dict[str, int] = {"global": 0, "channel": 0}

    def refusal(self, method: str, path: str) -> Exception | None:
        import discord

        at = time.time()
        if not self._global_ok(at):
            self.refused["global"] += 1
            return discord.HTTPException(
                _LimitedResponse(1.0, "global"),
                {"message": "You are being rate limited.", "retry_after": 1.0, "global": True},
            )
        parts = path.strip("/").split("/")
        if method == "POST" and len(parts) == 3 and parts[2] == "messages":
            posts = [t for t in self._posts.get(parts[1], []) if t > at - self.channel_window]
            if len(posts) >= self.channel_posts:
                self.refused["channel"] += 1
                wait = posts[0] + self.channel_window - at
                return discord.HTTPException(
                    _LimitedResponse(wait, "shared"),
                    {"message": "You are being rate limited.", "retry_after": wait},
                )
            posts.append(at)
            self._posts[parts[1]] = posts
        return None

    def _global_ok(self, at: float) -> bool:
        """Take a place in the token's last second of calls, if one is free."""
        if self.global_file is None:
            self._calls = [t for t in self._calls if t > at - 1.0]
            if len(self._calls) >= self.global_per_s:
                return False
            self._calls.append(at)
            return True
        import fcntl

        with self.global_file.open("a+") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            f.seek(0)
            recent = [float(x) for x in f.read().split() if float(x) > at - 1.0]
            ok = len(recent) < self.global_per_s
            if ok:
                recent.append(at)
            f.seek(0)
            f.truncate()
            f.write(" ".join(f"{t:.6f}" for t in recent))
        return ok


# -- the clock ---------------------------------------------------------------------------


class TimerPump:
    """Bot timers fire in real time, without SimCord waiting for the whole bot to idle.

    SimCord fires a bot's ``call_later`` timer when the wall clock reaches it by
    *advancing its virtual clock and settling the bot*: waiting until nothing at all
    runs. Under load something always runs, the settling times out, and from then on
    no bot timer fires. The pump takes over SimCord's scheduling of each timer (it is
    installed on the ``Env`` before the bot starts): at the wall-clock instant the
    virtual clock moves on to the timer's instant (never backwards) and the timer runs.
    """

    def __init__(self, env: simcord.Env) -> None:
        self.env = env
        self.fired = 0
        self.timers: dict[int, Any] = {}  # by id(): SimCord's records are unhashable
        env._schedule_timer = self._schedule  # type: ignore[method-assign,assignment]

    def _schedule(self, record: Any, callback: Any, args: Any, context: Any) -> None:
        env = self.env
        assert env._runtime is not None
        remaining = max(record.when - env._virtual_time, 0.0)

        def fire() -> None:
            handle = record.handle
            if handle is None or handle.cancelled():
                return
            behind = record.when - env._virtual_time
            if behind > 0:
                env.backend.advance_clock(behind)
            self.fired += 1
            self.timers.pop(id(record), None)
            handle._run()

        record.real_handle = env._runtime.call_at(real_monotonic() + remaining, fire)

    def stop(self) -> None:
        """Cancel the timers taken out of SimCord's list (it cancels the others)."""
        for record in self.timers.values():
            if record.real_handle is not None:
                record.real_handle.cancel()
        self.timers.clear()

    def housekeeping(self) -> None:
        """Keep SimCord's list of pending callbacks short, and drop its logs and stored
        uploads (never read back here).

        SimCord appends every callback the bot schedules to one list and removes it
        when it runs, by a linear search; cancelled timers stay in the list until the
        bot settles, which under load it never does, and every timer (a game's 24-hour
        idle watchdog) sits at its front. The pump fires timers itself, so they leave
        the list (:attr:`timers` keeps them), and cancelled ones are forgotten.
        """
        work = self.env._work
        keep = []
        for r in work.callbacks:
            if r.handle is None or r.handle.cancelled():
                continue
            if r.when is not None:
                self.timers[id(r)] = r
            else:
                keep.append(r)
        work.callbacks = keep
        self.timers = {k: r for k, r in self.timers.items() if not r.handle.cancelled()}
        backend = self.env.backend
        del backend.http_requests[:]
        del backend.transcript[:]
        with contextlib.suppress(AttributeError):
            backend.cdn._blobs.clear()


# -- sending interactions ----------------------------------------------------------------


class Harness:
    """Sends interactions from any number of tasks at once; see the module docstring."""

    def __init__(self, env: simcord.Env, tap: Tap) -> None:
        self.env = env
        self.tap = tap
        self.exchanges: list[Exchange] = []
        self._roots: dict[str, dict[str, Any]] = {}

    def _send(
        self,
        kind: str,
        actor: simcord.MemberActor,
        channel_id: int,
        type_: int,
        data: dict[str, Any],
        message: Any = None,
    ) -> Exchange:
        backend = self.env.backend
        record, payload = sc_interactions.base_payload(
            backend,
            type=type_,
            channel_id=channel_id,
            guild_id=actor.guild.id,
            user_id=actor.id,
            data=data,
        )
        if message is not None:
            payload["message"] = dict(serializers.message_payload(backend, message))
            record.source_message_id = message.id
        loop = asyncio.get_running_loop()
        exchange = Exchange(
            kind,
            actor.id,
            channel_id,
            record.id,
            record.token,
            now(),
            acked=loop.create_future(),
            replied=loop.create_future(),
        )
        self.tap.by_id[record.id] = exchange
        self.tap.by_token[record.token] = exchange
        self.exchanges.append(exchange)
        backend.emit("INTERACTION_CREATE", payload)
        return exchange

    def slash(
        self,
        actor: simcord.MemberActor,
        channel: simcord.ChannelHandle,
        name: str,
        kind: str | None = None,
        **options: Any,
    ) -> Exchange:
        """What ``actor.slash(channel, name, **options)`` sends, without waiting."""
        sc_actors._check_actor_channel(actor, channel)
        parts = name.split()
        root = self._roots.get(parts[0])
        if root is None:
            root = self._roots[parts[0]] = sc_actors._resolve_visible_command(
                actor, channel.id, parts[0], AppCommandType.CHAT_INPUT
            )
        leaf, nesting = sc_interactions.walk_to_subcommand(root, parts[1:])
        leaf_options, resolved = sc_interactions.build_options(
            actor, name, leaf, options, channel_id=channel.id
        )
        data: dict[str, Any] = {
            "id": root["id"],
            "name": root["name"],
            "type": root.get("type", AppCommandType.CHAT_INPUT),
            "options": sc_interactions.nest_options(root, nesting, leaf_options),
        }
        if resolved:
            data["resolved"] = resolved
        if root.get("guild_id"):
            data["guild_id"] = root["guild_id"]
        return self._send(
            kind or name, actor, channel.id, InteractionType.APPLICATION_COMMAND, data
        )

    def message(self, channel_id: int, message_id: int) -> Any:
        return self.env.backend.get_message(channel_id, message_id)

    def component(
        self,
        actor: simcord.MemberActor,
        channel_id: int,
        message_id: int,
        custom_id: str,
        value: str | None = None,
        kind: str = "component",
    ) -> Exchange:
        """What ``actor.click`` (or ``actor.select`` with one ``value``) sends."""
        stored = self.message(channel_id, message_id)
        if not can_access_message(self.env, channel_id, stored, actor):
            raise simcord.SetupError("that message is not visible to this user")
        types = (ComponentType.BUTTON,) if value is None else (ComponentType.STRING_SELECT,)
        found = sc_actors._find_component(
            stored.components, types=types, custom_id=custom_id, label=None
        )
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": found["type"]}
        if found.get("id") is not None:
            data["id"] = found["id"]
        if value is not None:
            data["values"] = [value]
        exchange = self._send(
            kind, actor, channel_id, InteractionType.MESSAGE_COMPONENT, data, message=stored
        )
        exchange.custom_id = custom_id
        return exchange

    def reply_components(self, exchange: Exchange) -> list[dict[str, Any]]:
        """The components of the message the bot answered ``exchange`` with."""
        message_id = exchange.reply_message_id
        if message_id is None:
            return []
        try:
            stored = self.message(exchange.channel_id, message_id)
        except Exception:
            return []
        return [c for c in walk_components(stored.components) if c.get("custom_id")]


def move_choices(components: Iterable[dict[str, Any]]) -> list[tuple[str, str | None]]:
    """(custom_id, select value or None) of every move a hand message offers."""
    out: list[tuple[str, str | None]] = []
    for c in components:
        cid = c.get("custom_id", "")
        if cid.startswith("domino:m:") and not c.get("disabled"):
            out.append((cid, None))
        elif cid.startswith("domino:s:") and not c.get("disabled"):
            out += [(cid, str(o["value"])) for o in c.get("options") or []]
    return out


def token_of(custom_id: str) -> tuple[int, int] | None:
    """(deal, history length) of the hand a move button or select belongs to."""
    found = TOKEN.match(custom_id)
    return (int(found[1]), int(found[2])) if found else None


def moved(harness: Harness, click: Exchange) -> bool:
    """Whether the bot answered a move click with the hand past that move (not a refusal
    in plain text, nor the same hand again)."""
    if click.ack_error is not None or click.reply_at is None or click.custom_id is None:
        return False
    token = token_of(click.custom_id)
    if token is None:
        return False
    components = harness.reply_components(click)
    if not any(c["custom_id"].startswith("domino:") for c in components):
        return False
    old = f":{token[0]}.{token[1]}:"
    return not any(
        c["custom_id"].startswith(("domino:m:", "domino:s:")) and old in c["custom_id"]
        for c in components
    )


# -- a table of players -----------------------------------------------------------------


@dataclass
class TableStats:
    games_opened: int = 0
    games_over: int = 0
    moves: int = 0
    stalls: int = 0
    ping_misses: int = 0
    """Turns whose human the bot never pinged within the wait (found by asking around)."""


class Table:
    """One channel: its humans open a game, play it through to the end, open the next.

    A human to move (known from the bot's turn ping, or from their own hand) thinks
    (``think``: seconds, a range) and clicks one of their hand's moves at random: on
    the hand message they have, if it offers moves (the bot refreshes a player's live
    hand when their turn comes, before it pings them), else on a new one (``/domino
    hand``). ``ai`` seats are added with ``/domino addbot``.
    """

    def __init__(
        self,
        harness: Harness,
        channel: simcord.ChannelHandle,
        humans: Sequence[simcord.MemberActor],
        *,
        ai: Sequence[str] = (),
        game: str = "block",
        think: tuple[float, float] = (0.0, 0.0),
        rng: random.Random,
        stop: asyncio.Event,
        wait: float = 60.0,
        turn_wait: float = 10.0,
        on_move: Callable[[Exchange], None] | None = None,
    ) -> None:
        self.h = harness
        self.channel = channel
        self.humans = list(humans)
        self.by_id = {u.id: u for u in humans}
        self.ai = list(ai)
        self.game = game
        self.think = think
        self.rng = rng
        self.stop = stop
        self.wait = wait
        self.turn_wait = turn_wait
        self.on_move = on_move
        self.stats = TableStats()
        self.started = asyncio.Event()
        self.watch = harness.tap.watch(channel.id)
        self.live: dict[int, tuple[Exchange, int]] = {}
        """Each human's hand message: the interaction whose token edits it, its id."""
        self.refresh_wait = 0.0
        """How long a human waits for a refresh that has not come (the bot refreshes a
        hand before it pings its owner, so none is needed)."""
        self.hands_asked = 0
        self.hands_refreshed = 0

    async def run(self) -> None:
        while not self.stop.is_set():
            await self.open()
            self.started.set()
            await self.play()

    async def _ask(self, exchange: Exchange) -> bool:
        ok = await exchange.reply(self.wait)
        if not ok:
            self.stats.stalls += 1
        return ok

    async def open(self) -> None:
        """Open, fill and start a game (a refusal, e.g. a game still on, is ignored)."""
        h, ch, creator = self.h, self.channel, self.humans[0]
        players = len(self.humans) + len(self.ai)
        tables = len(self.watch.tables)
        if not await self._ask(
            h.slash(creator, ch, "domino new", "lobby", game=self.game, players=players, timer=0)
        ):
            return
        # The command's answer may come before its lobby (the answer is a placeholder
        # until the lobby is up): the others join once they see the lobby.
        deadline = now() + self.wait
        while len(self.watch.tables) == tables and now() < deadline:
            await self.watch.changed(deadline - now())
        self.stats.games_opened += 1
        for user in self.humans[1:]:
            await self._ask(h.slash(user, ch, "domino join", "lobby"))
        for level in self.ai:
            await self._ask(h.slash(creator, ch, "domino addbot", "lobby", level=level))
        await self._ask(h.slash(creator, ch, "domino start", "lobby"))

    async def _next_mover(self, since: float) -> simcord.MemberActor | None:
        """The human the bot pinged after ``since`` (None if none within the wait)."""
        deadline = now() + self.turn_wait
        while not self.stop.is_set():
            user = self.watch.ping_after(since)
            if user is not None and user in self.by_id:
                return self.by_id[user]
            if self.watch.status in GAME_OVER:
                return None
            left = deadline - now()
            if left <= 0:
                return None
            await self.watch.changed(min(left, 1.0))
        return None

    async def play(self) -> None:
        since = self.watch.pings[-1][0] if self.watch.pings else 0.0
        hint: simcord.MemberActor | None = None
        guesses = itertools.cycle(self.humans)
        misses = 0
        while not self.stop.is_set():
            user = hint or await self._next_mover(since)
            hint = None
            if user is None:
                if self.stop.is_set():
                    return
                if self.watch.status in GAME_OVER:
                    self.stats.games_over += 1
                    return
                user = next(guesses)  # no ping seen: ask the humans in turn
                misses += 1
                self.stats.ping_misses += 1
                if misses > 2 * len(self.humans):
                    return
            if self.think[1] > 0:
                await asyncio.sleep(self.rng.uniform(*self.think))
                if self.stop.is_set():
                    return
            since = now()
            moves, message_id = await self._live_moves(user.id)
            if moves:
                self.hands_refreshed += 1
            else:
                hand = self.h.slash(user, self.channel, "domino hand", "hand")
                self.hands_asked += 1
                if not await self._ask(hand):
                    continue
                components = self.h.reply_components(hand)
                if not any(c["custom_id"].startswith("domino:") for c in components):
                    self.stats.games_over += 1
                    return  # "no game in this channel": the game is over
                message_id = hand.reply_message_id or 0
                self._keep(user.id, hand)
                moves = move_choices(components)
                if not moves:
                    continue  # not this human's turn (yet): wait for the next ping
            misses = 0
            custom_id, value = self.rng.choice(moves)
            since = now()
            click = self.h.component(
                user,
                self.channel.id,
                message_id,
                custom_id,
                value,
                kind="move",
            )
            click.progress = token_of(custom_id)
            if not await self._ask(click):
                continue
            self._keep(user.id, click)
            click.moved = moved(self.h, click)
            if click.moved:
                self.stats.moves += 1
                if self.on_move is not None:
                    self.on_move(click)
            if move_choices(self.h.reply_components(click)):
                hint = user  # the same human moves again

    def _keep(self, user_id: int, exchange: Exchange) -> None:
        """The hand message ``exchange`` was answered with is the user's live hand now."""
        if exchange.reply_message_id is not None:
            exchange.edited = asyncio.Event()
            self.live[user_id] = (exchange, exchange.reply_message_id)

    async def _live_moves(self, user_id: int) -> tuple[list[tuple[str, str | None]], int]:
        """The moves the user's live hand offers, once the bot has refreshed it for this
        turn (waiting up to :attr:`refresh_wait`); none if it was not."""
        live = self.live.get(user_id)
        if live is None:
            return [], 0
        exchange, message_id = live
        deadline = now() + self.refresh_wait
        while True:
            try:
                stored = self.h.message(self.channel.id, message_id)
            except Exception:
                return [], 0
            components = [c for c in walk_components(stored.components) if c.get("custom_id")]
            moves = move_choices(components)
            left = deadline - now()
            if moves or left <= 0 or exchange.edited is None or self.stop.is_set():
                return moves, message_id
            exchange.edited.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(exchange.edited.wait(), left)


# -- measuring ---------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary_ms(values: Sequence[float]) -> dict[str, float | int | None]:
    ms = [v * 1000 for v in values]
    return {
        "n": len(ms),
        "p50": percentile(ms, 0.5),
        "p95": percentile(ms, 0.95),
        "max": max(ms) if ms else None,
        "mean": statistics.fmean(ms) if ms else None,
    }


def rss_kb(pid: int | str = "self") -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def descendants(pid: int | str = "self") -> list[int]:
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                children = [int(x) for x in f.read().split()]
        except OSError:
            continue
        for child in children:
            out.append(child)
            out += descendants(child)
    return out


class MemorySampler:
    """Resident memory of this process, and of it with its child processes (AI workers)."""

    def __init__(self) -> None:
        self.peak_kb = 0
        self.peak_tree_kb = 0

    def sample(self) -> None:
        own = rss_kb()
        tree = own + sum(rss_kb(p) for p in descendants())
        self.peak_kb = max(self.peak_kb, own)
        self.peak_tree_kb = max(self.peak_tree_kb, tree)

    @staticmethod
    def max_rss_kb() -> int:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


class AiMeter:
    """AI decisions and their CPU time: the service's AI runner's counters if it has one
    (``decisions``, ``cpu_seconds_total``), else its ``ai_player`` wrapped here with
    ``time.thread_time()`` (it runs in a thread)."""

    def __init__(self, bot: Any) -> None:
        self.source = "none"
        self.runner: Any = None
        self._decisions = 0
        self._cpu = 0.0
        games = getattr(bot, "games", None)
        for owner in (games, bot):
            for name in ("ai", "runner", "ai_runner"):
                candidate = getattr(owner, name, None)
                if hasattr(candidate, "decisions") and hasattr(candidate, "cpu_seconds_total"):
                    self.runner = candidate
                    self.source = f"{type(owner).__name__}.{name} counters"
                    return
        player = getattr(games, "ai_player", None)
        if callable(player):

            def timed(*args: Any, **kw: Any) -> Any:
                start = time.thread_time()
                try:
                    return player(*args, **kw)
                finally:
                    self._cpu += time.thread_time() - start
                    self._decisions += 1

            setattr(games, "ai_player", timed)  # noqa: B010 (games may be any object)
            self.source = "GameService.ai_player wrapped (thread_time)"

    def read(self) -> tuple[int, float]:
        if self.runner is not None:
            return int(self.runner.decisions), float(self.runner.cpu_seconds_total)
        return self._decisions, self._cpu


class BotLogCounter(logging.Handler):
    """Counts the bot's warnings and errors (and keeps the first few)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.counts: dict[str, int] = {}
        self.first: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.counts[record.levelname] = self.counts.get(record.levelname, 0) + 1
        if len(self.first) < 5:
            self.first.append(f"{record.levelname} {record.name}: {record.getMessage()[:200]}")


# -- a world to play in ------------------------------------------------------------------


@dataclass
class World:
    env: simcord.Env
    bot: Any
    tap: Tap
    pump: TimerPump
    harness: Harness
    guild: simcord.GuildHandle
    logs: BotLogCounter
    _housekeeping: asyncio.Task[None] | None = None

    async def housekeeping(self, sampler: MemorySampler | None = None) -> None:
        while True:
            await asyncio.sleep(0.5)
            self.pump.housekeeping()
            if sampler is not None:
                sampler.sample()


async def start_world(
    bot: Any,
    *,
    guild_name: str = "Load",
    guild_id: int | None = None,
    build: Callable[[simcord.Env, simcord.GuildHandle], Any] | None = None,
    limits: Limits | None = None,
    **env_options: Any,
) -> World:
    """Start ``bot`` under SimCord (with the :class:`Tap` and the :class:`TimerPump`).

    The guild exists before the bot starts, as on Discord, and so does whatever
    ``build(env, guild)`` adds (SimCord's ids follow from the order of creation, so
    the same steps in a new world give the same ids). Then the commands are synced.
    ``limits``: Discord's rate limits, simulated (none by default, as in SimCord).
    """
    logs = BotLogCounter()
    logging.getLogger().addHandler(logs)
    tap = Tap(limits)
    tap.install()
    env = simcord.Env(bot, check_errors=False, **env_options)
    pump = TimerPump(env)
    guild = env.create_guild(guild_name, id=guild_id)
    if build is not None:
        build(env, guild)
    try:
        await env.start()
    except BaseException:
        tap.uninstall()
        raise
    await bot.tree.sync()
    return World(env, bot, tap, pump, Harness(env, tap), guild, logs)


async def stop_world(world: World) -> None:
    if world._housekeeping is not None:
        world._housekeeping.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await world._housekeeping
    try:
        with contextlib.suppress(Exception):
            await world.bot.shutdown()
        await world.env.shutdown()
        world.pump.stop()
    finally:
        world.tap.uninstall()
        logging.getLogger().removeHandler(world.logs)
