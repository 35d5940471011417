"""The AI runner: decisions in worker processes (real ones), the same as in-process,
behind a bounded queue, surviving a dead worker, and closing cleanly.

Coordination goes through files and the runner's counters (see
``ai_runner_support``), never through timings."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager, contextmanager
from functools import partial
from pathlib import Path

import pytest
from ai_runner_support import gated_player, log_lines, positions

from bot.engine import view
from bot.engine.ai import SearchSettings, choose_move
from bot.games.ai_runner import WORKER_NICENESS, AiRunner, Decision, default_workers

# A budget, not the clock, ends these searches: the same move in any process.
SMALL_HARD = SearchSettings(work=15_000, worlds=10_000, seconds=600.0)


async def until(check: Callable[[], bool]) -> None:
    """Let the event loop run until ``check()`` holds (or fail, not hang)."""
    for _ in range(3000):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never held")


@asynccontextmanager
async def running(runner: AiRunner) -> AsyncIterator[AiRunner]:
    try:
        yield runner
    finally:
        await runner.close()


@contextmanager
def gates(folder: Path) -> Iterator[Callable[[str], None]]:
    """``open_gate(level)`` lets a gated player go on; every gate opens at the end,
    so no worker is left waiting whatever happened."""

    def open_gate(level: str) -> None:
        Path(folder, level).touch()

    try:
        yield open_gate
    finally:
        for level in "abcdefgh":
            open_gate(level)


def starts(folder: Path) -> list[str]:
    return [line for line in log_lines(str(folder)) if line.startswith("start")]


@pytest.mark.parametrize("workers", [1, 0], ids=["processes", "thread"])
async def test_decisions_are_the_in_process_ones(workers: int):
    player = partial(choose_move, settings=SMALL_HARD)
    async with running(AiRunner(player, workers=workers)) as runner:
        made = 0
        for n, state in enumerate(positions()):
            seen = view(state, state.deal.turn)
            legal = state.legal_moves()
            for level in ("easy", "normal", "hard"):
                rng, local_rng = random.Random(n), random.Random(n)
                decision = await runner.decide(seen, level, rng)
                move = player(seen, level, local_rng)
                assert decision.move == move
                assert decision.move.canonical() in legal
                assert decision.move in set(legal)  # its hash is this process's
                if len(move.placements) == 1 and not move.is_lead:
                    assert decision.move is move  # the engine's shared instance
                assert rng.getstate() == local_rng.getstate()  # the rng moved on alike
                made += 1
        assert runner.decisions == made


async def test_a_hard_decision_reports_its_cpu_time():
    state = positions()[0]
    async with running(AiRunner(workers=1)) as runner:
        decision = await runner.decide(view(state, state.deal.turn), "hard", random.Random(1))
        assert isinstance(decision, Decision)
        assert decision.move in state.legal_moves()
        assert decision.cpu_seconds > 0
        assert runner.cpu_seconds_total == decision.cpu_seconds
        assert runner.decisions == 1
        assert runner.depth == 0


async def test_the_queue_bound_makes_the_next_decision_wait(tmp_path: Path):
    seen = view(positions()[0], positions()[0].deal.turn)
    runner = AiRunner(partial(gated_player, str(tmp_path)), workers=2, queue=1)
    with gates(tmp_path) as open_gate:
        async with running(runner):
            first = asyncio.create_task(runner.decide(seen, "a", random.Random(1)))
            await until(lambda: len(starts(tmp_path)) == 1)
            second = asyncio.create_task(runner.decide(seen, "b", random.Random(2)))
            await asyncio.sleep(0)  # the second decision asks for a slot
            # A second worker is idle, but the queue holds one decision.
            assert runner.waiting == 1
            assert runner.depth == 2
            assert not second.done()
            open_gate("a")
            await first
            await until(lambda: len(starts(tmp_path)) == 2)
            open_gate("b")
            await second
            assert [line.split()[:2] for line in log_lines(str(tmp_path))] == [
                ["start", "a"],
                ["end", "a"],
                ["start", "b"],
                ["end", "b"],
            ]
            assert runner.depth == 0
            assert runner.decisions == 2


async def test_a_cancelled_decision_gives_its_slot_back(tmp_path: Path):
    seen = view(positions()[0], positions()[0].deal.turn)
    runner = AiRunner(partial(gated_player, str(tmp_path)), workers=1, queue=1)
    with gates(tmp_path) as open_gate:
        async with running(runner):
            running_one = asyncio.create_task(runner.decide(seen, "a", random.Random(1)))
            await until(lambda: len(starts(tmp_path)) == 1)
            waiting_one = asyncio.create_task(runner.decide(seen, "b", random.Random(2)))
            await asyncio.sleep(0)
            assert runner.depth == 2
            waiting_one.cancel()  # cancelled while waiting for a slot
            with pytest.raises(asyncio.CancelledError):
                await waiting_one
            assert (runner.depth, runner.waiting) == (1, 0)
            running_one.cancel()  # cancelled while its worker runs it
            with pytest.raises(asyncio.CancelledError):
                await running_one
            assert runner.depth == 1  # the worker is still busy with it
            open_gate("a")
            await until(lambda: runner.depth == 0)  # given back when the worker is done
            open_gate("c")
            decision = await runner.decide(seen, "c", random.Random(3))
            assert decision.move in seen.legal_moves
            assert runner.depth == 0
            assert runner.decisions == 1


async def test_a_killed_worker_is_replaced_and_the_decision_retried(tmp_path: Path):
    seen = view(positions()[0], positions()[0].deal.turn)
    runner = AiRunner(partial(gated_player, str(tmp_path)), workers=1)
    with gates(tmp_path) as open_gate:
        async with running(runner):
            task = asyncio.create_task(runner.decide(seen, "a", random.Random(1)))
            await until(lambda: len(starts(tmp_path)) == 1)
            victim = int(starts(tmp_path)[0].split()[2])
            os.kill(victim, signal.SIGKILL)
            await until(lambda: len(starts(tmp_path)) == 2)  # tried again
            replacement = int(starts(tmp_path)[1].split()[2])
            assert replacement != victim
            open_gate("a")
            decision = await task
            assert decision.move in seen.legal_moves
            assert runner.decisions == 1
            assert runner.depth == 0


async def test_workers_leave_ctrl_c_to_the_bot(tmp_path: Path):
    seen = view(positions()[0], positions()[0].deal.turn)
    runner = AiRunner(partial(gated_player, str(tmp_path)), workers=1)
    with gates(tmp_path) as open_gate:
        async with running(runner):
            task = asyncio.create_task(runner.decide(seen, "a", random.Random(1)))
            await until(lambda: len(starts(tmp_path)) == 1)
            os.kill(int(starts(tmp_path)[0].split()[2]), signal.SIGINT)
            open_gate("a")
            assert (await task).move in seen.legal_moves
            assert len(starts(tmp_path)) == 1  # the worker went on: no retry was needed


async def test_workers_give_the_bot_the_core_first(tmp_path: Path):
    seen = view(positions()[0], positions()[0].deal.turn)
    runner = AiRunner(partial(gated_player, str(tmp_path)), workers=1)
    with gates(tmp_path) as open_gate:
        async with running(runner):
            task = asyncio.create_task(runner.decide(seen, "a", random.Random(1)))
            await until(lambda: len(starts(tmp_path)) == 1)
            worker = int(starts(tmp_path)[0].split()[2])
            ours = os.getpriority(os.PRIO_PROCESS, 0)
            assert os.getpriority(os.PRIO_PROCESS, worker) == min(19, ours + WORKER_NICENESS)
            open_gate("a")
            assert (await task).move in seen.legal_moves


async def test_a_worker_that_dies_twice_fails_the_decision_not_the_runner(tmp_path: Path):
    seen = view(positions()[0], positions()[0].deal.turn)
    runner = AiRunner(partial(gated_player, str(tmp_path)), workers=1)
    with gates(tmp_path) as open_gate:
        async with running(runner):
            with pytest.raises(BrokenProcessPool):
                await runner.decide(seen, "die", random.Random(1))
            assert runner.depth == 0
            open_gate("a")
            decision = await runner.decide(seen, "a", random.Random(1))
            assert decision.move in seen.legal_moves


async def test_errors_of_the_player_are_raised_as_they_are():
    seen = view(positions()[0], positions()[0].deal.turn)
    async with running(AiRunner(workers=1)) as runner:
        with pytest.raises(ValueError, match="unknown AI level"):
            await runner.decide(seen, "grandmaster", random.Random(1))
        assert runner.depth == 0
        assert runner.decisions == 0


async def test_close_is_idempotent_and_refuses_later_decisions(tmp_path: Path):
    seen = view(positions()[0], positions()[0].deal.turn)
    runner = AiRunner(partial(gated_player, str(tmp_path)), workers=1, queue=1)
    with gates(tmp_path) as open_gate:
        first = asyncio.create_task(runner.decide(seen, "a", random.Random(1)))
        await until(lambda: len(starts(tmp_path)) == 1)
        second = asyncio.create_task(runner.decide(seen, "b", random.Random(2)))
        await asyncio.sleep(0)
        assert runner.waiting == 1
        await runner.close()
        await runner.close()
        assert runner.closed
        open_gate("a")
        assert (await first).move in seen.legal_moves  # a running decision finishes
        with pytest.raises(RuntimeError, match="closed"):
            await second  # a waiting one is refused
        with pytest.raises(RuntimeError, match="closed"):
            await runner.decide(seen, "c", random.Random(3))
        assert starts(tmp_path) == starts(tmp_path)[:1]
        assert runner.depth == 0


async def test_close_cancels_decisions_not_started(tmp_path: Path):
    # In a thread (workers=0) a decision submitted behind a running one surely waits
    # in the executor, where closing cancels it.
    seen = view(positions()[0], positions()[0].deal.turn)
    runner = AiRunner(partial(gated_player, str(tmp_path)), workers=0, queue=2)
    with gates(tmp_path) as open_gate:
        first = asyncio.create_task(runner.decide(seen, "a", random.Random(1)))
        await until(lambda: len(starts(tmp_path)) == 1)
        second = asyncio.create_task(runner.decide(seen, "b", random.Random(2)))
        await asyncio.sleep(0)
        assert (runner.depth, runner.waiting) == (2, 0)  # in the executor, not started
        await runner.close()
        with pytest.raises(RuntimeError, match="closed"):
            await second
        open_gate("a")
        assert (await first).move in seen.legal_moves
        assert len(starts(tmp_path)) == 1
        assert runner.depth == 0


async def test_a_player_that_cannot_reach_a_worker_is_refused_at_once():
    with pytest.raises(TypeError, match="module-level"):
        AiRunner(lambda seen, level, rng: choose_move(seen, level, rng), workers=1)
    # In a thread (workers=0) nothing is pickled: any callable will do.
    state = positions()[0]
    seen = view(state, state.deal.turn)
    async with running(AiRunner(lambda seen, level, rng: seen.legal_moves[0], workers=0)) as runner:
        assert (await runner.decide(seen, "easy", random.Random(1))).move == seen.legal_moves[0]


def test_the_pool_leaves_a_core_to_the_event_loop():
    assert [default_workers(cores) for cores in (1, 2, 4, 8)] == [1, 1, 3, 7]
    with pytest.raises(ValueError, match="workers"):
        AiRunner(workers=-1)
    with pytest.raises(ValueError, match="queue"):
        AiRunner(queue=0)
