"""Load benchmark: the real bot under SimCord with many games at once (docs/LOAD.md).

Each game has its own channel and its own asyncio task, whose humans open their hand
(``/domino hand``) and click a move, as on Discord, and open a new game when one ends.
Interactions are timestamped where the bot's answers arrive: SimCord's HTTP router.

Runs (``--runs``, comma-separated; all by default):

* ``flat``      K games (``--games``, default 1,50,200), no think time: throughput;
* ``realistic`` K games, each human thinks 1–4 s (real time) before each move;
* ``mixed``     200 realistic human games + 64 games of 1 human and 3 hard AIs, plus
                the hard AI alone (the 64 games without the 200) and ``choose_move``
                timed directly;
* ``restart``   1,000 games in play in the database, then a fresh bot starts on it:
                time to the first interaction answered.

    .venv/bin/python benchmarks/load.py --quick          # a smoke run, under a minute
    .venv/bin/python benchmarks/load.py --runs flat --games 50 --seconds 20
    .venv/bin/python benchmarks/load.py --json load.json  # everything (~12 minutes)

Every run is a child process of its own (a fresh bot, a fresh SQLite file in a temp
folder, its own memory figures). Figures are printed per run with the goals beside them.

Several processes, one database (``flat`` or ``realistic`` runs; docs/LOAD.md, "Shards"):

    .venv/bin/python benchmarks/load.py --runs flat --games 50 --processes 2
    .venv/bin/python benchmarks/load.py --runs flat --games 50 --processes 2 \
        --database postgresql://user:pw@host/postgres

Within Discord's budget (docs/LOAD.md): every run counts the bot's REST calls that Discord
counts against the token's global limit (every route but an interaction's own) per human
move; ``--global-limit 50`` also simulates that limit (shared by the run's processes) and
the per-channel one, answering 429 past them:

    .venv/bin/python benchmarks/load.py --runs realistic --games 400 --processes 2 \
        --think 3-8 --global-limit 50 --seconds 60 --database postgresql://...

``--database URL``: PostgreSQL instead of SQLite (each run gets a new database on that
server, created and dropped by the benchmark: the user needs CREATEDB).
``--processes N``: each run's K games split over N bot processes at once, each an
``AutoShardedBot`` on shard i of N with its own SimCord world (its server on that
shard), all on the one database (on SQLite, one file shared through WAL); moves/s are
summed and the ack percentiles taken over every process's interactions.
"""

from __future__ import annotations

import argparse
import asyncio
import faulthandler
import json
import logging
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from load_support import (  # noqa: E402
    GAME_OVER,
    ROOT,
    AiMeter,
    Exchange,
    Limits,
    MemorySampler,
    Table,
    World,
    now,
    start_world,
    stop_world,
    summary_ms,
)

from bot.engine.ai import Level  # noqa: E402

RUNS = ("flat", "realistic", "mixed", "restart")
THINK = (1.0, 4.0)
GOALS = {
    "flat_moves_per_s": 100.0,  # with 200 games flat out
    "mixed_ack_p95_ms": 150.0,
    "mixed_ack_max_ms": 1000.0,
    "mixed_table_p95_ms": 500.0,
    "ai_cpu_drift": 0.10,  # AI CPU per decision under load vs alone
    "restart_first_ack_ms": 500.0,
    "counted_per_move_humans": 0.25,  # counted Discord calls per human move, humans only
    "counted_per_move_ai": 0.5,  # ... with AI seats
    "paced_table_p95_ms": 1000.0,  # 400 games at a human pace under the simulated limit
}
MIN_DECISIONS = 50  # fewer AI decisions than this say little about CPU per decision
DISCORD_ACK_LIMIT = 3.0  # Discord forgets an interaction not acknowledged within 3 s


# -- one run (in a child process) ----------------------------------------------------------


def make_bot(path: Path, spec: dict[str, Any] | None = None) -> Any:
    """The bot of a run: on ``spec["database"]`` if given (a path or a URL), else ``path``;
    with ``spec["shard_count"]``, on shard ``spec["shard"]`` of them."""
    from bot.client import DominoBot
    from bot.settings import Shards

    spec = spec or {}
    database = str(spec.get("database") or path)
    shards = None
    if spec.get("shard_count"):
        shards = Shards(int(spec["shard_count"]), (int(spec["shard"]),))
    if database.startswith(("postgresql://", "postgres://")):
        return DominoBot(database_url=database, shards=shards)
    return DominoBot(database_path=Path(database), shards=shards)


GUILD_BASE = 1180000000000000000
ID_GAP = 200_000
"""SimCord's ids start at one value in every world: the world of process i skips
i * ID_GAP of them, so that processes never share a channel id (Discord's are unique)."""


def guild_on_shard(shard: int, count: int) -> int:
    """A server id Discord routes to ``shard`` of ``count``."""
    first = GUILD_BASE >> 22
    return (first + (shard - first) % count) << 22


def run_limits(spec: dict[str, Any]) -> Limits | None:
    """Discord's limits simulated for a run (``--global-limit``): the token's global limit
    (shared by every process of the run through a file) and the per-channel one."""
    per_s = spec.get("global_limit")
    if not per_s:
        return None
    shared = spec.get("limit_file")
    return Limits(float(per_s), Path(shared) if shared else None)


