"""AI arena: how strong and how fast the AI levels are, over duplicate deals.

Part 1 (``--part ours``): our levels against each other in several games. Each
deal is played once per seating, the same tiles every time: in a two-sided game
(two players, or teams 0+2 against 1+3) twice, the levels swapping sides; in a
four-player game without teams twice, level A on seats 0+2 then 1+3; with three
players three times, level A taking each seat in turn against two of level B.
A deal is won by the side of the seat(s) the deal's result names as winners. With
one seat of the first level against two or more of the second, a *pairwise* line
follows: the first level's mean score against one seat of the second taken alone (1
when it won the deal, 0 when that seat did, 1/2 when another seat did or nobody).

Part 2 (``--part dominoes``): against the AI of the PyPI package ``dominoes``
6.1.0, ``players.probabilistic_alphabeta(start_move=8, sample_size=20)``, on its
own game: 4 players, teams 0+2 against 1+3, double-6, 7 tiles each, block, 6-6
leads (our ``Rules.make("block", players=4, teams=True)`` is the same game). Each
deal is played twice, our team on seats 0+2 then 1+3. Both engines play the deal
side by side: their player chooses on its own ``dominoes.Game`` (built with the
same hands, in the order dealt), ours on a view of our state; every move is
applied to both (their left end is our west, their right our east) and the two
tables are checked to agree after every move. Their package deals and samples
with the global ``random`` module, which is seeded per deal.

Reported per matchup: deals played (every seating of a deal counts), deals won /
drawn / lost by the first-named level, its win rate with drawn deals counted as
half and the 95% Wilson interval, the win rate over decided deals only, the
baseline (the share of seats it holds: what equal players would win), and the
mean margin per deal (points for points and fives, deal values for latvian: see
``margin``) with a 95% interval. Then decision times per level: median, 95th
percentile and maximum, in milliseconds of the deciding thread's CPU time
(``time.thread_time``), so a shared machine does not inflate them.

Part 3 (``--part mexican``): Mexican Train, double-12, 4 and 8 players, round 1
(engine 12-12) or the rounds ``--mexican-rounds`` names, deal by deal in turn (the
rounds before one are played once by random moves): normal v easy and hard v
normal. Each deal is played once per seat, one seat of the first level at a table
of the second, that seat rotating through every seat (duplicate deals: the same
tiles every time). Reported: the first
level's round score (pips left) minus the other seats' mean, lower is better,
with a 95% interval over the deals (each deal's mean over its seatings is one
sample); its round win rate (a round is won by the seat that went out, a blocked
one by the lowest pips; a tie for lowest has no winner) with the Wilson interval,
against the baseline 1/players; decision CPU times per level, and the hard
level's first three decisions of each round (the largest hands) apart.

Run ``python benchmarks/ai_arena.py --quick`` for a smoke run; see ``--help``.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import math
import random
import statistics
import sys
import time
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import (
    End,
    MatchState,
    Move,
    Rules,
    deal_tiles,
    play,
    start_match,
    tile,
    view,
)
from bot.engine.ai import Level, SearchSettings, choose_move

GAMES: dict[str, dict[str, Any]] = {
    "block-2p": {"game": "block", "players": 2},
    "block-teams": {"game": "block", "players": 4, "teams": True},
    "draw-3p": {"game": "draw", "players": 3},
    "draw-2p-spinner": {"game": "draw", "players": 2, "layout": "spinner"},
    "allfives-teams": {"game": "allfives", "players": 4, "teams": True},
    "allfives-2p": {"game": "allfives", "players": 2},
    "latvian-4p": {"game": "latvian", "players": 4},
}
MATCHUPS: tuple[tuple[str, str], ...] = (
    (Level.NORMAL, Level.EASY),
    (Level.HARD, Level.NORMAL),
    (Level.HARD, Level.EASY),
)
MEXICAN_GAMES: dict[str, dict[str, Any]] = {
    "mexican-4p": {"game": "mexican", "players": 4},
    "mexican-8p": {"game": "mexican", "players": 8},
}
MEXICAN_MATCHUPS: tuple[tuple[str, str], ...] = (
    (Level.NORMAL, Level.EASY),
    (Level.HARD, Level.NORMAL),
)
THEIR_MATCHUPS: tuple[tuple[str, str], ...] = (
    (Level.HARD, "alphabeta"),
    (Level.HARD, "random"),
    ("alphabeta", "random"),
)
"""Our hard level against dominoes 6.1.0's players (``alphabeta``, ``random``)."""


