"""What a game review costs: the CPU time to review one finished deal (issue 40).

Deals are played by the normal level (every seat; ``--deals`` of them per game, seeds
0, 1, ...), read back from their records, and each is reviewed once with the review's
default settings (``bot.engine.review.ReviewSettings``) in this process. Printed per
game: deals, the median, 90th percentile and largest CPU time of the review
(``time.process_time``), the median decisions judged, and whether the median is within
the bound of issue 40 (a 4-player double-6 deal < 10 s, a Mexican Train round < 30 s).

Run with ``python benchmarks/review_cost.py --deals 5`` (``--games block-4 mexican-4``
for some of them).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Rules, new_match, play, view
from bot.engine.ai import Level, choose_move
from bot.engine.record import load_record, match_record
from bot.engine.review import ReviewSettings, review_deal

GAMES: dict[str, tuple[dict[str, Any], float]] = {
    # name: (rules, the bound on the median in CPU seconds)
    "block-4": ({"game": "block", "players": 4}, 10.0),
    "block-4t": ({"game": "block", "players": 4, "teams": True}, 10.0),
    "draw-4": ({"game": "draw", "players": 4}, 10.0),
    "draw-4t": ({"game": "draw", "players": 4, "teams": True}, 10.0),
    "allfives-4": ({"game": "allfives", "players": 4}, 10.0),
    "latvian-4": ({"game": "latvian", "players": 4}, 10.0),
    "mexican-4": ({"game": "mexican", "players": 4}, 30.0),
    "mexican-6": ({"game": "mexican", "players": 6}, 30.0),
}


def played_deal(rules: Rules, seed: int) -> dict[str, Any]:
    """The record of a match whose first deal the normal level played to its end."""
    state = new_match(rules, random.Random(seed))
    rng = random.Random(seed + 1)
    while not state.deal.over:
        seen = view(state, state.turn)
        state = play(state, choose_move(seen, Level.NORMAL, rng))
    return match_record(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    args = parser.parse_args()
    settings = ReviewSettings()
    print(
        f"known: work {settings.known.work} (Mexican Train {settings.mexican_work}), "
        f"worlds {settings.known.worlds}, candidates {settings.known.candidates}; "
        f"open: solver nodes {settings.open_nodes}, playouts {settings.open_playouts}"
    )
    print(f"{'game':<11} deals  median    p90     max  decisions  bound")
    for name in args.games:
        config, bound = GAMES[name]
        rules = Rules.make(**config)
        times = []
        decisions = []
        for seed in range(args.deals):
            state = load_record(played_deal(rules, seed))
            start = time.process_time()
            review = review_deal(state, 1, random.Random(seed), settings)
            times.append(time.process_time() - start)
            decisions.append(sum(1 for r in review.rows if not r.forced))
        times.sort()
        median = statistics.median(times)
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        verdict = "ok" if median < bound else "OVER"
        print(
            f"{name:<11} {len(times):>5} {median:>6.2f}s {p90:>6.2f}s {times[-1]:>6.2f}s"
            f" {statistics.median(decisions):>10} {verdict} (< {bound:.0f} s)"
        )


if __name__ == "__main__":
    main()
