"""The review picture and its text (issue 40): drawn for every game, and never showing a
tile the finished deal's record does not show at that moment."""

from __future__ import annotations

import io
import random
import re
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from bot.engine import Rules
from bot.engine.events import Drew, Played
from bot.engine.match import MatchState, new_match, play
from bot.engine.record import load_record, match_record
from bot.engine.review import ReviewSettings, position_before, review_deal
from bot.engine.review.values import KNOWN
from bot.engine.tiles import Tile
from bot.i18n import Translator
from bot.review import ReviewShown, ShownMistake
from bot.storage import MatchSeat
from cogs.domino.review_texts import review_card, review_lines
from render.review import render_review

FAST = ReviewSettings(
    known=replace(KNOWN, work=8_000, worlds=16), mexican_work=4_000, open_playouts=2
)


def shown_review(config: dict[str, Any], seed: int) -> tuple[MatchState, ReviewShown]:
    """A random deal read back from its record, reviewed, as the service shows it."""
    state = new_match(Rules.make(**config), random.Random(seed))
    rng = random.Random(seed + 1)
    while not state.deal.over:
        state = play(state, rng.choice(state.legal_moves()))
    names = [f"Player {i}" for i in range(state.rules.players)]
    state = load_record(match_record(state, names))
    review = review_deal(state, 1, random.Random(seed), FAST)
    result = state.deal.result
    assert result is not None
    return state, ReviewShown(
        match_id=7,
        deal=1,
        deals=1,
        rules=state.rules,
        names=tuple(names),
        seats=tuple(
            MatchSeat(i, 100 + i, None, n, state.rules.side_of(i), 0.0, False, None)
            for i, n in enumerate(names)
        ),
        review=review,
        result=result,
        mistakes=tuple(
            ShownMistake(i, position_before(state, 1, review.rows[i].index))
            for i in review.mistakes
        ),
        from_storage=False,
    )


CONFIGS = [
    {"game": "block", "players": 4},
    {"game": "draw", "players": 2},
    {"game": "allfives", "players": 4, "teams": True},
    {"game": "latvian", "players": 3},
    {"game": "mexican", "players": 3, "set": 9},
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c['game']}-{c['players']}")
def test_the_review_is_drawn_in_every_game(config: dict[str, Any]):
    _, shown = shown_review(config, 3)
    for language in ("en", "fi", "lv"):
        tr = Translator(language)
        png = render_review(review_card(shown, tr))
        image = Image.open(io.BytesIO(png))
        assert image.width == 1000
        assert image.height > 300
        text = review_lines(shown, tr)
        assert "#7" in text


def visible_then(state: MatchState, index: int, seat: int) -> tuple[set[Tile], set[Tile]]:
    """From the finished deal's own history: the tiles on the table before move
    ``index`` and the mover's hand then (dealt, plus drawn, less laid)."""
    deal = state.deal
    table: set[Tile] = set()
    hand = set(deal.dealt[seat])
    moves = 0
    for event in deal.history:
        if type(event) is Played:
            if moves == index:
                break
            moves += 1
            table |= set(event.move.tiles)
            if event.seat == seat:
                hand -= set(event.move.tiles)
        elif type(event) is Drew and event.seat == seat:
            hand |= set(event.tiles)
    return table, hand


def table_tiles(shown_board: Any) -> set[Tile]:
    table = shown_board.table
    laid = [table.lead] if table.lead is not None else []
    laid += [x for arm in table.arms for x in arm]
    tiles = {x.tile for x in laid if x.tile is not None}
    if shown_board.station is not None:
        tiles |= {car.tile for train in shown_board.station.trains for car in train.cars}
    return tiles


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c['game']}-{c['players']}")
@pytest.mark.parametrize("seed", range(3))
def test_a_review_never_shows_a_tile_the_record_does_not(config: dict[str, Any], seed: int):
    state, shown = shown_review(config, seed)
    card = review_card(shown, Translator())
    assert len(card.mistakes) == len(shown.review.mistakes)
    allowed_text: set[str] = set()
    for picture, mistake in zip(card.mistakes, shown.mistakes, strict=True):
        row = shown.review.rows[mistake.row]
        table, hand = visible_then(state, row.index, row.seat)
        assert set(picture.hand) == hand
        assert table_tiles(picture.board) == table
        assert picture.board.hand == ()  # a spectator's view: no hand in the board
        assert set(picture.played.tiles) <= hand
        assert set(picture.better.tiles) <= hand
        for move in (row.played, row.known_best, row.open_best):
            allowed_text |= {str(t) for t in move.tiles}
            allowed_text |= {f"{t.high}-{t.low}" for t in move.tiles}
    named = set(re.findall(r"\b\d{1,2}-\d{1,2}\b", review_lines(shown, Translator())))
    assert named <= allowed_text