# -- statistics ---------------------------------------------------------------------


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (normal approximation)."""
    if not xs:
        return 0.0, 0.0
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, 0.0
    return m, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def percentile(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    if not s:
        return 0.0
    k = min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))
    return s[k]


# -- one deal -----------------------------------------------------------------------


@dataclass
class Outcome:
    """One deal from the first-named level's point of view."""

    result: int  # 1 won, 0 drawn, -1 lost
    margin: float
    times: dict[str, list[float]] = field(default_factory=dict)
    pairwise: float = 0.5
    """With three or more sides: the first level's mean score against each seat of the
    second taken alone (1 if it won the deal, 0 if that seat did, 1/2 otherwise)."""


def margin(state: MatchState, seats: Sequence[int]) -> float:
    """The first level's margin in the deal's units: its side's points minus the other
    side's (points, fives), or the other seats' mean minus its own (latvian values,
    penalty pips), or +1/0/-1 (single)."""
    rules = state.rules
    result = state.deal.result
    assert result is not None
    if rules.scoring == "single":
        return float(_result_for(state, seats))
    mine_sides = {rules.side_of(s) for s in seats}
    mine = [result.score[i] for i in sorted(mine_sides)]
    others = [x for i, x in enumerate(result.score) if i not in mine_sides]
    if rules.scoring in ("penalty", "places"):
        return statistics.fmean(others) - statistics.fmean(mine)
    return statistics.fmean(mine) - statistics.fmean(others)


def _result_for(state: MatchState, seats: Sequence[int]) -> int:
    winners = state.deal.result.winners if state.deal.result else ()
    if not winners:
        return 0
    return 1 if set(winners) & set(seats) else -1


Chooser = Callable[[MatchState, int], Move]


def play_deal(
    state: MatchState, choosers: Sequence[tuple[str, Chooser]]
) -> tuple[MatchState, dict[str, list[float]]]:
    """Play the deal of ``state`` to its end: the final state and decision times per level."""
    times: dict[str, list[float]] = {}
    while not state.deal.over:
        seat = state.deal.turn
        name, choose = choosers[seat]
        t0 = time.thread_time()
        move = choose(state, seat)
        times.setdefault(name, []).append(time.thread_time() - t0)
        state = play(state, move, seat)
    return state, times


def our_chooser(level: str, rng: random.Random, settings: SearchSettings) -> Chooser:
    """Our ``level`` as a player."""

    def choose(state: MatchState, seat: int) -> Move:
        return choose_move(view(state, seat), level, rng, settings)

    return choose


# -- part 1: our levels --------------------------------------------------------------


def seatings(rules: Rules) -> list[list[int]]:
    """The seats of the first level in each replay of a deal."""
    n = rules.players
    if rules.teams:
        return [[0, 2], [1, 3]]
    if n == 2:
        return [[0], [1]]
    if n == 4:
        return [[0, 2], [1, 3]]
    return [[s] for s in range(n)]


def our_task(args: tuple[str, str, str, int, int, SearchSettings]) -> list[Outcome]:
    """Play one deal in every seating: level ``a`` against level ``b``."""
    game, a, b, seed, index, settings = args
    rules = Rules.make(**GAMES[game])
    rng = random.Random(f"{seed}/{game}/{index}")
    hands, stock = deal_tiles(rules, rng)
    leader = rng.randrange(rules.players) if rules.game == "allfives" else None
    outcomes = []
    for k, seats in enumerate(seatings(rules)):
        state = start_match(rules, hands, stock, leader)
        choosers = []
        for seat in range(rules.players):
            level = a if seat in seats else b
            ai_rng = random.Random(f"{seed}/{game}/{index}/{k}/{seat}")
            choosers.append((level, our_chooser(level, ai_rng, settings)))
        final, times = play_deal(state, choosers)
        result = _result_for(final, seats)
        winners = final.deal.result.winners if final.deal.result else ()
        others = [s for s in range(rules.players) if s not in seats]
        pairwise = statistics.fmean(
            1.0 if result == 1 else 0.0 if s in winners else 0.5 for s in others
        )
        outcomes.append(Outcome(result, margin(final, seats), times, pairwise))
    return outcomes


# -- part 2: against the dominoes package ---------------------------------------------


