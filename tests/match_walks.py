"""Random matches a save at a time, as the game service saves them: each save one to
three engine steps after the last (a move, forced moves, a deal ending and the next one
dealt), for the tests of records kept in pieces (engine, storage, migration)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import strategies as st

from bot.engine import MatchState, Rules, call_time, new_match, next_deal, play
from bot.engine.record import record_gain, record_head
from bot.storage import RecordAppend

RULES = (
    {"game": "latvian", "players": 4, "deals": 3},
    {"game": "latvian", "players": 3, "deals": 4, "time_limit": 30},
    {"game": "latvian", "players": 2, "time_limit": 5},
    {"game": "mexican", "set": 9, "players": 3, "deals": 3},
    {"game": "mexican", "set": 12, "players": 5, "deals": 2},
    {"game": "block", "players": 2, "scoring": "points", "target": 40},
    {"game": "draw", "set": 9, "players": 3, "target": 60, "layout": "spinner"},
    {"game": "allfives", "players": 4, "teams": True, "target": 60},
)
"""Games of several deals, latvian (with and without a time limit) and Mexican Train
among them."""

rules_st = st.sampled_from(RULES).map(Rules.from_dict)


def walk(
    rules: Rules, seed: int, *, deals: int = 3, time_up_at: int | None = None
) -> Iterator[MatchState]:
    """The states a match is saved at, from its first deal: random legal moves, the next
    deal dealt when one ends, at most ``deals`` deals (then the walk stops, the match in
    play or over). ``time_up_at``: a latvian session with a time limit has its time called
    after that many steps."""
    rng = random.Random(seed)
    state = new_match(rules, random.Random(f"{seed}:1"))
    yield state
    steps = 0
    while not state.over:
        for _ in range(rng.randint(1, 3)):
            if state.over:
                break
            if state.deal.over:
                if state.deal_number >= deals:
                    return
                state = next_deal(state, random.Random(f"{seed}:{state.deal_number + 1}"))
            else:
                state = play(state, rng.choice(state.legal_moves()))
            steps += 1
            if steps == time_up_at and rules.time_limit is not None and not state.time_up:
                state = call_time(state)
        yield state


def appends(
    states: Iterator[MatchState], names: list[str]
) -> Iterator[tuple[MatchState, RecordAppend]]:
    """Each state with what its save adds to the stored record (as the service makes it)."""
    before: MatchState | None = None
    for state in states:
        head = None
        if before is None or state.time_up != before.time_up:
            head = record_head(state, names)
        deals, moves = record_gain(before, state)
        yield state, RecordAppend(head, deals, moves)
        before = state


def names_for(rules: Rules) -> list[str]:
    return [f"P{seat}" for seat in range(rules.players)]
