"""/domino rules: one game's rules at a time, a short embed with a sample board.

Asked with a game, that game; without one, the channel's game (with its table's
options); where no game is played, a select of the games, whose choice shows that
game's rules in place of the question (a value the select does not offer is refused).
"""

from __future__ import annotations

import copy

from ack_journal import install
from simcord import ChannelHandle, actors
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType

from cogs.domino import rules_texts

GAMES = ["Block game", "Draw game", "All Fives", "Latvian dominoes", "Mexican Train"]
CODES = ("block", "draw", "allfives", "latvian", "mexican")


def the_reply(result):
    """The asker's private answer (the reply to "thinking…")."""
    message = result.followups[-1] if result.followups else result.response
    assert message.ephemeral
    return message


def select_of(message):
    [select] = [c for row in message.components for c in row["components"] if c["type"] == 3]
    return select


async def forged_choice(user, message, value):
    """``user`` chooses ``value`` in the rules select of ``message``, a value the select
    does not offer (as a modified client could send it: SimCord's own component dispatch,
    below the check its ``select`` makes)."""
    stored = actors._visible_message(user, message)
    payload = copy.deepcopy(dict(serializers.message_payload(user._env.backend, stored)))
    data = {
        "custom_id": "domino:rules",
        "component_type": ComponentType.STRING_SELECT,
        "values": [value],
    }
    channel = ChannelHandle(user._env, user.guild, user._env.backend.get_channel(stored.channel_id))
    return await actors._dispatch_actor_interaction(
        user,
        InteractionType.MESSAGE_COMPONENT,
        channel,
        data,
        extra={"message": payload},
        source_message_id=stored.id,
    )


def check_rules_page(message, code):
    """One game's rules: its embed, short paragraphs, its sample board."""
    [embed] = message.embeds
    assert embed.title == GAMES[CODES.index(code)]
    assert embed.image.url == f"attachment://rules-{code}.png"
    assert [a.filename for a in message.attachments] == [f"rules-{code}.png"]
    paragraphs = embed.description.split("\n\n")
    assert all(len(p) <= 2 * rules_texts.PARAGRAPH for p in paragraphs)
    return embed


async def test_without_a_game_it_asks_which_and_shows_the_one_chosen(bot, channel, alice, bob):
    result = await alice.slash(channel, "domino rules")
    question = the_reply(result)
    assert question.content == "Which game's rules would you like to read?"
    assert question.embeds == []
    assert question.attachments == []
    select = select_of(question)
    assert select["custom_id"] == "domino:rules"
    assert [o["label"] for o in select["options"]] == GAMES
    assert [o["value"] for o in select["options"]] == list(CODES)
    assert all(m.id != question.id for m in channel.history(viewer=bob))

    chosen = await alice.select(question, ["mexican"], custom_id="domino:rules")
    page = chosen.response
    assert page.id == question.id  # the reply itself now shows the rules
    assert page.ephemeral
    embed = check_rules_page(page, "mexican")
    assert "must be satisfied" in embed.description
    assert "lowest total wins" in embed.description
    assert embed.fields == []  # no table in this channel: no table's options
    png = await page.attachments[0].read()
    assert png.startswith(b"\x89PNG")
    # the select stays, to read another game's rules
    assert [o["value"] for o in select_of(page)["options"] if o.get("default")] == ["mexican"]

    again = await alice.select(page, ["block"], custom_id="domino:rules")
    block = check_rules_page(again.response, "block")
    assert len(block.description.split("\n\n")) >= 3  # short paragraphs, not a wall of text


async def test_a_forged_choice_is_refused_politely_and_changes_nothing(bot, channel, alice):
    question = the_reply(await alice.slash(channel, "domino rules"))
    refused = await forged_choice(alice, question, "chess")
    [answer] = [m for m in refused.followups if m.ephemeral]
    assert answer.content == "Choose a game: block, draw, allfives, latvian or mexican."
    after = next(m for m in channel.history(viewer=alice) if m.id == question.id)
    assert after.content == "Which game's rules would you like to read?"
    assert after.embeds == []
    assert after.attachments == []


async def test_with_a_game_in_the_channel_it_shows_that_game_and_its_table(
    bot, channel, alice, bob
):
    await alice.slash(channel, "domino new", game="draw", players=3, target=50)
    page = the_reply(await alice.slash(channel, "domino rules"))
    assert all(c["type"] != 3 for row in page.components for c in row["components"])
    embed = check_rules_page(page, "draw")
    [table] = embed.fields
    assert table.name == "At this channel's table"
    assert table.value == "Draw game · double-6 · 3 players · to 50 points"
    # another game asked for by name: that game's rules, without this table's options
    other = the_reply(await bob.slash(channel, "domino rules", game="allfives"))
    assert check_rules_page(other, "allfives").fields == []


async def test_the_question_and_the_rules_are_in_the_askers_language(
    bot, channel, alice, user_locales
):
    user_locales[alice.id] = "fi"
    question = the_reply(await alice.slash(channel, "domino rules"))
    assert question.content != "Which game's rules would you like to read?"
    labels = [o["label"] for o in select_of(question)["options"]]
    assert labels[0] == "Sulkupeli"
    page = (await alice.select(question, ["block"], custom_id="domino:rules")).response
    [embed] = page.embeds
    assert embed.title == "Sulkupeli"


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


async def test_the_question_and_the_choice_are_acknowledged_first(monkeypatch, bot, channel, alice):
    journal = install(monkeypatch, bot)
    question = the_reply(await alice.slash(channel, "domino rules"))
    journal.check("/domino rules")
    journal.clear()
    await alice.select(question, ["draw"], custom_id="domino:rules")
    journal.check("the rules select")


def test_paragraphs_are_cut_between_sentences():
    text = "One two. Three four! (Five) six. 7 tiles. e.g. lower stays."
    assert rules_texts.paragraphs(text, limit=10) == [
        "One two.",
        "Three four!",
        "(Five) six.",
        "7 tiles. e.g. lower stays.",
    ]
