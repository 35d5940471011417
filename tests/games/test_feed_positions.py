"""The table's feed: everything since the last turn of the seat to move, in order, with
the notes where they happened; never a hidden tile (issue 38)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from bot.engine import Drew, MatchState, Passed, Played, Rules, new_match, next_deal, play
from bot.games.feed import feed_start, laid_since, last_turn, position
from bot.games.service import Note, Update
from bot.games.session import PLAYING, Seat, Session
from bot.games.snapshot import snapshot
from bot.i18n import Translator
from cogs.domino.narrate import FEED_CHARS, FEED_LINES, Noted, feed, noted

NAMES = ["alice", "bob", "carol", "dave"]
EN = Translator()


def session_of(state: MatchState, version: int = 1) -> Session:
    now = datetime(2026, 12, 6, tzinfo=UTC)
    seats = tuple(Seat(NAMES[i], user_id=i + 1) for i in range(state.rules.players))
    return Session(1, 1, 1, 1, PLAYING, state.rules, seats, state, 7, version, 0, None, now, now)


def step(state: MatchState, rng: random.Random) -> MatchState:
    """One random legal move; a finished deal is followed by the next, as the service
    does."""
    state = play(state, rng.choice(state.legal_moves()))
    if state.deal.over and not state.over:
        state = next_deal(state, rng)
    return state


def walk(state: MatchState, moves: int, rng: random.Random) -> MatchState:
    """``moves`` turns of random legal play (forced passes and draws come with them)."""
    for _ in range(moves):
        if state.over:
            break
        state = step(state, rng)
    return state


def told(state: MatchState, notes=()) -> list[str]:
    return feed(snapshot(session_of(state)), list(notes), EN, NAMES[: state.rules.players]).lines


def test_a_full_round_of_four_tells_each_other_seat_in_order():
    rules = Rules.make("block", players=4)
    state = walk(new_match(rules, random.Random(3)), 5, random.Random(1))
    assert not state.deal.over
    seat = state.deal.turn
    start = last_turn(state, seat)
    assert start is not None
    assert feed_start(state) == (seat, start)
    history = state.deal.history[start[1] :]
    acted = [e.seat for e in history if type(e) is not Drew]
    assert acted == [(seat + k) % 4 for k in range(1, 4)]  # the three others, in turn
    lines = told(state)
    assert [line.split()[0] for line in lines] == [NAMES[s] for s in acted]
    # the move before the seat's own is not told again
    own = state.deal.history[start[1] - 1]
    assert own.seat == seat


def test_before_anybody_moved_the_feed_starts_at_the_deal():
    state = new_match(Rules.make("block", players=2), random.Random(5))
    assert feed_start(state) == (None, (1, 0))
    assert told(state) == []
    first = play(state, state.legal_moves()[0])
    since, start = feed_start(first)
    assert since is None
    assert start == (1, 0)
    lead = first.deal.history[0]
    assert told(first) == [f"{NAMES[lead.seat]} played {lead.move.tiles[0]}"]


def test_a_scoring_move_says_its_side_s_new_total():
    rules = Rules.make("allfives", players=4, teams=True)
    rng = random.Random(11)
    for seed in range(50):
        state = new_match(rules, random.Random(seed))
        while not (state.over or state.deal.over):
            state = play(state, rng.choice(state.legal_moves()))
            last = state.deal.history[-1]
            if type(last) is Played and last.points and not state.deal.over:
                side = rules.side_of(last.seat)
                line = told(state)[-1]
                total = EN.number(state.totals[side])
                assert line.endswith(f"(+{last.points} → {total})"), line
                return
    raise AssertionError("no scoring move in 50 deals")


def test_passes_and_draws_are_told():
    rules = Rules.make("draw", players=2)
    rng = random.Random(0)
    for seed in range(60):
        state = new_match(rules, random.Random(seed))
        for _ in range(40):
            if state.over or state.deal.over:
                break
            state = play(state, rng.choice(state.legal_moves()))
            history = state.deal.history
            if any(type(e) is Drew for e in history[-3:]) and type(history[-1]) is not Drew:
                lines = told(state)
                assert any(" drew " in line for line in lines), lines
                return
    raise AssertionError("no draw in 60 deals")


def test_a_deal_that_ended_and_the_next_that_began_are_told():
    rules = Rules.make("block", players=2, target=500)
    rng = random.Random(4)
    state = new_match(rules, random.Random(8))
    while state.deal_number == 1:
        state = step(state, rng)
    lines = told(state)
    assert any(line.startswith(("Domino!", "Deal 1 is blocked")) for line in lines), lines
    assert "Deal 2 begins." in lines
    ends = next(i for i, line in enumerate(lines) if "Deal 1" in line)
    assert lines.index("Deal 2 begins.") > ends


def test_notes_go_where_they_happened_and_old_ones_are_dropped():
    rules = Rules.make("block", players=2)
    rng = random.Random(2)
    state = walk(new_match(rules, random.Random(9)), 2, rng)
    before = session_of(state)
    after_state = walk(state, 1, rng)
    after = session_of(after_state, 2)
    timeout = Note("timeout", seat=before.turn, fields={"name": NAMES[before.turn]})
    notes = noted(Update(before, after, (timeout,)))
    assert notes == [Noted(position(state), timeout, False)]
    lines = told(after_state, notes)
    timed_out = lines.index(f"{NAMES[before.turn]} ran out of time: the AI played for them.")
    assert lines[timed_out + 1].startswith(f"{NAMES[before.turn]} played")
    # a note from before the seat to move last played is not told again
    old = Noted((1, 0), Note("joined", fields={"name": "zed"}), False)
    later = walk(after_state, 2, rng)
    assert not any("zed" in line for line in told(later, [old]))


def test_a_long_feed_keeps_its_latest_lines_and_says_how_many_it_left_out():
    rules = Rules.make("block", players=2)
    state = walk(new_match(rules, random.Random(9)), 2, random.Random(2))
    _, start = feed_start(state)
    notes = [
        Noted(start, Note("joined", fields={"name": f"p{i:02d}" * 8}), False) for i in range(40)
    ]
    lines = told(state, notes)
    assert len(lines) <= FEED_LINES
    assert len("\n".join(lines)) <= FEED_CHARS
    assert lines[0].startswith("… ")
    assert lines[0].endswith(" earlier lines")
    assert lines[-1].startswith(NAMES[state.deal.history[-1].seat])  # the latest move kept


def test_a_face_down_tile_is_never_named():
    rules = Rules.make("latvian", players=2)
    rng = random.Random(6)
    for seed in range(80):
        state = new_match(rules, random.Random(seed))
        for _ in range(30):
            if state.over or state.deal.over:
                break
            state = play(state, rng.choice(state.legal_moves()))
            closed = [
                p.tile
                for e in state.deal.history
                if type(e) is Played
                for p in e.move.placements
                if p.closed
            ]
            if closed and not state.deal.over:
                text = "\n".join(told(state))
                for tile in closed:
                    assert str(tile) not in text
                    assert f"{tile.high}-{tile.low}" not in text
                assert all(t not in closed for _, t in laid_since(state, (0, 0)))
                return
    raise AssertionError("no face-down tile in 80 deals")


def test_a_partner_who_went_out_is_named_alone():
    rules = Rules.make("block", players=4, teams=True, target=500)
    rng = random.Random(1)
    for seed in range(200):
        state = new_match(rules, random.Random(seed))
        while state.deal_number == 1 and not state.over:
            state = step(state, rng)
        result = state.deals[0].result
        if result is not None and result.end == "domino":
            out = result.out_seat
            partner = next(s for s in result.winners if s != out)
            want = (
                f"Domino! {NAMES[out]} went out: "
                f"{' & '.join(NAMES[s] for s in result.winners)} win deal 1."
            )
            line = next(x for x in told(state) if x.startswith("Domino!"))
            assert line == want
            assert f"{NAMES[partner]} went out" not in line
            return
    raise AssertionError("no domino in 200 deals")


def test_laid_since_marks_the_tiles_of_the_deal_in_play_in_order():
    rules = Rules.make("block", players=4)
    state = walk(new_match(rules, random.Random(3)), 6, random.Random(1))
    _, start = feed_start(state)
    laid = laid_since(state, start)
    plays = [e for e in state.deal.history[start[1] :] if type(e) is Played]
    assert laid == [(e.seat, p.tile) for e in plays for p in e.move.placements]
    assert all(type(e) in (Played, Passed, Drew) for e in state.deal.history)
    assert laid  # three seats moved since: some tiles to mark


def test_a_timeout_of_the_turn_the_feed_starts_after_is_still_told():
    """The timer played for a slow player, the others moved (a deal may even have ended):
    the feed since that player's last turn says their time ran out."""
    rules = Rules.make("block", players=2)
    rng = random.Random(2)
    state = walk(new_match(rules, random.Random(9)), 2, rng)
    slow = state.deal.turn
    after = walk(state, 1, rng)  # the AI's move for the slow player
    later = walk(after, 1, rng)  # the other player's move: the slow player's turn again
    if later.deal.turn != slow:
        later = walk(later, 1, rng)
    timeout = Noted(position(state), Note("timeout", seat=slow), False)
    lines = told(later, [timeout])
    assert f"{NAMES[slow]} ran out of time: the AI played for them." in lines
    # a note about another seat from before the start is not told
    other = Noted(position(state), Note("timeout", seat=1 - slow), False)
    assert not any("ran out of time" in line for line in told(later, [other]))
