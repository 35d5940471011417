"""``/domino help``: one short embed on how to play, in the asker's language.

Five headings, a few lines each, so that it fits on one screen: starting a game,
playing it, the rules, leaving and ending, and the stats. The buttons are named by
their own translated labels (the ones the table shows), so the two never disagree.
"""

from __future__ import annotations

import discord

from bot.i18n import N_, Translator

COLOUR = discord.Colour.from_rgb(46, 125, 50)

TITLE = N_("Dominoes: how to play")
SECTIONS = (
    (
        N_("Start a game"),
        N_(
            "`/domino new` opens a table in this channel: choose the game. Friends press "
            "**{join}**; the opener may press **{add_ai}** for computer players, then **{start}**."
        ),
    ),
    (
        N_("Play"),
        N_(
            "The table pings you when it is your turn. **{hand}** shows your tiles, to you "
            "alone, with a button for each move you can make. Or type the move: "
            "`/domino play tile:6-4 end:east`. `/domino board` posts the table again."
        ),
    ),
    (
        N_("Rules"),
        N_("`/domino rules` explains each game, with a sample board."),
    ),
    (
        N_("Leaving and ending"),
        N_(
            "`/domino leave` gives up your seat (an AI player takes it over in a game in "
            "play). `/domino end` ends the game: its creator may (once the creator left, the "
            "next player), and so may members with Manage Server."
        ),
    ),
    (
        N_("Stats"),
        N_(
            "`/domino leaderboard`, `/domino stats` and `/domino history` show how everyone "
            "plays; `/domino export` downloads a match record."
        ),
    ),
    (
        N_("Review"),
        N_(
            "`/domino review` shows how a finished deal was played: each player's accuracy "
            "and the biggest mistakes, with the better moves (or press Review under a "
            "finished table)."
        ),
    ),
)
"""(heading, text) of each field, in order."""


def help_embed(tr: Translator) -> discord.Embed:
    """The help, in ``tr``'s language: one embed with a field per section."""
    labels = {
        "join": tr("Join"),
        "add_ai": tr("Add AI"),
        "start": tr("Start"),
        "hand": tr("Show my hand"),
    }
    embed = discord.Embed(title=tr(TITLE), colour=COLOUR)
    for heading, text in SECTIONS:
        embed.add_field(name=tr(heading), value=tr(text, **labels), inline=False)
    return embed