async def start_run_world(bot: Any, spec: dict[str, Any]) -> World:
    """The run's SimCord world; with shards, its server on the run's shard."""
    limits = run_limits(spec)
    if not spec.get("shard_count"):
        return await start_world(bot, limits=limits)
    shard, count = int(spec["shard"]), int(spec["shard_count"])

    def skip_ids(env: Any, guild: Any) -> None:
        for _ in range(ID_GAP * shard):
            env.backend.snowflake()

    return await start_world(
        bot,
        guild_name=f"Load {shard}",
        guild_id=guild_on_shard(shard, count),
        build=skip_ids,
        limits=limits,
    )


def add_players(world: World, prefix: str, count: int) -> list[Any]:
    env, guild = world.env, world.guild
    return [guild.add_member(env.create_user(f"{prefix}{i}")) for i in range(count)]


async def load_run(spec: dict[str, Any]) -> dict[str, Any]:
    """flat / realistic / mixed / ai-alone: tables play for ``seconds``; the figures."""
    kind = spec["kind"]
    humans_games = int(spec.get("games", 0))
    ai_games = int(spec.get("ai_games", 0))
    seconds = float(spec["seconds"])
    think = tuple(spec.get("think", (0.0, 0.0)))
    ai_think = tuple(spec.get("ai_think", think))
    rng = random.Random(spec.get("seed", 1))
    folder = tempfile.TemporaryDirectory(prefix="dominobot-load-")
    bot = make_bot(Path(folder.name) / "load.sqlite3", spec)
    world = await start_run_world(bot, spec)
    sampler = MemorySampler()
    world._housekeeping = asyncio.create_task(world.housekeeping(sampler))
    meter = AiMeter(bot)
    stop = asyncio.Event()
    tables: list[Table] = []
    for i in range(humans_games):
        channel = world.guild.create_text_channel(f"game-{i}")
        players = add_players(world, f"h{i}-", 2)
        tables.append(
            Table(
                world.harness,
                channel,
                players,
                think=think,
                rng=random.Random(rng.random()),
                stop=stop,
            )
        )
    for i in range(ai_games):
        channel = world.guild.create_text_channel(f"ai-{i}")
        players = add_players(world, f"a{i}-", 1)
        tables.append(
            Table(
                world.harness,
                channel,
                players,
                ai=(Level.HARD, Level.HARD, Level.HARD),
                think=ai_think,
                rng=random.Random(rng.random()),
                stop=stop,
                turn_wait=60.0,
            )
        )
    begun = now()
    tasks = [asyncio.create_task(t.run()) for t in tables]
    # Setup: every table opened and started its first game (its humans play meanwhile).
    setup_limit = max(30.0, 0.5 * len(tables))
    started: list[asyncio.Task[Any]] = [asyncio.create_task(t.started.wait()) for t in tables]
    await asyncio.wait(started, timeout=setup_limit)
    for task in started:
        task.cancel()
    t0 = now()
    d0, c0 = meter.read()
    p0 = time.process_time()
    calls0, counted0 = world.tap.calls, world.tap.counted
    await asyncio.sleep(seconds)
    t1 = now()
    p1 = time.process_time()
    d1, c1 = meter.read()
    calls1, counted1 = world.tap.calls, world.tap.counted
    stop.set()
    _, pending = await asyncio.wait(tasks, timeout=30.0)
    for task in pending:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    # Announcements still queued in the bot land before the figures are taken.
    for _ in range(20):
        calls = world.tap.calls
        await asyncio.sleep(0.5)
        if world.tap.calls == calls:
            break
    t_end = now()
    sampler.sample()
    failures = [repr(t.exception())[:300] for t in tasks if not t.cancelled() and t.exception()]
    result = figures(world, tables, t0, t1, t_end)
    moves = result["human_moves"]
    counted = counted1 - counted0
    result.update(
        counted_calls=counted,
        uncounted_calls=(calls1 - calls0) - counted,
        counted_per_move=counted / moves if moves else None,
        uncounted_per_move=((calls1 - calls0) - counted) / moves if moves else None,
        counted_peak_per_s=peak_per_second(
            [x for x in world.tap.counted_wall if world.tap.wall(t0) <= x < world.tap.wall(t1)]
        ),
        limit_refusals=dict(world.tap.limits.refused) if world.tap.limits else None,
        pacer=pacer_figures(bot),
        ping_misses=sum(t.stats.ping_misses for t in tables),
    )
    if spec.get("shard_count"):  # every value, for percentiles over all the processes
        result["ack_values_ms"] = [
            ((e.ack_at if e.ack_at is not None else t_end) - e.sent) * 1000
            for e in world.harness.exchanges
            if t0 <= e.sent < t1
        ]
        result["table_values_ms"] = result.pop("click_to_table_values_ms")
        result["counted_wall"] = [
            x for x in world.tap.counted_wall if world.tap.wall(t0) <= x < world.tap.wall(t1)
        ]
    else:
        result.pop("click_to_table_values_ms")
    decisions = d1 - d0
    result.update(
        kind=kind,
        games=humans_games,
        ai_games=ai_games,
        seconds=t1 - t0,
        setup_seconds=t0 - begun,
        tables_started=sum(t.started.is_set() for t in tables),
        ai_source=meter.source,
        ai_decisions=decisions,
        process_cpu_share=(p1 - p0) / (t1 - t0),
        cpu_ms_per_human_move=(
            (p1 - p0) / result["human_moves"] * 1000 if result["human_moves"] else None
        ),
        ai_decisions_per_s=decisions / (t1 - t0),
        ai_cpu_ms_per_decision=(c1 - c0) / decisions * 1000 if decisions else None,
        rss_peak_mb=sampler.peak_kb / 1024,
        rss_peak_with_children_mb=sampler.peak_tree_kb / 1024,
        max_rss_mb=MemorySampler.max_rss_kb() / 1024,
        timers_fired=world.pump.fired,
        bot_log=dict(world.logs.counts),
        bot_log_first=list(world.logs.first),
        http_errors=dict(sorted(world.tap.errors.items(), key=lambda kv: -kv[1])[:8]),
        simcord_errors=len(world.env.errors),
        driver_failures=failures[:5],
        games_opened=sum(t.stats.games_opened for t in tables),
        games_over=sum(t.stats.games_over for t in tables),
        stalls=sum(t.stats.stalls for t in tables),
        hands_refreshed=sum(t.hands_refreshed for t in tables),
        hands_asked=sum(t.hands_asked for t in tables),
    )
    await stop_world(world)
    folder.cleanup()
    return result


