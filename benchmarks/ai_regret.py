"""Decision quality of the hard level, measured as regret against the real hands.

Winning percentages over whole deals need thousands of deals to tell two settings
apart: a different early move sends a deal somewhere else, so even duplicate deals
pair poorly. This script measures each *decision* instead:

1. ``--collect N`` plays N deals of 4-player block in teams (the game of
   ``ai_arena.py``'s part 2): our team on hard (``--collect-work`` units, to be
   quick) against ``dominoes`` 6.1.0's ``probabilistic_alphabeta(8, 20)`` or random
   players (``--opponent``; ``normal`` or ``easy``: 2-player block against our own
   level instead, the hard seat alone), and keeps every position where one of our seats has a
   choice and the hands hold ``--max-tiles`` tiles or fewer. Each legal move of such a
   position is valued exactly on the *real* hands (``LineSolver``: every seat then
   plays perfectly, seeing everything; with ``--chance 1`` the other side lays at
   random instead, the yardstick against random players). Positions go to
   ``--positions`` (a pickle).
2. Each ``--variant NAME:key=value,...`` (``SearchSettings`` fields; ``base:`` for the
   defaults; ``oracle=partner``, ``oracle=next`` or ``oracle=all``: the search is told
   that seat's real hand, or every hand, to measure what reading it would be worth)
   then decides every position from the seat's view, and its regret is the best move's
   exact value less the chosen move's (0 when it chose a best move), in points of the
   deal (with the win bonus). Printed per variant: mean regret with a 95% interval,
   the share of best moves, the mean by hand size, and the paired difference from the
   first variant (the same positions, so the positions' difficulty cancels out).

The real hands' values reward what a perfect-information player would do; they do not
see every merit of play under hidden information (a move that hides one's hand), so
this complements the arena, it does not replace it: use it to tell settings apart
quickly, then confirm the winner in the arena.
"""

from __future__ import annotations

import argparse
import math
import pickle
import random
import statistics
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai_arena import Bridge, our_chooser, their_package, with_setting
from oracle import tell

from bot.engine import MatchState, Move, Rules, deal_tiles, play, start_match, view
from bot.engine.ai import Level, SearchSettings, choose_move
from bot.engine.ai.solver import LineSolver, SearchLimit

Position = tuple[MatchState, int, dict[Move, float]]
"""A state, the seat to move, and the exact value of each legal move for its side."""


def exact_values(state: MatchState, nodes: int, chance: float) -> dict[Move, float] | None:
    """Each legal move's value on the real hands, or ``None`` past ``nodes``
    (``chance``: how often the other side lays at random, ``LineSolver``'s)."""
    deal = state.deal
    side = deal.side_of[deal.turn]
    solver = LineSolver(deal, side, nodes, chance=chance)
    values = {}
    try:
        for move in deal.legal_moves():
            values[move] = solver.after(deal, move)
    except SearchLimit:
        return None
    return values


CollectTask = tuple[int, str, SearchSettings, int, int, float]
"""A deal's index, the opponent, our settings, the most tiles kept, the solver's nodes,
how often the other side is valued as laying at random."""


def collect_deal(args: CollectTask) -> list[Position]:
    """Play one deal (our team on seats 0+2 for even deals, 1+3 for odd ones) and keep
    its positions with a choice for our seats."""
    index, opponent, settings, max_tiles, nodes, chance = args
    if opponent in OUR_LEVELS:
        return collect_two_player(args)
    dominoes = their_package()
    rules = Rules.make("block", players=4, teams=True)
    rng = random.Random(f"regret/{index}")
    hands, _ = deal_tiles(rules, rng)
    random.seed(f"regret/{index}/dominoes")
    bridge = Bridge(dominoes, hands)
    ours = (0, 2) if index % 2 == 0 else (1, 3)
    chooser = our_chooser(Level.HARD, random.Random(f"regret/{index}/ours"), settings)
    alphabeta = dominoes.players.probabilistic_alphabeta(8, 20)
    theirs = random.Random(f"regret/{index}/theirs")
    kept: list[Position] = []
    while not bridge.state.deal.over:
        state = bridge.state
        seat = state.deal.turn
        if seat in ours:
            legal = state.legal_moves()
            if len(legal) > 1 and sum(state.deal.hand_sizes()) <= max_tiles:
                values = exact_values(state, nodes, chance)
                if values is not None:
                    kept.append((state, seat, values))
            move = chooser(state, seat)
        elif opponent == "alphabeta":
            alphabeta(bridge.game)
            move = bridge.their_move_to_ours(*bridge.game.valid_moves[0])
        else:
            move = theirs.choice(state.legal_moves())
        bridge.apply(move)
    return kept


OUR_LEVELS = (Level.NORMAL, Level.EASY)
"""Opponents from our own levels: the deals are 2-player block instead."""


