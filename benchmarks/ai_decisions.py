"""Every level's decisions on fixed positions, recorded once and compared later.

A change that must not change how the AI plays (a refactoring, a speed-up, a setting
removed) is checked against a recording made by the code before it::

    git worktree add --detach /tmp/before main     # the code before
    cd /tmp/before && python /path/to/benchmarks/ai_decisions.py record before.json
    python benchmarks/ai_decisions.py check before.json     # the code after

The positions come from the engine alone (deals played by random moves, seeded, one
position picked per deal among the turns with two moves or more), so both versions
see the same ones. Every level then decides each position with an rng seeded by the
position; recorded per decision: the move and a fingerprint of the rng's state after
it (its next 32 bits), so a decision that drew a different number of random numbers
shows too. The hard level runs at its defaults with the deadline lifted
(``seconds``): the work budget, not the clock, ends each search, so the decision
depends on the code alone. ``--work`` lowers the budget for a quick recording
(``tests/engine/ai/test_ai_same_decisions.py`` keeps one).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import MatchState, Rules, legal_moves, new_match, next_deal, play, view
from bot.engine.ai import LEVELS, SearchSettings, choose_move

GAMES: dict[str, dict[str, Any]] = {
    "block-2p": {"game": "block", "players": 2},
    "block-3p": {"game": "block", "players": 3},
    "block-teams": {"game": "block", "players": 4, "teams": True},
    "block-2p-single": {"game": "block", "players": 2, "scoring": "single"},
    "draw-2p": {"game": "draw", "players": 2, "blocked_scoring": "minus_own"},
    "draw-3p": {"game": "draw", "players": 3},
    "draw-3p-penalty": {"game": "draw", "players": 3, "scoring": "penalty"},
    "draw-2p-spinner": {"game": "draw", "players": 2, "layout": "spinner"},
    "allfives-teams": {"game": "allfives", "players": 4, "teams": True},
    "allfives-2p": {"game": "allfives", "players": 2},
    "latvian-4p": {"game": "latvian", "players": 4},
    "mexican-4p": {"game": "mexican", "players": 4},
    "mexican-8p": {"game": "mexican", "players": 8},
}
"""The games recorded (``Rules.make`` options)."""
DEALS = 3
"""Positions come from the first, second or third deal of a match, in turn."""
SECONDS = 600.0
"""The hard level's deadline here: never reached."""


def position(game: str, index: int) -> tuple[MatchState, int]:
    """Position ``index`` of ``game``: a state and the seat to move, with two moves or
    more (from the engine alone: every move before it random), in deal ``1 + index %
    DEALS`` of the match (or its last, when it ends sooner)."""
    rules = Rules.make(**GAMES[game])
    rng = random.Random(f"decisions/{game}/{index}")
    state = new_match(rules, rng)
    while True:
        turns: list[MatchState] = []
        while not state.deal.over:
            if len(legal_moves(state)) > 1:
                turns.append(state)
            state = play(state, rng.choice(legal_moves(state)))
        if turns and (state.over or state.deal_number > index % DEALS):
            chosen = rng.choice(turns)
            return chosen, chosen.deal.turn
        state = new_match(rules, rng) if state.over else next_deal(state, rng)


def decide(args: tuple[str, str, int, int]) -> tuple[str, list[Any]]:
    """One decision: its key and [the move, the rng's next 32 bits after it]."""
    game, level, index, work = args
    state, seat = position(game, index)
    settings = (
        SearchSettings(work=work, seconds=SECONDS) if work else SearchSettings(seconds=SECONDS)
    )
    rng = random.Random(f"decisions/{game}/{index}/{level}")
    move = choose_move(view(state, seat), level, rng, settings)
    return f"{game}/{level}/{index}", [repr(move), rng.getrandbits(32)]


def decisions(positions: int, work: int, jobs: int, games: list[str]) -> dict[str, list[Any]]:
    tasks = [(g, level, i, work) for g in games for level in LEVELS for i in range(positions)]
    if jobs <= 1:
        return dict(map(decide, tasks))
    with Pool(jobs) as pool:
        return dict(pool.imap(decide, tasks, chunksize=4))


def dump(positions: int, work: int, games: list[str], found: dict[str, list[Any]]) -> str:
    """A recording as JSON, one decision a line."""
    head = json.dumps({"positions": positions, "work": work, "games": games})
    lines = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in found.items()]
    return head[:-1] + ', "decisions": {\n' + ",\n".join(lines) + "\n}}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=("record", "check"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--positions", type=int, default=200, help="per game (record)")
    parser.add_argument("--work", type=int, default=0, help="hard level's budget (0: default)")
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.action == "record":
        found = decisions(args.positions, args.work, args.jobs, args.games)
        args.file.write_text(dump(args.positions, args.work, args.games, found))
        print(f"{len(found)} decisions recorded in {time.perf_counter() - started:.0f} s")
        return 0
    doc = json.loads(args.file.read_text())
    found = decisions(doc["positions"], doc["work"], args.jobs, doc["games"])
    differ = sorted(k for k, v in doc["decisions"].items() if found.get(k) != v)
    for key in differ[:20]:
        print(f"{key}: recorded {doc['decisions'][key]}, now {found.get(key)}")
    print(
        f"{len(doc['decisions']) - len(differ)} of {len(doc['decisions'])} decisions "
        f"the same ({time.perf_counter() - started:.0f} s)"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
