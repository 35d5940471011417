"""The games are offered the same way everywhere: every ``game:`` option of a /domino
command has the one list of choices, a choice for each game the engine knows, named as
the texts name that game."""

from __future__ import annotations

from discord import app_commands

from bot.engine.rules import GAMES
from cogs.domino.cog import Domino
from cogs.domino.texts import GAME_CHOICES, GAME_NAMES


def test_every_game_option_offers_the_same_choices() -> None:
    commands = [c for c in Domino.__cog_app_commands__ if isinstance(c, app_commands.Command)]
    offered = {c.name: c._params["game"].choices for c in commands if "game" in c._params}
    assert set(offered) == {"new", "rules", "leaderboard", "stats"}
    assert all(choices == GAME_CHOICES for choices in offered.values())


def test_the_choices_are_the_games_by_their_names() -> None:
    assert [choice.value for choice in GAME_CHOICES] == list(GAMES)
    assert [choice.name for choice in GAME_CHOICES] == [GAME_NAMES[game] for game in GAMES]
