"""A record in pieces (bot/engine/record.py): the head, each deal as dealt, the moves a
save at a time. Joined, the pieces of every save so far are the record of the state
saved last, whatever the game, however many steps a save covers."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from match_walks import names_for, rules_st, walk

from bot.engine import MatchState, Rules, call_time, match_record, new_match, next_deal, play
from bot.engine.record import (
    deal_entry,
    joined_record,
    move_entries,
    record_gain,
    record_head,
)


class Pieces:
    """A record kept as bot.storage keeps it: a head, deals by number, moves by deal."""

    def __init__(self) -> None:
        self.head: dict[str, object] = {}
        self.deals: dict[int, dict[str, object]] = {}
        self.moves: dict[int, list[dict[str, object]]] = {}

    def save(self, before: MatchState | None, after: MatchState, names: list[str]) -> None:
        self.head = record_head(after, names)
        gain = record_gain(before, after)
        for number, entry in gain.deals:
            assert number not in self.deals
            self.deals[number] = entry
        for number, first, entries in gain.moves:
            so_far = self.moves.setdefault(number, [])
            assert first == len(so_far), "a save's moves follow the ones saved before"
            assert entries
            so_far += entries

    def joined(self) -> dict[str, object]:
        numbers = sorted(self.deals)
        assert numbers == list(range(1, len(numbers) + 1))
        return joined_record(self.head, [(self.deals[n], self.moves.get(n, [])) for n in numbers])


@settings(max_examples=60, deadline=None)
@given(rules=rules_st, seed=st.integers(0, 2**32 - 1), time_up_at=st.none() | st.integers(1, 60))
def test_the_pieces_of_every_save_join_into_the_record(
    rules: Rules, seed: int, time_up_at: int | None
) -> None:
    names = names_for(rules)
    pieces = Pieces()
    before = None
    for state in walk(rules, seed, time_up_at=time_up_at):
        pieces.save(before, state, names)
        assert pieces.joined() == match_record(state, names)
        before = state


@settings(max_examples=30, deadline=None)
@given(rules=rules_st, seed=st.integers(0, 2**32 - 1))
def test_a_gain_holds_only_what_is_new(rules: Rules, seed: int) -> None:
    before = None
    for state in walk(rules, seed):
        gain = record_gain(before, state)
        known = 0 if before is None else len(before.deals)
        assert [n for n, _ in gain.deals] == list(range(known + 1, len(state.deals) + 1))
        new_moves = sum(len(entries) for _, _, entries in gain.moves)
        played = sum(len(move_entries(d)) for d in state.deals)
        played_before = 0 if before is None else sum(len(move_entries(d)) for d in before.deals)
        assert new_moves == played - played_before
        before = state


def test_the_time_called_goes_on_the_last_deal() -> None:
    rules = Rules.make("latvian", players=2, time_limit=10)
    state = new_match(rules, random.Random(3))
    state = play(state, state.legal_moves()[0])
    timed = call_time(state)
    head = record_head(timed, ["a", "b"])
    assert head["time_up"] is True
    deals = [(deal_entry(d), move_entries(d)) for d in timed.deals]
    assert joined_record(head, deals) == match_record(timed, ["a", "b"])
    assert match_record(timed, ["a", "b"])["deals"][-1]["time_up"] is True
    assert "time_up" not in record_head(state, ["a", "b"])


def test_a_gain_refuses_a_state_from_before() -> None:
    rules = Rules.make("block", players=2, scoring="points", target=40)
    first = new_match(rules, random.Random(1))
    state = first
    while not state.deal.over:
        state = play(state, state.legal_moves()[0])
    later = next_deal(state, random.Random(2))
    with pytest.raises(ValueError, match="fewer deals"):
        record_gain(later, first)
