"""``/domino competition``: a club night (issue 41). Thin glue to the
:class:`~bot.competitions.service.CompetitionService`: open, start, standings, remove,
end, and the Check in / Check out buttons of the competition's message
(``domino:comp:in:<id>``, ``domino:comp:out:<id>``). Every action is acknowledged
first; every refusal is a polite ephemeral answer (``@refusing``, ``DominoItem``).
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.competitions.competition import MAX_AI_AT_ONCE, CompetitionError, Format
from bot.competitions.service import CompetitionService, refusal
from bot.games.errors import GameError
from bot.i18n import N_, Translator

from .carriers import answered
from .competition_herald import CompetitionHerald, checkin_text, checkin_view, standings_text
from .items import DominoItem, button
from .language import public_translator
from .origin import display_name, server_of
from .replies import refusing
from .texts import AI_LEVEL_NAMES, GAME_CHOICES

if TYPE_CHECKING:
    from bot.client import DominoBot

    from .cog import Domino

log = logging.getLogger(__name__)
Choice = app_commands.Choice

AI_NAME = N_("AI {number} ({level})")
"""An AI fill-in entrant's name ("AI 1 (normal)"), in the server's language."""


class CompetitionButton(
    DominoItem[discord.ui.Button[Any]],
    template=r"domino:comp:(?P<action>in|out):(?P<competition>\d{1,19})",
):
    """Check in or out of a competition (its message's buttons)."""

    def __init__(self, competition_id: int, action: str, label: str = "…") -> None:
        super().__init__(button(f"domino:comp:{action}:{competition_id}", label))
        self.competition_id = competition_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["competition"]), match["action"])

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_competition_button(interaction, self.action, self.competition_id)


COMPETITION_ITEMS = (CompetitionButton,)


def _can_manage(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions is not None and permissions.manage_guild)


