"""The public snapshot at the service–cog edge (issue 39): no hidden tile anywhere in its
tree, the same pictures and words as the match state gave, and a size that does not grow
with the match."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.engine import Deal, MatchState, Played, Rules, Tile, new_match, next_deal, play
from bot.engine.view import score_view
from bot.games.feed import position
from bot.games.service import Update, turn_token
from bot.games.session import FINISHED, PLAYING, Seat, Session
from bot.games.snapshot import Snapshot, snapshot
from render.samples import finished_match
from render.summary import render_summary

NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve")
GAMES = (
    {"game": "block", "players": 2},
    {"game": "draw", "players": 4, "teams": True, "target": 60},
    {"game": "allfives", "players": 3, "target": 100},
    {"game": "latvian", "players": 4, "deals": 4},
    {"game": "latvian", "players": 2, "deals": 6},
    {"game": "mexican", "set": 9, "players": 5, "deals": 3},
)


def session_of(state: MatchState, version: int = 1) -> Session:
    now = datetime(2026, 12, 6, tzinfo=UTC)
    seats = tuple(Seat(NAMES[i], user_id=i + 1) for i in range(state.rules.players))
    status = FINISHED if state.over else PLAYING
    return Session(1, 1, 1, 1, status, state.rules, seats, state, 7, version, 0, None, now, now)


def positions(rules: Rules, seed: int) -> Iterator[MatchState]:
    """Every position of a random match, a finished deal followed by the next."""
    rng = random.Random(seed)
    state = new_match(rules, random.Random(seed + 1))
    yield state
    while not state.over:
        if state.deal.over:
            state = next_deal(state, rng)
        else:
            state = play(state, rng.choice(state.legal_moves()))
        yield state


def tiles_in(value: object, skip: Callable[[object], bool] = lambda _: False) -> Iterator[Tile]:
    """Every tile anywhere in ``value``'s tree (fields, tuples, dicts, sets)."""
    if skip(value):
        return
    if isinstance(value, Tile):
        yield value
    elif isinstance(value, (str, bytes, int, float, type(None))):
        return
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from tiles_in(k, skip)
            yield from tiles_in(v, skip)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from tiles_in(item, skip)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from tiles_in(getattr(value, f.name), skip)
    else:
        raise AssertionError(f"a snapshot holds a {type(value).__name__}")


def hidden(deal: Deal) -> set[Tile]:
    """What nobody but a hand's owner may know of a deal in play: every hand (drawn tiles
    included), the boneyard, and the tiles laid face down."""
    assert not deal.over
    tiles = {t for seat in range(deal.n) for t in deal.hand(seat)} | set(deal.boneyard)
    for event in deal.history:
        if type(event) is Played:
            tiles |= {p.tile for p in event.move.placements if p.closed}
    return tiles


def tiles_of_the_deal_in_play(game: Snapshot) -> set[Tile]:
    """Every tile in ``game``'s tree but the finished deals': those are public (every hand
    is revealed at a deal's end) and their tiles are dealt again. In the first deal, the
    whole tree."""
    match = game.match
    assert match is not None
    finished = (match.score.results, match.board.results, *match.stories[:-1])
    if match.deal_number == 1:
        finished = ()
    return set(tiles_in(game, skip=lambda v: any(v is f for f in finished)))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: str(g["game"]))
def test_a_snapshot_of_a_deal_in_play_holds_no_hidden_tile(game: dict[str, object]) -> None:
    checked = 0
    for state in positions(Rules.from_dict(game), seed=3):
        if state.deal.over:
            continue
        shown = tiles_of_the_deal_in_play(snapshot(session_of(state)))
        assert shown.isdisjoint(hidden(state.deal)), (state.deal_number, len(state.deal.history))
        checked += 1
    assert checked > 10


def test_face_down_tiles_are_hidden_and_then_revealed() -> None:
    """A latvian tile laid face down is in no snapshot while its deal is in play; once the
    deal is over every tile is public (the feed and the board may name it)."""
    seen_closed = 0
    for state in positions(Rules.make("latvian", players=3, deals=3), seed=5):
        deal = state.deal
        closed = {
            p.tile for e in deal.history if type(e) is Played for p in e.move.placements if p.closed
        }
        if not closed:
            continue
        shown = tiles_of_the_deal_in_play(snapshot(session_of(state)))
        if deal.over:
            assert closed <= shown
        else:
            seen_closed += 1
            assert closed.isdisjoint(shown)
    assert seen_closed