class Bridge:
    """Our state and their ``dominoes.Game`` of the same deal, kept in step."""

    def __init__(self, dominoes: Any, hands: list[list[Any]]) -> None:
        self.dominoes = dominoes
        rules = Rules.make("block", players=4, teams=True)
        self.state = start_match(rules, hands, [])
        their_hands = [dominoes.Hand([dominoes.Domino(t.low, t.high) for t in h]) for h in hands]
        six = dominoes.Domino(6, 6)
        first = next(i for i, h in enumerate(hands) if tile(6, 6) in h)
        self.game = dominoes.Game(
            dominoes.Board(), their_hands, [], first, ((six, True),), first, None
        )
        # both lead 6-6
        self.apply(Move.lead(tile(6, 6)))

    def apply(self, move: Move) -> None:
        seat = self.state.deal.turn
        assert self.game.turn == seat, (self.game.turn, seat)
        p = move.placements[0]
        left = p.end in (None, End.WEST)
        self.game.make_move(self.dominoes.Domino(p.tile.low, p.tile.high), left)
        self.state = play(self.state, move, seat)
        self.check()

    def their_move_to_ours(self, d: Any, left: bool) -> Move:
        t = tile(d.first, d.second)
        return Move.single(t, End.WEST if left else End.EAST)

    def check(self) -> None:
        deal = self.state.deal
        game = self.game
        assert (game.result is not None) == deal.over, "one game ended, the other did not"
        if deal.over:
            return
        values = deal.layout.values
        assert game.board.left_end() == values[End.WEST], "west end differs"
        assert game.board.right_end() == values[End.EAST], "east end differs"
        assert game.turn == deal.turn, "turn differs"


def their_package() -> Any:
    """The ``dominoes`` package (the bench extra; untyped, so imported by name)."""
    return importlib.import_module("dominoes")


def their_task(args: tuple[str, str, int, int, SearchSettings]) -> list[Outcome]:
    """Play one deal twice (first level's team on 0+2, then 1+3) on the bridge."""
    dominoes = their_package()

    a, b, seed, index, settings = args
    rules = Rules.make("block", players=4, teams=True)
    rng = random.Random(f"{seed}/dominoes/{index}")
    hands, _ = deal_tiles(rules, rng)
    outcomes = []
    for k, seats in enumerate(([0, 2], [1, 3])):
        random.seed(f"{seed}/dominoes/{index}/{k}")  # their package's generator
        bridge = Bridge(dominoes, hands)
        players: list[tuple[str, Any]] = []
        for seat in range(4):
            level = a if seat in seats else b
            ai_rng = random.Random(f"{seed}/dominoes/{index}/{k}/{seat}")
            if level == "alphabeta":
                players.append((level, dominoes.players.probabilistic_alphabeta(8, 20)))
            elif level == "random":
                players.append((level, ai_rng))
            else:
                players.append((level, our_chooser(level, ai_rng, settings)))
        times: dict[str, list[float]] = {}
        while not bridge.state.deal.over:
            seat = bridge.state.deal.turn
            level, player = players[seat]
            t0 = time.thread_time()
            if level == "alphabeta":
                game = bridge.game
                player(game)
                move = bridge.their_move_to_ours(*game.valid_moves[0])
            elif level == "random":
                move = player.choice(bridge.state.legal_moves())
            else:
                move = player(bridge.state, seat)
            times.setdefault(level, []).append(time.thread_time() - t0)
            bridge.apply(move)
        final = bridge.state
        outcomes.append(Outcome(_result_for(final, seats), margin(final, seats), times))
    return outcomes


# -- part 3: Mexican Train ------------------------------------------------------------


@dataclass
class TrainOutcome:
    """One deal of Mexican Train, played once with the first level in each seat."""

    margins: list[float]
    """Per seating: the first level's pips minus the other seats' mean (lower is better)."""
    wins: list[int]
    """Per seating: 1 if the first level's seat won the round."""
    times: dict[str, list[float]]
    early: list[float]
    """The first level's first three decisions of each round (the largest hands)."""


