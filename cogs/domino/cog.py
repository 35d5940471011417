"""The ``/domino`` commands: thin glue from interactions to the game service."""

from __future__ import annotations

import functools
import io
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.engine.rules import GAMES
from bot.games.errors import GameError
from bot.games.moves_text import describe, move_key
from bot.games.service import TIMER_RANGE, turn_token
from bot.games.session import Session
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, N_, Translator

from .hand import hand_message
from .items import DYNAMIC_ITEMS
from .replies import reply_error
from .stats import StatsCommands
from .table import TablePublisher
from .texts import RULES_TEXT, game_name

if TYPE_CHECKING:
    from bot.client import DominoBot

log = logging.getLogger(__name__)

Choice = app_commands.Choice

GAME_CHOICES = [
    Choice(name=locale_str("Block game"), value="block"),
    Choice(name=locale_str("Draw game"), value="draw"),
    Choice(name=locale_str("All Fives"), value="allfives"),
    Choice(name=locale_str("Latvian dominoes"), value="latvian"),
]
AUTO_LANGUAGE = "auto"
# Each language by its own name (never translated); "auto" follows the server's locale.
LANGUAGE_CHOICES = [
    Choice(name=locale_str("Automatic (the server's Discord language)"), value=AUTO_LANGUAGE),
    *(Choice(name=LANGUAGE_NAMES[code], value=code) for code in LANGUAGES),
]
MESSAGE_LIMIT = 2000


