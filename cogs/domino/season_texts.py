"""The words of the season commands, every one translated here.

A closed season's board is drawn as a live one is (``stats_texts.board_card`` with the
season: "Season 2 (closed) · Mar 3, 2025 – Mar 10, 2025"); the overview, the close
confirmation and the settings are text.
"""

from __future__ import annotations

from datetime import datetime

import discord

from bot.i18n import N_, Translator
from bot.stats import ClosedSeason, SeasonOverview, SeasonSettings

from .stats_texts import COLOUR, limited, season_span
from .texts import game_name

RATINGS_TEXT = {
    "carry": N_("ratings are carried into the next season"),
    "reset": N_("ratings begin anew each season"),
}
SCHEDULE_TEXT = {
    "off": N_("seasons close by hand (/domino season close)"),
    "weekly": N_("seasons close every Monday at 00:00 UTC"),
    "monthly": N_("seasons close on the 1st of each month at 00:00 UTC"),
}
LIST_LIMIT = 3200
"""The closed seasons' lines in the overview (an embed's text holds 4096)."""


def settings_text(settings: SeasonSettings, next_close: datetime | None, tr: Translator) -> str:
    """One sentence of the settings, and the next scheduled close when there is one."""
    text = tr(
        "In this server {ratings}; {schedule}.",
        ratings=tr(RATINGS_TEXT[settings.ratings]),
        schedule=tr(SCHEDULE_TEXT[settings.schedule]),
    )
    if next_close is not None:
        text += " " + tr("The next close: {date}, 00:00 UTC.", date=tr.date(next_close))
    return text


def closed_line(season: ClosedSeason, tr: Translator) -> str:
    """``**Season 2** · Mar 3 – Mar 10 · Block game: 5 players · closed by @x``."""
    boards = ", ".join(
        tr(
            "{game}: {players}",
            game=game_name(game, tr),
            players=tr.plural("{n} player", "{n} players", players),
        )
        for game, players in season.games
    ) or tr("no counted matches")
    who = (
        tr("closed by the schedule")
        if season.closed_by is None
        else tr("closed by <@{user}>", user=season.closed_by)
    )
    number = tr("Season {number}", number=season.number)
    return f"**{number}** · {season_span(season, tr)} · {boards} · {who}"


def overview_embed(overview: SeasonOverview, tr: Translator) -> discord.Embed:
    """``/domino season list``: the current season, the settings, the closed seasons."""
    current = overview.current
    if current.started_at is None:
        going = tr("**Season {number}** is going on, since the first match.", number=current.number)
    else:
        going = tr(
            "**Season {number}** is going on, since {date}.",
            number=current.number,
            date=tr.date(current.started_at),
        )
    lines = [closed_line(season, tr) for season in overview.closed]
    closed = limited(lines, LIST_LIMIT) or tr("None yet.")
    settings = settings_text(overview.settings, overview.next_close, tr)
    heading = tr("Closed seasons")
    embed = discord.Embed(
        title=tr("Seasons"),
        description=f"{going}\n{settings}\n\n**{heading}**\n{closed}",
        colour=COLOUR,
    )
    embed.set_footer(text=tr("A closed season's leaderboard: /domino season show number:<n>"))
    return embed


def close_question(number: int, settings: SeasonSettings, tr: Translator) -> str:
    """What closing season ``number`` does, and the question."""
    carry = settings.ratings == "carry"
    ratings = (
        tr("Ratings are carried into season {next}; its counts begin at zero.", next=number + 1)
        if carry
        else tr("Ratings begin anew: season {next} counts only its own matches.", next=number + 1)
    )
    return " ".join(
        [
            tr(
                "This closes season {number}: its leaderboards are archived as they stand "
                "and season {next} begins.",
                number=number,
                next=number + 1,
            ),
            ratings,
            tr("The matches and their history stay. Close season {number}?", number=number),
        ]
    )


def closed_text(season: ClosedSeason, tr: Translator) -> str:
    """The public word that a season closed."""
    return tr(
        "**Season {number}** is closed: its leaderboards are archived "
        "(/domino season show number:{number}). Season {next} begins now.",
        number=season.number,
        next=season.number + 1,
    )
