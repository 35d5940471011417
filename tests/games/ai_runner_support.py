"""Players for the AI runner's tests: module-level, so worker processes can unpickle
them (a plain module: test modules drag pytest into every worker).

The gated player coordinates through files in a folder, which every process sees:
it logs ``start <level> <pid>``, waits until a file named after its ``level``
appears, then logs ``end <level>`` and plays a legal move. The level ``die`` makes
the worker kill itself.
"""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

from bot.engine import MatchState, Move, Rules, new_match, play, view
from bot.engine.ai import choose_move
from bot.engine.view import PlayerView

PATIENCE = 60.0
"""Seconds a gated player waits for its gate before giving up (a failing test must
not hang the run)."""


def log_lines(folder: str) -> list[str]:
    path = Path(folder, "log")
    return path.read_text().splitlines() if path.exists() else []


def _log(folder: str, line: str) -> None:
    with open(Path(folder, "log"), "a") as f:
        f.write(line + "\n")


def gated_player(folder: str, seen: PlayerView, level: str, rng: random.Random) -> Move:
    if level == "die":
        os.kill(os.getpid(), signal.SIGKILL)
    _log(folder, f"start {level} {os.getpid()}")
    gate = Path(folder, level)
    give_up = time.monotonic() + PATIENCE
    while not gate.exists():
        if time.monotonic() > give_up:
            raise TimeoutError(f"gate {level} never opened")
        time.sleep(0.005)
    _log(folder, f"end {level}")
    return rng.choice(seen.legal_moves)


def positions() -> list[MatchState]:
    """Mid-deal positions with a choice to make, in several games."""
    out = []
    configs = [
        Rules.make("block", players=4, teams=True),
        Rules.make("draw", players=3),
        Rules.make("allfives", players=2),
        Rules.make("latvian", players=4),
    ]
    for n, rules in enumerate(configs):
        state = new_match(rules, random.Random(n))
        rng = random.Random(100 + n)
        for _ in range(40):
            if state.deal.over:
                break
            seen = view(state, state.deal.turn)
            if len(state.legal_moves()) >= 3 and len(state.deal.history) >= 4:
                out.append(state)
                break
            state = play(state, choose_move(seen, "normal", rng))
    assert len(out) == len(configs)
    return out
