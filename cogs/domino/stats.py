"""``/domino leaderboard``, ``stats``, ``history`` and ``reset-leaderboard``: thin glue.

The commands are a mixin of the ``/domino`` GroupCog (wired at the end of
``cog.py``). Each asks :class:`bot.stats.StatsService` for typed data, turns it
into an embed (the text) and an image card (``render.cards``, every word
translated here), and sends it. Buttons and selects are ``DynamicItem``\\ s whose
``custom_id`` carries what they need, so they keep working after a restart:

- ``domino:lb:<guild>:<game>:<period>:<order>:<page>`` a leaderboard page,
- ``domino:hp:<guild>:<page>`` a history page, ``domino:hx:<guild>:<page>`` its
  export select (values are match ids),
- ``domino:rs:<guild>:<asked at>`` / ``domino:rc:<guild>:<asked at>`` confirm or
  cancel a leaderboard reset.
"""

from __future__ import annotations

import asyncio
import functools
import io
import json
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.games.errors import GameError
from bot.i18n import N_, Translator
from bot.stats import PERIODS, StatsService
from bot.storage import BoardPage, HistoryPage, MatchSummary, PlayerCard, PlayerResult
from render.cards import (
    BoardCard,
    BoardLine,
    PlayerCardImage,
    ResultLine,
    render_leaderboard,
    render_player_card,
)

from .items import sent_view
from .language import public_translator
from .markup import plain
from .replies import defer_public, reply_error
from .texts import game_name

if TYPE_CHECKING:
    from bot.client import DominoBot

log = logging.getLogger(__name__)

Choice = app_commands.Choice
COLOUR = discord.Colour.from_rgb(246, 190, 40)
EMBED_TEXT_LIMIT = 4000

PERIOD_NAMES = {
    "all": N_("All time"),
    "month": N_("Last 30 days"),
    "week": N_("Last 7 days"),
}
OUTCOME_NAMES = {"win": N_("Won"), "draw": N_("Draw"), "loss": N_("Lost")}


