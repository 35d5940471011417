"""The hard level's safety deadline counts the deciding thread's CPU time, not the
wall clock: a busy machine slows a decision down without cutting its search short.

The clocks are replaced by fakes, so no test depends on how fast anything runs."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from bot.engine import End, Move, Rules, Tile, full_set, play, start_match, view
from bot.engine.ai import SearchSettings, halving, search
from bot.engine.ai.knowledge import Knowledge, read_view

SETTINGS = SearchSettings(work=20_000, worlds=10_000, seconds=0.22)


def know() -> Knowledge:
    rules = Rules.make("draw", players=3)
    hands = [
        [Tile.parse(t) for t in hand.split()]
        for hand in ("6-6 5-6 0-4 2-5 0-6", "1-6 4-6 5-5 0-5 3-5", "1-4 4-5 3-6 0-0 0-1")
    ]
    used = {t for hand in hands for t in hand}
    state = start_match(rules, hands, [t for t in full_set(6) if t not in used])
    state = play(state, Move.lead(Tile.parse("6-6")))
    state = play(state, Move.single(Tile.parse("1-6"), End.EAST))
    assert len(state.legal_moves()) >= 3
    return read_view(view(state, state.deal.turn))


class Clock:
    """A fake clock: each reading moves it on by ``step`` seconds."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def worlds_played(monkeypatch: pytest.MonkeyPatch, *, wall: float, cpu: float) -> int:
    """Worlds the search samples when each clock reading moves the wall clock on by
    ``wall`` seconds and the CPU clock by ``cpu``."""
    fake = SimpleNamespace(perf_counter=Clock(wall), monotonic=Clock(wall), thread_time=Clock(cpu))
    monkeypatch.setattr(halving, "time", fake)  # where the deadline is set and read
    count = 0
    world = search._Search._world

    def counting(self: search._Search, rng: random.Random, active: list[int]) -> None:
        nonlocal count
        count += 1
        world(self, rng, active)

    monkeypatch.setattr(search._Search, "_world", counting)
    search.rank_moves(know(), random.Random(0), SETTINGS)
    return count


def test_a_slow_wall_clock_does_not_cut_the_search(monkeypatch: pytest.MonkeyPatch):
    # A second of wall time passes between readings (a machine busy elsewhere), but
    # the deciding thread itself uses no CPU time: the work budget decides alone.
    loaded = worlds_played(monkeypatch, wall=1.0, cpu=0.0)
    alone = worlds_played(monkeypatch, wall=0.0, cpu=0.0)
    assert loaded == alone > 1


def test_the_deadline_counts_cpu_time(monkeypatch: pytest.MonkeyPatch):
    # Each reading finds the thread has used a whole CPU second: past the 0.22 s
    # deadline after the first world, which is always played.
    assert worlds_played(monkeypatch, wall=0.0, cpu=1.0) == 1
    # A tenth of a CPU second per reading: the deadline is read as 0.1 + 0.22; after
    # worlds 1 and 2 the clock shows 0.2 and 0.3, after world 3 it shows 0.4: past it.
    assert worlds_played(monkeypatch, wall=0.0, cpu=0.1) == 3
