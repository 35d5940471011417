"""AI fill-in entrants (issue 41): the referee checks in AI players so a club short of
players still fills its tables. Their ids are negative (never a Discord user's), their
level is kept, they are seated and ranked as anyone, and every table gets a person
where that can be done."""

from __future__ import annotations

import random

import pytest
from competition_walks import opened as walked
from competition_walks import play_round

from bot.competitions.competition import (
    Competition,
    CompetitionError,
    add_ai,
    from_json,
    remove,
    start,
    to_json,
)
from bot.competitions.results import table_result
from bot.competitions.seating import spread_humans
from bot.engine import Rules, new_match


def opened(humans: int, seed: int = 7, **fmt) -> Competition:
    """``humans`` people checked in, user ids from 101."""
    return walked(humans, seed=seed, first_id=101, **fmt)


def test_ai_entrants_get_negative_ids_their_level_and_their_names():
    c = add_ai(opened(3), 2, "hard", lambda n: f"Tekoäly {n}")
    c = add_ai(c, 1, "easy")
    ai = [e for e in c.entrants if e.is_ai]
    assert [(e.user_id, e.name, e.ai) for e in ai] == [
        (-1, "Tekoäly 1", "hard"),
        (-2, "Tekoäly 2", "hard"),
        (-3, "AI 3 (easy)", "easy"),
    ]
    assert c.players == [101, 102, 103, -1, -2, -3]
    assert c.humans == [101, 102, 103]
    assert from_json(to_json(c)) == c


def test_a_removed_ai_entrant_keeps_its_number_taken():
    c = add_ai(opened(3), 2, "normal")
    c = remove(c, -2)  # in check-in: gone
    c = add_ai(c, 1, "normal")
    assert [e.user_id for e in c.entrants if e.is_ai] == [-1, -2]
    c = remove(c, -1)
    c = add_ai(c, 1, "normal")
    assert [e.user_id for e in c.entrants if e.is_ai] == [-2, -3]


def test_a_stored_competition_without_ai_entrants_still_reads():
    data = to_json(opened(2))
    assert all(len(e) == 3 for e in data["entrants"])  # no level for a person
    data["entrants"] = [[u, n, a] for u, n, a in data["entrants"]]
    assert from_json(data) == opened(2)


@pytest.mark.parametrize(
    ("count", "level", "words"),
    [(0, "normal", "1 to 8"), (9, "normal", "1 to 8"), (1, "genius", "easy, normal or hard")],
)
def test_bad_ai_requests_are_refused(count, level, words):
    with pytest.raises(CompetitionError) as refused:
        add_ai(opened(2), count, level)
    assert words in refused.value.message.format(**refused.value.fields)


def test_ai_entrants_are_added_only_during_check_in():
    c = start(opened(4))
    with pytest.raises(CompetitionError, match="Check-in is closed"):
        add_ai(c, 1, "normal")


def test_three_people_and_three_ai_sit_at_two_tables_each_with_a_person():
    for seed in range(40):
        c = start(add_ai(opened(3, seed=seed, rounds=2), 3, "normal"))
        tables = c.current.tables
        assert sorted(len(t.players) for t in tables) == [3, 3]
        assert sorted(p for t in tables for p in t.players) == [-3, -2, -1, 101, 102, 103]
        for table in tables:
            assert any(p > 0 for p in table.players), (seed, tables)
        c = play_round(c, random.Random(seed))
        for table in c.current.tables:  # round 2 too
            assert any(p > 0 for p in table.players), (seed, c.current.tables)


def test_more_tables_than_people_is_refused_at_the_start():
    c = add_ai(opened(1, table_size=3), 5, "easy")
    with pytest.raises(CompetitionError) as refused:
        start(c)
    assert refused.value.fields == {"humans": 1, "tables": 2}
    assert start(add_ai(opened(2, table_size=3), 4, "easy")).status == "playing"


def test_standings_list_the_ai_entrants():
    c = start(add_ai(opened(3, rounds=1), 3, "normal"))
    c = play_round(c, random.Random(3))
    assert c.status == "finished"
    table = c.standings()
    assert sorted(s.player for s in table) == [-3, -2, -1, 101, 102, 103]
    assert sum(s.points for s in table) == 2 * (4 + 3 + 2)
    assert all(s.rounds == 1 for s in table)


def test_a_round_with_more_tables_than_people_seats_fewer_ai_in_turn():
    """The start needs a person a table; a later round that removals left with fewer
    people than tables seats only as many AI fill-ins as can sit with a person (the
    others sit the round out, in turn): never a table of AI alone."""
    c = start(add_ai(opened(2, table_size=3, rounds=3), 4, "easy"))
    c = remove(c, 102)
    out = []
    for number in (2, 3):
        c = play_round(c, random.Random(number))
        assert c.current.number == number
        (table,) = c.current.tables
        assert len(table.players) == 3
        assert 101 in table.players
        out.append({-1, -2, -3, -4} - set(table.players))
    assert out[0] != out[1]  # a different pair sits out
    c = play_round(c, random.Random(9))
    assert c.status == "finished"
    assert {s.player: s.rounds for s in c.standings()}[101] == 3


def test_the_last_person_cannot_be_removed():
    c = start(add_ai(opened(2, table_size=3), 4, "easy"))
    c = remove(c, 102)
    with pytest.raises(CompetitionError, match="at least one person"):
        remove(c, 101)
    assert remove(c, -1).entrant(-1).active is False


def test_spreading_people_swaps_them_into_tables_without_one():
    humans = {1, 2, 3}
    assert spread_humans([[1, 2, 3], [-1, -2, -3]], humans) == [[-1, 2, 3], [1, -2, -3]]
    # the swap that meets nobody again wins
    met = {frozenset({1, -2}), frozenset({1, -3})}
    spread = spread_humans([[1, 2, -1], [-2, -3, -4]], humans, met)
    assert all(humans & set(t) for t in spread)
    assert 1 in spread[0]
    # enough already, or no way: unchanged
    assert spread_humans([[1, -1], [2, -2]], humans) == [[1, -1], [2, -2]]
    assert spread_humans([[1, -1], [-2, -3]], {1}) == [[1, -1], [-2, -3]]


def test_a_table_result_maps_ai_entrant_seats_back_by_seat():
    rules = Rules.make(game="latvian", players=3)
    state = new_match(rules, random.Random(1))
    result = table_result(state, (101, -1, -2))
    assert result.players == (101, -1, -2)
    assert result.score == tuple(state.totals)
