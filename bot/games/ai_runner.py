"""AI decisions off the event loop: a pool of worker processes behind a bounded queue.

An AI decision is pure CPU work (the hard level searches for ~150 ms). Run in a
thread it would share the default executor with image rendering and fight the
event loop for the GIL; run here it gets a process of its own::

    runner = AiRunner()                      # choose_move, workers from the cores
    decision = await runner.decide(seen, "hard", rng)
    decision.move, decision.cpu_seconds
    ...
    await runner.close()

* **The pool** (:class:`concurrent.futures.ProcessPoolExecutor`) is created on the
  first decision (or by :meth:`AiRunner.start`), from a ``forkserver`` context
  (``spawn`` where there is none), never ``fork``: the bot's process runs threads
  (aiosqlite, executors), and forking it is unsafe. The fork server preloads the
  engine's AI, so a new worker starts with it imported.
* **Priority**: workers run at a lower scheduling priority (``nice`` +10), so the
  event loop and the image threads get a core first when the machine is busy; a
  decision keeps its strength (its budget is work, not time), it only waits.
* **The queue**: at most ``queue`` decisions wait in the pool or run at once; the
  next one waits (asynchronously, the event loop stays free) for a slot, first come
  first served. A cancelled :meth:`AiRunner.decide` gives its slot back at once if
  its decision had not started, else when the worker is done with it (the bound
  counts the work in the pool, and a running search cannot be interrupted).
* **A worker that dies** (killed, out of memory) breaks the pool: the pool is
  rebuilt and the decision tried once more; a second failure is raised
  (``BrokenProcessPool``). Errors of the player itself (a ``ValueError``) are raised
  as they are, with no retry.
* **The rng**: the ``random.Random`` travels to the worker by pickling; its state
  after the decision comes back and is set on the caller's ``rng``, so the runner
  draws exactly the numbers a direct ``player(seen, level, rng)`` call would.

The player must be picklable: a module-level function, or a
``functools.partial`` of one (e.g. ``partial(choose_move, settings=...)``).

**Game reviews** (:meth:`AiRunner.review`, issue 40) run in the same pool and share its
queue: a review values every decision of a finished deal (seconds of CPU), so it must
never run on the event loop. The record travels to the worker, which replays it and
reviews the deal (:func:`bot.engine.review.review_deal`).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import pickle
import random
import signal
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from typing import Any

from bot.engine import Move
from bot.engine.ai import choose_move
from bot.engine.record import load_record
from bot.engine.review import DealReview, ReviewSettings, review_deal
from bot.engine.view import PlayerView

AiPlayer = Callable[[PlayerView, str, random.Random], Move]
"""A player: the move ``level`` makes for the seat of a view, drawing from ``rng``."""

PRELOAD = ("bot.engine.ai", "bot.engine.review", __name__)
"""Modules the fork server imports once, so that no worker pays for them."""

_Outcome = tuple[Move, float, tuple[Any, ...]]
"""What a worker sends back: the move, its CPU seconds, the rng's state after it."""


@dataclass(frozen=True, slots=True)
class Decision:
    """An AI decision: the move, and the CPU time it took where it was computed."""

    move: Move
    cpu_seconds: float
    """CPU time of the deciding thread (``time.thread_time``) in the worker; waiting
    for a slot, for a core or for the pickling is not counted."""


def cpu_cores() -> int:
    """The cores this process may run on."""
    count: Callable[[], int | None] | None = getattr(os, "process_cpu_count", None)
    if count is not None:  # Python 3.13+
        return count() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def default_workers(cores: int | None = None) -> int:
    """Worker processes for ``cores`` cores (default: this machine's): one per core
    but one, at least one.

    The core left over is for the bot itself: the event loop (which also pickles
    every view sent to a worker) and the image threads. Measured on 2 cores with a
    simulated busy bot (handlers using half a core, an image thread, 8 hard-AI seats
    deciding without pause): one worker made ~5.5 hard decisions a second while an
    image took as long as with no AI at all (43 ms) and the loop's 10 ms ticks were
    late by 15 ms at p95; two workers made ~8.3 a second, but images took twice as
    long (92 ms) and the loop's ticks were late by 22 ms at p95 (44 ms at most).
    The search's safety net counts CPU time, so more workers than free cores do not
    make decisions stronger or weaker, only the rest of the bot slower; on a
    machine that mostly runs AI games, pass ``workers`` explicitly.
    """
    return max(1, (cores if cores is not None else cpu_cores()) - 1)