def figures(
    world: World, tables: list[Table], t0: float, t1: float, t_end: float
) -> dict[str, Any]:
    """Latencies of the interactions sent in [t0, t1); missing answers count as their age
    at the end of the drain (``t_end``), so a stuck bot cannot look fast."""
    window = [e for e in world.harness.exchanges if t0 <= e.sent < t1]

    def acks(items: list[Exchange]) -> list[float]:
        return [(e.ack_at if e.ack_at is not None else t_end) - e.sent for e in items]

    def replies(items: list[Exchange]) -> list[float]:
        return [(e.reply_at if e.reply_at is not None else t_end) - e.sent for e in items]

    for e in world.harness.exchanges:
        if e.kind == "move" and e.reply_at is not None and not e.moved and e.ack_error is None:
            # The match's last move is answered with its result in plain text, no hand:
            # it counts if the table then showed the game over, past that move.
            watch = world.tap.watch(e.channel_id)
            e.moved = any(
                w.at >= e.sent and w.status in GAME_OVER and w.progress > e.progress
                for w in watch.tables
                if w.progress is not None and e.progress is not None
            )
    moves = [e for e in window if e.kind == "move"]
    hands = [e for e in window if e.kind == "hand"]
    to_table: list[float] = []
    no_table = 0
    for e in moves:
        if not e.moved:
            continue
        at = world.tap.watch(e.channel_id).table_after(e.sent, e.progress)
        if at is None:
            no_table += 1
            at = t_end
        to_table.append(at - e.sent)
    done_moves = [
        e
        for e in world.harness.exchanges
        if e.kind == "move" and e.moved and e.reply_at is not None and t0 <= e.reply_at < t1
    ]
    ack_all = acks(window)
    unknown = sum(1 for w in world.tap.channels.values() for t in w.tables if t.progress is None)
    return {
        "interactions": len(window),
        "interactions_per_s": len(window) / (t1 - t0),
        "ack_ms": summary_ms(ack_all),
        "ack_ms_by_kind": {
            kind: summary_ms(acks([e for e in window if e.kind == kind]))
            for kind in sorted({e.kind for e in window})
        },
        "unacknowledged": sum(1 for e in window if e.ack_at is None),
        "acks_over_3s": sum(1 for x in ack_all if x > DISCORD_ACK_LIMIT),
        "ack_refused": sum(1 for e in window if e.ack_error is not None),
        "hand_reply_ms": summary_ms(replies(hands)),
        "move_reply_ms": summary_ms(replies(moves)),
        "click_to_table_ms": summary_ms(to_table),
        "click_to_table_values_ms": [x * 1000 for x in to_table],
        "moves_without_table": no_table,
        "table_writes_untold": unknown,
        "human_moves": len(done_moves),
        "moves_refused": sum(1 for e in moves if e.reply_at is not None and not e.moved),
        "human_moves_per_s": len(done_moves) / (t1 - t0),
    }


def peak_per_second(walls: list[float]) -> int:
    """The most counted calls in any one second (of wall-clock timestamps)."""
    times = sorted(walls)
    best, j = 0, 0
    for i, t in enumerate(times):
        while times[j] <= t - 1.0:
            j += 1
        best = max(best, i - j + 1)
    return best


def pacer_figures(bot: Any) -> dict[str, Any] | None:
    pacer = getattr(bot, "pacer", None)  # (a bot from before the pacer has none)
    if pacer is None:
        return None
    stats = pacer.stats
    return {
        "rate": pacer.nominal,
        "calls": stats.calls,
        "waited_s": stats.waited,
        "longest_wait_s": stats.longest_wait,
        "global_429s": stats.global_429s,
    }


