"""The ``/domino`` commands: thin glue from interactions to the game service."""

from __future__ import annotations

import contextlib
import io
import json
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.games.errors import GameError, UnavailableError, train_word
from bot.games.moves_text import MAX_MOVE_TEXT, describe, move_key, train_key
from bot.games.refusals import CHOOSE_A_GAME
from bot.games.service import Clicked, GameRef, InChannel
from bot.games.session import PLAYING, Session
from bot.games.snapshot import snapshot
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, N_, Translator

from .about import about as about_facts
from .about import about_text
from .announcer import TablePublisher
from .carriers import OPENING, answered
from .competition import COMPETITION_ITEMS, CompetitionCommands
from .hand_message import hand_message, offered_moves
from .help import help_embed
from .items import DYNAMIC_ITEMS, EndButton, LeaveChoice, sent_view
from .live_hands import discard, leaving, live_hand
from .markup import plain
from .origin import display_name, public_translator, server_of
from .permissions import missing, needed
from .puzzle import PUZZLE_ITEMS, PuzzleCommands
from .replies import MESSAGE_LIMIT as MESSAGE_LIMIT  # the limit texts are held to
from .replies import (
    answer,
    confirm,
    deferring,
    final_answer,
    placeholder,
    refusing,
    reply_error,
)
from .review import ReviewCommands
from .rules_texts import PICK_A_GAME, RULES_ITEMS, rules_embed, rules_picker, sample_board
from .seasons import SEASON_ITEMS, SeasonCommands
from .stats import STATS_ITEMS, StatsCommands
from .texts import AI_LEVEL_CHOICES, GAME_CHOICES, RULES_TEXT, game_name
from .threads import open_thread

if TYPE_CHECKING:
    from bot.client import DominoBot

log = logging.getLogger(__name__)

ITEMS = (
    *DYNAMIC_ITEMS,
    *RULES_ITEMS,
    *STATS_ITEMS,
    *SEASON_ITEMS,
    *PUZZLE_ITEMS,
    *COMPETITION_ITEMS,
)
"""Every button and select of /domino, found by ``custom_id`` (also after a restart)."""

Choice = app_commands.Choice

AUTO_LANGUAGE = "auto"
# Each language by its own name (never translated); "auto" follows the server's locale.
LANGUAGE_CHOICES: list[Choice[str]] = [
    Choice(name=locale_str("Automatic (the server's Discord language)"), value=AUTO_LANGUAGE),
    *(Choice(name=LANGUAGE_NAMES[code], value=code) for code in LANGUAGES),
]
SET_CHOICES: list[Choice[int]] = [
    Choice(name=locale_str("double-6"), value=6),
    Choice(name=locale_str("double-9"), value=9),
    Choice(name=locale_str("double-12"), value=12),
]
LAYOUT_CHOICES: list[Choice[str]] = [
    Choice(name=locale_str("Line: two ends"), value="line"),
    Choice(name=locale_str("Spinner: the first double opens four ends"), value="spinner"),
]
SCORING_CHOICES: list[Choice[str]] = [
    Choice(name=locale_str("Points: the winner scores the others' pips"), value="points"),
    Choice(name=locale_str("One deal decides"), value="single"),
    Choice(name=locale_str("Minus points: your own pips count against you"), value="penalty"),
]


def _tr(interaction: discord.Interaction) -> Translator:
    return Translator.for_locale(interaction.locale)


def _here(interaction: discord.Interaction) -> InChannel:
    """The game a slash command acts on: the one in play in its channel."""
    return InChannel(interaction.channel_id or 0)


def _clicked(interaction: discord.Interaction, game_id: int) -> Clicked:
    """The game a button or select names, clicked where the interaction was (checked by
    the service against the game's server and channel)."""
    return Clicked(game_id, interaction.guild_id, interaction.channel_id)


async def _delete_thread(thread: discord.Thread) -> None:
    """Remove a game's thread (and the line that started it) after a failed opening."""
    with contextlib.suppress(discord.HTTPException):
        await thread.delete()
    if thread.parent is not None:
        with contextlib.suppress(discord.HTTPException):
            await thread.parent.get_partial_message(thread.id).delete()  # type: ignore[union-attr]