def _decide(player: AiPlayer, seen: PlayerView, level: str, rng: random.Random) -> _Outcome:
    """In the worker: one decision, its CPU time and the rng's state after it."""
    start = time.thread_time()
    move = player(seen, level, rng)
    return move, time.thread_time() - start, rng.getstate()


@dataclass(frozen=True, slots=True)
class Reviewed:
    """A deal's review, and the CPU time it took in the worker."""

    review: DealReview
    cpu_seconds: float


def _review(
    record: dict[str, Any], deal: int, seed: int | str, settings: ReviewSettings | None
) -> tuple[DealReview, float]:
    """In the worker: replay ``record`` and review its deal ``deal`` (from 1)."""
    start = time.thread_time()
    review = review_deal(load_record(record), deal, random.Random(seed), settings)
    return review, time.thread_time() - start


WORKER_NICENESS = 10
"""How much lower the workers' scheduling priority is than the bot's (``nice``)."""


def _worker_started() -> None:
    """In a new worker: Ctrl-C in a terminal reaches the whole process group, but the
    bot's process decides when its workers stop (:meth:`AiRunner.close`).

    The worker also lowers its priority: when the bot's event loop or its image
    threads need a core the AI is using, they get it first, and the search waits.
    A decision is as strong as ever (the search counts its work, and its safety net
    counts its own CPU time, not the clock); it only takes longer on a busy machine.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError, AttributeError):  # AttributeError: no os.nice
        os.nice(WORKER_NICENESS)


def _context(player: AiPlayer) -> BaseContext:
    """A start method that does not fork the bot's process (see the module docstring)."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    module = getattr(player, "__module__", None)
    extra = [module] if isinstance(module, str) and module not in ("__main__", *PRELOAD) else []
    # The fork server is one per process: this takes effect when it first starts.
    ctx.set_forkserver_preload([*PRELOAD, *extra])
    return ctx


