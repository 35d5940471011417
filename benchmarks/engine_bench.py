"""Rules-engine speed: our engine against the PyPI package ``dominoes`` 6.1.0, in one run.

Every contender plays random complete deals of the same game: the 4-player
partnership block game on double-6 (7 tiles each, seats 0+2 against 1+3, the
holder of 6-6 leads it, no drawing, a seat that cannot lay passes, the deal ends
when a seat is out or when nobody can lay). A "deal" covers the shuffle and
deal, the lead and every move up to the end, each move picked at random from
the legal ones. The figure reported is complete deals per second.

Contenders:

* ``dominoes 6.1.0`` -- ``Game.new(starting_domino=Domino(6, 6))`` deals (from
  the global ``random`` module, seeded here) and lays 6-6; then, until
  ``game.result`` is set, ``players.random`` shuffles ``game.valid_moves`` and
  ``make_move`` plays the first (it does the passes itself).
* ``ours: Deal.push`` -- the mutable fast path the AI's playouts use:
  ``deal_tiles`` + ``Deal.start``, then ``push(rng.choice(legal_moves()))``
  until ``deal.end`` is set. This is the line the goal is about.
* ``ours: match.play`` -- the immutable public API (``new_match`` / ``play``,
  which checks every move and copies the deal), for information only.

Method: the contenders take turns in rounds (each runs ``--seconds`` per round,
the order alternating between rounds so neither is always first after the
other), after a short warm-up. Each contender's median deals/s over the rounds
is reported, with the ratio to ``dominoes``; the goal is ours/theirs >= 1.5.
Mean tiles laid per deal (the lead included) is printed as a sanity check that
both sides play complete deals of the same game: they should be close.

Run with ``make bench`` or ``python benchmarks/engine_bench.py``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

GOAL = 1.5
THEIR_VERSION = "6.1.0"

# A contender plays deals for about ``seconds`` from ``seed`` and returns
# (deals played, tiles laid, seconds taken).
Runner = Callable[[float, int], tuple[int, int, float]]


def theirs_runner(dominoes: Any) -> Runner:
    new_game = dominoes.Game.new
    six_six = dominoes.Domino(6, 6)
    choose = dominoes.players.random
    clock = time.perf_counter

    def run(seconds: float, seed: int) -> tuple[int, int, float]:
        random.seed(seed)  # the package deals and shuffles with the global generator
        deals = laid = 0
        start = clock()
        stop = start + seconds
        while True:
            game = new_game(starting_domino=six_six)
            while game.result is None:
                choose(game)
                game.make_move(*game.valid_moves[0])
            deals += 1
            laid += len(game.board)
            now = clock()
            if now >= stop:
                return deals, laid, now - start

    return run


def ours_push_runner() -> Runner:
    from bot.engine.deal import Deal, deal_tiles
    from bot.engine.rules import Rules

    rules = Rules.make("block", players=4, teams=True)
    start_deal = Deal.start
    clock = time.perf_counter

    def run(seconds: float, seed: int) -> tuple[int, int, float]:
        rng = random.Random(seed)
        choice = rng.choice
        deals = laid = 0
        start = clock()
        stop = start + seconds
        while True:
            hands, stock = deal_tiles(rules, rng)
            d = start_deal(rules, hands, stock)
            while d.end is None:
                d.push(choice(d.legal_moves()))
            deals += 1
            laid += d.layout.on_table.bit_count()
            now = clock()
            if now >= stop:
                return deals, laid, now - start

    return run


def ours_match_runner() -> Runner:
    from bot.engine.match import new_match, play
    from bot.engine.rules import Rules

    rules = Rules.make("block", players=4, teams=True)
    clock = time.perf_counter

    def run(seconds: float, seed: int) -> tuple[int, int, float]:
        rng = random.Random(seed)
        choice = rng.choice
        deals = laid = 0
        start = clock()
        stop = start + seconds
        while True:
            s = new_match(rules, rng)
            while not s.deal.over:
                s = play(s, choice(s.legal_moves()))
            deals += 1
            laid += s.deal.layout.on_table.bit_count()
            now = clock()
            if now >= stop:
                return deals, laid, now - start

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Deals per second: our rules engine against dominoes 6.1.0 (4-player block)."
    )
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="time per contender per round (default 1.0)"
    )
    parser.add_argument("--rounds", type=int, default=7, help="number of rounds (default 7)")
    parser.add_argument("--seed", type=int, default=2024, help="base random seed (default 2024)")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be positive and --rounds at least 1")

    try:
        dominoes = importlib.import_module("dominoes")  # untyped: imported by name
    except ImportError:
        print(
            "engine_bench: the package 'dominoes' is not installed; install the bench extra "
            "with:\n    pip install -e '.[bench]'",
            file=sys.stderr,
        )
        return 2
    version = importlib.metadata.version("dominoes")

    contenders: list[tuple[str, Runner]] = [
        (f"dominoes {version}", theirs_runner(dominoes)),
        ("ours: Deal.push", ours_push_runner()),
        ("ours: match.play", ours_match_runner()),
    ]
    names = [name for name, _ in contenders]
    rates: dict[str, list[float]] = {name: [] for name in names}
    deals: dict[str, int] = dict.fromkeys(names, 0)
    laid: dict[str, int] = dict.fromkeys(names, 0)

    print(
        f"4-player partnership block, double-6: {args.rounds} rounds x {args.seconds:g} s "
        f"per contender, seed {args.seed}, Python {sys.version.split()[0]}"
    )
    if version != THEIR_VERSION:
        print(f"warning: dominoes {version} installed; the yardstick is {THEIR_VERSION}")

    warmup = min(0.2, args.seconds)
    for _, run in contenders:
        run(warmup, args.seed - 1)

    for r in range(args.rounds):
        order = contenders if r % 2 == 0 else contenders[::-1]
        for name, run in order:
            n, tiles, took = run(args.seconds, args.seed + r)
            rates[name].append(n / took)
            deals[name] += n
            laid[name] += tiles

    medians = {name: statistics.median(rates[name]) for name in names}
    theirs = medians[names[0]]
    print()
    header = ("contender", "median deals/s", "min", "max", "tiles/deal")
    print(
        f"{header[0]:<20} {header[1]:>14} {header[2]:>9} {header[3]:>9} {header[4]:>10}  vs theirs"
    )
    for name in names:
        ratio = medians[name] / theirs
        if name == names[0]:
            verdict = "1.00x  (reference)"
        elif name == "ours: Deal.push":
            verdict = f"{ratio:.2f}x  {'PASS' if ratio >= GOAL else 'MISS'} (goal >= {GOAL}x)"
        else:
            verdict = f"{ratio:.2f}x  (information)"
        print(
            f"{name:<20} {medians[name]:>14,.0f} {min(rates[name]):>9,.0f} "
            f"{max(rates[name]):>9,.0f} {laid[name] / deals[name]:>10.2f}  {verdict}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
