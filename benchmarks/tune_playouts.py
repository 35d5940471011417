"""Tune the hard level's playout policy by self-play (SPSA), one kind of game at a time.

The playout policy (:func:`bot.engine.ai.rollout.best_move`) scores each legal move
with a few weights (:class:`bot.engine.ai.rollout.PlayoutWeights`). This script
improves them for one game of ``benchmarks/ai_arena.py``'s part 1 by simultaneous
perturbation stochastic approximation, in log space (every weight stays positive):
each step perturbs every tuned weight by a factor ``exp(±c)`` at random, plays the
``+`` policy against the ``-`` one over duplicate deals (every seating of each
deal, like the arena, no random moves), and moves the weights along the estimated
gradient of the ``+`` side's mean deal value (``evaluate.deal_value``: points with
the win bonus, or the game's own units). The pips weight is the scale (it stays 1)
except in all fives, where the count weight stays 1 instead.

At the end the tuned weights play the starting ones over fresh deals (another
seed) and the win rate, with its Wilson 95% interval, and the mean value margin
are printed, with the weights as Python to paste into ``rollout.TUNED``.

    python benchmarks/tune_playouts.py --game block-teams --start default \
        --steps 400 --deals 150 --check 3000

(the values in ``rollout.TUNED`` came from that, with ``--steps 400 --deals 100
--check 2000`` for block-2p, draw-3p and latvian-4p, and ``--steps 300 --deals 80
--check 1500`` for the all fives games and draw-2p-spinner).

Self-play is fast (a deal of playout moves takes about a millisecond), so a few
minutes tune one game.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from multiprocessing.pool import Pool as PoolType
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai_arena import GAMES, mean_ci, seatings, wilson

from bot.engine import Rules, deal_tiles
from bot.engine.ai.evaluate import deal_value
from bot.engine.ai.rollout import (
    PlayoutWeights,
    best_move,
    game_key,
    hand_set_for,
    weights_for,
)
from bot.engine.deal import Deal
from bot.engine.events import Drew, Passed

NAMES = (
    "pips",
    "double",
    "strand",
    "follow",
    "stuck",
    "variety",
    "fives",
    "seat1",
    "seat2",
    "seat3",
)
"""The tuned coordinates: the scalar weights, then the first three next-seat weights."""


def to_vector(w: PlayoutWeights) -> list[float]:
    return [w.pips, w.double, w.strand, w.follow, w.stuck, w.variety, w.fives, *w.seats[:3]]


def from_vector(v: Sequence[float], base: PlayoutWeights) -> PlayoutWeights:
    seats = (*v[7:10], *base.seats[3:])
    return PlayoutWeights(v[0], v[1], v[2], v[3], v[4], v[5], v[6], tuple(seats))


def play_one(deal: Deal, weights: Sequence[PlayoutWeights]) -> None:
    """Play ``deal`` to its end, each seat with its own weights (no random moves)."""
    every = (1 << deal.rules.tile_count) - 1
    voids = [0] * deal.n
    history = deal.history
    while deal.end is None:
        moves = deal.legal_moves()
        before = len(history)
        if len(moves) == 1:
            deal.push(moves[0])
        else:
            deal.push(best_move(deal, moves, weights[deal.turn], voids, every))
        if len(history) > before + 1:
            fit = deal.layout.fit_mask()
            for e in history[before + 1 :]:
                if type(e) is Passed:
                    voids[e.seat] |= fit
                elif type(e) is Drew:
                    voids[e.seat] = fit


def duel(
    args: tuple[str, PlayoutWeights, PlayoutWeights, str, int, int],
) -> tuple[float, float]:
    """Weights ``a`` against ``b`` over deals ``start`` .. ``start + count - 1`` of
    ``seed``, every seating: ``a``'s summed deal value and summed wins (draw 1/2)."""
    game, a, b, seed, start, count = args
    rules = Rules.make(**GAMES[game])
    total = 0.0
    wins = 0.0
    for index in range(start, start + count):
        rng = random.Random(f"{seed}/{game}/{index}")
        hands, stock = deal_tiles(rules, rng)
        leader = rng.randrange(rules.players) if rules.game == "allfives" else None
        for seats in seatings(rules):
            deal = Deal.start(rules, hands, stock, leader)
            play_one(deal, [a if s in seats else b for s in range(rules.players)])
            total += sum(deal_value(deal, rules.side_of(s)) for s in seats) / len(seats)
            result = deal.result
            assert result is not None
            if not result.winners:
                wins += 0.5
            elif set(result.winners) & set(seats):
                wins += 1
    return total, wins


