"""The pacer: Discord's global budget of counted REST calls, shared out in order.

Discord lets a bot token make 50 REST calls a second in all, every shard and process
together; calls on an interaction's own routes (its callback, followups and original
response) are not counted, and the bot sends the table of a game through those whenever
it can (``cogs/domino/carriers.py``). Every other call (``bot.http``: channel routes,
threads, fetches) is counted, and goes through one :class:`Pacer` per process:

- **A token bucket** of ``rate`` calls a second (this process's share of the token's
  budget, ``GLOBAL_CALLS_PER_S`` in ``bot/settings.py``) holding at most a tenth of a
  second's calls, so two processes at their shares stay under the token's limit in
  every second.
- **In order of need**: a call waits with the :data:`PRIORITY` of the code that makes it
  (:class:`Priority`: the table and ping of a human's turn first, cosmetic edits and
  deletions last); among calls of one priority the channels take turns, so one busy
  channel never starves the others.
- **Discord's per-channel limit**: at most :data:`CHANNEL_POSTS` new messages in a
  channel per :data:`CHANNEL_WINDOW` seconds; a channel at its limit waits, the others
  go on.
- **A global 429 slows it down**: the pacer pauses for the ``Retry-After`` Discord gave
  and runs at three quarters of its rate, recovering over :data:`RECOVERY` seconds.

Coalescing belongs to the callers: the announcer's worker for a game merges every change
that arrives while one of its calls waits here, so a message is edited once for all of
them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

import aiohttp

log = logging.getLogger(__name__)

CHANNEL_POSTS = 5
CHANNEL_WINDOW = 5.0
"""Discord's limit on new messages in one channel: 5 per 5 seconds."""
RECOVERY = 60.0
"""Seconds a slowed-down pacer takes to get back to its full rate."""
NAP = 0.25
"""The longest the pacer sleeps before it looks at its queue again (seconds)."""
SLOWED = 0.75
"""The share of its rate a pacer keeps after a global 429."""


class Priority(IntEnum):
    """What a counted call is for; lower goes first."""

    TURN = 0
    """The table and the ping of a human's turn: someone waits for it."""
    NORMAL = 1
    """Summaries, lobbies, commands' own calls."""
    COSMETIC = 2
    """Edits nobody waits for and deletions of old messages."""


PRIORITY: ContextVar[Priority] = ContextVar("dominobot_call_priority", default=Priority.NORMAL)
"""The priority of the counted calls the current task makes (:func:`priority`)."""


@contextlib.contextmanager
def priority(level: Priority) -> Iterator[None]:
    """Make the counted calls inside the block with this priority."""
    token = PRIORITY.set(level)
    try:
        yield
    finally:
        PRIORITY.reset(token)


@dataclass(eq=False, slots=True)
class _Waiter:
    channel: int | None
    post: bool
    granted: bool = False


@dataclass(slots=True)
class PacerStats:
    """What went through the pacer (for ``/domino about``, tests and benchmarks)."""

    calls: int = 0
    waited: float = 0.0
    """Seconds calls spent waiting, summed."""
    longest_wait: float = 0.0
    global_429s: int = 0
    by_priority: dict[Priority, int] = field(default_factory=dict)


