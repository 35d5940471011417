"""Competitions as the unit tests build them: opened with players checked in, and rounds
played with made-up latvian results."""

from __future__ import annotations

import random

from bot.competitions.competition import (
    Competition,
    Format,
    check_in,
    from_json,
    new_competition,
    record,
    set_game,
    to_json,
)
from bot.competitions.standings import TableResult


def opened(players: int, *, seed: int = 7, first_id: int = 1, **fmt) -> Competition:
    """A competition of ``Format(**fmt)`` with ``players`` checked in, their user ids
    counted from ``first_id`` and their names ``p1``, ``p2``…"""
    c = new_competition(Format(**fmt), seed=seed)
    for n in range(1, players + 1):
        c = check_in(c, first_id - 1 + n, f"p{n}")
    return c


def play_round(c: Competition, rng: random.Random) -> Competition:
    """Every table of the current round gets a game and a result (latvian values); the
    competition survives JSON after each."""
    current = c.current
    assert current is not None
    for table in current.tables:
        c = set_game(c, current.number, table.number, 1000 * current.number + table.number)
        values = tuple(rng.randint(-25, 60) for _ in table.players)
        c = record(c, current.number, table.number, TableResult(table.players, values))
        assert from_json(to_json(c)) == c
    return c
