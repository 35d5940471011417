"""Languages through the real UI: a Finnish player at a Danish server's table.

Each interaction carries its user's Discord locale (SimCord sends ``en-US``; the
``user_locales`` fixture sets it per user): ephemeral replies follow it. Public
messages (the table, turns, summaries) follow the server: its language setting,
else its preferred locale.
"""

from __future__ import annotations

import re

import discord
import pytest

from bot.discord_i18n import CatalogTranslator
from bot.i18n import LANGUAGES

ENGLISH_WORDS = re.compile(r"\b(played|passes|Deal|deal|tiles?|Seats|Players|turn|Game #)\b")


@pytest.fixture
def guild(simcord_env, bot):
    """A Danish server (its preferred locale); the shared fixtures seat alice and bob here."""
    return simcord_env.create_guild("Dansk Domino", preferred_locale="da")


def texts_of(message) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{f.name} {f.value}" for f in embed.fields]
    for row in message.components:
        for c in getattr(row, "children", []):
            parts.append(getattr(c, "label", "") or "")
    return "\n".join(parts)


def reply_text(result) -> str:
    """The user's private answer (a click or command may also carry a public table)."""
    private = [m for m in result.followups if m.ephemeral]
    if private:
        return private[-1].content
    return result.response.content


async def test_a_finnish_player_at_a_danish_table(bot, channel, alice, bob, driver, user_locales):
    user_locales[alice.id] = "fi"
    opened = await alice.slash(channel, "domino new", game="block", scoring="single")
    assert opened.ephemeral
    reply = reply_text(opened)
    assert reply == "Pöytäsi on avattu: Sulkupeli. Kaverit liittyvät pöydän painikkeella."

    table = channel.last_message
    assert table.embeds[0].title == "Blokspil: et bord er åbent"
    assert table.embeds[0].fields[0].name == "Pladser"
    await bob.click(table, label="Deltag")
    await alice.click(channel.last_message, label="Start")
    session = await bot.games.in_channel(channel.id)
    assert session.status == "playing"

    # A refusal is the clicking user's: Finnish for alice, English for bob.
    waiting = alice if session.turn == 1 else bob
    refused = await waiting.slash(channel, "domino play", tile="6-6")
    text = reply_text(refused)
    if waiting is alice:
        assert text.startswith("Ei ole sinun vuorosi")
    else:
        assert text.startswith("It's not your turn")

    hands: list[str] = []
    pings: list[str] = []
    while True:
        session = await driver.session()
        if session.status != "playing":
            break
        pings += [texts_of(m) for m in channel.history(viewer=alice) if "<@" in m.content]
        if session.turn_seat.user_id == alice.id:
            hand = await driver.hand(alice)
            hands.append(hand.content)
            hands += [label for *_, label in driver.move_options(hand)]
            hands += [c["label"] for row in hand.components for c in row["components"]]
        await driver.play_turn()
    assert session.status == "finished"

    assert hands
    assert all(not ENGLISH_WORDS.search(h) for h in hands), hands
    assert any(h.startswith(("Sinun vuorosi", "Nostit", "Kätesi")) for h in hands)
    assert "Päivitä" in hands  # the hand's refresh button

    public = [texts_of(m) for m in channel.history(viewer=alice)]
    everything = "\n".join(public)
    assert "Runde 1 er slut" in everything
    assert "Spil #" in everything
    assert "spillet er slut" in everything
    # the turn pings spoke Danish (the last one is gone with the match)
    assert pings
    assert all("det er din tur" in p and "Vis min hånd" in p for p in pings), pings
    assert "det er din tur" not in everything
    # the final table's feed tells the last turns in Danish (a blocked deal: passes)
    assert " lagde " in everything or " melder pas" in everything, everything
    assert "Siden sidste tur for " in everything
    assert not ENGLISH_WORDS.search(everything), everything

    rules = await alice.slash(channel, "domino rules", game="block")
    assert rules.response.embeds[0].title == "Sulkupeli"
    assert rules.response.embeds[0].description.startswith("**Sulkupeli**")
    # with no game in the channel: which game? (the select in Finnish), then each one
    question = (await alice.slash(channel, "domino rules")).response
    [select] = [c for row in question.components for c in row["components"] if c["type"] == 3]
    assert [o["label"] for o in select["options"]] == [
        "Sulkupeli",
        "Nostopeli",
        "Viitospeli",
        "Latvialainen domino",
        "Meksikolainen juna",
    ]
    pages = []
    page = question
    for option in select["options"]:
        page = (await alice.select(page, [option["value"]], custom_id="domino:rules")).response
        pages.append(page.embeds[0].description)
    text = "\n\n".join(pages)
    for name in (
        "**Sulkupeli**",
        "**Nostopeli.**",
        "**Viitospeli**",
        "**Latvialainen domino**",
        "**Meksikolainen juna**",
    ):
        assert name in text
    assert not ENGLISH_WORDS.search(text), text