def stats_refusals(func: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """A :class:`GameError` becomes a polite ephemeral reply (as ``cog.refusals`` does).

    Defined in this module so the wrapper shares its globals, which discord.py
    uses to resolve the command's annotations.
    """

    @functools.wraps(func)
    async def wrapper(self: Any, interaction: discord.Interaction, *args: Any, **kw: Any) -> None:
        try:
            await func(self, interaction, *args, **kw)
        except GameError as error:
            await reply_error(interaction, error)

    return wrapper


def _guild(interaction: discord.Interaction, expected: int | None = None) -> int:
    guild_id = interaction.guild_id
    if guild_id is None:
        raise GameError(N_("Leaderboards belong to a server: ask in a server channel."))
    if expected is not None and expected != guild_id:
        raise GameError(N_("This message belongs to another server."))
    return guild_id


def _display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def _rating(value: float | None) -> str:
    if value is None:
        return "—"
    return f"−{abs(value):.1f}" if round(value, 1) < 0 else f"{abs(value):.1f}"


def _signed(value: float) -> str:
    return f"+{value:.1f}" if value >= 0 else f"−{abs(value):.1f}"


def _percent(value: float) -> str:
    return f"{round(value * 100)}%"


def _limit(lines: Sequence[str], limit: int = EMBED_TEXT_LIMIT) -> str:
    out: list[str] = []
    size = 0
    for line in lines:
        size += len(line) + 1
        if size > limit:
            out.append("…")
            break
        out.append(line)
    return "\n".join(out)


async def _png(render: Callable[[Any], bytes], data: Any, name: str) -> discord.File | None:
    """Draw a card off the event loop; None (the embed's text stands alone) if that fails."""
    try:
        png = await asyncio.to_thread(render, data)
    except Exception:
        log.exception("drawing %s failed; sending the text only", name)
        return None
    return discord.File(io.BytesIO(png), filename=name)


def _handler(interaction: discord.Interaction) -> StatsCommands:
    cog = interaction.client.get_cog("Domino")  # type: ignore[attr-defined]
    assert isinstance(cog, StatsCommands)
    return cog


# -- leaderboard ----------------------------------------------------------------------------------


def board_texts(
    page: BoardPage, tr: Translator, period: str, viewer: int | None
) -> tuple[discord.Embed, BoardCard]:
    """The embed (the text) and the image data of a leaderboard page."""
    game = game_name(page.game, tr)
    latvian = page.game == "latvian"
    title = tr("{game} leaderboard", game=game)
    period_text = tr(PERIOD_NAMES[period])
    by = tr("by place points") if page.order == "places" else tr("by rating")
    subtitle = " · ".join(
        [
            period_text,
            by,
            tr.plural("{n} player", "{n} players", page.total),
            tr("page {page} of {pages}", page=page.page + 1, pages=page.pages),
        ]
    )
    headings = [tr("Rating"), tr("Matches"), tr("Wins"), tr("Draws"), tr("Win rate")]
    if latvian:
        headings.append(tr("Place pts"))
    lines: list[BoardLine] = []
    text: list[str] = []
    for e in page.entries:
        ordinal = e.rating.ordinal if e.rating else None
        cells = [_rating(ordinal), str(e.matches), str(e.wins), str(e.draws), _percent(e.win_rate)]
        if latvian:
            cells.append(_number(e.place_points))
        lines.append(BoardLine(e.position, e.name, tuple(cells), highlight=e.user_id == viewer))
        facts = [
            tr("rating {value}", value=_rating(ordinal)),
            tr.plural("{n} match", "{n} matches", e.matches),
            tr.plural("{n} win", "{n} wins", e.wins),
            tr.plural("{n} draw", "{n} draws", e.draws),
            _percent(e.win_rate),
        ]
        if latvian:
            facts.append(tr("{n} place pts", n=_number(e.place_points)))
        text.append(f"**{e.position}.** {plain(e.name)} — " + " · ".join(facts))
    empty = tr("No counted matches here yet. Finish a match to get on the board!")
    footer = tr("Rating: openskill's conservative estimate, μ − 3σ. Unrated players come last.")
    embed = discord.Embed(title=title, description=_limit(text) or empty, colour=COLOUR)
    embed.set_footer(text=f"{subtitle}\n{footer}")
    card = BoardCard(
        title=title,
        subtitle=subtitle,
        name_heading=tr("Player"),
        headings=tuple(headings),
        lines=tuple(lines),
        footer=footer,
        empty=empty,
    )
    return embed, card


class LeaderboardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"domino:lb:(?P<guild>\d{1,20}):(?P<game>[a-z]{1,12}):(?P<period>[a-z]{1,12})"
        r":(?P<order>[a-z]{1,12}):(?P<page>\d{1,6})"
    ),
):
    def __init__(
        self,
        guild_id: int,
        game: str,
        period: str,
        order: str,
        page: int,
        label: str = "…",
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"domino:lb:{guild_id}:{game}:{period}:{order}:{page}",
            )
        )
        self.guild_id = guild_id
        self.game = game
        self.period = period
        self.order = order
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaderboardButton:
        return cls(
            int(match["guild"]), match["game"], match["period"], match["order"], int(match["page"])
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await _handler(interaction).on_leaderboard_page(
                interaction, self.guild_id, self.game, self.period, self.order, self.page
            )
        except Exception as error:
            await reply_error(interaction, error)


def board_view(page: BoardPage, period: str, tr: Translator) -> discord.ui.View:
    view = sent_view()
    args = (page.guild_id, page.game, period, page.order)
    first, last = page.page == 0, page.page >= page.pages - 1
    view.add_item(LeaderboardButton(*args, max(page.page - 1, 0), tr("◀ Previous"), first))
    view.add_item(LeaderboardButton(*args, page.page + 1, tr("Next ▶"), last))
    return view


# -- player card ----------------------------------------------------------------------------------


def _result_text(result: PlayerResult, tr: Translator) -> str:
    if result.outcome == "loss" and result.sides > 2:
        outcome = tr("place {rank} of {sides}", rank=result.rank, sides=result.sides)
    else:
        outcome = tr(OUTCOME_NAMES[result.outcome])
    parts = [game_name(result.game, tr), outcome, tr("{n} pts", n=_number(result.points))]
    if result.place is not None:
        parts.append(tr("{n} place pts", n=_number(result.place)))
    return " · ".join(parts)


def card_texts(
    card: PlayerCard, tr: Translator, guild_name: str
) -> tuple[discord.Embed, PlayerCardImage]:
    """The embed (the text) and the image data of a player's card."""
    title = tr("{name}'s stats", name=plain(card.name))
    since = (
        tr("since the reset on {date}", date=card.season.reset_at.date().isoformat())
        if card.season
        else tr("all time")
    )
    subtitle = f"{guild_name} · {since}"
    embed = discord.Embed(title=plain(title), colour=COLOUR)
    rows: list[tuple[str, ...]] = []
    for s in card.standings:
        ordinal = s.rating.ordinal if s.rating else None
        position = card.positions.get(s.game)
        rating = _rating(ordinal)
        if position is not None:
            rating = tr("{rating} (#{position})", rating=rating, position=position[0])
        rows.append(
            (
                game_name(s.game, tr),
                rating,
                str(s.matches),
                str(s.wins),
                _percent(s.win_rate),
                _number(round(s.points_per_match, 1)),
                str(s.best_streak),
            )
        )
        facts = [
            tr.plural("{n} match", "{n} matches", s.matches),
            tr.plural("{n} win", "{n} wins", s.wins),
            tr.plural("{n} draw", "{n} draws", s.draws),
            tr("win rate {rate}", rate=_percent(s.win_rate)),
            tr("{n} points per match", n=_number(round(s.points_per_match, 1))),
            tr("best streak {n}", n=s.best_streak),
        ]
        if s.game == "latvian":
            facts.append(tr("{n} place pts", n=_number(s.place_points)))
        if position is not None:
            facts.append(
                tr(
                    "rating {value}, #{position} of {of}",
                    value=_rating(ordinal),
                    position=position[0],
                    of=position[1],
                )
            )
        else:
            facts.append(tr("not rated yet"))
        embed.add_field(name=game_name(s.game, tr), value=" · ".join(facts), inline=False)
    trend = [r.rating.ordinal for r in card.trend if r.rating is not None]
    trend_game = game_name(card.trend_game, tr)
    if trend:
        first = card.trend[0].rating_before
        change = trend[-1] - (first if first is not None else trend[0])
        trend_line = tr(
            "{game}: {value} after {n} rated matches ({change})",
            game=trend_game,
            value=_rating(trend[-1]),
            n=len(trend),
            change=_signed(change),
        )
        embed.add_field(name=tr("Rating trend"), value=trend_line, inline=False)
    recent = []
    lines = []
    for r in card.recent:
        change = r.change
        detail = _signed(change) if change is not None else ""
        text = _result_text(r, tr)
        recent.append(ResultLine(r.outcome, f"{text} · {r.finished_at.date().isoformat()}", detail))
        stamp = int(r.finished_at.timestamp())
        lines.append(f"<t:{stamp}:d> {text}" + (f" ({detail})" if detail else ""))
    if lines:
        embed.add_field(name=tr("Recent results"), value=_limit(lines, 1000), inline=False)
    embed.set_footer(text=subtitle)
    image = PlayerCardImage(
        title=card.name,
        subtitle=subtitle,
        game_heading=tr("Game"),
        headings=(
            tr("Rating"),
            tr("Matches"),
            tr("Wins"),
            tr("Win rate"),
            tr("Pts/match"),
            tr("Best streak"),
        ),
        rows=tuple(rows),
        trend_title=tr("Rating trend · {game}", game=trend_game),
        trend=tuple(trend),
        trend_empty=tr("Not enough rated matches for a trend yet."),
        recent_title=tr("Recent results"),
        recent=tuple(recent),
        footer=tr("Rating: openskill's conservative estimate, μ − 3σ."),
    )
    return embed, image


# -- history ----------------------------------------------------------------------------------


def _seat_text(seat: Any, tr: Translator) -> str:
    name = tr("{name} (AI)", name=seat.name) if seat.user_id is None else seat.name
    text = f"{plain(name)} {_number(seat.total)}"
    return f"**{text}**" if seat.won else text


def _winners(match: MatchSummary, tr: Translator) -> str:
    winners = match.winners
    if not winners:
        return tr("a draw")
    names = tr(" & ").join(
        plain(tr("{name} (AI)", name=s.name) if s.user_id is None else s.name) for s in winners
    )
    return tr("won by {names}", names=names)


def history_texts(page: HistoryPage, tr: Translator) -> discord.Embed:
    lines = []
    for m in page.entries:
        stamp = int(m.finished_at.timestamp())
        head = tr(
            "`#{id}` **{game}** · <t:{stamp}:R> · {winners}",
            id=m.id,
            game=game_name(m.game, tr),
            stamp=stamp,
            winners=plain(_winners(m, tr)),
        )
        seats = " · ".join(_seat_text(s, tr) for s in m.seats)
        lines.append(f"{head}\n{seats}")
    embed = discord.Embed(
        title=tr("Match history"),
        description=_limit(lines) or tr("No finished matches on this server yet."),
        colour=COLOUR,
    )
    embed.set_footer(
        text=" · ".join(
            [
                tr.plural("{n} match", "{n} matches", page.total),
                tr("page {page} of {pages}", page=page.page + 1, pages=page.pages),
                tr("Pick a match below to download its record."),
            ]
        )
    )
    return embed


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"domino:hp:(?P<guild>\d{1,20}):(?P<page>\d{1,6})",
):
    def __init__(self, guild_id: int, page: int, label: str = "…", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"domino:hp:{guild_id}:{page}",
            )
        )
        self.guild_id = guild_id
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HistoryButton:
        return cls(int(match["guild"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await _handler(interaction).on_history_page(interaction, self.guild_id, self.page)
        except Exception as error:
            await reply_error(interaction, error)


class ExportSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"domino:hx:(?P<guild>\d{1,20}):(?P<page>\d{1,6})",
):
    def __init__(
        self,
        guild_id: int,
        page: int,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"domino:hx:{guild_id}:{page}",
                options=list(options) or [discord.SelectOption(label="…", value="0")],
                placeholder=placeholder,
            )
        )
        self.guild_id = guild_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ExportSelect:
        options = item.options if isinstance(item, discord.ui.Select) else []
        return cls(int(match["guild"]), int(match["page"]), options)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        try:
            text = values[0] if values else ""
            match_id = int(text) if text.isdigit() and len(text) < 19 else 0
            await _handler(interaction).on_export(interaction, self.guild_id, match_id)
        except Exception as error:
            await reply_error(interaction, error)


def history_view(page: HistoryPage, tr: Translator) -> discord.ui.View:
    view = sent_view()
    if page.entries:
        options = [
            discord.SelectOption(
                label=tr(
                    "#{id} · {game} · {date}",
                    id=m.id,
                    game=game_name(m.game, tr),
                    date=m.finished_at.date().isoformat(),
                )[:100],
                description=_winners(m, tr)[:100],
                value=str(m.id),
            )
            for m in page.entries
        ]
        view.add_item(
            ExportSelect(page.guild_id, page.page, options, tr("Download a match record (JSON)"))
        )
    first, last = page.page == 0, page.page >= page.pages - 1
    view.add_item(HistoryButton(page.guild_id, max(page.page - 1, 0), tr("◀ Newer"), first))
    view.add_item(HistoryButton(page.guild_id, page.page + 1, tr("Older ▶"), last))
    return view


# -- reset ------------------------------------------------------------------------------------


class ResetButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"domino:(?P<action>rs|rc):(?P<guild>\d{1,20}):(?P<asked>\d{1,12})",
):
    def __init__(
        self, action: str, guild_id: int, asked: int, label: str = "…", danger: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.danger if danger else discord.ButtonStyle.secondary,
                custom_id=f"domino:{action}:{guild_id}:{asked}",
            )
        )
        self.action = action
        self.guild_id = guild_id
        self.asked = asked

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ResetButton:
        return cls(match["action"], int(match["guild"]), int(match["asked"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await _handler(interaction).on_reset_button(
                interaction, self.action, self.guild_id, self.asked
            )
        except Exception as error:
            await reply_error(interaction, error)


STATS_ITEMS = (LeaderboardButton, HistoryButton, ExportSelect, ResetButton)


# -- the commands -------------------------------------------------------------------------------


class StatsCommands:
    """The stats commands, mixed into the ``/domino`` GroupCog (``cog.Domino``)."""

    bot: DominoBot
    stats: StatsService

    async def cog_load(self) -> None:
        await super().cog_load()  # type: ignore[misc]
        self.stats = StatsService(self.bot.db, clock=self.bot.games.clock)
        await self.stats.start()
        self.bot.add_dynamic_items(*STATS_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*STATS_ITEMS)
        await super().cog_unload()  # type: ignore[misc]

    async def _translator(self, interaction: discord.Interaction) -> Translator:
        """Public messages speak the server's language (:mod:`cogs.domino.language`)."""
        return await public_translator(self.bot, interaction.guild_id)

    # -- /domino leaderboard -------------------------------------------------------------

    @app_commands.command(
        name="leaderboard", description=locale_str("The server's best players, by skill rating")
    )
    @app_commands.describe(
        game=locale_str("Which game (default: the server's most played)"),
        period=locale_str("All time, or only matches of the last 30 or 7 days"),
        order=locale_str("Rank by rating, or (latvian) by accumulated place points"),
    )
    @app_commands.choices(
        game=[
            Choice(name=locale_str("Block game"), value="block"),
            Choice(name=locale_str("Draw game"), value="draw"),
            Choice(name=locale_str("All Fives"), value="allfives"),
            Choice(name=locale_str("Latvian dominoes"), value="latvian"),
        ],
        period=[
            Choice(name=locale_str("All time"), value="all"),
            Choice(name=locale_str("Last 30 days"), value="month"),
            Choice(name=locale_str("Last 7 days"), value="week"),
        ],
        order=[
            Choice(name=locale_str("Rating"), value="rating"),
            Choice(name=locale_str("Place points (latvian)"), value="places"),
        ],
    )
    @stats_refusals
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        period: str = "all",
        order: str = "rating",
    ) -> None:
        guild_id = _guild(interaction)
        await defer_public(interaction)
        page = await self.stats.leaderboard(guild_id, game, period, order)
        message = await self._board_message(interaction, page, period)
        await interaction.followup.send(**message)

    async def on_leaderboard_page(
        self,
        interaction: discord.Interaction,
        guild_id: int,
        game: str,
        period: str,
        order: str,
        page: int,
    ) -> None:
        _guild(interaction, guild_id)
        await interaction.response.defer()
        if period not in PERIODS:
            raise GameError(N_("The period is all, month or week."))
        board = await self.stats.leaderboard(guild_id, game, period, order, page)
        message = await self._board_message(interaction, board, period)
        files = message.pop("files")
        await interaction.edit_original_response(attachments=files, **message)

    async def _board_message(
        self, interaction: discord.Interaction, page: BoardPage, period: str
    ) -> dict[str, Any]:
        tr = await self._translator(interaction)
        embed, card = board_texts(page, tr, period, interaction.user.id)
        file = await _png(render_leaderboard, card, "leaderboard.png")
        if file is not None:
            embed.set_image(url="attachment://leaderboard.png")
        return {
            "embed": embed,
            "files": [file] if file else [],
            "view": board_view(page, period, tr),
        }

    # -- /domino stats -------------------------------------------------------------------

    @app_commands.command(
        name="stats", description=locale_str("A player's card: results, rating and its trend")
    )
    @app_commands.describe(
        user=locale_str("Whose card (default: yours)"),
        game=locale_str("The game of the rating trend (default: the most played)"),
    )
    @app_commands.choices(
        game=[
            Choice(name=locale_str("Block game"), value="block"),
            Choice(name=locale_str("Draw game"), value="draw"),
            Choice(name=locale_str("All Fives"), value="allfives"),
            Choice(name=locale_str("Latvian dominoes"), value="latvian"),
        ]
    )
    @stats_refusals
    async def stats_card(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        guild_id = _guild(interaction)
        await defer_public(interaction)
        target = user or interaction.user
        card = await self.stats.card(guild_id, target.id, _display_name(target), game)
        tr = await self._translator(interaction)
        guild_name = interaction.guild.name if interaction.guild else ""
        embed, image = card_texts(card, tr, guild_name)
        file = await _png(render_player_card, image, "stats.png")
        if file is not None:
            embed.set_image(url="attachment://stats.png")
            await interaction.followup.send(embed=embed, file=file)
        else:
            await interaction.followup.send(embed=embed)

    # -- /domino history -----------------------------------------------------------------

    @app_commands.command(
        name="history", description=locale_str("Recent matches in this server, with their records")
    )
    @stats_refusals
    async def history(self, interaction: discord.Interaction) -> None:
        guild_id = _guild(interaction)
        await defer_public(interaction)
        page = await self.stats.history(guild_id)
        tr = await self._translator(interaction)
        view = history_view(page, tr)
        await interaction.followup.send(embed=history_texts(page, tr), view=view)

    async def on_history_page(
        self, interaction: discord.Interaction, guild_id: int, page: int
    ) -> None:
        _guild(interaction, guild_id)
        await interaction.response.defer()
        history = await self.stats.history(guild_id, page)
        tr = await self._translator(interaction)
        view = history_view(history, tr)
        await interaction.edit_original_response(embed=history_texts(history, tr), view=view)

    async def on_export(
        self, interaction: discord.Interaction, guild_id: int, match_id: int
    ) -> None:
        _guild(interaction, guild_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.stats.export(guild_id, match_id)
        data = json.dumps(record, indent=1, ensure_ascii=False).encode()
        file = discord.File(io.BytesIO(data), filename=f"domino-match-{match_id}.json")
        tr = Translator.for_locale(interaction.locale)
        await interaction.followup.send(
            tr("The record of match #{id}.", id=match_id), file=file, ephemeral=True
        )

    # -- /domino reset-leaderboard --------------------------------------------------------

    @app_commands.command(
        name="reset-leaderboard",
        description=locale_str("Clear this server's ratings and leaderboards (Manage Server)"),
    )
    @stats_refusals
    async def reset_leaderboard(self, interaction: discord.Interaction) -> None:
        guild_id = _guild(interaction)
        self.stats.check_can_reset(bool(interaction.permissions.manage_guild))
        tr = Translator.for_locale(interaction.locale)
        asked = int(self.stats.clock().timestamp())
        view = sent_view()
        view.add_item(ResetButton("rs", guild_id, asked, tr("Reset the leaderboard"), True))
        view.add_item(ResetButton("rc", guild_id, asked, tr("Cancel")))
        await interaction.response.send_message(
            tr(
                "This clears every rating and leaderboard of this server, for all games. "
                "The matches and their history stay; only matches finished from now on "
                "will count. Are you sure?"
            ),
            view=view,
            ephemeral=True,
        )

    async def on_reset_button(
        self, interaction: discord.Interaction, action: str, guild_id: int, asked: int
    ) -> None:
        _guild(interaction, guild_id)
        tr = Translator.for_locale(interaction.locale)
        if action == "rc":
            await interaction.response.edit_message(content=tr("Nothing was reset."), view=None)
            return
        await interaction.response.defer()
        season = await self.stats.reset(
            guild_id,
            interaction.user.id,
            can_manage=bool(interaction.permissions.manage_guild),
            asked_at=datetime.fromtimestamp(asked, UTC),
        )
        await interaction.edit_original_response(
            content=tr(
                "The leaderboard is reset. Matches finished from now on count; "
                "the history keeps every match (the last one before the reset is #{id}).",
                id=season.after_match_id,
            ),
            view=None,
        )