def mexican_task(args: tuple[str, str, str, int, int, SearchSettings, int]) -> TrainOutcome:
    """Play one round once per seat: one seat of level ``a``, the others level ``b``.
    Round ``number`` (its engine double-(N−number+1)): the rounds before it are played
    by random moves once, then its deal is replayed per seating."""
    from bot.engine import legal_moves, new_match, next_deal
    from bot.engine.match import start_deal

    game, a, b, seed, index, settings, number = args
    rules = Rules.make(**MEXICAN_GAMES[game])
    rng = random.Random(f"{seed}/{game}/{index}")
    if number == 1:
        hands, stock = deal_tiles(rules, rng)
        before: tuple[Any, ...] = ()
    else:
        past = new_match(rules, rng)
        while past.deal_number < number:
            while not past.deal.over:
                past = play(past, rng.choice(legal_moves(past)))
            past = next_deal(past, rng)
        before = past.deals[:-1]
        hands = [list(past.deal.dealt[s]) for s in range(rules.players)]
        stock = list(past.deal.stock)
    out = TrainOutcome([], [], {}, [])
    for seat_a in range(rules.players):
        if number == 1:
            state = start_match(rules, hands, stock)
        else:
            base = [sum(d.result.score[s] for d in before) for s in range(rules.players)]
            deal = start_deal(rules, number, hands, stock, None, base)
            state = MatchState(rules, (*before, deal))
        choosers = []
        for seat in range(rules.players):
            level = a if seat == seat_a else b
            ai_rng = random.Random(f"{seed}/{game}/{index}/{seat_a}/{seat}")
            choosers.append((level, our_chooser(level, ai_rng, settings)))
        mine: list[float] = []
        while not state.deal.over:
            seat = state.deal.turn
            name, choose = choosers[seat]
            t0 = time.thread_time()
            move = choose(state, seat)
            spent = time.thread_time() - t0
            out.times.setdefault(name, []).append(spent)
            if seat == seat_a:
                mine.append(spent)
            state = play(state, move, seat)
        out.early.extend(mine[:3])
        result = state.deal.result
        assert result is not None
        pips = result.score
        others = (sum(pips) - pips[seat_a]) / (len(pips) - 1)
        out.margins.append(pips[seat_a] - others)
        out.wins.append(int(seat_a in result.winners))
    return out


def mexican_row(label: str, outcomes: list[TrainOutcome], players: int) -> str:
    rounds = sum(len(o.wins) for o in outcomes)
    won = sum(sum(o.wins) for o in outcomes)
    low, high = wilson(won, rounds)
    m, h = mean_ci([statistics.fmean(o.margins) for o in outcomes])
    return (
        f"{label:<30} {len(outcomes):>5} {rounds:>6}  {m:+7.2f} ±{h:5.2f}  "
        f"{100 * won / max(1, rounds):5.1f}% [{100 * low:4.1f}, {100 * high:4.1f}]  "
        f"{1 / players:>5.1%}"
    )


MEXICAN_HEADER = (
    f"{'matchup (one seat of the first)':<30} {'deals':>5} {'rounds':>6}  "
    f"{'pips − others ± 95%':>16}  {'round win % [95% CI]':<22}  {'base':>5}"
)


def run_mexican(tasks: list[Any], jobs: int) -> list[TrainOutcome]:
    if jobs <= 1:
        return [mexican_task(t) for t in tasks]
    with Pool(jobs) as pool:
        return pool.map(mexican_task, tasks, chunksize=1)


# -- running and reporting ------------------------------------------------------------


@dataclass
class Tally:
    outcomes: list[Outcome] = field(default_factory=list)

    def row(self, label: str, baseline: float) -> str:
        n = len(self.outcomes)
        won = sum(o.result == 1 for o in self.outcomes)
        drawn = sum(o.result == 0 for o in self.outcomes)
        lost = n - won - drawn
        rate = (won + drawn / 2) / n if n else 0.0
        low, high = wilson(won + drawn / 2, n)
        decided = won + lost
        excl = won / decided if decided else 0.0
        m, h = mean_ci([o.margin for o in self.outcomes])
        return (
            f"{label:<34} {n:>6} {won:>5} {drawn:>4} {lost:>5}  {100 * rate:5.1f}% "
            f"[{100 * low:4.1f}, {100 * high:4.1f}]  {100 * excl:5.1f}%  {baseline:>5.0%}"
            f"  {m:+7.2f} ±{h:5.2f}"
        )

    def pairwise_row(self, label: str) -> str:
        """Three or more sides: the first level against each seat of the second alone."""
        n = len(self.outcomes)
        score = sum(o.pairwise for o in self.outcomes)
        low, high = wilson(score, n)
        return (
            f"{label:<34} {n:>6} {'':>5} {'':>4} {'':>5}  {100 * score / max(1, n):5.1f}% "
            f"[{100 * low:4.1f}, {100 * high:4.1f}]  pairwise, base 50%"
        )


