"""benchmarks/save_bench.py runs (a smoke test: three deals, no timing checked)."""

from __future__ import annotations

from benchmarks.save_bench import WAYS, play_session, run_backend, summary
from bot.storage import Database


async def test_the_save_benchmark_times_moves_at_the_first_and_last_deal(db: Database) -> None:
    sessions = [play_session(seed, 3) for seed in range(2)]
    series = await run_backend(db, sessions, 3)
    result = summary(series, 3)
    for way in WAYS:
        assert result[way]["deal1"]["saves"] == sum(len(s.moves_in(1)) for s in sessions)
        assert result[way]["deal3"]["saves"] == sum(len(s.moves_in(3)) for s in sessions)
    # the new way writes a move's worth; the old way the whole record, more at deal 3
    assert result["new"]["deal3"]["bytes"] < 200
    assert result["old"]["deal3"]["bytes"] > result["old"]["deal1"]["bytes"] > 200
    rows = await db.fetchone("SELECT count(*) FROM games WHERE status = 'playing'")
    assert rows is not None
    assert rows[0] == 8  # four games a session
