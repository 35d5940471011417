"""The public table message, the lobby, the turn ping and the deal summaries.

:class:`TablePublisher` is the service's :class:`~bot.games.service.Publisher`:
it turns each saved change into Discord messages. Images are drawn off the
event loop. Everything here is public: it reads hand sizes, never hands.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from dataclasses import replace
from typing import TYPE_CHECKING

import discord

from bot.engine import End, MatchState
from bot.games.moves_text import end_name
from bot.games.service import Update
from bot.games.session import LOBBY, PLAYING, Session
from bot.i18n import Translator
from render.board import render_board
from render.summary import render_summary

from .items import TableButton
from .narrate import narrate
from .texts import ai_level_name, game_name, image_labels, rules_summary

if TYPE_CHECKING:
    from bot.client import DominoBot

log = logging.getLogger(__name__)

COLOUR = discord.Colour.from_rgb(46, 125, 50)
MAX_LINES = 6


def seat_label(session: Session, seat: int, tr: Translator) -> str:
    s = session.seats[seat]
    if s.is_ai:
        return tr("{name} (AI, {level})", name=s.name, level=ai_level_name(s.ai or "", tr))
    return s.name


def lobby_embed(session: Session, tr: Translator, lines: list[str]) -> discord.Embed:
    rules = session.rules
    embed = discord.Embed(
        title=tr("{game}: a table is open", game=game_name(rules.game, tr)),
        description=rules_summary(rules, tr),
        colour=COLOUR,
    )
    seats = [f"{i + 1}. {seat_label(session, i, tr)}" for i in range(len(session.seats))] + [
        f"{i + 1}. —" for i in range(len(session.seats), rules.players)
    ]
    embed.add_field(name=tr("Seats"), value="\n".join(seats), inline=False)
    if session.timer:
        embed.add_field(name=tr("Turn timer"), value=tr("{n} s", n=session.timer))
    if lines:
        embed.add_field(name=tr("Latest"), value="\n".join(lines[-MAX_LINES:]), inline=False)
    embed.set_footer(text=tr("Game #{id}", id=session.id))
    return embed


def lobby_view(session: Session, tr: Translator) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    full = session.full
    view.add_item(TableButton(session.id, "join", tr("Join"), discord.ButtonStyle.success, full))
    view.add_item(TableButton(session.id, "leave", tr("Leave"), discord.ButtonStyle.secondary))
    view.add_item(
        TableButton(session.id, "addbot", tr("Add AI"), discord.ButtonStyle.secondary, full)
    )
    view.add_item(
        TableButton(session.id, "start", tr("Start"), discord.ButtonStyle.primary, not full)
    )
    return view


def table_embed(session: Session, tr: Translator, lines: list[str]) -> discord.Embed:
    state = session.state
    assert state is not None
    deal = state.deal
    rules = session.rules
    title = tr("{game} — deal {number}", game=game_name(rules.game, tr), number=state.deal_number)
    embed = discord.Embed(title=title, description=rules_summary(rules, tr), colour=COLOUR)
    sizes = deal.hand_sizes()
    totals = state.totals
    rows = []
    for seat in range(rules.players):
        marker = "▶" if session.turn == seat else "•"
        side = rules.side_of(seat)
        team = tr(" (team {n})", n=side + 1) if rules.teams else ""
        rows.append(
            tr(
                "{marker} **{name}**{team}: {tiles} · {score}",
                marker=marker,
                name=seat_label(session, seat, tr),
                team=team,
                tiles=tr.plural("{n} tile", "{n} tiles", sizes[seat]),
                score=tr("{n} pts", n=_number(totals[side])),
            )
        )
    embed.add_field(name=tr("Players"), value="\n".join(rows), inline=False)
    layout = deal.layout
    ends = [f"{end_name(e, tr)} {layout.values[e]}" for e in layout.open_ends()]
    closed = [tr("{end} closed", end=end_name(e, tr)) for e in End if layout.closed[e]]
    if layout.lead is not None:
        embed.add_field(name=tr("Open ends"), value=" · ".join(ends + closed) or "—")
    if rules.draws:
        embed.add_field(name=tr("Boneyard"), value=str(deal.boneyard_size))
    if deal.fives:
        embed.add_field(name=tr("Count"), value=str(layout.count()))
    if lines:
        embed.add_field(name=tr("Latest"), value="\n".join(lines[-MAX_LINES:]), inline=False)
    turn = session.turn_seat
    if state.over:
        embed.set_footer(text=tr("Game #{id} · the match is over", id=session.id))
    elif turn is not None:
        embed.set_footer(text=tr("Game #{id} · {name} to play", id=session.id, name=turn.name))
    embed.set_image(url="attachment://board.png")
    return embed


def table_view(session: Session, tr: Translator) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if session.status == PLAYING:
        view.add_item(
            TableButton(session.id, "hand", tr("Show my hand"), discord.ButtonStyle.primary)
        )
    return view


def finished_embed(session: Session, tr: Translator, lines: list[str]) -> discord.Embed:
    embed = discord.Embed(
        title=tr("{game}: game over", game=game_name(session.rules.game, tr)),
        description="\n".join(lines[-MAX_LINES:]) or tr("The game was ended."),
        colour=COLOUR,
    )
    embed.set_footer(text=tr("Game #{id}", id=session.id))
    return embed


def finished_deals(update: Update) -> list[int]:
    """The deals (numbers from 1) that ended with this update."""
    after = update.after.state
    before = update.before.state if update.before else None
    if after is None:
        return []
    done = []
    for number, deal in enumerate(after.deals, 1):
        was = before.deals[number - 1] if before and number <= before.deal_number else None
        if deal.result is not None and (was is None or was.result is None):
            done.append(number)
    return done


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


class TablePublisher:
    """Keeps each channel's table message up to date (the service's publisher)."""

    def __init__(self, bot: DominoBot) -> None:
        self.bot = bot
        self._pings: dict[int, int] = {}

    async def translator(self, guild_id: int) -> Translator:
        language = await self.bot.db.guilds.language(guild_id)
        if language:
            return Translator(language)
        guild = self.bot.get_guild(guild_id)
        return Translator.for_locale(guild.preferred_locale if guild else None)

    async def publish(self, update: Update) -> None:
        session = update.after
        tr = await self.translator(session.guild_id)
        lines = narrate(update, tr, session.names)
        channel = await self._channel(session.channel_id)
        if channel is None:
            return
        for number in finished_deals(update):
            assert session.state is not None
            await self._post_summary(channel, session, session.state, number, tr)
        before = update.before
        new_deal = (
            before is not None
            and before.state is not None
            and session.state is not None
            and session.state.deal_number != before.state.deal_number
        )
        await self.show(channel, session, tr, lines, repost=new_deal or before is None)
        await self._ping(channel, session, update, tr)

    async def show(
        self,
        channel: discord.abc.Messageable,
        session: Session,
        tr: Translator,
        lines: list[str],
        *,
        repost: bool = False,
    ) -> None:
        """Draw the table (or lobby) and edit its message, or post a new one."""
        embed, view, files = await self._table_message(session, tr, lines)
        old_id = session.table_message_id
        if old_id is not None and not repost:
            try:
                message = channel.get_partial_message(old_id)  # type: ignore[attr-defined]
                await message.edit(embed=embed, view=view, attachments=files)
                _stop(view)
                return
            except discord.NotFound:
                pass
        message = await channel.send(embed=embed, view=view, files=files)
        _stop(view)
        if old_id is not None and old_id != message.id:
            await _delete_quietly(channel, old_id)
        await self.bot.games.set_table_message(session.id, message.id)

    async def repost(self, session: Session) -> None:
        """Post the table again at the bottom of the channel (``/domino board``)."""
        tr = await self.translator(session.guild_id)
        channel = await self._channel(session.channel_id)
        if channel is not None:
            await self.show(channel, session, tr, [], repost=True)

    async def _table_message(
        self, session: Session, tr: Translator, lines: list[str]
    ) -> tuple[discord.Embed, discord.ui.View | None, list[discord.File]]:
        if session.status == LOBBY:
            return lobby_embed(session, tr, lines), lobby_view(session, tr), []
        if session.state is None or session.status not in (PLAYING, "finished"):
            return finished_embed(session, tr, lines), None, []
        labels = image_labels(tr)
        names = [seat_label(session, i, tr) for i in range(len(session.seats))]
        png = await asyncio.to_thread(
            render_board,
            session.state.deal,
            names=names,
            totals=session.state.totals,
            labels=labels,
        )
        file = discord.File(io.BytesIO(png), filename="board.png")
        view = table_view(session, tr) if session.status == PLAYING else None
        return table_embed(session, tr, lines), view, [file]

    async def _post_summary(
        self,
        channel: discord.abc.Messageable,
        session: Session,
        state: MatchState,
        number: int,
        tr: Translator,
    ) -> None:
        deals = state.deals[:number]
        if not deals or deals[-1].result is None:
            return
        upto = replace(
            state, deals=deals, outcome=state.outcome if number == len(state.deals) else None
        )
        names = [seat_label(session, i, tr) for i in range(len(session.seats))]
        png = await asyncio.to_thread(render_summary, upto, names, labels=image_labels(tr))
        file = discord.File(io.BytesIO(png), filename=f"deal-{number}.png")
        await channel.send(content=tr("**Deal {number} is over.**", number=number), file=file)

    async def _ping(
        self, channel: discord.abc.Messageable, session: Session, update: Update, tr: Translator
    ) -> None:
        seat = session.turn_seat
        before = update.before
        if seat is None or seat.user_id is None or session.status != PLAYING:
            return
        if before is not None and before.turn == session.turn and before.state is session.state:
            return
        old = self._pings.pop(session.id, None)
        if old is not None:
            await _delete_quietly(channel, old)
        view = table_view(session, tr)
        message = await channel.send(
            tr("<@{user}>, it's your turn.", user=seat.user_id),
            view=view,
            allowed_mentions=discord.AllowedMentions(users=True),
        )
        _stop(view)
        self._pings[session.id] = message.id

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %d is gone", channel_id)
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None


def _stop(view: discord.ui.View | None) -> None:
    """Our buttons are dynamic items found by ``custom_id``: the sent view need not live on.

    (Every live view costs a little on every later interaction.)
    """
    if view is not None:
        view.stop()


async def _delete_quietly(channel: discord.abc.Messageable, message_id: int) -> None:
    with contextlib.suppress(discord.HTTPException):
        await channel.get_partial_message(message_id).delete()  # type: ignore[attr-defined]
