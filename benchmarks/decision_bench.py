"""The hard level's decision time on fixed positions, alone or with every core busy.

Positions come from deals of the normal level against ``--against`` (the normal level
or the easy one, who lays at random; ``--game``, seeds 0, 1, ...): every turn where a
seat of the first side (seat 0's) has two moves or more is a position, so the set
does not depend on the hard level's own code. The hard level then decides each
position once, with an rng seeded by the position's number; ``--jobs`` processes
decide at the same time (``--jobs 2`` on this 2-core machine is the bot with both
cores busy).

Printed: positions, the median, 90th and 95th percentile and the largest CPU time of
the deciding thread (``time.thread_time``, as the arena measures it), and a checksum
of the moves chosen: a change that only makes the search faster must not move it
(the work budget, not the clock, ends a decision).

Compare two versions of the code by running this script in each (a ``git worktree``
of the other commit) one after the other, or both at once with ``--jobs 1`` each.

Run with ``python benchmarks/decision_bench.py --game block-teams --deals 20``.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai_arena import GAMES, add_hard_option, hard_settings, percentile

from bot.engine import MatchState, PlayerView, Rules, deal_tiles, play, start_match, view
from bot.engine.ai import Level, SearchSettings, choose_move


def positions(game: str, deals: int, against: str = Level.NORMAL) -> list[PlayerView]:
    """Every view of a seat of seat 0's side with a choice, in ``deals`` deals of normal
    players (that side) against ``against``."""
    rules = Rules.make(**GAMES[game])
    ours = rules.side_of(0)
    found: list[PlayerView] = []
    for index in range(deals):
        rng = random.Random(f"decision/{game}/{index}")
        hands, stock = deal_tiles(rules, rng)
        leader = rng.randrange(rules.players) if rules.game == "allfives" else None
        state: MatchState = start_match(rules, hands, stock, leader)
        while not state.deal.over:
            seat = state.deal.turn
            seen = view(state, seat)
            mine = rules.side_of(seat) == ours
            if mine and len(seen.legal_moves) > 1:
                found.append(seen)
            level = Level.NORMAL if mine else against
            state = play(state, choose_move(seen, level, rng), seat)
    return found


def decide(args: tuple[int, PlayerView, SearchSettings]) -> tuple[float, str]:
    """The hard level's CPU seconds on one position, and its move."""
    number, seen, settings = args
    start = time.thread_time()
    move = choose_move(seen, Level.HARD, random.Random(number), settings)
    return time.thread_time() - start, repr(move)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="block-teams")
    parser.add_argument("--deals", type=int, default=20, help="deals to take positions from")
    parser.add_argument("--against", choices=[Level.NORMAL, Level.EASY], default=Level.NORMAL)
    parser.add_argument("--jobs", type=int, default=1, help="processes deciding at once")
    add_hard_option(parser)
    args = parser.parse_args()
    settings = hard_settings(args.hard)
    views = positions(args.game, args.deals, args.against)
    tasks = [(number, seen, settings) for number, seen in enumerate(views)]
    with Pool(args.jobs) as pool:
        results = pool.map(decide, tasks, chunksize=1)
    times = [t * 1000 for t, _ in results]
    digest = hashlib.sha256("\n".join(m for _, m in results).encode()).hexdigest()[:12]
    print(
        f"{args.game} v {args.against}: {len(times)} positions, {args.jobs} at once: CPU ms median "
        f"{statistics.median(times):.0f}, p90 {percentile(times, 0.90):.0f}, "
        f"p95 {percentile(times, 0.95):.0f}, max {max(times):.0f}; moves {digest}"
    )


if __name__ == "__main__":
    main()
