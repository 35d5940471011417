"""A finished table's result for the standings, read from its match (public: a finished
match's totals and places)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import MatchState, Rules

from .standings import TableResult

LOWER_WINS = frozenset({"places", "rounds", "penalty"})
"""Scorings whose lower total is better (latvian's deal values, Mexican Train's pips,
the Finnish penalty game)."""


def lower_wins(rules: Rules) -> bool:
    return rules.scoring in LOWER_WINS


def table_result(state: MatchState, players: Sequence[int]) -> TableResult:
    """The result of a table whose match is over (or was ended early: its totals as they
    stand). ``players`` are the table's entrants in seat order (user ids, and an AI
    fill-in's negative id): seat *i*'s total is ``players[i]``'s, so a seat an AI took
    over counts as its player's and an AI fill-in's seat as that entrant's."""
    rules = state.rules
    if rules.teams:
        raise ValueError("a competition table is played without teams")
    if len(players) != rules.players:
        raise ValueError(f"{rules.players} seats need {rules.players} players")
    return TableResult(tuple(players), tuple(state.totals), lower_wins(rules))
