"""Table options the engine or the bot refuse, said in the player's language.

The engine's own messages are English and name the option at fault
(:class:`~bot.engine.RulesError`); these key a translatable message on that
option. An option the chosen game would silently ignore is refused too: a
player who asked for a target should not find out at the end that there was none.
"""

from __future__ import annotations

from typing import Any

from bot.engine import Rules, RulesError
from bot.engine.rules import DEFAULT_SET, MAX_PLAYERS, TARGET_RANGE
from bot.i18n import N_

from .errors import GameError

CHOOSE_A_GAME = N_("Choose a game: block, draw, allfives, latvian or mexican.")


def check_options(rules: Rules, given: dict[str, Any]) -> None:
    """Refuse an option that ``rules`` would ignore (the engine accepts them for records)."""
    if given.get("target") is not None and rules.target is None:
        if rules.game == "latvian":
            raise GameError(
                N_("A Latvian session has no target: leave the target option out (use deals).")
            )
        if rules.game == "mexican":
            raise GameError(
                N_(
                    "Mexican Train has no target: the lowest total after the last round "
                    "wins. Leave the target option out (deals sets the rounds)."
                )
            )
        raise GameError(
            N_("When one deal decides there is no target: leave the target option out.")
        )


def rules_refusal(error: RulesError, options: dict[str, Any]) -> GameError:
    """The engine refused the table's options: say why in the user's language.

    Recomputes any numbers from the rules tables.
    """
    game = str(options.get("game"))
    top = options.get("set") or DEFAULT_SET.get(game, 6)
    option = error.option
    high = MAX_PLAYERS.get((game, top))
    if option == "players" and high is not None:
        return GameError(
            N_("This game takes {low} to {high} players on the double-{set} set."),
            low=2,
            high=high,
            set=top,
        )
    if option == "players":
        return GameError(N_("A table has 2 to 8 players, depending on the game and set."))
    if option == "set":
        if top not in (6, 9, 12):
            return GameError(N_("The set is double-6, double-9 or double-12."))
        if game == "mexican":
            return GameError(N_("Mexican Train is played on the double-12 or double-9 set."))
        return GameError(
            N_("All Fives and Latvian dominoes use the double-6 set only (leave the set out).")
        )
    if option == "teams":
        if game == "latvian":
            return GameError(N_("Latvian dominoes is played without teams."))
        if game == "mexican":
            return GameError(N_("Mexican Train is played without teams."))
        return GameError(N_("Teams need exactly 4 players."))
    if option == "scoring":
        if options.get("scoring") == "penalty" and options.get("teams"):
            return GameError(N_("Minus-point scoring (penalty) is played without teams."))
        return GameError(N_("This game has its own scoring: leave the scoring option out."))
    if option == "layout":
        return GameError(N_("This game has its own layout: leave the layout option out."))
    if option == "target":
        low, high = TARGET_RANGE
        return GameError(N_("The target is {low} to {high} points."), low=low, high=high)
    if option == "time_limit":
        if game != "latvian":
            return GameError(N_("Only a Latvian session can be timed (minutes)."))
        return GameError(N_("A timed session lasts at least 1 minute."))
    if option == "deals":
        if game == "mexican":
            return GameError(
                N_("Mexican Train on double-{set} has 1 to {high} rounds (deals)."),
                set=top,
                high=top + 1,
            )
        if game not in ("latvian", "mexican"):
            return GameError(N_("Only Latvian dominoes and Mexican Train have a number of deals."))
        return GameError(N_("A Latvian session has 1 to 100 deals."))
    if option == "hand":
        return GameError(N_("This set has too few tiles for so many hands."))
    if option == "game":
        return GameError(CHOOSE_A_GAME)
    return GameError(N_("These game options don't work together."))
