"""Compare two arena runs deal by deal: which settings won more on the same deals.

``python benchmarks/arena_compare.py A.jsonl B.jsonl`` reads two files written by
``ai_arena.py --outcomes`` (runs of the same seed, different settings) and, for every
matchup both played, pairs the games by deal and seating. Per matchup it prints each
run's win rate (a drawn deal counts half) and margin over the common games, and the
paired difference A − B with a 95% interval over the deals (a deal's seatings are
averaged first, so the deal is the unit). The deal's luck is the same for both runs
and cancels out of the difference: a paired comparison tells two settings apart
with far fewer deals than two separate win rates.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections import defaultdict
from pathlib import Path

Games = dict[str, dict[tuple[int, int], tuple[float, float]]]


def load(path: Path) -> Games:
    """matchup -> (deal, seating) -> (score 1 / ½ / 0, margin)."""
    games: Games = defaultdict(dict)
    with path.open() as f:
        for line in f:
            o = json.loads(line)
            score = (o["result"] + 1) / 2
            games[o["matchup"]][(o["deal"], o["seating"])] = (score, o["margin"])
    return games


def paired(diffs: list[float]) -> tuple[float, float]:
    """Mean and 95% half-width (normal approximation) of per-deal differences."""
    if len(diffs) < 2:
        return (diffs[0] if diffs else 0.0), math.inf
    return statistics.fmean(diffs), 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))


def compare(a: Games, b: Games) -> list[str]:
    lines = [
        f"{'matchup':<30} {'games':>6} {'A win%':>7} {'B win%':>7} {'A−B win% [95%]':>20}"
        f" {'A−B margin [95%]':>20}"
    ]
    for matchup in sorted(a.keys() & b.keys()):
        keys = sorted(a[matchup].keys() & b[matchup].keys())
        if not keys:
            continue
        by_deal: dict[int, list[tuple[float, float]]] = defaultdict(list)
        for key in keys:
            (sa, ma), (sb, mb) = a[matchup][key], b[matchup][key]
            by_deal[key[0]].append((sa - sb, ma - mb))
        wins = paired([statistics.fmean(d[0] for d in ds) for ds in by_deal.values()])
        margins = paired([statistics.fmean(d[1] for d in ds) for ds in by_deal.values()])
        rate_a = statistics.fmean(a[matchup][k][0] for k in keys)
        rate_b = statistics.fmean(b[matchup][k][0] for k in keys)
        lines.append(
            f"{matchup:<30} {len(keys):>6} {100 * rate_a:6.1f}% {100 * rate_b:6.1f}%"
            f" {100 * wins[0]:+8.1f} ± {100 * wins[1]:5.1f}"
            f"      {margins[0]:+7.2f} ± {margins[1]:5.2f}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", type=Path, help="outcomes of run A (ai_arena.py --outcomes)")
    parser.add_argument("b", type=Path, help="outcomes of run B, the same seed")
    args = parser.parse_args(argv)
    print("\n".join(compare(load(args.a), load(args.b))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