def collect_two_player(args: CollectTask) -> list[Position]:
    """Play one deal of 2-player block: our hard level (seat 0 on even deals, 1 on odd
    ones) against one of our own levels, keeping the hard seat's positions with a
    choice."""
    index, opponent, settings, max_tiles, nodes, chance = args
    rules = Rules.make("block", players=2)
    rng = random.Random(f"regret/2p/{index}")
    hands, stock = deal_tiles(rules, rng)
    state = start_match(rules, hands, stock)
    ours = index % 2
    chooser = our_chooser(Level.HARD, random.Random(f"regret/2p/{index}/ours"), settings)
    theirs = our_chooser(opponent, random.Random(f"regret/2p/{index}/theirs"), SearchSettings())
    kept: list[Position] = []
    while not state.deal.over:
        seat = state.deal.turn
        if seat == ours:
            if len(state.legal_moves()) > 1 and sum(state.deal.hand_sizes()) <= max_tiles:
                values = exact_values(state, nodes, chance)
                if values is not None:
                    kept.append((state, seat, values))
            move = chooser(state, seat)
        else:
            move = theirs(state, seat)
        state = play(state, move, seat)
    return kept


def decide(args: tuple[int, Position, SearchSettings, str]) -> float:
    """The regret of the hard level's choice in one position (``oracle``: "partner" or
    "next" searches knowing that seat's real hand, "" plays fair)."""
    index, (state, seat, values), settings, oracle = args
    tell(state, seat, oracle)
    move = choose_move(view(state, seat), Level.HARD, random.Random(index), settings)
    return max(values.values()) - values[move]


def parse_variant(text: str) -> tuple[str, SearchSettings, str]:
    """``NAME:key=value,...``; the key ``oracle`` (``oracle.ORACLES``) is the experiment's."""
    name, _, fields = text.partition(":")
    settings = SearchSettings()
    oracle = ""
    for item in filter(None, fields.split(",")):
        key, _, value = item.partition("=")
        if key == "oracle":
            oracle = value
        else:
            settings = with_setting(settings, item)
    return name, settings, oracle


def interval(xs: list[float]) -> tuple[float, float]:
    return statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=Path, default=Path("/tmp/dominobot-regret.pkl"))
    parser.add_argument("--collect", type=int, default=0, help="deals to collect positions from")
    parser.add_argument(
        "--opponent",
        choices=("alphabeta", "random", *OUR_LEVELS),
        default="alphabeta",
        help="dominoes' players (4-player block, teams) or our own levels (2-player block)",
    )
    parser.add_argument("--collect-work", type=int, default=50_000)
    parser.add_argument(
        "--collect-setting",
        action="append",
        default=[],
        help="NAME=VALUE: a SearchSettings field for our players while collecting",
    )
    parser.add_argument(
        "--chance",
        type=float,
        default=0.0,
        help="value the collected positions with the other side laying at random this "
        "often (1: always)",
    )
    parser.add_argument("--max-tiles", type=int, default=24)
    parser.add_argument("--nodes", type=int, default=3_000_000, help="solver nodes per position")
    parser.add_argument("--variant", action="append", default=[], help="NAME:key=value,...")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0, help="use the first N positions only")
    args = parser.parse_args(argv)
    with Pool(args.jobs) as pool:
        if args.collect:
            ours = SearchSettings(work=args.collect_work)
            for item in args.collect_setting:
                ours = with_setting(ours, item)
            tasks = [
                (i, args.opponent, ours, args.max_tiles, args.nodes, args.chance)
                for i in range(args.collect)
            ]
            positions = [p for ps in pool.map(collect_deal, tasks, chunksize=1) for p in ps]
            args.positions.write_bytes(pickle.dumps(positions))
            print(f"{len(positions)} positions from {args.collect} deals -> {args.positions}")
        positions = pickle.loads(args.positions.read_bytes())
        if args.limit:
            positions = positions[: args.limit]
        first: list[float] | None = None
        for text in args.variant:
            name, settings, oracle = parse_variant(text)
            tasks2 = [(i, p, settings, oracle) for i, p in enumerate(positions)]
            regrets = pool.map(decide, tasks2, chunksize=4)
            mean, half = interval(regrets)
            best = sum(r == 0 for r in regrets) / len(regrets)
            line = f"{name:<16} {len(regrets):>5} positions  regret {mean:6.3f} ± {half:5.3f}"
            line += f"  best move {100 * best:5.1f}%"
            for low, high in ((0, 16), (17, 20), (21, 24), (25, 28)):
                part = [
                    r
                    for r, (state, _, _) in zip(regrets, positions, strict=True)
                    if low <= sum(state.deal.hand_sizes()) <= high
                ]
                if part:
                    line += f"  [{low}-{high} tiles: {statistics.fmean(part):5.2f}]"
            if first is None:
                first = regrets
            else:
                diff, dhalf = interval([a - b for a, b in zip(regrets, first, strict=True)])
                line += f"  v first {diff:+6.3f} ± {dhalf:5.3f}"
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
