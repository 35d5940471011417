"""Fit the hard level's choice model (``bot/engine/ai/choice_model.py``) by maximum likelihood.

Plays ``--deals`` deals of a game between the given levels (``--levels``, one per
seat), and keeps every choice another seat's knowledge records (a tile laid alone,
not the lead, not after a draw, with two placements open or more) together with the
chooser's real hand then. The model's weights are fitted on the first half of the
choices by Newton's method (a conditional logit over the placements open to the
chooser, with a small ridge), and scored on the second half: the mean log-likelihood
of the real choices per choice, against choosing at random and against heavy-first
(``SearchSettings.infer``'s model, 0.3 per pip), with and without the signal reading.
The fitted weights are printed as a ``ChoiceWeights`` to paste into ``FITTED``.

    python benchmarks/fit_choices.py --game block-2p --levels normal,normal --deals 4000

(``FITTED["block", 2]`` came from this command: 24,771 choices, half
a minute on this machine.) ``FITTED["block", 4]``, from four hard players at a
third of their usual budget (5,285 choices, ten minutes on one core)::

    python benchmarks/fit_choices.py --game block-teams --levels hard,hard,hard,hard \
        --deals 400 --hard work=50000 --jobs 1
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import sys
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai_arena import GAMES, add_hard_option, hard_settings, our_chooser

from bot.engine import Rules, deal_tiles, play, start_match, view
from bot.engine.ai import SearchSettings
from bot.engine.ai.choice_model import ChoiceWeights, features, placements
from bot.engine.ai.knowledge import Choice, read_view
from bot.engine.tiles import PIPS

Row = tuple[list[tuple[float, ...]], int]
"""The features of each placement open, and the index of the one chosen."""


def collect(args: tuple[str, tuple[str, ...], int, SearchSettings]) -> list[Row]:
    """The choices of one deal, as rows."""
    game, levels, index, settings = args
    rules = Rules.make(**GAMES[game])
    rng = random.Random(f"fit/{game}/{index}")
    hands, stock = deal_tiles(rules, rng)
    state = start_match(rules, hands, stock, None)
    choosers = [
        our_chooser(level, random.Random(f"fit/{game}/{index}/{s}"), settings)
        for s, level in enumerate(levels)
    ]
    every = (1 << rules.tile_count) - 1
    rows: list[Row] = []
    while not state.deal.over:
        seat = state.deal.turn
        hand = state.deal.hands[seat]
        move = choosers[seat](state, seat)
        state = play(state, move, seat)
        if state.deal.over:
            break
        viewer = (seat + 1) % rules.players
        know = read_view(view(state, viewer))
        if not know.choices:
            continue
        last = know.choices[-1]
        if last.seat != seat or last.tile not in move.tiles or len(move.placements) != 1:
            continue
        row = row_of(last, hand, every)
        if row is not None:
            rows.append(row)
    return rows


def row_of(c: Choice, hand: int, every: int) -> Row | None:
    options = placements(c, hand)
    if len(options) < 2:
        return None
    chosen = options.index((int(c.tile), PIPS[c.tile] - c.exposed))
    return [features(c, hand, t, v, every) for t, v in options], chosen


def log_likelihood(rows: Sequence[Row], w: Sequence[float]) -> float:
    """Mean log-likelihood per choice of the chosen placements under weights ``w``."""
    total = 0.0
    for xs, y in rows:
        scores = [sum(a * b for a, b in zip(w, x, strict=True)) for x in xs]
        top = max(scores)
        total += scores[y] - top - math.log(sum(math.exp(s - top) for s in scores))
    return total / len(rows)


def fit(rows: Sequence[Row], k: int, ridge: float = 1e-3, steps: int = 30) -> list[float]:
    """Maximum likelihood weights (Newton's method on the penalized log-likelihood)."""
    w = [0.0] * k
    n = len(rows)
    for _ in range(steps):
        grad = [-ridge * n * wi for wi in w]
        hess = [[-ridge * n * (a == b) for b in range(k)] for a in range(k)]
        for xs, y in rows:
            scores = [sum(a * b for a, b in zip(w, x, strict=True)) for x in xs]
            top = max(scores)
            es = [math.exp(s - top) for s in scores]
            z = sum(es)
            ps = [e / z for e in es]
            mean = [sum(p * x[a] for p, x in zip(ps, xs, strict=True)) for a in range(k)]
            for a in range(k):
                grad[a] += xs[y][a] - mean[a]
                for b in range(a, k):
                    cov = sum(p * x[a] * x[b] for p, x in zip(ps, xs, strict=True))
                    hess[a][b] -= cov - mean[a] * mean[b]
                    hess[b][a] = hess[a][b]
        step = solve(hess, [-g for g in grad])
        w = [wi + s for wi, s in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return w


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting)."""
    k = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for i in range(k):
        pivot = max(range(i, k), key=lambda r: abs(m[r][i]))
        m[i], m[pivot] = m[pivot], m[i]
        for r in range(k):
            if r != i:
                f = m[r][i] / m[i][i]
                for c in range(i, k + 1):
                    m[r][c] -= f * m[i][c]
    return [m[i][k] / m[i][i] for i in range(k)]


def heavy_first(rows: Sequence[Row], kept: float) -> float:
    """Heavy-first's log-likelihood (0.3 per unit of heft), with ``kept`` per tile kept of
    the number left open (the ``signal`` reading)."""
    weights = ChoiceWeights(heft=0.3, follow=0, stuck=0, variety=0, kept=kept, block=0, strand=0)
    return log_likelihood(rows, weights.vector())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="block-2p", choices=sorted(GAMES))
    parser.add_argument("--levels", default="normal,normal")
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--jobs", type=int, default=2)
    add_hard_option(parser)
    args = parser.parse_args(argv)
    levels = tuple(args.levels.split(","))
    settings = hard_settings(args.hard)
    tasks = [(args.game, levels, i, settings) for i in range(args.deals)]
    with Pool(args.jobs) as pool:
        chunks = pool.map(collect, tasks)
    rows = [r for chunk in chunks for r in chunk]
    half = len(rows) // 2
    train, test = rows[:half], rows[half:]
    names = [f.name for f in dataclasses.fields(ChoiceWeights)]
    w = fit(train, len(names))
    weights = ChoiceWeights(**{n: round(x, 2) for n, x in zip(names, w, strict=True)})
    uniform = -sum(math.log(len(xs)) for xs, _ in test) / len(test)
    print(f"{len(rows)} choices ({half} to fit, {len(test)} to score); log-likelihood per choice:")
    print(f"  at random          {uniform:.4f}")
    print(f"  heavy-first        {heavy_first(test, 0.0):.4f}")
    print(f"  heavy-first+signal {heavy_first(test, 1.5):.4f}")
    own = log_likelihood(train, w)
    print(f"  fitted             {log_likelihood(test, w):.4f} (on its own half {own:.4f})")
    print(weights)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