def _swap_hidden_tile(deal: Deal) -> Deal:
    """The same deal with one tile of the seat to move's hand swapped for a boneyard tile."""
    twin = deal.copy()
    seat = deal.turn
    held = deal.hand(seat)[0]
    other = deal.boneyard[-1]
    twin.hands[seat] = twin.hands[seat] & ~(1 << held) | (1 << other)
    stock = list(twin.stock)
    stock[stock.index(other)] = held
    twin.stock = tuple(stock)
    return twin


@pytest.mark.parametrize(
    "game",
    [
        {"game": "draw", "players": 2, "target": 60},
        {"game": "allfives", "players": 3, "target": 100},
        {"game": "latvian", "players": 2, "deals": 6},
        {"game": "mexican", "set": 9, "players": 5, "deals": 3},
    ],
    ids=lambda g: str(g["game"]),
)
def test_hidden_tiles_do_not_change_the_snapshot(game: dict[str, object]) -> None:
    """Two deals that differ only in what nobody may see give the same snapshot, in every
    deal of the match."""
    checked = 0
    for state in positions(Rules.from_dict(game), seed=11):
        if state.deal.over or not state.deal.boneyard or state.deal.forced is not None:
            continue
        twin = replace(state, deals=(*state.deals[:-1], _swap_hidden_tile(state.deal)))
        assert snapshot(session_of(twin)) == snapshot(session_of(state))
        checked += 1
    assert checked > 5


def test_the_turn_token_and_the_positions_are_the_service_s() -> None:
    before: Session | None = None
    for state in positions(Rules.make("allfives", players=4, teams=True, target=60), seed=2):
        session = session_of(state)
        game = snapshot(session)
        assert game.turn_token == turn_token(session)
        assert game.turn == session.turn
        assert game.match is not None
        assert game.match.position == position(state)
        update = Update(before, session)
        assert update.span() == (position(before.state if before else None), position(state))
        assert update.shown() == game
        before = session
    lobby = replace(session_of(state), state=None)
    assert snapshot(lobby).turn_token == turn_token(lobby) == "0"
    assert snapshot(lobby).match is None
    assert Update(None, lobby).hand(0) is None


def test_a_hand_travels_for_its_seat_alone() -> None:
    state = next(s for s in positions(Rules.make("draw", players=3), seed=4) if s.deal.history)
    update = Update(None, session_of(state))
    for seat in range(3):
        seen = update.hand(seat)
        assert seen is not None
        assert seen.seat == seat
        assert seen.hand == state.deal.hand(seat)


@pytest.mark.parametrize(
    "rules",
    [
        Rules.make("draw", players=4, teams=True, target=60),
        Rules.make("latvian", players=3, deals=4),
        Rules.make("mexican", set=9, players=3, deals=3),
    ],
    ids=lambda r: r.game,
)
def test_each_summary_is_the_picture_the_state_gave(rules: Rules) -> None:
    """The summary of deal ``n`` drawn from the snapshot is, byte for byte, the one the
    cog drew from the state cut after deal ``n`` before the snapshot existed."""
    state = finished_match(rules, seed=6, deals=rules.deals or 3)
    match = snapshot(session_of(state)).match
    assert match is not None
    names = NAMES[: rules.players]
    for number in range(1, len(state.deals) + 1):
        cut = replace(
            state,
            deals=state.deals[:number],
            outcome=state.outcome if number == len(state.deals) else None,
        )
        score = match.summary(number)
        assert score == score_view(cut)
        assert render_summary(score, names) == render_summary(cut, names)
    assert match.summary(0) is None
    assert match.summary(len(state.deals) + 1) is None


def test_a_long_match_does_not_make_the_snapshot_grow() -> None:
    """Only the deals the feed tells are in a snapshot (with every finished deal's result)."""
    rules = Rules.make("latvian", players=4, deals=60)
    longest = 0
    last: Snapshot | None = None
    for state in positions(rules, seed=8):
        match = snapshot(session_of(state)).match
        assert match is not None
        assert match.stories[-1].number == state.deal_number
        longest = max(longest, len(match.stories))
        last = snapshot(session_of(state))
    assert last is not None
    assert last.match is not None
    assert last.match.finished == 60
    assert longest <= 3
