"""Worked examples of the rules, each as its own test.

Those of RULES.md#worked-examples and more, grouped by game: RULES.md#block-game,
#draw-game, #all-fives and #latvian-dominoes (minus points is a block scoring).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.engine import (
    Drew,
    End,
    Move,
    Played,
    Rules,
    Tile,
    full_set,
    legal_moves,
    play,
    start_match,
)
from bot.engine.deal import fixed_lead
from bot.engine.layout import Layout
from bot.engine.match import MatchState, decide_match
from bot.engine.moves import Placement
from bot.engine.scoring import DealEnd, latvian_value, place_points, round5, score_deal
from bot.engine.tiles import mask_of

W, E, N, S = End.WEST, End.EAST, End.NORTH, End.SOUTH


def T(text: str) -> Tile:
    return Tile.parse(text)


def tiles(text: str) -> list[Tile]:
    return [T(x) for x in text.split()]


def deal_of(rules: Rules, hands: Sequence[str], stock_top: str = "") -> tuple[list, list]:
    """Hands as given; the stock starts with ``stock_top`` and holds the rest of the set."""
    dealt = [tiles(h) for h in hands]
    top = tiles(stock_top)
    used = {t for h in dealt for t in h} | set(top)
    rest = [t for t in full_set(rules.set) if t not in used]
    return dealt, top + rest


def start(rules: Rules, hands: Sequence[str], stock_top: str = "", leader=None) -> MatchState:
    dealt, stock = deal_of(rules, hands, stock_top)
    return start_match(rules, dealt, stock, leader)


def lay(state: MatchState, text: str, end: End | None = None, closed: bool = False) -> MatchState:
    t = T(text)
    if end is None:
        west = int(text.split("-")[0])
        return play(state, Move.lead(t, west))
    return play(state, Move.single(t, end, closed))


def last_played(state: MatchState) -> Played:
    event = state.deal.history[-1]
    assert isinstance(event, Played)
    return event


# -- Block ------------------------------------------------------------------------


def test_block_three_players_deal_five_with_thirteen_out_and_teams_deal_all():
    three = Rules.make("block", players=3)
    assert (three.hand, three.stock_size) == (5, 13)
    teams = Rules.make("block", players=4, teams=True)
    assert (teams.hand, teams.stock_size) == (7, 0)


def test_block_highest_double_dealt_leads_when_six_six_is_out_of_play():
    rules = Rules.make("block", players=3, hand=2)
    hands, stock = deal_of(rules, ["5-5 2-3", "4-4 6-1", "1-2 0-4"])
    assert T("6-6") in stock
    assert fixed_lead(rules, [mask_of(h) for h in hands]) == (0, T("5-5"))
    state = start_match(rules, hands, stock)
    assert state.turn == 0
    assert legal_moves(state) == [Move.lead(T("5-5"))]


def test_block_blocked_two_players_lowest_pips_wins_the_others_pips():
    rules = Rules.make("block")
    result = score_deal(rules, DealEnd.BLOCKED, [tiles("6-6"), tiles("1-2 0-3")])
    assert result.winners == (1,)
    assert result.score == (0, 12)
    minus_own = score_deal(rules.with_options(blocked_scoring="minus_own"), DealEnd.BLOCKED,
                           [tiles("6-6"), tiles("1-2 0-3")])  # fmt: skip
    assert minus_own.score == (0, 6)


def test_block_blocked_with_equal_pips_is_a_drawn_deal():
    result = score_deal(Rules.make("block"), DealEnd.BLOCKED, [tiles("2-3"), tiles("1-4")])
    assert result.winners == ()
    assert result.drawn
    assert result.score == (0, 0)


def test_block_teams_blocked_lower_side_scores_the_other_sides_pips():
    rules = Rules.make("block", players=4, teams=True)
    hands = [tiles("1-2"), tiles("0-5"), tiles("4-5"), tiles("0-4")]  # 3+9=12 v 5+4=9
    result = score_deal(rules, DealEnd.BLOCKED, hands)
    assert result.winners == (1, 3)
    assert result.score == (0, 12)


def test_block_blocked_deal_played_out_ends_after_a_full_round_of_passes():
    rules = Rules.make("block", hand=2)
    # A leads 6-6; nobody holds another 6: B passes, A passes, the deal is blocked.
    state = start(rules, ["6-6 1-2", "0-2 0-0"])
    state = lay(state, "6-6")
    assert state.deal.end is DealEnd.BLOCKED
    assert [type(e).__name__ for e in state.deal.history] == ["Played", "Passed", "Passed"]
    result = state.deal.result
    assert result is not None
    assert result.pips == (3, 2)
    assert result.winners == (1,)
    assert result.score == (0, 3)


# -- Draw -------------------------------------------------------------------------


def _ends_2_6(rules: Rules, third: str, stock_top: str = "") -> MatchState:
    """A leads 6-6, B lays 6-2 on west: ends 2|6 with seat 2 to move."""
    state = start(rules, ["6-6 0-1", "6-2 0-2", third], stock_top)
    state = lay(state, "6-6")
    state = lay(state, "6-2", W)
    assert state.deal.layout.values[:2] == [2, 6]
    return state


def test_draw_player_draws_until_a_tile_fits_and_must_lay_it():
    rules = Rules.make("draw", players=3, hand=2)
    state = _ends_2_6(rules, "1-3 4-5", stock_top="3-3 0-4 6-1")
    deal = state.deal
    assert deal.turn == 2
    drew = deal.history[-1]
    assert isinstance(drew, Drew)
    assert drew.tiles == (T("3-3"), T("0-4"), T("6-1"))
    assert legal_moves(state) == [Move.single(T("6-1"), E)]
    state = play(state, Move.single(T("6-1"), E))
    assert state.deal.layout.values[:2] == [2, 1]
    assert sorted(state.deal.hand(2)) == sorted(tiles("1-3 4-5 3-3 0-4"))


def test_draw_player_with_a_legal_move_must_lay_it_and_may_not_draw():
    rules = Rules.make("draw", players=3, hand=2)
    state = _ends_2_6(rules, "2-5 0-0")
    assert legal_moves(state) == [Move.single(T("2-5"), W)]
    assert not any(isinstance(e, Drew) for e in state.deal.history)
    assert state.deal.boneyard_size == 28 - 6


# -- All fives --------------------------------------------------------------------


def test_allfives_lead_double_is_the_spinner_and_short_sides_open_after_both_long_sides():
    rules = Rules.make("allfives")
    state = start(rules, ["5-5 5-3 5-6 1-1 1-2 1-3 1-4", "5-0 5-2 2-2 2-3 2-4 3-3 3-4"], leader=0)
    counts = []
    for text, end in [("5-5", None), ("5-0", W), ("5-3", E), ("5-2", N), ("5-6", S)]:
        state = lay(state, text, end)
        event = last_played(state)
        counts.append((event.fives_count, event.points))
    assert counts == [(10, 10), (10, 10), (3, 0), (5, 5), (11, 0)]
    assert state.deal.play_points == [10, 15]
    assert state.totals == (10, 15)


def test_allfives_spinner_north_is_not_open_before_both_long_sides():
    rules = Rules.make("allfives")
    state = start(rules, ["5-5 5-3 5-6 1-1 1-2 1-3 1-4", "5-0 5-2 2-2 2-3 2-4 3-3 3-4"], leader=0)
    state = lay(state, "5-5")
    assert {m.placements[0].end for m in legal_moves(state)} == {W, E}


def test_allfives_later_double_becomes_the_spinner():
    rules = Rules.make("allfives")
    state = start(rules, ["6-4 4-1 4-5 0-0 0-1 0-2 0-3", "4-4 4-3 1-1 1-2 1-3 2-2 2-3"], leader=0)
    counts = []
    for text, end in [("6-4", None), ("4-4", E), ("4-1", E), ("4-3", N), ("4-5", S)]:
        state = lay(state, text, end)
        event = last_played(state)
        counts.append((event.fives_count, event.points))
    assert counts == [(10, 10), (14, 0), (7, 0), (10, 10), (15, 15)]
    assert state.deal.layout.spinner == T("4-4")


def test_allfives_domino_bonus_and_blocked_bonus_round_to_five():
    rules = Rules.make("allfives")
    assert round5(13) == 15
    assert round5(12) == 10
    domino = score_deal(rules, DealEnd.DOMINO, [[], tiles("6-6 0-1")], out_seat=0)
    assert domino.bonus == (15, 0)
    blocked = score_deal(rules, DealEnd.BLOCKED, [tiles("4-4"), tiles("5-6")])
    assert blocked.winners == (0,)
    assert blocked.bonus == (10, 0)


# -- Latvian ----------------------------------------------------------------------


def _latvian(hands: Sequence[str]) -> MatchState:
    return start(Rules.make("latvian", hand=4), hands)


def test_latvian_lead_one_one_opens_four_roads():
    state = _latvian(["1-1 1-6 0-3 0-5", "1-4 4-4 6-6 2-5"])
    assert state.turn == 0
    state = lay(state, "1-1")
    assert state.deal.layout.shown() == {W: 1, E: 1, N: 1, S: 1}


def test_latvian_several_doubles_on_different_ends_in_one_move():
    state = _latvian(["1-1 1-6 0-3 0-5", "1-4 4-4 6-6 2-5"])
    state = lay(state, "1-1")
    state = lay(state, "1-4", N)
    state = lay(state, "1-6", S)
    assert state.deal.layout.shown() == {W: 1, E: 1, N: 4, S: 6}
    moves = legal_moves(state)
    shapes = {tuple((str(p.tile), p.end) for p in m.placements) for m in moves}
    assert shapes == {(("4-4", N),), (("6-6", S),), (("4-4", N), ("6-6", S))}
    assert not any(T("2-5") in m.tiles for m in moves)
    both = Move((Placement(T("4-4"), N), Placement(T("6-6"), S)))
    state = play(state, both)
    assert state.deal.hand(1) == (T("2-5"),)


def test_latvian_face_down_tile_closes_its_end():
    state = _latvian(["1-1 1-6 0-3 0-5", "1-4 4-2 6-6 2-5"])
    state = lay(state, "1-1")
    state = lay(state, "1-4", N)
    state = lay(state, "1-6", E)
    state = lay(state, "4-2", N, closed=True)
    layout = state.deal.layout
    assert layout.closed[N]
    assert set(layout.open_ends()) == {W, E, S}
    assert all(m.placements[0].end != N for m in legal_moves(state))


def test_latvian_deal_is_dead_when_every_open_end_number_is_all_on_the_table():
    layout = Layout("hub")
    layout.place_lead(T("2-2"))
    for text, end, closed in [
        ("2-5", W, True),
        ("2-6", S, True),
        ("2-3", N, False),
        ("3-1", N, False),
        ("2-4", E, False),
        ("4-0", E, False),
    ]:
        layout.place(Placement(T(text), end, closed))
    layout.place(Placement(T("1-2"), N))
    assert not layout.is_dead()  # E shows 0, N shows 2
    layout.place(Placement(T("0-2"), E))
    assert layout.shown() == {W: 5, E: 2, N: 2, S: 6}
    assert set(layout.open_ends()) == {N, E}
    assert layout.is_dead()


@pytest.mark.parametrize(
    ("hand", "value"),
    [("0-0", 25), ("6-6", 50), ("0-0 6-6", 75), ("0-0 1-2", 3), ("6-6 0-1", 13)],
)
def test_latvian_values_of_hands_left(hand: str, value: int):
    assert latvian_value(tiles(hand)) == value


def test_latvian_one_deal_places():
    rules = Rules.make("latvian", players=4, deals=1)
    hands = [[], tiles("6-5 0-2"), tiles("6-6"), tiles("3-4")]
    last = Move((Placement(T("0-0"), W), Placement(T("3-3"), E)))
    result = score_deal(rules, DealEnd.DOMINO, hands, out_seat=0, last_move=last)
    assert result.values == (-25, 13, 50, 7)
    assert result.winners == (0,)
    assert place_points([-25, 13, 50, 7], 4) == (4, 2, 1, 3)
    outcome = decide_match(rules, [result])
    assert outcome is not None
    assert outcome.places == (4, 2, 1, 3)
    assert outcome.winners == (0,)


# -- Finnish penalty --------------------------------------------------------------


def test_finnish_penalty_match_ends_when_a_player_reaches_the_limit():
    rules = Rules.make("block", players=3, scoring="penalty", target=50)
    deals = [(0, 17, 9), (22, 0, 30), (5, 35, 0)]
    results = []
    for i, pips in enumerate(deals):
        out = pips.index(0)
        results.append(score_deal(rules, DealEnd.DOMINO, [_hand_of(p) for p in pips], out_seat=out))
        outcome = decide_match(rules, results)
        if i < 2:
            assert outcome is None
    totals = tuple(sum(r.score[i] for r in results) for i in range(3))
    assert totals == (27, 52, 39)
    assert outcome is not None
    assert outcome.winners == (0,)


def _hand_of(pips: int) -> list[Tile]:
    """Some tiles of double-6 adding up to ``pips``."""
    hand = []
    for t in sorted(full_set(6), key=lambda t: -t.pips):
        if t.pips <= pips and t.pips:
            hand.append(t)
            pips -= t.pips
    assert pips == 0
    return hand