class AiRunner:
    """Runs AI decisions in worker processes, at most ``queue`` at a time.

    ``player`` decides (default :func:`bot.engine.ai.choose_move`); it must be
    picklable. ``workers``: processes in the pool (``None``: :func:`default_workers`;
    ``0``: no processes, one dedicated thread of this process instead, for where
    multiprocessing is unavailable). ``queue``: decisions waiting in the pool or
    running at once (default: twice the workers, so a worker finds its next
    decision ready); further ones wait their turn in :meth:`decide`.

    Use it from one event loop. Counters for benchmarks: :attr:`decisions`,
    :attr:`cpu_seconds_total`, :attr:`depth`, :attr:`waiting`.
    """

    def __init__(
        self,
        player: AiPlayer = choose_move,
        *,
        workers: int | None = None,
        queue: int | None = None,
    ) -> None:
        if workers is None:
            workers = default_workers()
        if workers < 0:
            raise ValueError(f"workers must be 0 or more, not {workers}")
        if queue is None:
            queue = 2 * max(1, workers)
        if queue < 1:
            raise ValueError(f"queue must be 1 or more, not {queue}")
        if workers:
            try:
                pickle.dumps(player)
            except Exception as e:
                raise TypeError(
                    f"the AI player {player!r} cannot be sent to a worker process "
                    "(use a module-level function)"
                ) from e
        self.player = player
        self.workers = workers
        self.queue = queue
        self.decisions = 0
        """Decisions made."""
        self.cpu_seconds_total = 0.0
        """Their CPU time in all (the sum of :attr:`Decision.cpu_seconds`)."""
        self.reviews = 0
        """Game reviews made (:meth:`review`)."""
        self._slots = asyncio.Semaphore(queue)
        self._held = 0
        self._waiting = 0
        self._executor: Executor | None = None
        self._closed = False

    @property
    def depth(self) -> int:
        """Decisions asked for and not yet answered: running, waiting in the pool, or
        waiting for a slot (plus cancelled ones still running in a worker)."""
        return self._held + self._waiting

    @property
    def waiting(self) -> int:
        """Decisions waiting for a slot (the queue is full)."""
        return self._waiting

    @property
    def closed(self) -> bool:
        return self._closed

    async def start(self) -> None:
        """Create the pool and start one worker now rather than on the first decision
        (optional: a warm-up at start-up; it takes a fraction of a second)."""
        self._check_open()
        await asyncio.wrap_future(self._pool().submit(time.thread_time))

    async def decide(self, seen: PlayerView, level: str, rng: random.Random) -> Decision:
        """The player's move for ``seen`` at ``level``, computed in the pool.

        ``rng`` is left in the state the player left it in. Waits for a slot when
        ``queue`` decisions are already in hand. Raises what the player raises,
        ``BrokenProcessPool`` if the pool broke twice, ``RuntimeError`` once closed.
        """
        outcome: _Outcome = await self._job(_decide, self.player, seen, level, rng)
        move, cpu, state = outcome
        rng.setstate(state)
        self.decisions += 1
        self.cpu_seconds_total += cpu
        return Decision(move, cpu)

    async def review(
        self,
        record: dict[str, Any],
        deal: int,
        seed: int | str,
        settings: ReviewSettings | None = None,
    ) -> Reviewed:
        """The review of finished deal ``deal`` (from 1) of the match ``record`` (a match
        record, :func:`bot.engine.record.match_record`), computed in the pool: the same
        for the same ``seed``. Waits for a slot like :meth:`decide`; raises what the
        review raises (``NotReviewable``, ``RecordError``)."""
        outcome: tuple[DealReview, float] = await self._job(_review, record, deal, seed, settings)
        self.reviews += 1
        return Reviewed(*outcome)

    async def close(self) -> None:
        """Shut the pool down without waiting: decisions not started are cancelled
        (their :meth:`decide` raises ``RuntimeError``), running ones finish in their
        worker, which then exits. Idempotent; :meth:`decide` raises afterwards."""
        if self._closed:
            return
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    # -- internals ----------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("the AI runner is closed")

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.workers == 0:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="dominobot-ai")
            else:
                self._executor = ProcessPoolExecutor(
                    self.workers, mp_context=_context(self.player), initializer=_worker_started
                )
        return self._executor

    def _discard(self, executor: Executor) -> None:
        """Forget a broken pool (the next decision builds a new one)."""
        if self._executor is executor:
            self._executor = None
        executor.shutdown(wait=False, cancel_futures=True)

    async def _job(self, job: Callable[..., Any], *args: Any) -> Any:
        """``job(*args)`` in the pool, once a slot is free (see :meth:`decide`)."""
        self._check_open()
        self._waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self._waiting -= 1
        self._held += 1
        slot = _Slot(self)
        try:
            self._check_open()
            return await self._run(slot, job, *args)
        finally:
            slot.free()

    async def _run(self, slot: _Slot, job: Callable[..., Any], *args: Any) -> Any:
        for attempt in (1, 2):
            executor = self._pool()
            try:
                future = executor.submit(job, *args)
                slot.future = future
                return await asyncio.wrap_future(future)
            except BrokenProcessPool:
                self._discard(executor)
                if attempt == 2:
                    raise
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if self._closed and (task is None or not task.cancelling()):
                    raise RuntimeError("the AI runner closed before deciding") from None
                raise
            self._check_open()
        raise AssertionError("unreachable")


class _Slot:
    """One decision's place in the queue, given back exactly once: when the decision
    is over, or, if it was abandoned while running, when its worker is done."""

    def __init__(self, runner: AiRunner) -> None:
        self.runner = runner
        self.future: Future[Any] | None = None
        self._loop = asyncio.get_running_loop()
        self._freed = False

    def free(self) -> None:
        future = self.future
        if future is None or future.done():
            self._release()
        else:  # abandoned while a worker runs it
            future.add_done_callback(self._done)

    def _done(self, _: Future[Any]) -> None:  # any thread
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody is waiting any more
            self._loop.call_soon_threadsafe(self._release)

    def _release(self) -> None:
        if not self._freed:
            self._freed = True
            self.runner._held -= 1
            self.runner._slots.release()