def refusals(func: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Turn a :class:`GameError` into a polite ephemeral reply (it is no bot failure).

    Defined here so the wrapper shares this module's globals, which discord.py uses
    to resolve the command's annotations.
    """

    @functools.wraps(func)
    async def wrapper(
        self: Domino, interaction: discord.Interaction, *args: Any, **kw: Any
    ) -> None:
        try:
            await func(self, interaction, *args, **kw)
        except GameError as error:
            await reply_error(interaction, error)

    return wrapper


def _tr(interaction: discord.Interaction) -> Translator:
    return Translator.for_locale(interaction.locale)


def _name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


class Domino(
    StatsCommands,
    commands.GroupCog,
    group_name="domino",
    group_description=locale_str("Play dominoes"),
):
    """The /domino commands. Match history, leaderboards and stats come from
    :class:`~cogs.domino.stats.StatsCommands` (discord.py collects app commands along
    the MRO)."""

    def __init__(self, bot: DominoBot) -> None:
        self.bot = bot
        self.publisher = TablePublisher(bot)
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        self.bot.games.publisher = self.publisher
        await super().cog_load()

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        self.bot.games.publisher = None
        await super().cog_unload()

    # -- helpers -----------------------------------------------------------------

    async def _game_here(self, interaction: discord.Interaction) -> Session:
        session = await self.bot.games.in_channel(interaction.channel_id or 0)
        if session is None:
            raise GameError(N_("There is no game in this channel. Open one with /domino new."))
        return session

    async def _confirm(self, interaction: discord.Interaction, message: str, **fields: Any) -> None:
        text = _tr(interaction)(message, **fields)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    # -- opening and seating ----------------------------------------------------------

    @app_commands.command(name="new", description=locale_str("Open a table in this channel"))
    @app_commands.describe(
        game=locale_str("Which game"),
        players=locale_str("How many players (2–8, depending on the game and set)"),
        set=locale_str("The set: double-6, double-9 or double-12"),
        teams=locale_str("Partnerships: seats 1+3 against 2+4 (4 players)"),
        layout=locale_str("Line, or a spinner (block and draw)"),
        scoring=locale_str("How deals are scored"),
        target=locale_str("Points to win (or the minus-point limit)"),
        deals=locale_str("Deals in a latvian session"),
        timer=locale_str("Seconds per turn (0 = no timer)"),
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        set=[
            Choice(name=locale_str("double-6"), value=6),
            Choice(name=locale_str("double-9"), value=9),
            Choice(name=locale_str("double-12"), value=12),
        ],
        layout=[
            Choice(name=locale_str("Line: two ends"), value="line"),
            Choice(name=locale_str("Spinner: the first double opens four ends"), value="spinner"),
        ],
        scoring=[
            Choice(name=locale_str("Points: the winner scores the others' pips"), value="points"),
            Choice(name=locale_str("One deal decides"), value="single"),
            Choice(
                name=locale_str("Minus points: your own pips count against you"), value="penalty"
            ),
        ],
    )
    @refusals
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        players: app_commands.Range[int, 2, 8] | None = None,
        set: int | None = None,
        teams: bool | None = None,
        layout: str | None = None,
        scoring: str | None = None,
        target: app_commands.Range[int, 1, 1000] | None = None,
        deals: app_commands.Range[int, 1, 100] | None = None,
        timer: app_commands.Range[int, 0, 3600] | None = None,
    ) -> None:
        if interaction.guild_id is None:
            raise GameError(N_("Dominoes are played in a server channel."))
        options = {
            "game": game,
            "players": players,
            "set": set,
            "teams": teams,
            "layout": layout,
            "scoring": scoring,
            "target": target,
            "deals": deals,
        }
        await interaction.response.defer(ephemeral=True, thinking=True)
        session = await self.bot.games.open_lobby(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            name=_name(interaction.user),
            options=options,
            timer=timer,
        )
        await self._confirm(
            interaction,
            N_("Your {game} table is open. Friends join with the button on the table."),
            game=game_name(session.rules.game, _tr(interaction)),
        )

    @app_commands.command(
        name="join", description=locale_str("Take a seat at this channel's table")
    )
    @refusals
    async def join(self, interaction: discord.Interaction) -> None:
        session = await self._game_here(interaction)
        await interaction.response.defer(ephemeral=True)
        await self.bot.games.join(session.id, interaction.user.id, _name(interaction.user))
        await self._confirm(interaction, N_("You have a seat. Have fun!"))

    @app_commands.command(
        name="leave", description=locale_str("Give up your seat (an AI takes over a game in play)")
    )
    @refusals
    async def leave(self, interaction: discord.Interaction) -> None:
        session = await self._game_here(interaction)
        await interaction.response.defer(ephemeral=True)
        await self.bot.games.leave(session.id, interaction.user.id)
        await self._confirm(interaction, N_("You left the table."))

    @app_commands.command(name="addbot", description=locale_str("Fill a seat with an AI player"))
    @app_commands.describe(level=locale_str("How strong the AI plays"))
    @app_commands.choices(
        level=[
            Choice(name=locale_str("easy"), value="easy"),
            Choice(name=locale_str("normal"), value="normal"),
            Choice(name=locale_str("hard"), value="hard"),
        ]
    )
    @refusals
    async def addbot(self, interaction: discord.Interaction, level: str | None = None) -> None:
        session = await self._game_here(interaction)
        await interaction.response.defer(ephemeral=True)
        await self.bot.games.add_bot(session.id, interaction.user.id, level)
        await self._confirm(interaction, N_("An AI player sits down."))

    @app_commands.command(
        name="start", description=locale_str("Start the game when the seats are filled")
    )
    @refusals
    async def start(self, interaction: discord.Interaction) -> None:
        session = await self._game_here(interaction)
        await interaction.response.defer(ephemeral=True)
        await self.bot.games.start(session.id, interaction.user.id)
        await self._confirm(interaction, N_("The game is on!"))

    # -- playing -------------------------------------------------------------------

    @app_commands.command(
        name="hand", description=locale_str("See your tiles (only you can see them)")
    )
    @refusals
    async def hand(self, interaction: discord.Interaction) -> None:
        session = await self._game_here(interaction)
        await self._send_hand(interaction, session.id)

    @app_commands.command(name="play", description=locale_str("Play a tile, e.g. 6-4 east"))
    @app_commands.describe(
        tile=locale_str("The tile, e.g. 6-4, or several latvian doubles: 3-3 5-5"),
        end=locale_str("Which end: west, east, north or south (one per tile)"),
        closed=locale_str("Latvian: lay it face down to close the end"),
    )
    @refusals
    async def play(
        self,
        interaction: discord.Interaction,
        tile: str,
        end: str | None = None,
        closed: bool | None = None,
    ) -> None:
        session = await self._game_here(interaction)
        await interaction.response.defer(ephemeral=True)
        await self.bot.games.play(
            session.id, interaction.user.id, text=tile, end=end, closed=closed
        )
        await self._confirm(interaction, N_("Played."))

    @play.autocomplete("tile")
    async def play_tile(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        session = await self.bot.games.in_channel(interaction.channel_id or 0)
        if session is None or session.state is None:
            return []
        seat = session.seat_of(interaction.user.id)
        if seat is None or session.turn != seat:
            return []
        tr = _tr(interaction)
        wanted = current.strip().lower()
        choices = []
        for move in session.state.legal_moves():
            key = move_key(move)
            if wanted in key:
                choices.append(Choice(name=describe(move, tr)[:100], value=key))
        return choices[:25]

    @app_commands.command(name="board", description=locale_str("Post the table again"))
    @refusals
    async def board(self, interaction: discord.Interaction) -> None:
        session = await self._game_here(interaction)
        await interaction.response.defer(ephemeral=True)
        await self.publisher.repost(session)
        await self._confirm(interaction, N_("Here is the table."))

    @app_commands.command(
        name="end", description=locale_str("End this channel's game (creator or Manage Server)")
    )
    @refusals
    async def end(self, interaction: discord.Interaction) -> None:
        session = await self._game_here(interaction)
        can_manage = bool(interaction.permissions.manage_guild)
        await interaction.response.defer(ephemeral=True)
        await self.bot.games.end_game(session.id, interaction.user.id, can_manage=can_manage)
        await self._confirm(interaction, N_("The game is over."))

    @app_commands.command(
        name="export", description=locale_str("Download this channel's match record (JSON)")
    )
    @refusals
    async def export(self, interaction: discord.Interaction) -> None:
        session = await self.bot.games.latest_in_channel(interaction.channel_id or 0)
        record = public_record(session) if session else None
        if session is None or record is None:
            raise GameError(N_("There is no finished deal to export in this channel yet."))
        data = json.dumps(record, indent=1).encode()
        file = discord.File(io.BytesIO(data), filename=f"domino-{session.id}.json")
        await interaction.response.send_message(
            _tr(interaction)("The match record of game #{id}.", id=session.id),
            file=file,
            ephemeral=True,
        )

    @app_commands.command(name="rules", description=locale_str("The rules of a game, briefly"))
    @app_commands.describe(game=locale_str("Which game (all four if left out)"))
    @app_commands.choices(game=GAME_CHOICES)
    @refusals
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        tr = _tr(interaction)
        games = [game] if game else list(GAMES)
        chunks = _chunks([tr(RULES_TEXT[g]) for g in games])
        await interaction.response.send_message(chunks[0], ephemeral=True)
        for chunk in chunks[1:]:
            await interaction.followup.send(chunk, ephemeral=True)

    # -- server settings ----------------------------------------------------------------

    settings = app_commands.Group(
        name="settings", description=locale_str("Server settings for dominoes (Manage Server)")
    )

    @settings.command(name="timer", description=locale_str("The default turn timer for new tables"))
    @app_commands.describe(seconds=locale_str("Seconds per turn; 0 turns the timer off"))
    @refusals
    async def settings_timer(
        self, interaction: discord.Interaction, seconds: app_commands.Range[int, 0, 3600]
    ) -> None:
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            raise GameError(N_("Only someone with Manage Server can change the settings."))
        if seconds and seconds < TIMER_RANGE[0]:
            raise GameError(
                N_("The timer is 0 (off) or {low} to {high} seconds."),
                low=TIMER_RANGE[0],
                high=TIMER_RANGE[1],
            )
        await self.bot.db.guilds.set_default_timer(interaction.guild_id, seconds or None)
        if seconds:
            await self._confirm(
                interaction, N_("New tables get a {n}-second turn timer."), n=seconds
            )
        else:
            await self._confirm(interaction, N_("New tables have no turn timer."))

    @settings.command(
        name="language", description=locale_str("The language of this server's public messages")
    )
    @app_commands.describe(language=locale_str("The language of tables, turns and summaries"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @refusals
    async def settings_language(self, interaction: discord.Interaction, language: str) -> None:
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            raise GameError(N_("Only someone with Manage Server can change the settings."))
        if language != AUTO_LANGUAGE and language not in LANGUAGES:
            raise GameError(N_("That language is not available."))
        chosen = None if language == AUTO_LANGUAGE else language
        await self.bot.db.guilds.set_language(interaction.guild_id, chosen)
        if chosen is None:
            await self._confirm(
                interaction, N_("Public messages follow the server's Discord language.")
            )
        else:
            await self._confirm(
                interaction,
                N_("Public messages here are now in {language}."),
                language=LANGUAGE_NAMES[chosen],
            )

    # -- components -------------------------------------------------------------------

    async def on_table_button(
        self, interaction: discord.Interaction, action: str, game_id: int
    ) -> None:
        if action == "hand":
            await self._send_hand(interaction, game_id)
            return
        await interaction.response.defer(ephemeral=True)
        user = interaction.user
        games = self.bot.games
        if action == "join":
            await games.join(game_id, user.id, _name(user))
        elif action == "leave":
            await games.leave(game_id, user.id)
        elif action == "addbot":
            await games.add_bot(game_id, user.id, None)
        elif action == "start":
            await games.start(game_id, user.id)

    async def on_move(
        self, interaction: discord.Interaction, game_id: int, token: str, index: int
    ) -> None:
        await interaction.response.defer()
        session = await self.bot.games.get(game_id)
        if session is None or session.state is None or token != turn_token(session):
            raise GameError(N_("This hand is out of date: the game has moved on."))
        legal = session.state.legal_moves()
        if not 0 <= index < len(legal):
            raise GameError(N_("That move is no longer possible."))
        session = await self.bot.games.play(game_id, interaction.user.id, legal[index], token=token)
        await self._show_hand(interaction, session.id, edit=True)

    async def _send_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._show_hand(interaction, game_id, edit=False)

    async def _show_hand(
        self, interaction: discord.Interaction, game_id: int, *, edit: bool
    ) -> None:
        session, seen = await self.bot.games.player_view(game_id, interaction.user.id)
        message = await hand_message(session, seen, _tr(interaction))
        if edit:
            await interaction.edit_original_response(**message)
        else:
            await interaction.followup.send(ephemeral=True, **_as_send(message))
        message["view"].stop()  # its buttons are dynamic items, found by custom_id

    # -- errors -----------------------------------------------------------------------

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await reply_error(interaction, error)


def public_record(session: Session) -> dict[str, Any] | None:
    """The record of the finished deals only: a deal in play would show hidden hands."""
    record = session.record()
    if record is None or session.state is None:
        return None
    if not session.state.deal.over:
        record["deals"] = record["deals"][:-1]
    return record if record["deals"] else None


def _chunks(paragraphs: list[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Paragraphs joined into as few messages as Discord's length limit allows."""
    chunks: list[str] = []
    for paragraph in paragraphs:
        paragraph = paragraph[:limit]
        if chunks and len(chunks[-1]) + 2 + len(paragraph) <= limit:
            chunks[-1] += "\n\n" + paragraph
        else:
            chunks.append(paragraph)
    return chunks or [""]


def _as_send(message: dict[str, Any]) -> dict[str, Any]:
    out = dict(message)
    files = out.pop("attachments", [])
    if files:
        out["files"] = files
    return out
