"""The exact solver's speed: nodes and microseconds a node on fixed endgames.

Deals of three games are played by random moves (seeds 0, 1, ...) until few tiles
are left, the way the hard level meets them: 4-player block teams at 20 tiles in
hands (where the search starts solving from the root), 2-player block just after
the lead (13 tiles), 2-player draw at 16 tiles in hands and boneyard. A fresh
:class:`~bot.engine.ai.solver.LineSolver` then values every legal move of each
position, as the search does in one world. Positions past ``--nodes`` are counted
and skipped (the search falls back on playouts there).

Printed for each game: positions, nodes in all, the best time of ``--rounds``
rounds and microseconds a node, and a checksum of the values, which must not move
when the solver is only made faster. The search counts a node as ``NODE_COST`` work
units (``bot/engine/ai/search.py``), about a microsecond each: a faster solver
should lower it, so that the same budget buys more worlds.

Run with ``python benchmarks/solver_bench.py``.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from bot.engine import Deal, Rules, deal_tiles
from bot.engine.ai.solver import LineSolver, SearchLimit, solvable

GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("block, teams (20 tiles)", {"game": "block", "players": 4, "teams": True}, 20),
    ("block, 2 players (13 tiles)", {"game": "block", "players": 2}, 13),
    ("draw, 2 players (16 tiles)", {"game": "draw", "players": 2}, 16),
]


def endgame(config: dict[str, Any], seed: int, tiles: int) -> Deal | None:
    """A deal played by random moves until ``tiles`` or fewer are left in hands (and
    the boneyard, when the game draws), if the solver handles it then."""
    rules = Rules.make(**config)
    rng = random.Random(seed)
    hands, stock = deal_tiles(rules, rng)
    deal = Deal.start(rules, hands, stock)

    def left() -> int:
        return sum(deal.hand_sizes()) + (deal.boneyard_size if rules.draws else 0)

    while deal.end is None and left() > tiles:
        deal.push(rng.choice(deal.legal_moves()))
    return deal if deal.end is None and solvable(deal) else None


def positions(config: dict[str, Any], tiles: int, count: int) -> list[Deal]:
    found: list[Deal] = []
    seed = 0
    while len(found) < count:
        if seed > 100 * count:
            raise SystemExit(f"{config} has no solvable position at {tiles} tiles")
        deal = endgame(config, seed, tiles)
        seed += 1
        if deal is not None:
            found.append(deal)
    return found


def solve(deals: list[Deal], nodes: int) -> tuple[int, int, float]:
    """Nodes visited, positions skipped and the sum of the values, over ``deals``."""
    visited = skipped = 0
    total = 0.0
    for deal in deals:
        side = deal.side_of[deal.turn]
        solver = LineSolver(deal, side, nodes)
        try:
            values = [solver.after(deal, move) for move in deal.legal_moves()]
        except SearchLimit:
            skipped += 1
        else:
            total += sum(values)
        visited += solver.nodes
    return visited, skipped, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=60, help="positions per game")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds (best kept)")
    parser.add_argument("--nodes", type=int, default=30_000, help="node budget per position")
    args = parser.parse_args()
    heads = ("positions", "skipped", "nodes", "ms", "us/node")
    print(f"{'game':30} " + " ".join(f"{h:>9}" for h in heads) + "  checksum")
    for name, config, tiles in GAMES:
        deals = positions(config, tiles, args.positions)
        best = float("inf")
        for _ in range(args.rounds):
            start = time.perf_counter()
            visited, skipped, total = solve(deals, args.nodes)
            best = min(best, time.perf_counter() - start)
        print(
            f"{name:30} {len(deals):9} {skipped:9} {visited:9} {best * 1000:9.0f}"
            f" {best / visited * 1e6:9.2f}  {total:.1f}"
        )


if __name__ == "__main__":
    main()
