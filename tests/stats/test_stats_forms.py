"""What the stats commands show, through SimCord (issue 38): one form per answer, the
rating note once, the page line apart, a solo player's games against the AI, "… ago",
and dates written one way."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest
from PIL import Image
from stats_support import components

from bot.client import DominoBot
from bot.i18n import Translator
from cogs.domino import boards
from render import canvas, cards

Store = Callable[..., Awaitable[int]]
NOTE = "Rating: a cautious estimate of skill."
UNRATED = "— means not rated yet"
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


async def a_crowd(store: Store, alice: Any, n: int = 25) -> None:
    """``n`` players who each lost once to alice."""
    for i in range(n):
        await store(
            (alice.id, "alice", 0, 100.0, True, None), (9000 + i, f"P{i:02d}", 1, 0.0, False, None)
        )


def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the leaderboard card draws from now on."""
    texts: list[str] = []

    def draw_text(im: Image.Image, text: str, *args: Any, **kw: Any) -> int:
        texts.append(text)
        return canvas.draw_text(im, text, *args, **kw)

    monkeypatch.setattr(cards, "draw_text", draw_text)
    return texts


def embed_text(message: Any) -> str:
    """Every word of a message's embeds."""
    parts = []
    for e in message.embeds:
        parts += [e.title or "", e.description or "", e.footer.text or ""]
        parts += [f"{f.name}\n{f.value}" for f in e.fields]
    return "\n".join(parts)


async def test_a_leaderboard_is_one_picture_with_its_note_once_and_its_page_apart(
    monkeypatch: pytest.MonkeyPatch, bot: DominoBot, channel: Any, alice: Any, stored: Store
) -> None:
    await a_crowd(stored, alice)
    texts = drawn_texts(monkeypatch)
    message = (await alice.slash(channel, "domino leaderboard")).response
    # one form: the picture alone (no embed, no text beside it), the buttons under it
    assert len(message.attachments) == 1
    assert message.attachments[0].filename == "leaderboard.png"
    assert message.embeds == []
    assert message.content == ""
    assert [c["label"] for c in components(message)] == ["◀ Previous", "Next ▶"]
    # the note drawn once (its first line starts with it), the page line a text of its own
    assert sum(t.startswith("Rating:") for t in texts) == 1
    assert "page 1 of 3" in texts
    assert not any("page 1 of 3" in t and t != "page 1 of 3" for t in texts)
    # every player rated: no "—" to explain
    assert not any(t.startswith("—") for t in texts)
    # the picture reads out in its alt text (for screen readers), without the note
    alt = str(message.attachments[0].description)
    head = "Block game leaderboard. Season 1 · by rating · 26 players · page 1 of 3."
    assert alt.startswith(head)
    assert NOTE not in alt


async def test_a_leaderboard_whose_picture_cannot_be_attached_is_text(
    simcord_env: Any, bot: DominoBot, channel: Any, alice: Any, stored: Store
) -> None:
    """The text form: the lines, the note once, the page line alone in the footer."""
    await a_crowd(stored, alice)
    simcord_env.inject_error("POST", "/webhooks/*", status=413, code=40005)
    message = (await alice.slash(channel, "domino leaderboard")).response
    assert message.attachments == []
    assert len(message.embeds) == 1
    embed = message.embeds[0]
    assert embed.title == "Block game leaderboard"
    text = str(embed.description)
    assert text.startswith("Season 1 · by rating · 26 players\n\n**1.** alice — rating ")
    assert text.count("\n**") == 10  # ten lines
    assert embed_text(message).count(NOTE) == 1
    assert embed.footer.text == "page 1 of 3"
    assert "page" not in text


async def test_a_leaderboard_whose_picture_cannot_be_drawn_is_text_on_every_page(
    monkeypatch: pytest.MonkeyPatch,
    bot: DominoBot,
    channel: Any,
    alice: Any,
    bob: Any,
    stored: Store,
) -> None:
    await a_crowd(stored, alice, n=12)
    first = (await alice.slash(channel, "domino leaderboard")).response
    assert first.attachments

    def broken(card: Any) -> bytes:
        raise OSError("no fonts today")

    monkeypatch.setattr(boards, "render_leaderboard", broken)
    second = (await bob.click(first, label="Next ▶")).response
    assert second.id == first.id
    assert second.attachments == []  # the old picture is gone, the text stands in
    assert str(second.embeds[0].description).count("**1") == 3  # 11., 12., 13.
    assert second.embeds[0].footer.text == "page 2 of 2"
    again = (await alice.slash(channel, "domino leaderboard")).response
    assert again.attachments == []
    assert embed_text(again).count(NOTE) == 1


