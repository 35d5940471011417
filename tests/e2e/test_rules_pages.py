"""/domino rules: one short embed per game, each with a sample board drawn by render."""

from __future__ import annotations

from cogs.domino import rules_texts

GAMES = ["Block game", "Draw game", "All Fives", "Latvian dominoes", "Mexican Train"]
CODES = ("block", "draw", "allfives", "latvian", "mexican")


async def test_every_game_has_an_embed_with_a_board_picture(bot, channel, alice, bob):
    result = await alice.slash(channel, "domino rules")
    assert result.ephemeral
    message = result.followups[-1] if result.followups else result.response
    assert message.ephemeral
    assert [e.title for e in message.embeds] == GAMES
    names = sorted(a.filename for a in message.attachments)
    assert names == sorted(f"rules-{game}.png" for game in CODES)
    for embed in message.embeds:
        assert embed.image.url.startswith("attachment://rules-")
        paragraphs = embed.description.split("\n\n")
        assert all(len(p) <= 2 * rules_texts.PARAGRAPH for p in paragraphs)
    block = message.embeds[0].description
    assert len(block.split("\n\n")) >= 3  # short paragraphs, not one wall of text
    for attachment in message.attachments:
        png = await attachment.read()
        assert png.startswith(b"\x89PNG")
    mexican = message.embeds[-1].description
    assert "must be satisfied" in mexican
    assert "lowest total wins" in mexican
    # nobody else sees it
    assert all(m.id != message.id for m in channel.history(viewer=bob))


async def test_one_game_and_the_pictures_are_drawn_once(bot, channel, alice):
    rules_texts._sample_png.cache_clear()
    first = await alice.slash(channel, "domino rules", game="latvian")
    second = await alice.slash(channel, "domino rules", game="latvian")
    for result in (first, second):
        message = result.followups[-1] if result.followups else result.response
        assert [e.title for e in message.embeds] == ["Latvian dominoes"]
        assert [a.filename for a in message.attachments] == ["rules-latvian.png"]
    info = rules_texts._sample_png.cache_info()
    assert info.misses == 1
    assert info.hits == 1


def test_paragraphs_are_cut_between_sentences():
    text = "One two. Three four! (Five) six. 7 tiles. e.g. lower stays."
    assert rules_texts.paragraphs(text, limit=10) == [
        "One two.",
        "Three four!",
        "(Five) six.",
        "7 tiles. e.g. lower stays.",
    ]