class Domino(
    PuzzleCommands,
    StatsCommands,
    CompetitionCommands,
    SeasonCommands,
    ReviewCommands,
    commands.GroupCog,
    group_name="domino",
    group_description=locale_str("Play dominoes"),
):
    """The /domino commands. Match history, leaderboards and stats come from
    :class:`~cogs.domino.stats.StatsCommands`, game reviews from
    :class:`~cogs.domino.review.ReviewCommands` (discord.py collects app commands along
    the MRO)."""

    def __init__(self, bot: DominoBot) -> None:
        self.bot = bot
        self.publisher = TablePublisher(bot)
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*ITEMS)
        self.bot.games.publisher = self.publisher
        await super().cog_load()

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*ITEMS)
        self.bot.games.publisher = None
        await self.publisher.close()
        await super().cog_unload()

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
        deals=locale_str("Deals in a latvian session; rounds of Mexican Train (default: all)"),
        timer=locale_str("Seconds per turn (0 = no timer)"),
    )
    @app_commands.choices(game=GAME_CHOICES, layout=LAYOUT_CHOICES, scoring=SCORING_CHOICES)
    @app_commands.choices(set=SET_CHOICES)  # one decorator per type of value
    @refusing
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
        await interaction.response.defer(ephemeral=True, thinking=True)
        if interaction.guild_id is None or interaction.channel is None:
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
        settings = await self.bot.games.settings.get(interaction.guild_id)
        channel = interaction.channel
        in_thread = isinstance(channel, discord.Thread)
        new_thread = settings.threads and not in_thread
        tr = _tr(interaction)
        needs = needed(in_thread=in_thread, new_thread=new_thread)
        lacking = missing(interaction.app_permissions, tr, needs)
        if lacking:
            raise GameError(
                N_(
                    "I can't run a game here: I need these permissions in this channel: "
                    "{missing}. Ask a server admin to allow them."
                ),
                missing=", ".join(lacking),
            )
        self.bot.games.table_rules(options, timer)  # refuse bad options before any thread
        name = display_name(interaction.user)
        thread: discord.Thread | None = None
        if new_thread:
            thread = await self._game_thread(interaction, channel, name, game)
        else:
            # Answered first, so that this interaction carries the lobby as a public
            # followup, a call Discord does not count against the bot's budget.
            await placeholder(interaction, tr("Opening your table…"))
        opening = OPENING.set(interaction)
        try:
            session = await self.bot.games.open_lobby(
                guild_id=interaction.guild_id,
                channel_id=thread.id if thread else channel.id,
                user_id=interaction.user.id,
                name=name,
                options=options,
                timer=timer,
            )
        except Exception:
            if thread is not None:
                await _delete_thread(thread)
            raise
        finally:
            OPENING.reset(opening)
        if thread is not None:
            await confirm(
                interaction,
                N_("Your {game} table is open in its own thread: {thread}."),
                game=game_name(session.rules.game, tr),
                thread=thread.mention,
            )
            return
        text = tr(
            "Your {game} table is open. Friends join with the button on the table.",
            game=game_name(session.rules.game, tr),
        )
        await final_answer(interaction, text)

    async def _game_thread(
        self,
        interaction: discord.Interaction,
        channel: Any,
        name: str,
        game: str,
    ) -> discord.Thread:
        """A thread for a new game (``/domino settings threads``), started by a line in the
        channel that links to it."""
        if not isinstance(channel, discord.TextChannel):
            raise GameError(
                N_(
                    "This server plays each game in its own thread, and this channel can't "
                    "have threads. Open the table in a text channel."
                )
            )
        tr = await public_translator(self.bot, interaction.guild_id)
        title = tr("{game} with {name}", game=game_name(game, tr), name=name)
        return await open_thread(
            channel,
            tr(
                "{name} opened a {game} table: the game is played in this thread.",
                name=plain(name),
                game=game_name(game, tr),
            ),
            title,
            discord.AllowedMentions.none(),
            N_("Discord did not let me open a thread for the game here, so none was opened."),
        )

    @app_commands.command(
        name="join", description=locale_str("Take a seat at this channel's table")
    )
    @deferring
    async def join(self, interaction: discord.Interaction) -> None:
        await self.bot.games.join(
            _here(interaction), interaction.user.id, display_name(interaction.user)
        )
        await confirm(interaction, N_("You have a seat. Have fun!"))

    @app_commands.command(
        name="leave",
        description=locale_str(
            "Give up your seat: an AI plays it on (the last human leaving ends the game)"
        ),
    )
    @deferring
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._leave(interaction, _here(interaction))

    async def _leave(self, interaction: discord.Interaction, game: GameRef) -> None:
        """``/domino leave`` (or a lobby's Leave clicked): the seat goes, or the last human
        at a match is asked first, since leaving ends it."""
        user_id = interaction.user.id
        game_id = await self.bot.games.game_id(game)  # (a click: checked where it was)
        session = await leaving(
            self.publisher.hands,
            game_id,
            user_id,
            lambda: self.bot.games.leave(game_id, user_id, confirmed=False),
        )
        if session.seat_of(user_id) is not None:
            tr = _tr(interaction)
            view = sent_view(
                LeaveChoice(session.id, user_id, True, tr("Leave and end the game")),
                LeaveChoice(session.id, user_id, False, tr("Keep playing")),
            )
            await answer(
                interaction,
                tr("You are the only human at the table: leaving ends the game. Leave and end it?"),
                view=view,
            )
            return
        await confirm(interaction, _left(session))

    @app_commands.command(name="addbot", description=locale_str("Fill a seat with an AI player"))
    @app_commands.describe(level=locale_str("How strong the AI plays"))
    @app_commands.choices(level=AI_LEVEL_CHOICES)
    @deferring
    async def addbot(self, interaction: discord.Interaction, level: str | None = None) -> None:
        await self.bot.games.add_bot(_here(interaction), interaction.user.id, level)
        await confirm(interaction, N_("An AI player sits down."))

    @app_commands.command(
        name="start", description=locale_str("Start the game when the seats are filled")
    )
    @deferring
    async def start(self, interaction: discord.Interaction) -> None:
        await self.bot.games.start(_here(interaction), interaction.user.id)
        await confirm(interaction, N_("The game is on!"))

    # -- playing -------------------------------------------------------------------

    @app_commands.command(
        name="hand", description=locale_str("See your tiles (only you can see them)")
    )
    @refusing
    async def hand(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._show_hand(interaction, _here(interaction), in_place=False)

    @app_commands.command(name="play", description=locale_str("Play a tile, e.g. 6-4 east"))
    @app_commands.describe(
        tile=locale_str("The tile, e.g. 6-4, or several latvian doubles: 3-3 5-5"),
        end=locale_str("Which end: west, east, north or south (one per tile)"),
        closed=locale_str("Latvian: lay it face down to close the end"),
        train=locale_str("Mexican Train: which train (yours, the Mexican train, a marked one)"),
    )
    @deferring
    async def play(
        self,
        interaction: discord.Interaction,
        tile: str,
        end: str | None = None,
        closed: bool | None = None,
        train: str | None = None,
    ) -> None:
        await self.bot.games.play(
            _here(interaction),
            interaction.user.id,
            text=tile,
            end=end,
            closed=closed,
            train=train,
        )
        await confirm(interaction, N_("Played."))

    @play.autocomplete("tile")
    async def play_tile(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        moves, names, seat, ends = await self._moves_here(interaction)
        tr = _tr(interaction)
        wanted = current[:MAX_MOVE_TEXT].strip().lower()
        choices = []
        for move in moves:
            key = move_key(move, seat, ends)
            if wanted in key or wanted in move_key(move, seat):
                name = describe(move, tr, names, seat, ends)[:100]
                choices.append(Choice(name=name, value=key))
        return choices[:25]

    @play.autocomplete("train")
    async def play_train(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        """The trains open to the player now (for the tile typed, if one is)."""
        moves, names, seat, _ = await self._moves_here(interaction)
        typed = str(getattr(interaction.namespace, "tile", "") or "")[:MAX_MOVE_TEXT]
        first = typed.strip().lower().split(" ")[0] if typed.strip() else ""
        tr = _tr(interaction)
        wanted = current[:MAX_MOVE_TEXT].strip().lower()
        trains: list[int] = []
        for move in moves:
            p = move.placements[0]
            if p.train is None or p.train in trains:
                continue
            a, _, b = str(p.tile).partition("-")  # a tile may be typed 5-12 or 12-5
            if first and not any(k.startswith(first) for k in (f"{a}-{b}", f"{b}-{a}")):
                continue
            trains.append(p.train)
        choices = []
        for t in trains:
            label = train_word(t, names, seat).label(tr)
            if wanted in label.lower() or wanted in train_key(t, seat):
                choices.append(Choice(name=label[:100], value=train_key(t, seat)))
        return choices[:25]

    async def _moves_here(
        self, interaction: discord.Interaction
    ) -> tuple[list[Any], list[str], int | None, list[int]]:
        """The user's moves in the channel's game, and the seats' names, the user's seat and
        the trains' ends (for train words); no names when the user has no move."""
        channel_id = interaction.channel_id or 0
        moves = await self.bot.games.moves_for(channel_id, interaction.user.id)
        session = await self.bot.games.in_channel(channel_id) if moves else None
        game = snapshot(session) if session is not None else None
        if game is None or game.match is None:
            return moves, [], None, []
        return moves, game.names, game.seat_of(interaction.user.id), list(game.train_ends)

    @app_commands.command(name="board", description=locale_str("Post the table again"))
    @deferring
    async def board(self, interaction: discord.Interaction) -> None:
        session = await self.bot.games.table_to_post(
            interaction.channel_id or 0, interaction.user.id
        )
        tr = _tr(interaction)
        # Answered first, so that this very interaction carries the table (uncounted).
        await placeholder(interaction, tr("Posting the table…"))
        if not await self.publisher.repost(session):
            raise GameError(N_("Discord did not take the table just now. Please try again."))
        await final_answer(interaction, tr("Here is the table."))

    @app_commands.command(
        name="end", description=locale_str("End this channel's game (creator or Manage Server)")
    )
    @deferring
    async def end(self, interaction: discord.Interaction) -> None:
        can_manage = bool(interaction.permissions.manage_guild)
        session = await self.bot.games.end_game(
            _here(interaction), interaction.user.id, can_manage=can_manage, confirmed=False
        )
        if session.status == PLAYING:
            # a match in progress ends only when the asker confirms (the button)
            tr = _tr(interaction)
            end = EndButton(session.id, interaction.user.id, tr("End the game"))
            view = sent_view(end)
            await interaction.followup.send(
                tr("End this game now? The match in progress stops here and is not counted."),
                view=view,
                ephemeral=True,
            )
            return
        await confirm(interaction, N_("The game is over."))

    @app_commands.command(
        name="export", description=locale_str("Download this channel's match record (JSON)")
    )
    @refusing
    async def export(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id, record = await self.bot.games.export_record(interaction.channel_id or 0)
        data = json.dumps(record, indent=1).encode()
        file = discord.File(io.BytesIO(data), filename=f"domino-{game_id}.json")
        await interaction.followup.send(
            _tr(interaction)("The match record of game #{id}.", id=game_id),
            file=file,
            ephemeral=True,
        )

    @app_commands.command(
        name="help", description=locale_str("How to play: starting, moves, rules, stats")
    )
    @refusing
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=help_embed(_tr(interaction)), ephemeral=True)

    @app_commands.command(name="rules", description=locale_str("The rules of a game, briefly"))
    @app_commands.describe(
        game=locale_str("Which game (left out: this channel's game, or a list to choose from)")
    )
    @app_commands.choices(game=GAME_CHOICES)
    @refusing
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """One game's rules: the one asked for, else the channel's game (with its table's
        options), else a select of the games (:func:`.rules_texts.rules_picker`)."""
        await interaction.response.defer(ephemeral=True, thinking=True)  # it draws images
        tr = _tr(interaction)
        if game is not None and game not in RULES_TEXT:
            raise GameError(CHOOSE_A_GAME)
        session = await self.bot.games.in_channel(interaction.channel_id or 0)
        table = session.rules if session is not None else None
        if game is None:
            if table is None:
                view = rules_picker(tr)
                await answer(interaction, tr(PICK_A_GAME), view=view)
                return
            game = table.game
        here = table if table is not None and table.game == game else None
        embed = rules_embed(game, tr, here)
        file = await sample_board(game, tr)
        await answer(interaction, embed=embed, file=file)

    async def on_rules_choice(self, interaction: discord.Interaction, game: str) -> None:
        """A game chosen in the select of ``/domino rules``: its rules replace the
        question (the select stays, to choose another)."""
        await interaction.response.defer()
        if game not in RULES_TEXT:  # the value comes from the client
            raise GameError(CHOOSE_A_GAME)
        tr = _tr(interaction)
        file = await sample_board(game, tr)
        await interaction.edit_original_response(
            content=None,
            embed=rules_embed(game, tr),
            attachments=[file],
            view=rules_picker(tr, chosen=game),
        )

    @app_commands.command(
        name="about",
        description=locale_str("Which version, shard and process of the bot answered"),
    )
    @deferring
    async def about(self, interaction: discord.Interaction) -> None:
        facts = about_facts(self.bot, interaction.guild_id)
        manager = bool(interaction.permissions.manage_guild)  # host and pid: operators only
        text = about_text(facts, _tr(interaction), manager=manager)
        await interaction.followup.send(text, ephemeral=True)

    # -- server settings ----------------------------------------------------------------

    settings = app_commands.Group(
        name="settings", description=locale_str("Server settings for dominoes (Manage Server)")
    )

    @settings.command(name="timer", description=locale_str("The default turn timer for new tables"))
    @app_commands.describe(seconds=locale_str("Seconds per turn; 0 turns the timer off"))
    @deferring
    async def settings_timer(
        self, interaction: discord.Interaction, seconds: app_commands.Range[int, 0, 3600]
    ) -> None:
        await self.bot.games.settings.set_timer(
            server_of(interaction), seconds, can_manage=interaction.permissions.manage_guild
        )
        if seconds:
            await confirm(interaction, N_("New tables get a {n}-second turn timer."), n=seconds)
        else:
            await confirm(interaction, N_("New tables have no turn timer."))

    @settings.command(
        name="language", description=locale_str("The language of this server's public messages")
    )
    @app_commands.describe(language=locale_str("The language of tables, turns and summaries"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @deferring
    async def settings_language(self, interaction: discord.Interaction, language: str) -> None:
        chosen = None if language == AUTO_LANGUAGE else language
        await self.bot.games.settings.set_language(
            server_of(interaction), chosen, can_manage=interaction.permissions.manage_guild
        )
        if chosen is None:
            await confirm(interaction, N_("Public messages follow the server's Discord language."))
        else:
            await confirm(
                interaction,
                N_("Public messages here are now in {language}."),
                language=LANGUAGE_NAMES[chosen],
            )

    @settings.command(
        name="threads", description=locale_str("Play each new game in its own thread")
    )
    @app_commands.describe(enabled=locale_str("On: each table gets a thread; off: in the channel"))
    @deferring
    async def settings_threads(self, interaction: discord.Interaction, enabled: bool) -> None:
        await self.bot.games.settings.set_threads(
            server_of(interaction), enabled, can_manage=interaction.permissions.manage_guild
        )
        own = N_("New tables open in a thread of their own.")
        await confirm(interaction, own if enabled else N_("New tables open in the channel itself."))

    # -- components -------------------------------------------------------------------

    async def on_table_button(
        self, interaction: discord.Interaction, action: str, game_id: int
    ) -> None:
        game = _clicked(interaction, game_id)
        if action == "hand":
            message = interaction.message
            # "Refresh" on a hand message: that message shows the hand anew
            in_place = message is not None and message.flags.ephemeral
            if in_place:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
            await self._show_hand(interaction, game, in_place=in_place)
            return
        await interaction.response.defer(ephemeral=True)
        user = interaction.user
        games = self.bot.games
        if action == "join":
            await games.join(game, user.id, display_name(user))
        elif action == "leave":
            await self._leave(interaction, game)
        elif action == "addbot":
            await games.add_bot(game, user.id, None)
        elif action == "start":
            await games.start(game, user.id)

    async def on_move(
        self, interaction: discord.Interaction, game_id: int, token: str, index: int
    ) -> None:
        await interaction.response.defer()
        game = _clicked(interaction, game_id)
        try:
            session = await self.bot.games.play_choice(game, interaction.user.id, token, index)
        except GameError as refusal:
            if not isinstance(refusal, UnavailableError):
                # the game moved on or is over: the clicked hand shows it as it is now, so
                # no stale move buttons stay on it (best effort: the refusal is the answer)
                with contextlib.suppress(GameError, discord.HTTPException):
                    await self._show_hand(interaction, game, in_place=True)
            raise
        # The move is saved: from here on, a failure must not read as "try again".
        try:
            await self._show_hand(interaction, session.id, in_place=True)
        except Exception:
            log.warning(
                "game %d: the move was played; showing the hand failed", game_id, exc_info=True
            )
            await confirm(
                interaction, N_("Your move was played. Use Show my hand to see your tiles.")
            )

    async def _show_hand(
        self, interaction: discord.Interaction, game: GameRef, *, in_place: bool
    ) -> None:
        """Show the user's hand and make it their live hand (:mod:`cogs.domino.live_hands`).

        ``in_place``: the interaction is a click on a hand message (a move, "Refresh"),
        which shows the hand anew; else a new hand message is the interaction's reply.
        The hand it replaces is deleted afterwards, so the player has one on screen.
        """
        game_id = await self.bot.games.game_id(game)
        user_id = interaction.user.id
        clicked = interaction.message
        if in_place and (clicked is None or not clicked.flags.ephemeral):
            # Never a hand in a public message: a new ephemeral one, not kept live (its
            # interaction's original response is that public message).
            session, seen = await self.bot.games.player_hand(game_id, user_id)
            message = await hand_message(session, seen, _tr(interaction))
            await interaction.followup.send(ephemeral=True, **_as_send(message))
            return
        hands = self.publisher.hands
        slot = hands.slot(game_id, user_id)
        try:
            async with slot.lock:  # the announcer refreshes hands under the same lock
                session, seen = await self.bot.games.player_hand(game_id, user_id)
                message = await hand_message(session, seen, _tr(interaction))
                if clicked is not None and in_place:
                    await interaction.edit_original_response(**message)
                    message_id = clicked.id
                else:  # the reply to an ephemeral "thinking…": its original response
                    sent = await interaction.followup.send(
                        ephemeral=True, wait=True, **_as_send(message)
                    )
                    answered(interaction)
                    message_id = sent.id
                offers = bool(offered_moves(session, seen))
                shown = live_hand(interaction, message_id, session, offers)
                replaced = hands.keep(slot, shown, active=session.active)
        finally:
            hands.tidy(game_id, user_id)
        if replaced is not None:
            await discard(replaced)

    async def on_rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """The "Rematch" button of a finished match's table, clicked."""
        await interaction.response.defer(ephemeral=True)
        opening = OPENING.set(interaction)  # the last click carries the new table
        try:
            offer = await self.bot.games.rematch(
                _clicked(interaction, game_id), interaction.user.id
            )
        finally:
            OPENING.reset(opening)
        if offer.session is not None:
            await confirm(interaction, N_("Everyone is in: the rematch is on!"))
            return
        await confirm(
            interaction,
            N_("You're in for the rematch. Waiting for {names}."),
            names=", ".join(plain(name) for name in offer.waiting),
        )

    async def on_end_button(
        self, interaction: discord.Interaction, game_id: int, asker: int
    ) -> None:
        """The "End the game" button under the question of ``/domino end``, clicked."""
        await interaction.response.defer()
        if interaction.user.id != asker:
            raise GameError(N_("Only the player who asked to end the game can confirm it."))
        can_manage = bool(interaction.permissions.manage_guild)
        await self.bot.games.end_game(
            _clicked(interaction, game_id), interaction.user.id, can_manage=can_manage
        )
        await final_answer(interaction, _tr(interaction)("The game is over."), view=None)

    async def on_leave_choice(
        self, interaction: discord.Interaction, game_id: int, asker: int, *, quit: bool
    ) -> None:
        """An answer to "leaving ends the game" (:meth:`_leave`), clicked."""
        await interaction.response.defer()
        if interaction.user.id != asker:
            raise GameError(N_("Only the player who asked to leave can answer this."))
        tr = _tr(interaction)
        if not quit:
            text = tr("You keep your seat. Play on!")
        else:
            session = await leaving(
                self.publisher.hands,
                game_id,
                asker,
                lambda: self.bot.games.leave(_clicked(interaction, game_id), asker),
            )
            text = tr(_left(session))
        await final_answer(interaction, text, view=None)

    # -- errors -----------------------------------------------------------------------

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """The one error handler of every /domino command (the stats ones too): a failure
        is logged and answered with a polite "something went wrong" that shows nothing
        of the game (:func:`~cogs.domino.replies.reply_error`). Refusals never get here:
        :func:`~cogs.domino.replies.refusing` answers them as the command's own reply."""
        await reply_error(interaction, error)


def _left(session: Session) -> str:
    """What a player who just left is told (a message id)."""
    if not session.active:
        return N_("You left the table, and the game is over.")
    if session.status == PLAYING:
        return N_("You left the table: an AI player takes your seat.")
    return N_("You left the table.")


def _as_send(message: dict[str, Any]) -> dict[str, Any]:
    out = dict(message)
    files = out.pop("attachments", [])
    if files:
        out["files"] = files
    return out
