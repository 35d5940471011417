"""A competition's messages: its check-in message, a thread for each table, each round's
results and the standings (the :class:`~bot.competitions.service.Herald` of the bot).

Announcements go out one after the other, in the background (a failure costs a log
line); a table's thread is opened while the service waits (no thread, no game).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.competitions.competition import Competition, Round, Table, round_minutes
from bot.competitions.service import Event, Held
from bot.games.background import Background
from bot.games.errors import GameError
from bot.i18n import N_, Translator

from .competition_pictures import leaders_text, points_text, standings_files
from .items import button, sent_view
from .markup import plain
from .origin import public_translator
from .texts import game_name
from .threads import NEEDS_TEXT, open_thread

if TYPE_CHECKING:
    from bot.client import DominoBot

log = logging.getLogger(__name__)

LIMIT = 2000


def standings_text(held: Held, tr: Translator) -> str:
    """The standings, best first: rank, name, place points, rounds played."""
    c = held.competition
    lines = [tr("**Standings**")]
    for s in c.standings():
        lines.append(
            tr(
                "{rank}. {name}: {points} place points ({rounds} rounds)",
                rank=s.rank,
                name=plain(held.name_of(s.player)),
                points=points_text(s.points, tr),
                rounds=s.rounds,
            )
        )
    return "\n".join(lines)


def round_results_text(held: Held, done: Round, tr: Translator) -> str:
    """One line a table: its players by place, with their place points."""
    lines = [tr("**Round {round} results**", round=done.number)]
    for table in done.tables:
        result = table.result
        if result is None:
            continue
        ranked = sorted(
            zip(result.players, result.place_points(), strict=True), key=lambda x: -x[1]
        )
        players = ", ".join(
            tr(
                "{name} {points}",
                name=plain(held.name_of(p)),
                points=points_text(pp, tr),
            )
            for p, pp in ranked
        )
        lines.append(tr("Table {table}: {players}", table=table.number, players=players))
    return "\n".join(lines)


def player_mention(c: Competition, player: int) -> str:
    """A person's mention; an AI fill-in's name (it has no Discord user)."""
    entrant = c.entrant(player)
    if entrant is not None and entrant.is_ai:
        return plain(entrant.name)
    return f"<@{player}>"


def seating_text(c: Competition, done: Round, tr: Translator) -> str:
    lines = [tr("**Round {round} of {rounds}**", round=done.number, rounds=c.format.rounds)]
    for table in done.tables:
        players = ", ".join(player_mention(c, p) for p in table.players)
        lines.append(tr("Table {table}: {players}", table=table.number, players=players))
    minutes = round_minutes(c)
    if minutes is not None:
        lines.append(
            tr(
                "Each table plays for {minutes} minutes: the deal in play when the time is"
                " up is its last.",
                minutes=minutes,
            )
        )
    return "\n".join(lines)


def checkin_text(held: Held, tr: Translator) -> str:
    c = held.competition
    fmt = c.format
    head = tr(
        "**Competition**: {game}, {rounds} rounds, refereed by <@{referee}>.",
        game=game_name(str(fmt.options.get("game", "latvian")), tr),
        rounds=fmt.rounds,
        referee=held.referee_id,
    )
    players = ", ".join(plain(e.name) for e in c.entrants if e.active) or "—"
    if c.status == "checkin":
        status = tr(
            "Check in with the button below; the referee starts with /domino competition start."
        )
    elif c.status == "playing":
        current = c.current
        status = tr("Round {round} is being played.", round=current.number if current else 1)
    elif c.status == "finished":
        status = tr("The competition is over.")
    else:
        status = tr("The referee ended the competition.")
    return "\n".join(
        [head, tr("Checked in ({n}): {players}", n=len(c.players), players=players), status]
    )


def checkin_view(held: Held, tr: Translator) -> discord.ui.View:
    if held.competition.status != "checkin":
        return sent_view()
    return sent_view(
        button(f"domino:comp:in:{held.id}", tr("Check in"), discord.ButtonStyle.success),
        button(f"domino:comp:out:{held.id}", tr("Check out")),
    )


class CompetitionHerald:
    """Posts what the competitions tell, in order."""

    def __init__(self, bot: DominoBot) -> None:
        self.bot = bot
        self._last: asyncio.Task[None] | None = None
        self._work = Background(log, "a competition's announcement")

    @property
    def busy(self) -> bool:
        """Whether work is under way (tests)."""
        return self._work.busy

    async def close(self) -> None:
        await self._work.close()

    async def _channel(self, channel_id: int) -> Any:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return channel

    async def table_channel(self, held: Held, round_number: int, table: Table) -> int:
        tr = await public_translator(self.bot, held.guild_id)
        try:
            channel = await self._channel(held.channel_id)
        except discord.HTTPException:
            channel = None
        if not isinstance(channel, discord.TextChannel):
            raise GameError(NEEDS_TEXT)
        title = tr("Round {round}, table {table}", round=round_number, table=table.number)
        thread = await open_thread(
            channel,
            tr(
                "{title}: {players}. Your game is in this thread.",
                title=title,
                players=", ".join(player_mention(held.competition, p) for p in table.players),
            ),
            title,
            discord.AllowedMentions(users=True, roles=False, everyone=False),
            N_("Discord did not let me open a thread for a table here. Try again later."),
        )
        return thread.id

    def announce(self, held: Held, event: Event) -> None:
        previous = self._last
        self._last = self._work.spawn(self._announce(previous, held, event))

    async def _announce(
        self, previous: asyncio.Task[None] | None, held: Held, event: Event
    ) -> None:
        if previous is not None:
            with contextlib.suppress(BaseException):
                await previous
        try:
            await self._post(held, event)
        except Exception:
            log.warning("competition %d: could not announce %s", held.id, event, exc_info=True)

    async def _post(self, held: Held, event: Event) -> None:
        tr = await public_translator(self.bot, held.guild_id)
        channel = await self._channel(held.channel_id)
        if held.message_id is not None and event != "opened":
            message = channel.get_partial_message(held.message_id)
            with contextlib.suppress(discord.HTTPException):
                await message.edit(content=checkin_text(held, tr), view=checkin_view(held, tr))
        c = held.competition
        parts: list[str] = []
        files: list[discord.File] = []
        if event in ("round", "finished"):
            done = [r for r in c.rounds if r.done]
            if done:
                parts.append(round_results_text(held, done[-1], tr))
            if event == "finished":
                parts.append(tr("**The competition is over.**"))
            if done:
                # the standings' pictures ride on the results' message (no extra call);
                # the text keeps the leaders, or all of it when the pictures failed
                files = await standings_files(held, tr)
                parts.append(leaders_text(held, tr) if files else standings_text(held, tr))
            if event == "round" and c.current is not None and not c.current.done:
                parts.append(seating_text(c, c.current, tr))
        elif event == "cancelled":
            parts.append(tr("The referee ended the competition."))
        if parts:
            text = "\n\n".join(parts)
            for at in range(0, len(text), LIMIT):
                attached: dict[str, Any] = {"files": files} if files and at == 0 else {}
                await channel.send(
                    text[at : at + LIMIT],
                    allowed_mentions=discord.AllowedMentions.none(),
                    **attached,
                )
