"""A competition's standings (issue 41): place points 4/3/2/1 a table, tied places
shared, ties broken by the margin, then head to head, then shared."""

from __future__ import annotations

import pytest

from bot.competitions.standings import TableResult, standings


def test_place_points_at_tables_of_four_three_and_two():
    # latvian's worked example: values A −25, B 13, C 50, D 7 → A 4, D 3, B 2, C 1
    assert TableResult((0, 1, 2, 3), (-25, 13, 50, 7)).place_points() == (4, 2, 1, 3)
    assert TableResult((0, 1, 2), (10, 5, 20)).place_points() == (3, 4, 2)
    assert TableResult((0, 1), (10, 5)).place_points() == (3, 4)


def test_tied_players_share_the_average_of_their_places():
    result = TableResult((0, 1, 2, 3), (0, 9, 9, 20))
    assert result.place_points() == (4, 2.5, 2.5, 1)
    assert result.places() == (1, 2.5, 2.5, 4)


def test_a_higher_score_wins_in_a_points_game():
    assert TableResult((0, 1, 2), (61, 40, 12), lower_wins=False).place_points() == (4, 3, 2)


def test_standings_sum_place_points_over_rounds():
    rounds = [
        [TableResult((1, 2, 3, 4), (0, 10, 20, 30)), TableResult((5, 6, 7), (5, 1, 9))],
        [TableResult((1, 5, 6, 7), (8, 2, 40, 3)), TableResult((2, 3, 4), (7, 6, 5))],
    ]
    table = {s.player: s for s in standings(rounds)}
    assert table[1].points == 4 + 2
    assert table[5].points == 3 + 4
    assert table[4].points == 1 + 4
    assert standings(rounds)[0].player == 5
    assert all(s.rounds == 2 for s in table.values())


def test_a_tie_on_points_goes_to_the_better_margin():
    # 1 and 2 both score 4 + 3 = 7; 1's values add up lower (better in latvian)
    rounds = [
        [TableResult((1, 3), (5, 9)), TableResult((2, 4), (0, 30))],
        [TableResult((1, 4), (8, 2)), TableResult((2, 3), (40, 1))],
    ]
    ranked = standings(rounds)
    one, two = (next(s for s in ranked if s.player == p) for p in (1, 2))
    assert one.points == two.points == 7
    assert one.margin > two.margin
    assert one.rank < two.rank


def test_still_level_goes_to_head_to_head_then_is_shared():
    # 1 and 2: same points (4 + 3), same margin (−3)
    rounds = [
        [TableResult((1, 2, 3), (1, 2, 30))],
        [TableResult((2, 1, 3), (1, 2, 30)), TableResult((4, 5), (0, 0))],
    ]
    ranked = standings(rounds)
    by = {s.player: s for s in ranked}
    assert by[1].points == by[2].points
    assert by[1].margin == by[2].margin
    # they met twice, each ahead once: level head to head, so they share the place
    assert by[1].rank == by[2].rank
    # 4 and 5 tied at their table: shared, and never met anyone tied with them ahead
    assert by[4].rank == by[5].rank


def test_head_to_head_breaks_a_tie():
    rounds = [
        [TableResult((1, 2), (1, 2)), TableResult((3, 4), (1, 2))],
        [TableResult((2, 3), (1, 2)), TableResult((1, 4), (2, 1))],
    ]
    # 1: 4+3; 2: 3+4; 3: 4+3; 4: 3+4 — all 7 points; margins: 1 −3, 2 −3, 3 −3, 4 −3
    ranked = standings(rounds)
    assert {s.points for s in ranked} == {7}
    by = {s.player: s for s in ranked}
    # 1 beat 2, 2 beat 3, 3 beat 4, 4 beat 1: a cycle, each +1 −1: all share 1st
    assert {s.rank for s in ranked} == {1}
    rounds[1][1] = TableResult((1, 4), (1, 2))  # now 1 beats 4 too
    ranked = standings(rounds)
    by = {s.player: s for s in ranked}
    assert by[1].rank == 1
    assert by[4].rank > 1


def test_a_player_without_a_table_yet_is_listed_last():
    ranked = standings([[TableResult((1, 2), (1, 2))]], players=[1, 2, 9])
    assert [s.player for s in ranked] == [1, 2, 9]
    assert ranked[-1].points == 0
    assert ranked[-1].rounds == 0


@pytest.mark.parametrize("bad", [((1, 2), (1,)), ((1, 2, 3, 4, 5), (1, 2, 3, 4, 5))])
def test_a_malformed_table_is_refused(bad):
    with pytest.raises(ValueError, match=r"a table seats|one score a player"):
        TableResult(*bad)
