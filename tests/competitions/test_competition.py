"""A competition as a value (issue 41): check-in, rounds seated and played, results
recorded once, the next round seated when one is complete, standings, JSON."""

from __future__ import annotations

import random

import pytest
from competition_walks import opened, play_round

from bot.competitions.competition import (
    CompetitionError,
    Format,
    cancel,
    check_in,
    check_out,
    from_json,
    record,
    reinstate,
    remove,
    set_end,
    start,
    to_json,
)
from bot.competitions.seating import pairs_of
from bot.competitions.standings import TableResult


def test_ten_players_three_rounds_of_tables_of_four_three_and_three():
    c = start(opened(10, table_size=4, rounds=3, seating="standing"))
    assert c.status == "playing"
    rng = random.Random(1)
    for number in (1, 2, 3):
        current = c.current
        assert current.number == number
        assert [len(t.players) for t in current.tables] == [4, 3, 3]
        assert sorted(p for t in current.tables for p in t.players) == list(range(1, 11))
        c = play_round(c, rng)
    assert c.status == "finished"
    assert len(c.rounds) == 3
    table = c.standings()
    assert len(table) == 10
    # place points: 4+3+2+1 + 2 × (4+3+2) a round
    assert sum(s.points for s in table) == 3 * (10 + 9 + 9)
    assert [s.rank for s in table] == sorted(s.rank for s in table)
    assert from_json(to_json(c)) == c


def test_a_result_told_twice_counts_once_and_a_round_waits_for_every_table():
    c = start(opened(6, table_size=3, rounds=2))
    first = c.current
    t1, t2 = first.tables
    result = TableResult(t1.players, (1, 2, 3))
    once = record(c, 1, t1.number, result)
    assert once.current.number == 1  # the other table is still playing
    assert record(once, 1, t1.number, TableResult(t1.players, (9, 9, 9))) == once
    done = record(once, 1, t2.number, TableResult(t2.players, (3, 2, 1)))
    assert done.current.number == 2
    # round 2 meets again only where it cannot be avoided: with two tables of 3, each
    # new table takes someone from each old one and at least one pair meets again
    again = pairs_of(t.players for t in done.current.tables) & pairs_of(
        t.players for t in first.tables
    )
    assert len(again) == 2


def test_seating_by_standing_puts_the_leaders_together():
    c = start(opened(8, table_size=4, rounds=2, seating="standing"))
    r1 = c.current
    a, b = r1.tables
    c = record(c, 1, a.number, TableResult(a.players, (0, 10, 20, 30)))
    c = record(c, 1, b.number, TableResult(b.players, (5, 15, 25, 35)))
    top = c.current.tables[0].players
    # the two winners and the two runners-up (pairs that met cannot all be avoided:
    # each table of 4 takes two from each old table)
    assert {a.players[0], b.players[0]} <= set(top)


def test_check_in_and_out_and_the_rules_of_the_door():
    c = opened(3)
    with pytest.raises(CompetitionError):
        check_in(c, 1, "p1")
    c = check_out(c, 3)
    assert c.players == [1, 2]
    with pytest.raises(CompetitionError):
        check_out(c, 3)
    c = start(c)
    with pytest.raises(CompetitionError):
        check_in(c, 9, "late")
    with pytest.raises(CompetitionError):
        start(c)


def test_one_player_cannot_start_and_bad_formats_are_refused():
    with pytest.raises(CompetitionError):
        start(opened(1))
    for bad in ({"table_size": 5}, {"table_size": 1}, {"rounds": 0}, {"rounds": 99}):
        with pytest.raises(CompetitionError):
            Format(**bad)


def test_a_removed_player_is_seated_no_more():
    c = start(opened(7, rounds=2))
    gone = c.current.tables[0].players[0]
    c = remove(c, gone)
    assert gone not in c.players
    for t in c.current.tables:
        c = record(c, 1, t.number, TableResult(t.players, tuple(range(len(t.players)))))
    assert all(gone not in t.players for t in c.current.tables)
    assert sum(len(t.players) for t in c.current.tables) == 6
    # their round-1 points still stand
    assert next(s for s in c.standings() if s.player == gone).rounds == 1


def test_a_removal_taken_back_seats_the_player_again_from_the_next_round():
    c = start(opened(7, rounds=3))
    gone = c.current.tables[0].players[0]
    with pytest.raises(CompetitionError):
        reinstate(c, gone)  # still in
    c = remove(c, gone)
    c = reinstate(c, gone)
    assert gone in c.players
    for t in c.current.tables:
        c = record(c, 1, t.number, TableResult(t.players, tuple(range(len(t.players)))))
    assert any(gone in t.players for t in c.current.tables)
    assert sum(len(t.players) for t in c.current.tables) == 7
    with pytest.raises(CompetitionError):
        reinstate(c, 424242)  # never entered
    with pytest.raises(CompetitionError):
        reinstate(cancel(remove(c, gone)), gone)  # over


def test_a_timed_round_keeps_its_first_end_through_json():
    c = start(opened(5, rounds=2))
    c = set_end(c, 1, "2026-12-06T20:30:00+00:00")
    c = set_end(c, 1, "2026-12-06T21:00:00+00:00")  # set once: a restart keeps the clock
    assert c.current.ends_at == "2026-12-06T20:30:00+00:00"
    back = from_json(to_json(c))
    assert back == c
    assert back.current.ends_at == "2026-12-06T20:30:00+00:00"
    old = to_json(c)
    del old["ends_at"]  # saved before timed rounds: no end
    assert from_json(old).current.ends_at is None


def test_a_result_for_the_wrong_table_or_round_is_refused():
    c = start(opened(4, table_size=2, rounds=2))
    t = c.current.tables[0]
    with pytest.raises(CompetitionError):
        record(c, 1, 9, TableResult(t.players, (1, 2)))
    with pytest.raises(CompetitionError):
        record(c, 2, t.number, TableResult(t.players, (1, 2)))
    with pytest.raises(CompetitionError):
        record(c, 1, t.number, TableResult(tuple(reversed(t.players)), (1, 2)))


def test_cancel():
    c = cancel(start(opened(4)))
    assert c.status == "cancelled"
    with pytest.raises(CompetitionError):
        cancel(c)
    with pytest.raises(CompetitionError):
        record(c, 1, 1, TableResult((1, 2), (1, 2)))


def test_the_seating_depends_only_on_the_seed():
    a = start(opened(10))
    b = start(opened(10))
    assert a == b


def test_a_finished_latvian_table_gives_its_places():
    from bot.competitions.results import table_result
    from bot.engine import Rules, new_match, next_deal, play

    rules = Rules.make("latvian", players=4)
    rng = random.Random(3)
    state = new_match(rules, random.Random(5))
    while not state.over:
        state = play(state, rng.choice(state.legal_moves()))
        if state.deal.over and not state.over:
            state = next_deal(state, rng)
    result = table_result(state, (11, 12, 13, 14))
    assert result.lower_wins
    # the standings' place points are the session's own (RULES.md, latvian places)
    assert result.place_points() == state.places
