"""Mexican Train's hard level against normal, fair or told what it should not know.

Experiments only: ``oracle`` is never a player. ``python benchmarks/trains_oracle.py
--variant oracle --players 4 --deals 40 --outcomes O.jsonl`` plays duplicate deals as
``ai_arena.py --part mexican`` does (each deal once per seat, one seat of the variant
at a table of normal players, the same tiles every time; the same seeds, so the deals
are the arena's) with one of these in that seat:

- ``hard``: the hard level as the bot plays it (``--const NAME=VALUE`` sets a constant
  of :mod:`bot.engine.ai.trains_search` first, e.g. ``HORIZON=3``);
- ``oracle``: the hard level told every hand (every world holds the real hands; the
  boneyard's order is still shuffled): the ceiling of hidden information for this
  search;
- ``seer``: the same and the boneyard's real order too.

Prints the variant's pips minus the other seats' mean (lower is better) with a 95%
interval over the deals, its round wins, and its decision times. ``--outcomes FILE``
writes one JSON object a game (``matchup``, ``deal``, ``seating``, ``result``,
``margin``) that ``benchmarks/arena_compare.py A B`` pairs deal by deal with another
run of the same deals (``--first-deal`` splits a long run; ``--rounds 1 5 9`` plays
later rounds, deal by deal in turn, as in the arena).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ai_arena

from bot.engine import MatchState, Move, view
from bot.engine.ai import SearchSettings, choose_move, trains_search
from bot.engine.tiles import Tile

VARIANTS = ("hard", "oracle", "seer")
_truth: tuple[list[int], list[Tile]] | None = None
"""The real hands and boneyard (top first) of the decision being made, if told."""
_fair_sample = trains_search.sample_hands
_tell_boneyard = False


def _told_sample(know: Any, rng: random.Random) -> tuple[list[int], list[Tile]]:
    if _truth is None:
        return _fair_sample(know, rng)
    hands, boneyard = _truth
    if _tell_boneyard:
        return list(hands), list(boneyard)
    rest = list(boneyard)
    rng.shuffle(rest)
    return list(hands), rest


def chooser(level: str, rng: random.Random, settings: SearchSettings) -> Any:
    """``ai_arena.our_chooser`` with the told variants."""

    def choose(state: MatchState, seat: int) -> Move:
        global _truth
        if level in ("oracle", "seer"):
            deal: Any = state.deal
            _truth = (list(deal.hands), list(deal.stock[deal.drawn :]))
            try:
                return choose_move(view(state, seat), "hard", rng, settings)
            finally:
                _truth = None
        return choose_move(view(state, seat), level, rng, settings)

    return choose


def set_constant(item: str) -> None:
    name, _, value = item.partition("=")
    old = getattr(trains_search, name)
    setattr(trains_search, name, type(old)(float(value)) if type(old) is int else float(value))


def main(argv: list[str] | None = None) -> int:
    global _tell_boneyard
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", choices=VARIANTS, default="oracle")
    parser.add_argument("--players", type=int, choices=(4, 8), default=4)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--rounds", nargs="*", type=int, default=[1])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--const", nargs="*", default=[], metavar="NAME=VALUE")
    parser.add_argument("--outcomes", type=Path, default=None, metavar="FILE")
    ai_arena.add_hard_option(parser)
    args = parser.parse_args(argv)
    for item in args.const:
        set_constant(item)
    trains_search.sample_hands = _told_sample
    _tell_boneyard = args.variant == "seer"
    ai_arena.our_chooser = chooser
    settings = ai_arena.hard_settings(args.hard)
    game = f"mexican-{args.players}p"
    matchup = f"{game} {args.variant} v normal"
    key = f"{game} v normal"  # the same in every variant: arena_compare pairs by it
    record = args.outcomes.open("a") if args.outcomes else None
    started = time.perf_counter()
    outcomes = []
    rounds = args.rounds
    for i in range(args.first_deal, args.first_deal + args.deals):
        task = (game, args.variant, "normal", args.seed, i, settings, rounds[i % len(rounds)])
        o = ai_arena.mexican_task(task)
        outcomes.append(o)
        if record is not None:
            for s, (m, w) in enumerate(zip(o.margins, o.wins, strict=True)):
                line = {"matchup": key, "deal": i, "seating": s, "result": 2 * w - 1}
                record.write(json.dumps({**line, "margin": m}) + "\n")
            record.flush()
    print(ai_arena.MEXICAN_HEADER)
    print(ai_arena.mexican_row(matchup, outcomes, args.players))
    times = [t for o in outcomes for t in o.times.get(args.variant, [])]
    early = [t for o in outcomes for t in o.early]
    for label, xs in (("all", times), ("early", early)):
        if xs:
            print(
                f"{args.variant} {label}: {len(xs)} decisions, median "
                f"{1000 * statistics.median(xs):.1f} ms, p95 "
                f"{1000 * ai_arena.percentile(xs, 0.95):.1f} ms, max {1000 * max(xs):.1f} ms"
            )
    print(f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