async def test_the_server_language_is_set_by_an_admin(
    simcord_env, bot, guild, channel, alice, bob, user_locales
):
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(simcord_env.create_user("boss"), roles=[admins])
    user_locales[boss.id] = "fi"
    user_locales[alice.id] = "lv"

    refused = await alice.slash(channel, "domino settings language", language="lv")
    assert refused.response.content == (
        "Iestatījumus var mainīt tikai kāds ar tiesībām „Pārvaldīt serveri”."
    )
    assert await bot.db.guilds.language(guild.id) is None

    done = await boss.slash(channel, "domino settings language", language="lv")
    assert done.ephemeral
    assert done.response.content == "Julkisten viestien kieli on nyt Latviešu."
    assert await bot.db.guilds.language(guild.id) == "lv"
    await alice.slash(channel, "domino new", game="latvian")
    table = channel.last_message
    assert table.embeds[0].title == "Latviešu domino: galds ir atvērts"
    assert "2 spēlētāji" in table.embeds[0].description
    await bob.click(table, label="Pievienoties")
    await alice.slash(channel, "domino end")

    back = await boss.slash(channel, "domino settings language", language="auto")
    assert back.response.content == "Julkiset viestit seuraavat palvelimen Discord-kieltä."
    assert await bot.db.guilds.language(guild.id) is None
    await alice.slash(channel, "domino new", game="draw")
    assert channel.last_message.embeds[0].title == "Trækspil: et bord er åbent"


async def test_an_english_server_stays_english_for_an_english_user(simcord_env, bot, user_locales):
    guild = simcord_env.create_guild("Club")
    channel = guild.create_text_channel("dominoes")
    carol = guild.add_member(simcord_env.create_user("carol"))
    opened = await carol.slash(channel, "domino new", game="allfives")
    reply = reply_text(opened)
    assert reply.startswith("Your All Fives table is open.")
    assert channel.last_message.embeds[0].title == "All Fives: a table is open"


async def test_engine_refusals_reach_a_finnish_user_in_finnish(bot, channel, alice, user_locales):
    user_locales[alice.id] = "fi"
    cases = {
        (("game", "block"), ("players", 5)): "Tätä peliä pelaa tupla-6-sarjalla 2–4 pelaajaa.",
        (("game", "allfives"), ("set", 9)): (
            "Viitospeliä ja latvialaista dominoa pelataan vain tupla-6-sarjalla (jätä sarja pois)."
        ),
        (("game", "latvian"), ("players", 4), ("teams", True)): (
            "Latvialaista dominoa pelataan ilman pareja."
        ),
        (("game", "allfives"), ("scoring", "points")): (
            "Tällä pelillä on oma pistelaskunsa: jätä pistelaskuvalinta pois."
        ),
        (("game", "block"), ("deals", 3)): (
            "Vain latvialaisessa dominossa ja Meksikolaisessa junassa on jakojen määrä."
        ),
    }
    for options, expected in cases.items():
        result = await alice.slash(channel, "domino new", **dict(options))
        text = reply_text(result)
        assert text == expected
    assert await bot.games.in_channel(channel.id) is None


async def test_typed_moves_understand_translated_end_names(bot, channel, alice, bob):
    from bot.games.moves_text import parse_wanted

    assert [w.end for w in parse_wanted("6-4 itä")] == [w.end for w in parse_wanted("6-4 east")]
    assert [w.end for w in parse_wanted("3-3 ziemeļi 5-5 øst")] == [
        w.end for w in parse_wanted("3-3 north 5-5 east")
    ]
    assert parse_wanted("4-2 pohjoinen suljettu")[0].closed is True


async def test_slash_commands_carry_finnish_and_danish_texts(bot):
    translator = CatalogTranslator()
    payloads = [
        await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()
    ]
    domino = next(p for p in payloads if p["name"] == "domino")
    assert domino["description_localizations"] == {"fi": "Pelaa dominoa", "da": "Spil domino"}
    assert "name_localizations" not in domino or not domino["name_localizations"]
    new = next(o for o in domino["options"] if o["name"] == "new")
    assert new["description_localizations"]["fi"] == "Avaa pöytä tälle kanavalle"
    game = next(o for o in new["options"] if o["name"] == "game")
    block = next(c for c in game["choices"] if c["value"] == "block")
    assert block["name"] == "Block game"
    assert block["name_localizations"] == {"fi": "Sulkupeli", "da": "Blokspil"}

    def walk(node):
        yield node
        for child in node.get("options", []) + node.get("choices", []):
            yield from walk(child)

    nodes = [n for p in payloads for n in walk(p)]
    described = [n for n in nodes if n.get("description")]
    assert all(set(n.get("description_localizations", {})) <= {"fi", "da"} for n in nodes)
    assert all(not n.get("name_localizations") for n in described)  # names stay English
    assert [n["description"] for n in described if len(n["description_localizations"]) != 2] == []
    choices = [n for n in nodes if "value" in n and n["value"] not in LANGUAGES]
    assert [c["name"] for c in choices if len(c.get("name_localizations", {})) != 2] == []
    for n in nodes:
        localizations = {
            **n.get("description_localizations", {}),
            **n.get("name_localizations", {}),
        }
        for text in localizations.values():
            assert 1 <= len(text) <= 100, text
