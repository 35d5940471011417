"""``/domino competition``: a club night (issue 41). Thin glue to the
:class:`~bot.competitions.service.CompetitionService`: open, start, standings, remove
and reinstate, end-round, end, referees (the server's referee role), and the Check in /
Check out buttons of the competition's message (``domino:comp:in:<id>``,
``domino:comp:out:<id>``). Removing a player, ending a round early and ending the
competition are asked first (``domino:cc:<action>:<id>:<arg>``, Confirm / Cancel).
Referees: server managers, and members of the role ``/domino competition referees``
names. Every action is acknowledged first; every refusal is a polite ephemeral answer
(``@refusing``, ``DominoItem``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.competitions.archive import CompetitionArchive
from bot.competitions.competition import MAX_AI_AT_ONCE, CompetitionError, Format
from bot.competitions.service import Held, refusal
from bot.games.errors import GameError
from bot.i18n import N_, Translator

from .carriers import answered
from .competition_archive import (
    CompetitionHistoryButton,
    export_file,
    history_text,
    history_view,
)
from .competition_herald import CompetitionHerald, checkin_text, checkin_view, standings_text
from .competition_pictures import leaders_text, standings_files
from .items import DominoItem, button, sent_view
from .origin import BOARDS_IN_A_SERVER, display_name, public_translator, server_of
from .replies import answer, confirm, deferring, refusing
from .texts import AI_LEVEL_CHOICES, AI_LEVEL_NAMES, GAME_CHOICES
from .threads import NEEDS_TEXT

if TYPE_CHECKING:
    from bot.client import DominoBot

    from .cog import Domino

log = logging.getLogger(__name__)
Choice = app_commands.Choice

AI_NAME = N_("AI {number} ({level})")
"""An AI fill-in entrant's name ("AI 1 (normal)"), in the server's language."""


class CompetitionButton(
    DominoItem[discord.ui.Button[Any]],
    template=r"domino:comp:(?P<action>in|out):(?P<competition_id>\d{1,19})",
):
    """Check in or out of a competition (its message's buttons)."""

    def __init__(self, competition_id: int, action: str, label: str = "…") -> None:
        super().__init__(button(f"domino:comp:{action}:{competition_id}", label))
        self.competition_id = competition_id
        self.action = action

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_competition_button(interaction, self.action, self.competition_id)


class CompetitionConfirm(
    DominoItem[discord.ui.Button[Any]],
    template=r"domino:cc:(?P<action>end|round|rm|no):(?P<competition_id>\d{1,19}):(?P<arg>\d{1,20})",
):
    """The referee's confirmation (or cancel) of ending the competition (``end``), ending
    round ``arg`` early (``round``) or removing player ``arg`` (``rm``)."""

    def __init__(self, action: str, competition_id: int, arg: int, label: str = "…") -> None:
        style = discord.ButtonStyle.secondary if action == "no" else discord.ButtonStyle.danger
        super().__init__(button(f"domino:cc:{action}:{competition_id}:{arg}", label, style))
        self.action = action
        self.competition_id = competition_id
        self.arg = arg

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_competition_confirm(interaction, self.action, self.competition_id, self.arg)


COMPETITION_ITEMS = (CompetitionButton, CompetitionHistoryButton, CompetitionConfirm)

QUESTIONS = {
    "end": (
        N_("End the competition? Its tables' games end too, and no standings are final."),
        N_("End the competition"),
    ),
    "round": (
        N_(
            "End round {round} now? The games still in play end, each table's result is its"
            " totals as they stand, and the next round is seated."
        ),
        N_("End round {round}"),
    ),
    "rm": (
        N_(
            "Remove {name} from the competition? A game in play goes on with an AI in their"
            " seat; /domino competition reinstate takes it back."
        ),
        N_("Remove {name}"),
    ),
}


class CompetitionCommands(commands.Cog):
    """The competition commands, a base of the ``/domino`` GroupCog (``cog.Domino``)."""

    bot: DominoBot

    async def cog_load(self) -> None:
        await super().cog_load()
        self.herald = CompetitionHerald(self.bot)
        self.bot.competitions.herald = self.herald

    async def cog_unload(self) -> None:
        self.bot.competitions.herald = None
        await self.herald.close()
        await super().cog_unload()

    async def _may_referee(self, interaction: discord.Interaction) -> bool:
        """A server manager, or a member of the role the server named for referees."""
        if interaction.permissions.manage_guild:
            return True
        if interaction.guild_id is None:
            return False
        role_id = (await self.bot.games.settings.get(interaction.guild_id)).referee_role
        roles = getattr(interaction.user, "roles", ())
        return role_id is not None and any(r.id == role_id for r in roles)

    async def _refereed(self, interaction: discord.Interaction) -> Held:
        """This channel's competition, if the user may referee it (else a refusal)."""
        held = self.bot.competitions.channel_competition(interaction.channel_id or 0)
        may = await self._may_referee(interaction)
        self.bot.competitions.check_referee(held, interaction.user.id, can_manage=may)
        return held

    async def _clicked_here(self, interaction: discord.Interaction, competition_id: int) -> None:
        """Refuses a click on a competition's button from another channel."""
        held = await self.bot.competitions.get(competition_id)
        if held is not None and held.channel_id != interaction.channel_id:
            raise GameError(N_("That button belongs to a competition in another channel."))

    async def _ask(
        self,
        interaction: discord.Interaction,
        action: str,
        competition_id: int,
        arg: int,
        **fields: Any,
    ) -> None:
        """The referee's question with Confirm / Cancel (nothing changes before a click)."""
        tr = Translator.for_locale(interaction.locale)
        question, label = QUESTIONS[action]
        view = sent_view(
            CompetitionConfirm(action, competition_id, arg, tr(label, **fields)).item,
            CompetitionConfirm("no", competition_id, 0, tr("Cancel")).item,
        )
        await answer(interaction, tr(question, **fields), view=view)

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
        minutes=locale_str("A timed round: minutes each table plays (latvian)"),
        timer=locale_str("Seconds per turn (0 = no timer)"),
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        seating=[
            Choice(name=locale_str("At random"), value="random"),
            Choice(name=locale_str("By standing: the leaders meet"), value="standing"),
        ],
    )
    @deferring
    async def competition_open(
        self,
        interaction: discord.Interaction,
        game: str = "latvian",
        rounds: app_commands.Range[int, 1, 20] = 3,
        table_size: app_commands.Range[int, 2, 4] | None = None,
        seating: str = "random",
        deals: app_commands.Range[int, 1, 100] | None = None,
        timer: app_commands.Range[int, 0, 3600] = 0,
        minutes: app_commands.Range[int, 1, 600] | None = None,
    ) -> None:
        guild_id = server_of(interaction)
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise GameError(NEEDS_TEXT)
        chosen = {"game": game, "deals": deals, "time_limit": minutes}
        options = {name: value for name, value in chosen.items() if value is not None}
        try:
            fmt = Format(options=options, table_size=table_size, rounds=rounds, seating=seating)  # type: ignore[arg-type]
        except CompetitionError as error:
            raise refusal(error) from None
        held = await self.bot.competitions.open_competition(
            guild_id=guild_id,
            channel_id=channel.id,
            referee_id=interaction.user.id,
            can_manage=await self._may_referee(interaction),
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
            await self.bot.competitions.end(held.id, interaction.user.id, can_manage=True)
            raise GameError(
                N_("Discord did not let me post the competition here, so none was opened.")
            ) from None
        await self.bot.competitions.note_message(held.id, message.id)
        await confirm(interaction, N_("The competition is open: players check in with the button."))

    @competition.command(
        name="start", description=locale_str("Close check-in and seat round 1 (the referee)")
    )
    @deferring
    async def competition_start(self, interaction: discord.Interaction) -> None:
        held = self.bot.competitions.channel_competition(interaction.channel_id or 0)
        held = await self.bot.competitions.start(
            held.id, interaction.user.id, can_manage=await self._may_referee(interaction)
        )
        await confirm(interaction, N_("The competition has begun: each table has its thread."))

    @competition.command(
        name="add-ai",
        description=locale_str("Check in AI players to fill the tables (the referee)"),
    )
    @app_commands.describe(
        count=locale_str("How many AI players (default 1)"),
        level=locale_str("How strong the AI plays"),
    )
    @app_commands.choices(level=AI_LEVEL_CHOICES)
    @deferring
    async def competition_add_ai(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, MAX_AI_AT_ONCE] = 1,
        level: str = "normal",
    ) -> None:
        """AI fill-in entrants, named in the server's language ("AI 1 (normal)")."""
        held = self.bot.competitions.channel_competition(interaction.channel_id or 0)
        tr = await public_translator(self.bot, held.guild_id)
        shown = tr(AI_LEVEL_NAMES.get(level, level))
        await self.bot.competitions.add_ai(
            held.id,
            interaction.user.id,
            count,
            level,
            can_manage=await self._may_referee(interaction),
            name=lambda number: tr(AI_NAME, number=number, level=shown),
        )
        told = Translator.for_locale(interaction.locale).plural(
            "{n} AI player is checked in.", "{n} AI players are checked in.", count
        )
        await confirm(interaction, told)

    @competition.command(name="standings", description=locale_str("The competition's standings"))
    @deferring
    async def competition_standings(self, interaction: discord.Interaction) -> None:
        held = self.bot.competitions.channel_competition(interaction.channel_id or 0)
        tr = Translator.for_locale(interaction.locale)
        files = await standings_files(held, tr, viewer=interaction.user.id)
        if files:
            await answer(interaction, leaders_text(held, tr), files=files)
        else:
            await answer(interaction, standings_text(held, tr)[:2000])

    @competition.command(
        name="remove", description=locale_str("Remove a player from the competition (the referee)")
    )
    @app_commands.describe(player=locale_str("The player to remove"))
    @deferring
    async def competition_remove(
        self, interaction: discord.Interaction, player: discord.User
    ) -> None:
        held = await self._refereed(interaction)
        if held.competition.entrant(player.id) is None:
            raise GameError(N_("That player is not in the competition."))
        await self._ask(interaction, "rm", held.id, player.id, name=held.name_of(player.id))

    @competition.command(
        name="reinstate",
        description=locale_str("Take back a player's removal (the referee)"),
    )
    @app_commands.describe(player=locale_str("The player to seat again"))
    @deferring
    async def competition_reinstate(
        self, interaction: discord.Interaction, player: discord.User
    ) -> None:
        held = self.bot.competitions.channel_competition(interaction.channel_id or 0)
        await self.bot.competitions.reinstate(
            held.id, interaction.user.id, player.id, can_manage=await self._may_referee(interaction)
        )
        await confirm(
            interaction,
            N_("{name} is back in the competition from the next round."),
            name=held.name_of(player.id),
        )

    @competition.command(
        name="end-round", description=locale_str("End the round in play early (the referee)")
    )
    @deferring
    async def competition_end_round(self, interaction: discord.Interaction) -> None:
        held = await self._refereed(interaction)
        current = held.competition.current
        if held.competition.status != "playing" or current is None:
            raise GameError(N_("The competition has no round in play."))
        await self._ask(interaction, "round", held.id, current.number, round=current.number)

    @competition.command(
        name="referees",
        description=locale_str("Name the role whose members may referee (Manage Server)"),
    )
    @app_commands.describe(role=locale_str("The referees' role (leave out: managers only)"))
    @deferring
    async def competition_referees(
        self, interaction: discord.Interaction, role: discord.Role | None = None
    ) -> None:
        guild_id = server_of(interaction)
        if role is not None and role.guild.id != guild_id:
            raise GameError(N_("That role is not one of this server's."))
        await self.bot.games.settings.set_referee_role(
            guild_id,
            None if role is None else role.id,
            can_manage=bool(interaction.permissions.manage_guild),
        )
        if role is None:
            await confirm(interaction, N_("Only server managers referee competitions now."))
        else:
            await confirm(
                interaction,
                N_("Members of {role} may referee competitions, as server managers may."),
                role=role.name,
            )

    @competition.command(name="end", description=locale_str("End the competition (the referee)"))
    @deferring
    async def competition_end(self, interaction: discord.Interaction) -> None:
        held = await self._refereed(interaction)
        await self._ask(interaction, "end", held.id, 0)

    async def on_competition_confirm(
        self, interaction: discord.Interaction, action: str, competition_id: int, arg: int
    ) -> None:
        tr = Translator.for_locale(interaction.locale)
        if action == "no":
            await interaction.response.edit_message(content=tr("Nothing was changed."), view=None)
            return
        await interaction.response.defer()
        await self._clicked_here(interaction, competition_id)
        may = await self._may_referee(interaction)
        user = interaction.user.id
        if action == "end":
            await self.bot.competitions.end(competition_id, user, can_manage=may)
            text = tr("The competition is over.")
        elif action == "round":
            await self.bot.competitions.end_round(competition_id, user, arg, can_manage=may)
            text = tr("Round {round} is over.", round=arg)
        else:
            held = await self.bot.competitions.remove(competition_id, user, arg, can_manage=may)
            text = tr("{name} is out of the competition.", name=held.name_of(arg))
        await interaction.edit_original_response(content=text, view=None)
        answered(interaction)

    async def on_competition_button(
        self, interaction: discord.Interaction, action: str, competition_id: int
    ) -> None:
        await interaction.response.defer(ephemeral=True)
        await self._clicked_here(interaction, competition_id)
        if action == "in":
            await self.bot.competitions.check_in(
                competition_id, interaction.user.id, display_name(interaction.user)
            )
            await confirm(interaction, N_("You are checked in. Good luck!"))
        else:
            await self.bot.competitions.check_out(competition_id, interaction.user.id)
            await confirm(interaction, N_("You are checked out."))

    # -- the finished competitions: history and export (cogs/domino/competition_archive.py)

    @property
    def competition_archive(self) -> CompetitionArchive:
        return CompetitionArchive(self.bot.competitions.db)

    @competition.command(
        name="history", description=locale_str("This server's finished competitions")
    )
    @deferring
    async def competition_history(self, interaction: discord.Interaction) -> None:
        guild_id = server_of(interaction, BOARDS_IN_A_SERVER)
        page = await self.competition_archive.history(guild_id)
        tr = Translator.for_locale(interaction.locale)
        await answer(
            interaction,
            history_text(page, tr),
            view=history_view(page, tr),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def on_competition_history_page(
        self, interaction: discord.Interaction, guild_id: int, page: int
    ) -> None:
        await interaction.response.defer()
        server_of(interaction, BOARDS_IN_A_SERVER, expected=guild_id)
        found = await self.competition_archive.history(guild_id, page)
        tr = Translator.for_locale(interaction.locale)
        await interaction.edit_original_response(
            content=history_text(found, tr), view=history_view(found, tr)
        )

    @competition.command(
        name="export",
        description=locale_str("A finished competition as a file, with every table's record"),
    )
    @app_commands.describe(
        competition=locale_str("The competition's number (default: the latest finished)")
    )
    @refusing
    async def competition_export(
        self,
        interaction: discord.Interaction,
        competition: app_commands.Range[int, 1, 2**53] | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        guild_id = server_of(interaction, BOARDS_IN_A_SERVER)
        archive = self.competition_archive
        cid = competition if competition is not None else await archive.latest(guild_id)
        data = await archive.export(guild_id, cid)
        tr = Translator.for_locale(interaction.locale)
        text = tr(
            "Competition #{id}: its rounds, tables, standings and every table's record.", id=cid
        )
        await answer(interaction, text, file=export_file(data))