HEADER = (
    f"{'matchup (first level: W/D/L)':<34} {'deals':>6} {'won':>5} {'drwn':>4} {'lost':>5}"
    f"  {'win% (draw=1/2) [95% CI]':<25}  {'decid':>6}  {'base':>5}  {'margin ± 95%':>14}"
)


def baseline_of(game: str) -> float:
    rules = Rules.make(**GAMES[game])
    return len(seatings(rules)[0]) / rules.players


def run(tasks: list[Any], fn: Callable[[Any], list[Outcome]], jobs: int) -> list[list[Outcome]]:
    if jobs <= 1:
        return [fn(t) for t in tasks]
    with Pool(jobs) as pool:
        return pool.map(fn, tasks, chunksize=1)


def print_times(times: dict[str, list[float]]) -> None:
    print()
    print(f"{'decision CPU':<24} {'decisions':>9} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    for level in sorted(times):
        xs = times[level]
        print(
            f"{level:<24} {len(xs):>9} {1000 * statistics.median(xs):>10.2f} "
            f"{1000 * percentile(xs, 0.95):>8.2f} {1000 * max(xs):>8.2f}"
        )


def with_setting(settings: SearchSettings, item: str) -> SearchSettings:
    """``settings`` with one field set from ``NAME=VALUE`` (typed like the field;
    ``none`` for a field whose default is the game's measured one)."""
    name, _, value = item.partition("=")
    kind = typing.get_type_hints(SearchSettings)[name]
    kinds = [k for k in typing.get_args(kind) if k is not type(None)] or [kind]
    parsed: Any
    if value.lower() == "none" and len(kinds) < len(typing.get_args(kind)):
        parsed = None
    elif kinds[0] is bool:
        parsed = value.lower() in ("1", "true", "yes")
    else:
        parsed = kinds[0](value)
    return dataclasses.replace(settings, **{name: parsed})


def add_hard_option(parser: argparse.ArgumentParser) -> None:
    """``--hard NAME=VALUE ...``: the hard level's settings (read with :func:`hard_settings`)."""
    parser.add_argument(
        "--hard",
        nargs="*",
        default=[],
        metavar="NAME=VALUE",
        help="hard level settings (SearchSettings fields), e.g. work=100000 seconds=0.3",
    )


def hard_settings(items: list[str]) -> SearchSettings:
    """The defaults with each ``NAME=VALUE`` of ``--hard`` applied."""
    settings = SearchSettings()
    for item in items:
        settings = with_setting(settings, item)
    return settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--part",
        choices=("ours", "dominoes", "mexican", "all"),
        default="all",
        help="our levels against each other, against dominoes 6.1.0, Mexican Train, "
        "or all three (default)",
    )
    parser.add_argument(
        "--deals",
        type=int,
        default=100,
        help="part 1: distinct deals per matchup, each played in every seating (default 100)",
    )
    parser.add_argument(
        "--their-deals",
        type=int,
        default=400,
        help="part 2: distinct deals per matchup, each played twice (default 400)",
    )
    parser.add_argument(
        "--mexican-deals",
        type=int,
        default=30,
        help="part 3: distinct deals per matchup and table, each played once per seat (default 30)",
    )
    parser.add_argument(
        "--mexican-games",
        nargs="*",
        default=list(MEXICAN_GAMES),
        choices=list(MEXICAN_GAMES),
        help="part 3 tables",
    )
    parser.add_argument(
        "--mexican-rounds",
        nargs="*",
        type=int,
        default=[1],
        help="part 3: the round (1 = engine 12-12, 2 = 11-11, …) of each deal, in turn "
        "(default 1); the earlier rounds are played by random moves",
    )
    parser.add_argument(
        "--quick", action="store_true", help="6, 4 and 2 deals per matchup: a smoke run"
    )
    parser.add_argument(
        "--games", nargs="*", default=list(GAMES), choices=list(GAMES), help="part 1 games"
    )
    parser.add_argument(
        "--matchups",
        nargs="*",
        default=None,
        help="e.g. hard:normal normal:easy (part 1) or hard:alphabeta hard:random (part 2)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="worker processes (decision times are CPU times of the deciding thread)",
    )
    parser.add_argument("--seed", type=int, default=1, help="deals and AI seeds derive from it")
    parser.add_argument(
        "--first-deal",
        type=int,
        default=0,
        help="parts 1 and 2: index of the first deal (split a long run: --first-deal 200 "
        "--their-deals 200 plays deals 200-399)",
    )
    add_hard_option(parser)
    parser.add_argument(
        "--outcomes",
        type=Path,
        default=None,
        metavar="FILE",
        help="parts 1 and 2: also write every game's outcome to FILE, a JSON object a line "
        "(compare two runs deal by deal with benchmarks/arena_compare.py)",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.deals = min(args.deals, 6)
        args.their_deals = min(args.their_deals, 4)
        args.mexican_deals = min(args.mexican_deals, 2)
    settings = hard_settings(args.hard)
    chosen = [tuple(m.split(":")) for m in args.matchups] if args.matchups else None
    times: dict[str, list[float]] = {}
    started = time.perf_counter()

    record = args.outcomes.open("w") if args.outcomes else None

    def collect(groups: list[list[Outcome]], matchup: str, deals: range) -> Tally:
        tally = Tally()
        for index, group in zip(deals, groups, strict=True):
            for seating, o in enumerate(group):
                tally.outcomes.append(o)
                if record is not None:
                    line = {"matchup": matchup, "deal": index, "seating": seating}
                    line |= {"result": o.result, "margin": o.margin}
                    record.write(json.dumps(line) + "\n")
                for level, xs in o.times.items():
                    times.setdefault(level, []).extend(xs)
        if record is not None:
            record.flush()
        return tally

    print(
        f"AI arena: seed {args.seed}, {args.jobs} job(s), Python {sys.version.split()[0]}\n"
        f"hard: {settings}"
    )
    if args.part in ("ours", "all"):
        print(f"\nPart 1: our levels, {args.deals} deals per matchup, every seating of each")
        print(HEADER)
        for game in args.games:
            for a, b in MATCHUPS:
                if chosen is not None and (a, b) not in chosen:
                    continue
                first = args.first_deal
                deals = range(first, first + args.deals)
                ours = [(game, a, b, args.seed, i, settings) for i in deals]
                tally = collect(run(ours, our_task, args.jobs), f"{game} {a} v {b}", deals)
                print(tally.row(f"{game} {a} v {b}", baseline_of(game)), flush=True)
                rules = Rules.make(**GAMES[game])
                if rules.players > 2 and len(seatings(rules)[0]) == 1:
                    print(tally.pairwise_row(f"  {a} v one {b} seat"), flush=True)
    if args.part in ("dominoes", "all"):
        their_package()

        print(
            f"\nPart 2: against dominoes 6.1.0 (4 players, teams, double-6, block, 6-6 leads), "
            f"{args.their_deals} deals per matchup, both seatings of each"
        )
        print(HEADER)
        for a, b in THEIR_MATCHUPS:
            if chosen is not None and (a, b) not in chosen:
                continue
            deals = range(args.first_deal, args.first_deal + args.their_deals)
            theirs = [(a, b, args.seed, i, settings) for i in deals]
            tally = collect(run(theirs, their_task, args.jobs), f"{a} v {b}", deals)
            print(tally.row(f"{a} v {b}", 0.5), flush=True)
    if args.part in ("mexican", "all"):
        print(
            f"\nPart 3: Mexican Train, double-12, rounds {args.mexican_rounds} in turn, "
            f"{args.mexican_deals} deals per "
            f"matchup, each played once per seat (one seat of the first level)"
        )
        print(MEXICAN_HEADER)
        for game in args.mexican_games:
            players = MEXICAN_GAMES[game]["players"]
            for a, b in MEXICAN_MATCHUPS:
                if chosen is not None and (a, b) not in chosen:
                    continue
                rounds = args.mexican_rounds
                tasks = [
                    (game, a, b, args.seed, i, settings, rounds[i % len(rounds)])
                    for i in range(args.mexican_deals)
                ]
                outcomes = run_mexican(tasks, args.jobs)
                print(mexican_row(f"{game} {a} v {b}", outcomes, players), flush=True)
                for o in outcomes:
                    for level, xs in o.times.items():
                        times.setdefault(f"{game} {level}", []).extend(xs)
                    if a == Level.HARD:
                        times.setdefault(f"{game} hard early", []).extend(o.early)
    print_times(times)
    if record is not None:
        record.close()
    print(f"\n{time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
