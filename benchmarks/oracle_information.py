"""How much each partial oracle of ``oracle.py`` tells, in nats: on the positions of
``ai_regret.py``, the surprisal of the partner's real hand's fact (``-ln`` of its share
among the partner's hands in fairly sampled worlds). Run with
``python benchmarks/oracle_information.py --positions FILE``."""

from __future__ import annotations

import argparse
import math
import pickle
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from oracle import PARTIAL, agreement

from bot.engine import view
from bot.engine.ai.determinize import sample_world
from bot.engine.ai.knowledge import read_view


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--worlds", type=int, default=400)
    args = parser.parse_args(argv)
    positions = pickle.loads(args.positions.read_bytes())[: args.limit]
    rng = random.Random(1)
    nats: dict[str, list[float]] = {k: [] for k in PARTIAL}
    for state, seat, _ in positions:
        know = read_view(view(state, seat))
        partner = (seat + 2) % state.rules.players
        real = state.deal.hands[partner]
        hands = Counter(sample_world(know, rng).hands[partner] for _ in range(args.worlds))
        for kind in PARTIAL:
            agrees = agreement(real, kind)
            share = sum(n for hand, n in hands.items() if agrees(hand)) / args.worlds
            nats[kind].append(-math.log(max(share, 0.5 / args.worlds)))
    for kind in PARTIAL:
        print(f"partner_{kind:<6} {statistics.fmean(nats[kind]):5.2f} nats")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