def ai_sampled(samples: int) -> dict[str, Any]:
    """The hard AI alone, no bot: ``choose_move`` timed (``thread_time``) on the AI turns
    of 4-player block games (seat 0 random, seats 1-3 the normal AI to get on)."""
    from bot.engine import Rules, new_match, next_deal, play, view
    from bot.engine.ai import choose_move

    rules = Rules.from_dict({"game": "block", "players": 4})
    rng = random.Random(11)
    seen: list[Any] = []
    match = 0
    while len(seen) < samples * 3:
        match += 1
        state = new_match(rules, random.Random(f"{match}:1"))
        while not state.over and len(seen) < samples * 3:
            if state.deal.over:
                state = next_deal(state, random.Random(f"{match}:{state.deal_number + 1}"))
                continue
            seat = state.deal.turn
            legal = state.legal_moves()
            if seat == 0:
                move = rng.choice(legal)
            else:
                seen.append(view(state, seat))
                move = choose_move(seen[-1], Level.NORMAL, rng)
            state = play(state, move, seat)
    picked = seen[:: max(1, len(seen) // samples)][:samples]
    cpu = []
    for i, v in enumerate(picked):
        start = time.thread_time()
        choose_move(v, Level.HARD, random.Random(i))
        cpu.append(time.thread_time() - start)
    return {
        "kind": "ai-sampled",
        "samples": len(cpu),
        "cpu_ms_mean": sum(cpu) / len(cpu) * 1000,
        "cpu_ms": summary_ms(cpu),
    }


async def restart_run(spec: dict[str, Any]) -> dict[str, Any]:
    """``games`` games started through the UI, the bot stopped, a fresh one started on
    the same database and world: from its ``setup_hook`` to the first answer."""
    from bot.client import DominoBot

    games = int(spec["games"])
    folder = tempfile.TemporaryDirectory(prefix="dominobot-restart-")
    path = Path(folder.name) / "restart.sqlite3"
    bot = make_bot(path)
    world = await start_world(bot)
    world._housekeeping = asyncio.create_task(world.housekeeping())
    h = world.harness
    players = add_players(world, "p", 40)
    channels = [world.guild.create_text_channel(f"game-{i}") for i in range(games)]
    seated: list[tuple[Any, Any]] = []
    limit = asyncio.Semaphore(24)
    seeded = now()

    async def seed(i: int) -> None:
        a, b = players[(2 * i) % 40], players[(2 * i + 1) % 40]
        channel = channels[i]
        async with limit:
            if not await h.slash(
                a, channel, "domino new", "lobby", game="block", players=2, timer=0
            ).reply(60.0):
                return
            if not await h.slash(b, channel, "domino join", "lobby").reply(60.0):
                return
            if await h.slash(a, channel, "domino start", "lobby").reply(60.0):
                seated.append((a, channel))

    await asyncio.gather(*(seed(i) for i in range(games)))
    seeding = now() - seeded
    try:
        active: int | None = len(await bot.db.games.active())
    except Exception:  # the storage's API changed: the count is only informative
        active = None
    await bot.shutdown()

    class TimedBot(DominoBot):
        setup_at: float | None = None
        setup_done_at: float | None = None

        async def setup_hook(self) -> None:
            self.setup_at = now()
            await super().setup_hook()
            self.setup_done_at = now()

    fresh = TimedBot(database_path=path)
    user, channel = random.Random(3).choice(seated)
    first: dict[str, Any] = {}

    async def first_interaction() -> None:
        while not fresh.is_ready():
            await asyncio.sleep(0.001)
        first["ready_at"] = now()
        exchange = h.slash(user, channel, "domino hand", "hand")
        first["exchange"] = exchange
        await exchange.reply(30.0)

    asker = asyncio.create_task(first_interaction())
    called = now()
    error = None
    env = world.env

    async def no_settling(**_: Any) -> None:
        await asyncio.sleep(0)

    # SimCord's restart waits (up to 5 s) until the new bot idles: Discord does not,
    # and with 1,000 games' timers to inspect, that wait alone would load the loop.
    env._settle_internal = no_settling  # type: ignore[method-assign]
    try:
        await env.restart_bot(fresh)
    except Exception as e:
        error = repr(e)[:500]
    finally:
        del env._settle_internal
    restarted = now()
    world.bot = fresh
    try:
        await asyncio.wait_for(asker, 30.0)
    except BaseException as e:
        error = error or repr(e)[:500]
    restoring = getattr(fresh, "restoring", None)
    if isinstance(restoring, asyncio.Future):
        try:
            await asyncio.wait_for(asyncio.shield(restoring), 120.0)
        except BaseException as e:
            error = error or repr(e)[:500]
    restored_at = now()
    t0 = fresh.setup_at or called
    exchange = first.get("exchange")

    def since(x: float | None) -> float | None:
        return None if x is None else (x - t0) * 1000

    result = {
        "kind": "restart",
        "games": games,
        "games_in_play": active,
        "seeding_seconds": seeding,
        "setup_hook_ms": since(fresh.setup_done_at),
        "ready_ms": since(first.get("ready_at")),
        "first_ack_ms": since(exchange.ack_at if exchange else None),
        "first_reply_ms": since(exchange.reply_at if exchange else None),
        "restart_bot_returned_ms": since(restarted),
        "restore_done_ms": since(restored_at) if isinstance(restoring, asyncio.Future) else None,
        "error": error,
        "bot_log": dict(world.logs.counts),
        "bot_log_first": list(world.logs.first),
        "max_rss_mb": MemorySampler.max_rss_kb() / 1024,
    }
    await stop_world(world)
    folder.cleanup()
    return result


def child(spec: dict[str, Any], out: Path) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(logging.WARNING)
    # A run that hangs prints where every thread is and exits (the parent reports it).
    faulthandler.dump_traceback_later(budget(spec), exit=True)
    if spec["kind"] == "ai-sampled":
        result = ai_sampled(int(spec["samples"]))
    elif spec["kind"] == "restart":
        result = asyncio.run(restart_run(spec))
    else:
        result = asyncio.run(load_run(spec))
    out.write_text(json.dumps(result))
    sys.stdout.flush()
    sys.stderr.flush()
    # Threads a failed run left behind (a database connection) must not hold us up.
    os._exit(0)


# -- the plan and the report ----------------------------------------------------------------


def plan(args: argparse.Namespace) -> list[dict[str, Any]]:
    runs = [r.strip() for r in args.runs.split(",") if r.strip()]
    for r in runs:
        if r not in RUNS:
            raise SystemExit(f"unknown run {r!r}: choose from {', '.join(RUNS)}")
    quick = args.quick
    seconds = args.seconds if args.seconds is not None else (4.0 if quick else 60.0)
    if args.games:
        ks = [int(k) for k in args.games.split(",")]
    else:
        ks = [1, 8] if quick else [1, 50, 200]
    specs: list[dict[str, Any]] = []
    if "flat" in runs:
        specs += [{"kind": "flat", "games": k, "seconds": seconds} for k in ks]
    if "realistic" in runs:
        real_ks = ks[-1:] if quick else ks
        specs += [
            {"kind": "realistic", "games": k, "seconds": seconds, "think": args.think_range}
            for k in real_ks
        ]
    if "mixed" in runs:
        humans, ai = (8, 2) if quick else (200, 64)
        if args.games and not quick:
            humans = int(ks[-1])
            ai = max(1, round(humans * 64 / 200))
        specs.append(
            {"kind": "ai-sampled", "samples": 8 if quick else 60},
        )
        # The control: the same AI games at the same pace, without the human games.
        specs.append(
            {"kind": "ai-alone", "games": 0, "ai_games": ai, "seconds": seconds, "think": THINK}
        )
        specs.append(
            {
                "kind": "mixed",
                "games": humans,
                "ai_games": ai,
                "seconds": seconds,
                "think": THINK,
            }
        )
    if "restart" in runs:
        specs.append({"kind": "restart", "games": 40 if quick else 1000})
    if args.global_limit:
        for spec in specs:
            spec["global_limit"] = args.global_limit
    return specs


def think_range(text: str | None) -> tuple[float, float]:
    """``--think A-B`` as seconds (the default :data:`THINK`)."""
    if not text:
        return THINK
    low, _, high = text.partition("-")
    try:
        pair = (float(low), float(high or low))
    except ValueError:
        raise SystemExit(f"--think takes seconds as A-B, e.g. 3-8, not {text!r}") from None
    if not 0 <= pair[0] <= pair[1]:
        raise SystemExit(f"--think takes seconds as A-B with 0 <= A <= B, not {text!r}")
    return pair


def multi_plan(args: argparse.Namespace) -> list[list[dict[str, Any]]]:
    """``--processes N``: per K, N specs of K/N games each (shard i of N): flat, or
    realistic with ``--runs realistic``."""
    n = args.processes
    seconds = args.seconds if args.seconds is not None else (4.0 if args.quick else 30.0)
    ks = [int(k) for k in args.games.split(",")] if args.games else [50]
    kinds = [r.strip() for r in args.runs.split(",") if r.strip()]
    kind = "realistic" if kinds == ["realistic"] else "flat"
    groups = []
    for k in ks:
        share = [k // n + (1 if i < k % n else 0) for i in range(n)]
        groups.append(
            [
                {
                    "kind": kind,
                    "games": share[i],
                    "seconds": seconds,
                    "shard": i,
                    "shard_count": n,
                    "total_games": k,
                    **({"think": args.think_range} if kind == "realistic" else {}),
                    **({"global_limit": args.global_limit} if args.global_limit else {}),
                }
                for i in range(n)
            ]
        )
    return groups


async def fresh_postgres(url: str) -> str:
    """A new database on ``url``'s server (the user needs CREATEDB); its URL."""
    from urllib.parse import urlsplit, urlunsplit

    import asyncpg  # type: ignore[import-untyped]

    name = f"dominobot_load_{os.getpid()}_{random.randrange(10**9)}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


async def drop_postgres(admin_url: str, url: str) -> None:
    from urllib.parse import urlsplit

    import asyncpg

    name = urlsplit(url).path.lstrip("/")
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await conn.close()


async def migrate_once(location: str) -> None:
    """Create the schema before the processes start (they would all migrate at once)."""
    from bot.storage import Database

    db = await Database.open(location)
    await db.close()


def run_group(specs: list[dict[str, Any]], database: str | None) -> dict[str, Any]:
    """One run in N processes at once on one database; the summed figures."""
    with tempfile.TemporaryDirectory(prefix="dominobot-load-") as folder:
        location = asyncio.run(fresh_postgres(database)) if database else f"{folder}/load.sqlite3"
        try:
            asyncio.run(migrate_once(location))
            outs = [Path(folder) / f"result-{i}.json" for i in range(len(specs))]
            shared = {"database": location, "limit_file": f"{folder}/global-limit"}
            procs = []
            for spec, out in zip(specs, outs, strict=True):
                cmd = [sys.executable, str(Path(__file__).resolve()), "--child"]
                cmd += [json.dumps({**spec, **shared}), "--child-out", str(out)]
                procs.append(subprocess.Popen(cmd, cwd=ROOT))
            for proc, spec in zip(procs, specs, strict=True):
                try:
                    proc.wait(timeout=budget(spec) + 30)
                except subprocess.TimeoutExpired:
                    proc.kill()
            results = [json.loads(o.read_text()) for o in outs if o.exists()]
        finally:
            if database:
                asyncio.run(drop_postgres(database, location))
    base = specs[0]
    kind = f"{base['kind']}-multi"
    if len(results) != len(specs):
        return {**base, "kind": kind, "error": "a process failed; see above"}
    acks = [x for r in results for x in r.get("ack_values_ms", [])]
    tables = [x for r in results for x in r.get("table_values_ms", [])]
    moves = sum(r["human_moves"] for r in results)
    counted = sum(r["counted_calls"] for r in results)
    uncounted = sum(r["uncounted_calls"] for r in results)
    refused = [r.get("limit_refusals") or {} for r in results]
    return {
        "kind": kind,
        "think": base.get("think"),
        "global_limit": base.get("global_limit"),
        "click_to_table_ms": summary_ms([x / 1000 for x in tables]),
        "moves_without_table": sum(r["moves_without_table"] for r in results),
        "counted_calls": counted,
        "counted_per_move": counted / moves if moves else None,
        "uncounted_per_move": uncounted / moves if moves else None,
        "counted_peak_per_s": peak_per_second([x for r in results for x in r["counted_wall"]]),
        "limit_refusals": {
            key: sum(r.get(key, 0) for r in refused) for key in ("global", "channel")
        },
        "ping_misses": sum(r["ping_misses"] for r in results),
        "pacers": [r["pacer"] for r in results],
        "backend": "postgresql" if database else "sqlite",
        "processes": len(specs),
        "games": base["total_games"],
        "seconds": statistics.fmean(r["seconds"] for r in results),
        "human_moves": sum(r["human_moves"] for r in results),
        "human_moves_per_s": sum(r["human_moves_per_s"] for r in results),
        "per_process_moves_per_s": [r["human_moves_per_s"] for r in results],
        "ack_ms": summary_ms([x / 1000 for x in acks]),
        "unacknowledged": sum(r["unacknowledged"] for r in results),
        "stalls": sum(r["stalls"] for r in results),
        "process_cpu_share": [r["process_cpu_share"] for r in results],
        "bot_log": [r["bot_log"] for r in results],
    }


def multi_report(results: list[dict[str, Any]]) -> str:
    lines = []
    for r in results:
        think = r.get("think")
        how = "flat out" if r["kind"].startswith("flat") else f"realistic (think {think} s)"
        head = f"\n== {how}, {r.get('games')} games in {r.get('processes', '?')} process(es)"
        if r.get("error"):
            lines.append(f"{head}: FAILED: {r['error']}")
            continue
        lines.append(f"{head} on {r['backend']}  ({fmt(r['seconds'])} s measured)")
        lines.append(f"  ack latency        {lat(r['ack_ms'])}")
        per = " + ".join(fmt(x) for x in r["per_process_moves_per_s"])
        lines.append(
            f"  human moves/s      {fmt(r['human_moves_per_s'])}  ({per}; "
            f"{r['human_moves']} moves) · not acknowledged {r['unacknowledged']} · "
            f"stalls {r['stalls']}"
        )
        lines.append(f"  click → table      {lat(r['click_to_table_ms'])}")
        lines += budget_lines(r)
        cpu = ", ".join(fmt(x, digits=2) for x in r["process_cpu_share"])
        lines.append(f"  CPU per process    {cpu} of a core · bot log {r['bot_log']}")
    return "\n".join(lines)


def budget_lines(r: dict[str, Any]) -> list[str]:
    """Discord's budget: counted and uncounted calls per human move, the peak second, the
    simulated limits' refusals, the turns nobody was pinged for."""
    limit = r.get("global_limit")
    refused = r.get("limit_refusals")
    return [
        f"  Discord calls      counted {fmt(r.get('counted_per_move'), digits=3)} per human move"
        f" (goal ≤ {GOALS['counted_per_move_humans']}) · uncounted "
        f"{fmt(r.get('uncounted_per_move'), digits=2)} · counted peak "
        f"{r.get('counted_peak_per_s')}/s" + (f" (simulated limit {limit:g}/s)" if limit else ""),
        f"  turns without a ping {r.get('ping_misses')}"
        + (
            f" · 429s from the simulated limits: global {refused.get('global', 0)}, "
            f"per channel {refused.get('channel', 0)}"
            if refused is not None
            else ""
        ),
    ]


def budget(spec: dict[str, Any]) -> float:
    """Seconds a run may take before it counts as hung."""
    tables = int(spec.get("games", 0)) + int(spec.get("ai_games", 0))
    if spec["kind"] == "restart":
        return 300.0 + 0.3 * tables
    if spec["kind"] == "ai-sampled":
        return 300.0
    return float(spec["seconds"]) + max(30.0, 0.5 * tables) + 180.0


def run_child(spec: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "result.json"
        cmd = [sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(spec)]
        cmd += ["--child-out", str(out)]
        started = time.perf_counter()
        try:
            proc = subprocess.run(cmd, cwd=ROOT, check=False, timeout=budget(spec) + 30)
        except subprocess.TimeoutExpired:
            return {**spec, "error": "the run hung and was stopped"}
        if proc.returncode != 0 or not out.exists():
            return {**spec, "error": f"the run failed (exit {proc.returncode}); see above"}
        result: dict[str, Any] = json.loads(out.read_text())
        result["wall_seconds"] = time.perf_counter() - started
        return result


def fmt(x: Any, unit: str = "", digits: int = 1) -> str:
    if x is None:
        return "—"
    if isinstance(x, float):
        return f"{x:.{digits}f}{unit}"
    return f"{x}{unit}"


def lat(s: dict[str, Any] | None) -> str:
    if not s or not s.get("n"):
        return "—"
    return f"p50 {fmt(s['p50'])} · p95 {fmt(s['p95'])} · max {fmt(s['max'])} ms  (n={s['n']})"


def verdict(ok: bool | None) -> str:
    return "" if ok is None else ("  ✔ meets the goal" if ok else "  ✘ misses the goal")


def report(results: list[dict[str, Any]]) -> str:
    lines: list[str] = []
    alone = next((r for r in results if r.get("kind") == "ai-alone"), None)
    sampled = next((r for r in results if r.get("kind") == "ai-sampled"), None)
    for r in results:
        kind = str(r.get("kind"))
        if r.get("error") and (kind != "restart" or "first_ack_ms" not in r):
            lines.append(f"\n== {kind} {r.get('games', '')}: FAILED: {r['error']}")
            continue
        if kind == "ai-sampled":
            lines.append(f"\n== hard AI alone, choose_move timed directly: {r['samples']} AI turns")
            lines.append(f"  CPU per decision  mean {fmt(r['cpu_ms_mean'])} ms  {lat(r['cpu_ms'])}")
            continue
        if kind == "restart":
            lines.append(f"\n== restart: {r['games']} games started, then a fresh bot")
            lines.append(
                f"  games in play {r.get('games_in_play')}  "
                f"(seeded in {fmt(r.get('seeding_seconds'))} s)"
            )
            first = r.get("first_ack_ms")
            goal = GOALS["restart_first_ack_ms"]
            lines.append(
                f"  from setup_hook: setup_hook done {fmt(r.get('setup_hook_ms'))} ms · "
                f"ready {fmt(r.get('ready_ms'))} ms"
            )
            lines.append(
                f"  first interaction acknowledged {fmt(first)} ms (goal < {goal:.0f} ms)"
                + verdict(None if first is None else first < goal)
            )
            lines.append(f"  first interaction answered     {fmt(r.get('first_reply_ms'))} ms")
            lines.append(
                f"  SimCord's restart_bot returned {fmt(r.get('restart_bot_returned_ms'))} ms · "
                f"all games restored {fmt(r.get('restore_done_ms'))} ms"
            )
            if r.get("error"):
                lines.append(f"  error: {r['error']}")
            lines.append(f"  bot log: {r.get('bot_log') or 'no warnings'}")
            continue
        title = {
            "flat": f"flat out: {r['games']} games, no think time",
            "realistic": f"realistic: {r['games']} games, 1–4 s think time",
            "mixed": f"mixed: {r['games']} realistic games + {r['ai_games']} games of "
            "1 human and 3 hard AIs",
            "ai-alone": f"hard AI alone: the mixed run's {r['ai_games']} games of 1 human and "
            "3 hard AIs, without its human games",
        }[kind]
        lines.append(f"\n== {title}  ({fmt(r['seconds'])} s measured)")
        ack = r["ack_ms"]
        lines.append(f"  ack latency        {lat(ack)}")
        for k, s in r["ack_ms_by_kind"].items():
            lines.append(f"    {k:16} {lat(s)}")
        lines.append(
            f"  not acknowledged {r['unacknowledged']} · over Discord's 3 s {r['acks_over_3s']}"
            f" · refused {r['ack_refused']}"
        )
        lines.append(f"  /domino hand reply {lat(r['hand_reply_ms'])}")
        lines.append(f"  move click reply   {lat(r['move_reply_ms'])}")
        lines.append(f"  click → table      {lat(r['click_to_table_ms'])}")
        lines.append(
            f"    moves refused {r['moves_refused']} · moves whose table never came "
            f"{r['moves_without_table']} · table writes of an unknown state "
            f"{r['table_writes_untold']}"
        )
        rate = r["human_moves_per_s"]
        flat_goal = (
            verdict(rate >= GOALS["flat_moves_per_s"])
            if kind == "flat" and r["games"] >= 200
            else ""
        )
        lines.append(
            f"  human moves/s      {fmt(rate)}  ({r['human_moves']} moves; "
            f"{fmt(r['interactions_per_s'])} interactions/s)"
            + (f"  goal ≥ {GOALS['flat_moves_per_s']:.0f} with 200 games" if flat_goal else "")
            + flat_goal
        )
        lines.append(
            f"  bot process CPU    {fmt(r['process_cpu_share'])} of a core · "
            f"{fmt(r['cpu_ms_per_human_move'])} ms per human move (SimCord and the driver"
            " included)"
        )
        lines += budget_lines(r)
        lines.append(
            f"  moves played from a refreshed hand {r.get('hands_refreshed')} · "
            f"hands asked for (/domino hand) {r.get('hands_asked')}"
        )
        lines.append(
            f"  AI decisions/s     {fmt(r['ai_decisions_per_s'])}  ({r['ai_decisions']} decisions)"
            f" · CPU per decision {fmt(r['ai_cpu_ms_per_decision'])} ms  [{r['ai_source']}]"
        )
        lines.append(
            f"  memory             peak RSS {fmt(r['rss_peak_mb'])} MB · with AI workers "
            f"{fmt(r['rss_peak_with_children_mb'])} MB"
        )
        lines.append(
            f"  games opened {r['games_opened']} · finished {r['games_over']} · "
            f"tables started {r['tables_started']}/{r['games'] + r['ai_games']} in "
            f"{fmt(r['setup_seconds'])} s · stalls {r['stalls']} · timers {r['timers_fired']}"
        )
        if r["bot_log"] or r["http_errors"] or r["driver_failures"]:
            lines.append(f"  bot log {r.get('bot_log')} · http errors {r['http_errors']}")
            for line in r["bot_log_first"][:3] + r["driver_failures"][:3]:
                lines.append(f"    {line}")
        if kind == "mixed":
            p95, mx, tp95 = ack["p95"], ack["max"], r["click_to_table_ms"]["p95"]
            lines.append("  goals:")
            lines.append(
                f"    ack p95 {fmt(p95)} ms < {GOALS['mixed_ack_p95_ms']:.0f} ms"
                + verdict(p95 is not None and p95 < GOALS["mixed_ack_p95_ms"])
            )
            lines.append(
                f"    ack max {fmt(mx)} ms < {GOALS['mixed_ack_max_ms']:.0f} ms"
                + verdict(mx is not None and mx < GOALS["mixed_ack_max_ms"])
            )
            lines.append(
                f"    click → table p95 {fmt(tp95)} ms < {GOALS['mixed_table_p95_ms']:.0f} ms"
                + verdict(tp95 is not None and tp95 < GOALS["mixed_table_p95_ms"])
            )
            load_cpu = r["ai_cpu_ms_per_decision"]
            base = alone["ai_cpu_ms_per_decision"] if alone and not alone.get("error") else None
            if load_cpu is not None and base and alone is not None:
                drift = load_cpu / base - 1
                few = min(r["ai_decisions"], alone["ai_decisions"]) < MIN_DECISIONS
                lines.append(
                    f"    AI CPU per decision {fmt(load_cpu)} ms under load vs "
                    f"{fmt(base)} ms alone: {drift:+.0%} (goal within ±10%)"
                    + (
                        f"  (fewer than {MIN_DECISIONS} decisions: not judged)"
                        if few
                        else verdict(abs(drift) <= GOALS["ai_cpu_drift"])
                    )
                )
            if sampled:
                lines.append(
                    f"    (choose_move timed directly: {fmt(sampled['cpu_ms_mean'])} ms mean)"
                )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", default=",".join(RUNS), help="flat,realistic,mixed,restart")
    parser.add_argument("--games", help="games at once, comma-separated (default 1,50,200)")
    parser.add_argument("--seconds", type=float, help="measured seconds per run (default 60)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: small, a few seconds")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--database", help="a PostgreSQL URL: each run on a new database on that server"
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=0,
        help="flat (or realistic) runs in N bot processes at once (shard i of N each) on one "
        "database",
    )
    parser.add_argument(
        "--think",
        help="a human's think time before each move in realistic runs, seconds: A-B "
        f"(default {THINK[0]:g}-{THINK[1]:g})",
    )
    parser.add_argument(
        "--global-limit",
        type=float,
        help="simulate Discord's global limit of counted calls a second (e.g. 50), shared "
        "by every process of a run, and its limit of 5 new messages in 5 s per channel",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--child-out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.think_range = think_range(args.think)
    if args.child:
        return child(json.loads(args.child), args.child_out)
    results = []
    print(f"Dominobot load benchmark — {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    if args.processes:
        multi = []
        for group in multi_plan(args):
            print(
                f"-- running {group[0]['kind']} {group[0]['total_games']} in {len(group)} "
                "process(es) ..."
            )
            sys.stdout.flush()
            multi.append(run_group(group, args.database))
        print(multi_report(multi))
        if args.json:
            args.json.write_text(json.dumps({"runs": multi}, indent=1))
        return 1 if any(r.get("error") for r in multi) else 0
    if args.database:
        raise SystemExit("--database goes with --processes N (1 for one process)")
    for spec in plan(args):
        print(f"-- running {spec['kind']} {spec.get('games', spec.get('samples', ''))} ...")
        sys.stdout.flush()
        results.append(run_child(spec))
    print(report(results))
    if args.json:
        args.json.write_text(json.dumps({"runs": results, "goals": GOALS}, indent=1))
    failed = [r for r in results if r.get("error") and "interactions" not in r]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
