"""The finished competitions in words: ``/domino competition history`` (its pages and
their buttons, ``domino:comp:hist:<guild>:<page>``), ``/domino competition export``'s
file, and a player's competitions in their stats (:mod:`bot.competitions.archive`).
"""

from __future__ import annotations

import io
import json
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.competitions.archive import (
    CompetitionHistory,
    FinishedCompetition,
    PlayerCompetitions,
)
from bot.i18n import Translator

from .items import DominoItem, button, paged, sent_view
from .markup import plain
from .texts import game_name

if TYPE_CHECKING:
    from .cog import Domino

LIMIT = 2000


class CompetitionHistoryButton(
    DominoItem[discord.ui.Button[Any]],
    template=r"domino:comp:hist:(?P<guild_id>\d{1,20}):(?P<page>\d{1,6})",
):
    """A page of the finished competitions (the history's Newer / Older buttons)."""

    def __init__(self, guild_id: int, page: int, label: str = "…", disabled: bool = False) -> None:
        custom_id = f"domino:comp:hist:{guild_id}:{page}"
        super().__init__(button(custom_id, label, disabled=disabled))
        self.guild_id = guild_id
        self.page = page

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_competition_history_page(interaction, self.guild_id, self.page)


def winners_text(entry: FinishedCompetition, tr: Translator) -> str:
    names = ", ".join(plain(n) for n in entry.winners) or "—"
    return tr("won by {names}", names=names)


def history_text(page: CompetitionHistory, tr: Translator) -> str:
    """A page of the server's finished competitions: id, date, game, rounds, players,
    winner."""
    lines = [tr("**Finished competitions**")]
    for c in page.entries:
        lines.append(
            tr(
                "`#{id}` {date} · **{game}** · {rounds} · {players} · {winners}",
                id=c.id,
                date=tr.date(c.finished_at),
                game=game_name(c.game, tr),
                rounds=tr.plural("{n} round", "{n} rounds", c.rounds),
                players=tr.plural("{n} player", "{n} players", c.players),
                winners=winners_text(c, tr),
            )
        )
    if not page.entries:
        lines.append(tr("No finished competitions on this server yet."))
    else:
        lines.append(
            tr(
                "page {page} of {pages} · download one with /domino competition export",
                page=page.page + 1,
                pages=page.pages,
            )
        )
    text = "\n".join(lines)
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"


def history_view(page: CompetitionHistory, tr: Translator) -> discord.ui.View:
    view = sent_view()
    if page.pages > 1:
        make = partial(CompetitionHistoryButton, page.guild_id)
        paged(view, page.page, page.pages, make, tr("◀ Newer"), tr("Older ▶"))
    return view


def export_file(data: dict[str, Any]) -> discord.File:
    body = json.dumps(data, indent=1, ensure_ascii=False).encode()
    return discord.File(io.BytesIO(body), filename=f"domino-competition-{data['id']}.json")


def add_competitions_field(
    embed: discord.Embed, mine: PlayerCompetitions, tr: Translator
) -> discord.Embed:
    """A player's stats gain a line for their competitions (none: nothing added)."""
    if mine.played:
        line = tr(
            "{played}, {won}, best place {best}",
            played=tr.plural("{n} played", "{n} played", mine.played),
            won=tr.plural("{n} won", "{n} won", mine.won),
            best=mine.best if mine.best is not None else "—",
        )
        embed.add_field(name=tr("Competitions"), value=line, inline=False)
    return embed
