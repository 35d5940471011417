"""The leaderboard and player card images: plain data in, PNG out, words from the caller."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from render import theme
from render.cards import (
    CARD_WIDTH,
    WIDTH,
    BoardCard,
    BoardLine,
    PlayerCardImage,
    ResultLine,
    draw_leaderboard,
    draw_player_card,
    render_leaderboard,
    render_player_card,
)

HEADINGS = ("Rating", "Matches", "Wins", "Draws", "Win rate")


def board(n: int, **kw: object) -> BoardCard:
    lines = tuple(
        BoardLine(i + 1, f"Player {i}", (f"{9 - i:.1f}", "10", "5", "1", "50%")) for i in range(n)
    )
    args: dict[str, object] = {
        "title": "Block game leaderboard",
        "subtitle": "All time · page 1 of 1",
        "name_heading": "Player",
        "headings": HEADINGS,
        "lines": lines,
        "footer": "Rating: μ − 3σ",
        "empty": "No counted matches here yet.",
    }
    args.update(kw)
    return BoardCard(**args)  # type: ignore[arg-type]


def player(trend: tuple[float, ...] = (0.0, 1.5, 0.7, 3.2), **kw: object) -> PlayerCardImage:
    args: dict[str, object] = {
        "title": "Ilze Bērziņa",
        "subtitle": "Domino Club · all time",
        "game_heading": "Game",
        "headings": ("Rating", "Matches", "Wins", "Win rate", "Pts/match", "Best streak"),
        "rows": (("Block game", "3.2 (#1)", "4", "3", "75%", "88", "2"),),
        "trend_title": "Rating trend · Block game",
        "trend": trend,
        "trend_empty": "Not enough rated matches for a trend yet.",
        "recent_title": "Recent results",
        "recent": (
            ResultLine("win", "Block game · Won · 100 pts", "+1.2"),
            ResultLine("loss", "Latvian dominoes · place 3 of 4", "−0.8"),
            ResultLine("draw", "Draw game · Draw"),
        ),
        "footer": "Rating: μ − 3σ",
    }
    args.update(kw)
    return PlayerCardImage(**args)  # type: ignore[arg-type]


def decode(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    im.load()
    return im


def test_a_leaderboard_page_is_a_palette_png_that_grows_with_its_lines() -> None:
    three = decode(render_leaderboard(board(3)))
    ten = decode(render_leaderboard(board(10)))
    assert three.format == "PNG"
    assert three.mode == "P"
    assert three.width == ten.width == WIDTH
    assert ten.height > three.height
    assert render_leaderboard(board(3)) == render_leaderboard(board(3))  # deterministic


def test_an_empty_board_shows_the_callers_empty_text() -> None:
    with_text = draw_leaderboard(board(0))
    without = draw_leaderboard(board(0, empty=""))
    assert with_text.size == without.size
    assert ImageChops.difference(with_text.convert("RGB"), without.convert("RGB")).getbbox()


def test_every_word_comes_from_the_caller() -> None:
    english = draw_leaderboard(board(2))
    other = draw_leaderboard(
        board(2, name_heading="Spēlētājs", headings=("Reitings", "Spēles", "Uzv.", "Neizšķ.", "%"))
    )
    assert ImageChops.difference(english.convert("RGB"), other.convert("RGB")).getbbox()


def test_the_viewers_line_is_outlined_in_gold() -> None:
    plain = draw_leaderboard(board(5))
    lines = list(board(5).lines)
    lines[4] = BoardLine(5, "Player 4", lines[4].cells, highlight=True)
    marked = draw_leaderboard(board(5, lines=tuple(lines)))
    box = ImageChops.difference(plain.convert("RGB"), marked.convert("RGB")).getbbox()
    assert box is not None
    assert box[1] > plain.height // 2  # the 5th line, in the lower half
    gold = theme.index(theme.GOLD)
    assert marked.crop(box).histogram()[gold] > 0


def test_cells_must_match_the_headings() -> None:
    bad = BoardCard("t", "s", "Player", HEADINGS, (BoardLine(1, "A", ("1", "2")),))
    with pytest.raises(ValueError, match="2 cells for 5 headings"):
        render_leaderboard(bad)
    with pytest.raises(ValueError, match="a row needs"):
        render_player_card(player(rows=(("Block game", "1"),)))


def test_a_player_card_draws_the_trend_or_the_callers_note() -> None:
    card = decode(render_player_card(player()))
    assert card.width == CARD_WIDTH
    with_trend = draw_player_card(player())
    one_point = draw_player_card(player(trend=(1.0,)))
    flat = draw_player_card(player(trend=(2.0, 2.0, 2.0)))
    assert with_trend.size == one_point.size == flat.size
    gold = theme.index(theme.GOLD)
    # the trend line is gold; with one point only the note is drawn in the chart box
    top = with_trend.height // 3
    chart = (0, top, with_trend.width, with_trend.height - 250)
    golds = [im.crop(chart).histogram()[gold] for im in (with_trend, one_point, flat)]
    assert golds[0] > golds[1]
    assert golds[2] > golds[1]


def test_more_recent_results_make_a_taller_card() -> None:
    short = draw_player_card(player(recent=()))
    long = draw_player_card(player())
    assert long.height > short.height