async def test_a_solo_player_sees_their_games_against_the_ai(
    monkeypatch: pytest.MonkeyPatch, bot: DominoBot, channel: Any, alice: Any, stored: Store
) -> None:
    ai = None
    await stored((alice.id, "alice", 0, 100.0, True, None), (ai, "Bot", 1, 0.0, False, None))
    await stored((alice.id, "alice", 0, 0.0, False, None), (ai, "Bot", 1, 100.0, True, None))
    await stored(
        (alice.id, "alice", 0, 50.0, True, None),
        (ai, "Bot 1", 1, 0.0, False, None),
        (ai, "Bot 2", 2, 0.0, False, None),
        game="allfives",
    )
    mine = (await alice.slash(channel, "domino stats")).response
    assert mine.attachments == []
    fields = {f.name: f.value for f in mine.embeds[0].fields}
    assert set(fields) == {"Block game", "All Fives", "Recent results"}
    block = fields["Block game"]
    assert block.startswith("not rated yet · 2 matches · 1 win")
    assert block.endswith("\nagainst the AI (unrated): 2 matches, 1 win")
    assert fields["All Fives"].endswith("\nagainst the AI (unrated): 1 match, 1 win")
    assert "—" not in embed_text(mine)
    footer = mine.embeds[0].footer.text
    assert footer.count(NOTE) == 1
    assert footer.count("Not rated yet: a rating comes with a finished match") == 1
    # on the board they are counted, unrated ("—"), and the picture says what that means
    texts = drawn_texts(monkeypatch)
    await alice.slash(channel, "domino leaderboard")
    assert "—" in texts
    assert sum(t.startswith("Rating:") for t in texts) == 1
    assert any(UNRATED in t for t in texts)


async def test_history_says_how_long_ago_a_match_ended(
    bot: DominoBot, channel: Any, alice: Any, bob: Any, stored: Store
) -> None:
    now = bot.games.clock()
    await stored(
        (alice.id, "alice", 0, 100.0, True, None),
        (bob.id, "bob", 1, 0.0, False, None),
        at=now - timedelta(minutes=6),
    )
    await stored(
        (alice.id, "alice", 0, 100.0, True, None),
        (bob.id, "bob", 1, 0.0, False, None),
        at=now - timedelta(days=3, hours=1),
    )
    text = str((await bob.slash(channel, "domino history")).response.embeds[0].description)
    assert "`#1` **Block game** · 6 minutes ago · won by alice" in text
    assert "`#2` **Block game** · 3 days ago" in text
    assert " in " not in text
    assert "<t:" not in text
    await alice.slash(channel, "domino settings language", language="fi")
    finnish = (await bob.slash(channel, "domino history")).response.embeds[0].description
    assert "6 minuuttia sitten" in str(finnish)


async def test_dates_are_written_one_way_in_the_servers_language(
    simcord_env: Any, bot: DominoBot, channel: Any, alice: Any, bob: Any, stored: Store
) -> None:
    day = bot.games.clock()
    await stored((alice.id, "alice", 0, 100.0, True, None), (bob.id, "bob", 1, 0.0, False, None))
    ask = await alice.slash(channel, "domino reset-leaderboard")
    await alice.click(ask.response, label="Reset the leaderboard")
    await stored((alice.id, "alice", 0, 100.0, True, None), (bob.id, "bob", 1, 0.0, False, None))
    for language in ("en", "fi"):
        await alice.slash(channel, "domino settings language", language=language)
        written = Translator(language).date(day)
        card = (await alice.slash(channel, "domino stats")).response
        words = embed_text(card)
        assert written in card.embeds[0].description  # since the reset on …
        recent = {f.name: f.value for f in card.embeds[0].fields}[
            Translator(language)("Recent results")
        ]
        assert recent.startswith(f"{written} · ")
        history = (await bob.slash(channel, "domino history")).response
        options = next(c for c in components(history) if c["type"] == 3)["options"]
        assert all(o["label"].endswith(f" · {written}") for o in options)
        for text in (words, embed_text(history), *(o["label"] for o in options)):
            assert "<t:" not in text
            assert not ISO_DATE.search(text)
