"""/domino help: one short embed on how to play, only for the asker, in their language."""

from __future__ import annotations

from ack_journal import install

HEADINGS = ["Start a game", "Play", "Rules", "Leaving and ending", "Stats", "Review"]
COMMANDS = (
    "/domino new",
    "/domino play",
    "/domino rules",
    "/domino leave",
    "/domino end",
    "/domino leaderboard",
    "/domino stats",
    "/domino review",
)


def text_of(embed) -> str:
    return "\n".join([embed.title or "", *(f"{f.name}\n{f.value}" for f in embed.fields)])


async def test_help_is_one_short_embed_for_the_asker_alone(bot, channel, alice, bob):
    result = await alice.slash(channel, "domino help")
    assert result.ephemeral
    message = result.response
    assert message.content in ("", None)
    [embed] = message.embeds
    assert embed.title == "Dominoes: how to play"
    assert [f.name for f in embed.fields] == HEADINGS
    text = text_of(embed)
    for command in COMMANDS:
        assert command in text
    for label in ("**Join**", "**Add AI**", "**Start**", "**Show my hand**"):
        assert label in text  # the buttons by the names the table gives them
    # one screen: a handful of short lines
    assert len(text) < 1200
    assert all(len(f.value) < 300 for f in embed.fields)
    assert all(m.id != message.id for m in channel.history(viewer=bob))


async def test_help_is_in_the_askers_language(bot, channel, alice, user_locales):
    user_locales[alice.id] = "fi"
    [embed] = (await alice.slash(channel, "domino help")).response.embeds
    assert embed.title == "Domino: näin pelaat"
    text = text_of(embed)
    assert "**Liity**" in text
    assert "**Näytä käteni**" in text
    assert "/domino rules" in text
    assert "Start a game" not in text
    user_locales[alice.id] = "da"
    [embed] = (await alice.slash(channel, "domino help")).response.embeds
    assert "**Deltag**" in text_of(embed)
    user_locales[alice.id] = "lv"
    [embed] = (await alice.slash(channel, "domino help")).response.embeds
    assert "**Pievienoties**" in text_of(embed)


async def test_help_is_acknowledged_at_once(monkeypatch, bot, channel, alice):
    journal = install(monkeypatch, bot)
    await alice.slash(channel, "domino help")
    journal.check("/domino help")
