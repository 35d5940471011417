"""Real time for the simulated world: SimCord's clock only moves when it is told to.

SimCord's clock starts at the same instant in every new world. At the start the
playground jumps it to the wall clock (so dates, turn timers and the idle limit agree
with the games an earlier run saved); then a background task moves it on to the wall
clock every half second, so turn timers fire as on Discord. (Following the wall clock
rather than adding up intervals means no drift, and a laptop's sleep passes as it
would on Discord.)

Two things about SimCord's preview shape this:

- The page polls the server, but the server only shows what it last *published*: it
  republishes after each browser action, otherwise only when asked
  (``Preview.refresh``). A refresh also invalidates any click the page is about to
  send (a click names the revision it saw), so the clock refreshes only when the bot
  really did something while time moved: when it called Discord's API.
- Advancing time and a browser action are both operations on the world, and SimCord
  refuses one that starts while the other runs; a refused browser action leaves the
  page unsure of the outcome, and it stops. So actions and ticks take turns, through
  one lock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

import simcord

if TYPE_CHECKING:
    from simcord.preview import Preview

log = logging.getLogger(__name__)

TICK_SECONDS = 0.5


class Refreshable(Protocol):
    """What the clock needs of the preview: republishing every open page."""

    async def refresh(self) -> None: ...


class RealTimeClock:
    """Keeps ``env``'s virtual clock on the wall clock (it never goes backwards)."""

    def __init__(
        self, env: simcord.Env, *, wall: Callable[[], datetime] = lambda: datetime.now(UTC)
    ) -> None:
        self.env = env
        self.preview: Refreshable | None = None
        self.lock = asyncio.Lock()
        self._wall = wall
        # Were the wall clock behind SimCord's start, time still moves as fast as it.
        self._lead = max(timedelta(0), env.now() - wall())
        self._stale = False

    def attach(self, preview: Preview) -> None:
        """Refresh ``preview`` when the bot acts on its own; run its actions between ticks.

        The preview has no public hook for an action's start, so its one entry point
        for browser actions (``Preview._action``, SimCord 3.2) is wrapped to take the
        clock's lock; ``tests/playground`` checks that this still holds.
        """
        self.preview = preview
        act = preview._action

        async def one_at_a_time(context_id: str | None, body: Any) -> dict[str, Any]:
            async with self.lock:
                return await act(context_id, body)

        preview._action = one_at_a_time  # type: ignore[method-assign]

    async def catch_up(self) -> None:
        """The first tick: jump from SimCord's starting instant to now."""
        await self.tick()

    async def tick(self) -> bool:
        """Advance to the wall clock's time; True if the bot acted meanwhile.

        Then the pages are republished (once the preview is attached).
        """
        async with self.lock:
            behind = (self._wall() + self._lead - self.env.now()).total_seconds()
            if behind > 0:
                calls = len(self.env.http_requests)
                try:
                    await self.env.advance_time(behind)
                except TimeoutError:  # what was done is kept; the next tick goes on
                    log.warning("the bot did not settle while time advanced")
                self._stale = self._stale or len(self.env.http_requests) > calls
            if not self._stale:
                return False
            if self.preview is not None:
                await self.preview.refresh()
            self._stale = False
            return True

    async def run(self, interval: float = TICK_SECONDS) -> None:
        """Tick until cancelled; a failing tick is logged, never fatal."""
        while True:
            await asyncio.sleep(interval)
            try:
                await self.tick()
            except simcord.SetupError as e:  # e.g. the preview closed mid-tick
                log.warning("the playground clock skipped a tick: %s", e)
            except Exception:
                log.exception("the playground clock failed to advance")