class CompetitionCommands(commands.Cog):
    """The competition commands, a base of the ``/domino`` GroupCog (``cog.Domino``)."""

    bot: DominoBot

    @property
    def competitions(self) -> CompetitionService:
        return self.bot.competitions

    async def cog_load(self) -> None:
        await super().cog_load()
        self.herald = CompetitionHerald(self.bot)
        self.bot.competitions.herald = self.herald
        self.bot.add_dynamic_items(*COMPETITION_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*COMPETITION_ITEMS)
        self.bot.competitions.herald = None
        await self.herald.close()
        await super().cog_unload()

    async def _done(self, interaction: discord.Interaction, message: str, **fields: Any) -> None:
        text = Translator.for_locale(interaction.locale)(message, **fields)
        try:
            await interaction.followup.send(text, ephemeral=True)
            answered(interaction)
        except discord.HTTPException:
            log.warning("could not confirm a competition's change", exc_info=True)

    competition = app_commands.Group(
        name="competition", description=locale_str("Club competitions: tables, rounds, standings")
    )

    @competition.command(
        name="open", description=locale_str("Open a competition in this channel (the referee)")
    )
    @app_commands.describe(
        game=locale_str("Which game (default: latvian)"),
        rounds=locale_str("How many rounds (default 3)"),
        table_size=locale_str("Players a table (default: as even as possible, up to 4)"),
        seating=locale_str("How rounds after the first are seated"),
        deals=locale_str("Deals a table plays (latvian, Mexican Train)"),
        timer=locale_str("Seconds for each turn (0 = no timer)"),
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        seating=[
            Choice(name=locale_str("At random"), value="random"),
            Choice(name=locale_str("By standing: the leaders meet"), value="standing"),
        ],
    )
    @refusing
    async def competition_open(
        self,
        interaction: discord.Interaction,
        game: str = "latvian",
        rounds: app_commands.Range[int, 1, 20] = 3,
        table_size: app_commands.Range[int, 2, 4] | None = None,
        seating: str = "random",
        deals: app_commands.Range[int, 1, 100] | None = None,
        timer: app_commands.Range[int, 0, 3600] = 0,
    ) -> None:
        await interaction.response.defer(ephemeral=True)
        guild_id = server_of(interaction)
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise GameError(
                N_("A competition needs a text channel where I can open a thread for each table.")
            )
        options: dict[str, Any] = {"game": game}
        if deals is not None:
            options["deals"] = deals
        try:
            fmt = Format(options=options, table_size=table_size, rounds=rounds, seating=seating)  # type: ignore[arg-type]
        except CompetitionError as error:
            raise refusal(error) from None
        held = await self.competitions.open_competition(
            guild_id=guild_id,
            channel_id=channel.id,
            referee_id=interaction.user.id,
            can_manage=_can_manage(interaction),
            fmt=fmt,
            timer=timer,
        )
        tr = await public_translator(self.bot, guild_id)
        try:
            message = await channel.send(
                checkin_text(held, tr),
                view=checkin_view(held, tr),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.warning("competition %d: its message could not be posted", held.id, exc_info=True)
            await self.competitions.end(held.id, interaction.user.id, can_manage=True)
            raise GameError(
                N_("Discord did not let me post the competition here, so none was opened.")
            ) from None
        await self.competitions.note_message(held.id, message.id)
        await self._done(
            interaction, N_("The competition is open: players check in with the button.")
        )

    @competition.command(
        name="start", description=locale_str("Close check-in and seat round 1 (the referee)")
    )
    @refusing
    async def competition_start(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        held = self.competitions.channel_competition(interaction.channel_id or 0)
        held = await self.competitions.start(
            held.id, interaction.user.id, can_manage=_can_manage(interaction)
        )
        await self._done(interaction, N_("The competition has begun: each table has its thread."))

    @competition.command(
        name="add-ai",
        description=locale_str("Check in AI players to fill the tables (the referee)"),
    )
    @app_commands.describe(
        count=locale_str("How many AI players (default 1)"),
        level=locale_str("How strong the AI plays"),
    )
    @app_commands.choices(
        level=[
            Choice(name=locale_str("easy"), value="easy"),
            Choice(name=locale_str("normal"), value="normal"),
            Choice(name=locale_str("hard"), value="hard"),
        ]
    )
    @refusing
    async def competition_add_ai(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, MAX_AI_AT_ONCE] = 1,
        level: str = "normal",
    ) -> None:
        """AI fill-in entrants, named in the server's language ("AI 1 (normal)")."""
        await interaction.response.defer(ephemeral=True)
        held = self.competitions.channel_competition(interaction.channel_id or 0)
        tr = await public_translator(self.bot, held.guild_id)
        shown = tr(AI_LEVEL_NAMES.get(level, level))
        await self.competitions.add_ai(
            held.id,
            interaction.user.id,
            count,
            level,
            can_manage=_can_manage(interaction),
            name=lambda number: tr(AI_NAME, number=number, level=shown),
        )
        told = Translator.for_locale(interaction.locale).plural(
            "{n} AI player is checked in.", "{n} AI players are checked in.", count
        )
        await self._done(interaction, told)

    @competition.command(name="standings", description=locale_str("The competition's standings"))
    @refusing
    async def competition_standings(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        held = self.competitions.channel_competition(interaction.channel_id or 0)
        tr = Translator.for_locale(interaction.locale)
        await interaction.followup.send(standings_text(held, tr)[:2000], ephemeral=True)
        answered(interaction)

    @competition.command(
        name="remove", description=locale_str("Remove a player from the competition (the referee)")
    )
    @app_commands.describe(player=locale_str("The player to remove"))
    @refusing
    async def competition_remove(
        self, interaction: discord.Interaction, player: discord.User
    ) -> None:
        await interaction.response.defer(ephemeral=True)
        held = self.competitions.channel_competition(interaction.channel_id or 0)
        await self.competitions.remove(
            held.id, interaction.user.id, player.id, can_manage=_can_manage(interaction)
        )
        await self._done(
            interaction, N_("{name} is out of the competition."), name=display_name(player)
        )

    @competition.command(name="end", description=locale_str("End the competition (the referee)"))
    @refusing
    async def competition_end(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        held = self.competitions.channel_competition(interaction.channel_id or 0)
        await self.competitions.end(
            held.id, interaction.user.id, can_manage=_can_manage(interaction)
        )
        await self._done(interaction, N_("The competition is over."))

    async def on_competition_button(
        self, interaction: discord.Interaction, action: str, competition_id: int
    ) -> None:
        await interaction.response.defer(ephemeral=True)
        held = await self.competitions.get(competition_id)
        if held is not None and held.channel_id != interaction.channel_id:
            raise GameError(N_("That button belongs to a competition in another channel."))
        if action == "in":
            await self.competitions.check_in(
                competition_id, interaction.user.id, display_name(interaction.user)
            )
            await self._done(interaction, N_("You are checked in. Good luck!"))
        else:
            await self.competitions.check_out(competition_id, interaction.user.id)
            await self._done(interaction, N_("You are checked out."))
