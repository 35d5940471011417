"""The leaderboard card: plain data in, PNG out, words from the caller."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from render import cards, theme
from render.cards import WIDTH, BoardCard, BoardLine, draw_leaderboard, render_leaderboard

HEADINGS = ("Rating", "Matches", "Wins", "Draws", "Win rate")


def board(n: int, **kw: object) -> BoardCard:
    lines = tuple(
        BoardLine(i + 1, f"Player {i}", (f"{9 - i:.1f}", "10", "5", "1", "50%")) for i in range(n)
    )
    args: dict[str, object] = {
        "title": "Block game leaderboard",
        "subtitle": "All time · by rating · 10 players",
        "page": "page 1 of 1",
        "name_heading": "Player",
        "headings": HEADINGS,
        "lines": lines,
        "footer": "Rating: μ − 3σ",
        "empty": "No counted matches here yet.",
    }
    args.update(kw)
    return BoardCard(**args)  # type: ignore[arg-type]


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


def test_the_page_line_goes_beside_the_subtitle_or_under_it() -> None:
    """``page 1 of 3`` is never run into another text: at the right of the subtitle's
    last line when it fits there, else on a line of its own."""
    short = cards._Header.of(board(3, page="page 1 of 3"), WIDTH)
    assert short.page_beside
    assert short.lines == 1
    full = "All time · by rating"  # as long as one line holds: no room left for the page
    while len(cards._Header.of(board(3, subtitle=full + " · more"), WIDTH).subtitle) == 1:
        full += " · more"
    long = cards._Header.of(board(3, subtitle=full), WIDTH)
    assert len(long.subtitle) == 1
    assert not long.page_beside
    assert long.lines == 2
    none = cards._Header.of(board(3, page=""), WIDTH)
    assert none.lines == 1
    assert draw_leaderboard(board(3, page="")).height == draw_leaderboard(board(3)).height
    assert draw_leaderboard(board(3, subtitle=full)).height > draw_leaderboard(board(3)).height