class Pacer:
    """One process's share of the token's counted calls (see the module's text)."""

    def __init__(
        self,
        rate: float,
        *,
        channel_posts: int = CHANNEL_POSTS,
        channel_window: float = CHANNEL_WINDOW,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if not rate > 0:
            raise ValueError(f"a pacer's rate is a positive number of calls a second, not {rate}")
        self.nominal = float(rate)
        self.rate = float(rate)
        self.capacity = max(1.0, self.nominal / 10)
        self.channel_posts = channel_posts
        self.channel_window = channel_window
        self.clock = clock or _monotonic
        self.stats = PacerStats()
        self._tokens = self.capacity
        self._filled_at: float | None = None
        self._time = 0.0
        """The pacer's own time: what the clock says has passed, or what its sleeps say
        (a simulated Discord may freeze the clock while sleeps run in real time)."""
        self._read: float | None = None
        self._paused_until = 0.0
        self._slowed_at: float | None = None
        self._queues: list[OrderedDict[int | None, deque[_Waiter]]] = [
            OrderedDict() for _ in Priority
        ]
        self._posts: dict[int, deque[float]] = {}

    # -- the callers' side -------------------------------------------------------------

    async def take(self, channel: int | None = None, *, post: bool = False) -> None:
        """Wait for a counted call's turn (``post``: it creates a message in ``channel``).

        Every waiting call naps until the next call may go, then serves the queue in its
        order (for itself or for others, whose naps end at the same moment): no task of
        the pacer's own, only sleeps, which a simulated Discord recognizes as waits.
        """
        level = PRIORITY.get()
        if not self._waiting() and self._grantable(channel, post):
            self._grant(channel, post)
            self._count(level, 0.0)
            return
        waiter = _Waiter(channel, post)
        self._queues[level].setdefault(channel, deque()).append(waiter)
        started = self._now()
        try:
            while not waiter.granted:
                delay = self._serve()
                if not waiter.granted:
                    await self._sleep(delay)
        except asyncio.CancelledError:
            if not waiter.granted:
                self._drop(level, waiter)
            raise
        self._count(level, self._now() - started)

    def limited(self, retry_after: float, *, scope: str | None) -> None:
        """Discord answered 429: a global one pauses and slows the pacer down."""
        if scope != "global":
            return
        now = self._now()
        self.stats.global_429s += 1
        self._paused_until = max(self._paused_until, now + max(retry_after, 0.0))
        self.rate = max(self._current_rate(now) * SLOWED, self.nominal / 10)
        self._slowed_at = now
        log.warning(
            "Discord's global rate limit was hit: pausing %.2f s, then %.1f calls/s",
            retry_after,
            self.rate,
        )

    # -- the schedule --------------------------------------------------------------------

    def _waiting(self) -> bool:
        return any(queue for queue in self._queues)

    def _current_rate(self, now: float) -> float:
        if self._slowed_at is None:
            return self.nominal
        share = min(1.0, (now - self._slowed_at) / RECOVERY)
        rate = self.rate + (self.nominal - self.rate) * share
        if share >= 1.0:
            self._slowed_at = None
            self.rate = self.nominal
        return rate

    def _refill(self, now: float) -> None:
        elapsed = 0.0 if self._filled_at is None else max(now - self._filled_at, 0.0)
        rate = self._current_rate(now)
        self._tokens = min(self.capacity, self._tokens + elapsed * rate)
        self._filled_at = now

    def _channel_free_at(self, channel: int | None, now: float) -> float:
        """When ``channel`` may take a new message (now, or later)."""
        if channel is None:
            return now
        posts = self._posts.get(channel)
        if not posts:
            return now
        while posts and posts[0] <= now - self.channel_window:
            posts.popleft()
        if len(posts) < self.channel_posts:
            return now
        return posts[0] + self.channel_window

    def _grantable(self, channel: int | None, post: bool) -> bool:
        now = self._now()
        if now < self._paused_until:
            return False
        self._refill(now)
        if self._tokens < 1.0:
            return False
        return not post or self._channel_free_at(channel, now) <= now

    def _grant(self, channel: int | None, post: bool) -> None:
        self._tokens -= 1.0
        if post and channel is not None:
            self._posts.setdefault(channel, deque()).append(self._now())

    def _count(self, level: Priority, waited: float) -> None:
        stats = self.stats
        stats.calls += 1
        stats.waited += waited
        stats.longest_wait = max(stats.longest_wait, waited)
        stats.by_priority[level] = stats.by_priority.get(level, 0) + 1

    def _next(self, now: float) -> tuple[Priority, _Waiter] | float:
        """The waiter to serve next, or how long until one of them may go."""
        soonest = float("inf")
        for level in Priority:
            queue = self._queues[level]
            for channel in list(queue):
                waiters = queue[channel]
                first = waiters[0]
                free_at = self._channel_free_at(channel, now) if first.post else now
                if free_at <= now:
                    waiters.popleft()
                    if waiters:
                        queue.move_to_end(channel)  # the channels take turns
                    else:
                        del queue[channel]
                    return level, first
                soonest = min(soonest, free_at)
        return soonest - now

    def _serve(self) -> float:
        """Let every queued call go that may go now, in order; how long until the next may."""
        now = self._now()
        if now < self._paused_until:
            return self._paused_until - now
        self._refill(now)
        while True:
            if self._tokens < 1.0:
                return (1.0 - self._tokens) / self._current_rate(now)
            chosen = self._next(now)
            if isinstance(chosen, float):
                return chosen
            _level, waiter = chosen
            self._grant(waiter.channel, waiter.post)
            waiter.granted = True

    def _now(self) -> float:
        """The pacer's time (seconds): it moves with the clock, never backwards."""
        reading = self.clock()
        if self._read is not None:
            self._time += max(reading - self._read, 0.0)
        self._read = reading
        return self._time

    async def _sleep(self, seconds: float) -> None:
        """Nap until a call may go (at most :data:`NAP` at a time, so that a new call of a
        higher priority or a 429 is looked at soon). A nap counts as that much time
        passed, whatever the clock says."""
        seconds = min(max(seconds, 0.001), NAP)
        before = self._now()
        await asyncio.sleep(seconds)
        passed = self._now() - before
        self._time += max(seconds - passed, 0.0)

    def _drop(self, level: Priority, waiter: _Waiter) -> None:
        queue = self._queues[level]
        waiters = queue.get(waiter.channel)
        if waiters is not None and waiter in waiters:
            waiters.remove(waiter)
            if not waiters:
                del queue[waiter.channel]


Request = Callable[..., Awaitable[Any]]


def paced(request: Request, pacer: Pacer) -> Request:
    """``request`` (discord.py's ``HTTPClient.request``) with every call paced.

    Every call of ``bot.http`` is counted by Discord (interactions use their own
    webhook routes, not this client). A 429 that reaches us is reported to the pacer.
    """

    async def paced_request(route: Any, **kwargs: Any) -> Any:
        post = route.method == "POST" and route.path == "/channels/{channel_id}/messages"
        await pacer.take(getattr(route, "channel_id", None), post=post)
        try:
            return await request(route, **kwargs)
        except Exception as error:
            if getattr(error, "status", None) == 429:
                _limited(pacer, getattr(getattr(error, "response", None), "headers", None) or {})
            raise

    return paced_request


def trace(pacer: Pacer) -> aiohttp.TraceConfig:
    """An aiohttp trace that tells the pacer of every global 429 Discord answers
    (discord.py waits those out and retries by itself, so they never reach
    :func:`paced`); for ``Client(http_trace=...)``."""
    config = aiohttp.TraceConfig()

    async def on_request_end(
        _session: aiohttp.ClientSession, _context: Any, params: aiohttp.TraceRequestEndParams
    ) -> None:
        if params.response.status == 429:
            _limited(pacer, params.response.headers)

    config.on_request_end.append(on_request_end)
    return config


def _monotonic() -> float:
    """The monotonic clock, looked up at each call (a simulator may replace it)."""
    return time.monotonic()


def _limited(pacer: Pacer, headers: Any) -> None:
    """Tell ``pacer`` of the 429 these response headers came with."""
    scope = headers.get("X-RateLimit-Scope")
    try:
        seconds = float(headers.get("Retry-After"))
    except (TypeError, ValueError):
        seconds = 1.0
    pacer.limited(seconds, scope=str(scope).lower() if scope is not None else None)


__all__ = ["PRIORITY", "Pacer", "PacerStats", "Priority", "paced", "priority", "trace"]