def match(
    pool: PoolType | None,
    game: str,
    a: PlayoutWeights,
    b: PlayoutWeights,
    seed: str,
    deals: int,
    jobs: int,
) -> tuple[float, float, int]:
    """``a`` against ``b`` over ``deals`` deals: summed value, summed wins, games."""
    chunk = max(1, math.ceil(deals / max(1, jobs)))
    tasks = [(game, a, b, seed, s, min(chunk, deals - s)) for s in range(0, deals, chunk)]
    parts = pool.map(duel, tasks) if pool is not None else [duel(t) for t in tasks]
    rules = Rules.make(**GAMES[game])
    games = deals * len(seatings(rules))
    return sum(p[0] for p in parts), sum(p[1] for p in parts), games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=list(GAMES), default="block-teams")
    parser.add_argument("--steps", type=int, default=300, help="SPSA steps")
    parser.add_argument("--deals", type=int, default=40, help="deals per step (every seating)")
    parser.add_argument("--check", type=int, default=2000, help="deals of the final check")
    parser.add_argument("--c", type=float, default=0.2, help="perturbation, in log space")
    parser.add_argument("--a", type=float, default=0.03, help="step size, in log space")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--start",
        choices=("default", "current"),
        default="current",
        help="start from the defaults or from the weights in use now",
    )
    args = parser.parse_args(argv)
    rules = Rules.make(**GAMES[args.game])
    fives = rules.scoring == "fives"
    base = hand_set_for(rules)
    start = weights_for(rules) if args.start == "current" else base
    fixed = {"fives"} if fives else {"pips"}
    if not fives:
        fixed.add("fives")  # no counts outside all fives
    if rules.players == 2:
        fixed |= {"seat2", "seat3"}
    elif rules.players == 3:
        fixed.add("seat3")
    tuned = [i for i, name in enumerate(NAMES) if name not in fixed]
    theta = [math.log(x) for x in to_vector(start)]
    rng = random.Random(f"tune/{args.seed}/{args.game}")
    pool = Pool(args.jobs) if args.jobs > 1 else None
    started = time.perf_counter()
    print(f"tuning {args.game} ({game_key(rules)}): {', '.join(NAMES[i] for i in tuned)}")
    rms = 0.0
    for k in range(args.steps):
        delta = {i: rng.choice((-1.0, 1.0)) for i in tuned}
        plus = list(theta)
        minus = list(theta)
        for i, d in delta.items():
            plus[i] += args.c * d
            minus[i] -= args.c * d
        wp = from_vector([math.exp(x) for x in plus], start)
        wm = from_vector([math.exp(x) for x in minus], start)
        total, _, games = match(pool, args.game, wp, wm, f"tune{k}", args.deals, args.jobs)
        diff = total / games
        rms = math.sqrt((rms * rms * k + diff * diff) / (k + 1))
        step = args.a / (1 + k / 100) ** 0.602
        for i, d in delta.items():
            theta[i] += step * (diff / max(rms, 1e-9)) * d
            theta[i] = max(-4.0, min(4.0, theta[i]))
        if (k + 1) % 25 == 0:
            now = from_vector([math.exp(x) for x in theta], start)
            print(
                f"step {k + 1:>4} ({time.perf_counter() - started:.0f} s): {fmt(now)}", flush=True
            )
    final = from_vector([math.exp(x) for x in theta], start)
    print(f"\ntuned: {fmt(final)}")
    for label, other in (("start", start), ("default", base)):
        total, wins, games = match(
            pool, args.game, final, other, f"check{args.seed}", args.check, args.jobs
        )
        low, high = wilson(wins, games)
        diffs = _per_game(args.game, final, other, args.seed, min(args.check, 400))
        m, h = mean_ci(diffs)
        print(
            f"tuned v {label}: {games} games, win {100 * wins / games:.1f}% "
            f"[{100 * low:.1f}, {100 * high:.1f}], mean value {total / games:+.2f} "
            f"(per deal over the first {len(diffs)}: {m:+.2f} ± {h:.2f})"
        )
    print(f"\nTUNED[{game_key(rules)!r}] = {final!r}")
    print(f"{time.perf_counter() - started:.0f} s in all")
    if pool is not None:
        pool.close()
    return 0


def _per_game(
    game: str, a: PlayoutWeights, b: PlayoutWeights, seed: int, deals: int
) -> list[float]:
    """Per deal (every seating summed), ``a``'s value: for the interval of the mean."""
    return [duel((game, a, b, f"check{seed}", i, 1))[0] for i in range(deals)]


def fmt(w: PlayoutWeights) -> str:
    v = to_vector(w)
    return ", ".join(f"{n}={x:.2f}" for n, x in zip(NAMES, v, strict=True))


if __name__ == "__main__":
    raise SystemExit(main())
