"""Words the /domino commands show: game names, option names, the rules in brief."""

from __future__ import annotations

from bot.engine import Rules
from bot.i18n import N_, Translator
from render.labels import Labels

GAME_NAMES = {
    "block": N_("Block game"),
    "draw": N_("Draw game"),
    "allfives": N_("All Fives"),
    "latvian": N_("Latvian dominoes"),
}

RULES_TEXT = {
    "block": N_(
        "**Block game.** Each player gets a hand (7 tiles with 2 players, 5 with 3–4, "
        "7 each in teams of 4); the other tiles stay face down, out of play. "
        "The highest double leads. In turn, lay a tile whose number matches an open end; "
        "if none fits, pass. The deal ends when someone lays their last tile (domino) "
        "or nobody can play (blocked: the lowest pip count wins, equal lowest is a draw). "
        "The winner scores the pips left in the opponents' hands; first to 100 "
        "(61 with 3–4 players) wins the match."
    ),
    "draw": N_(
        "**Draw game.** As the block game, but the undealt tiles form a boneyard: "
        "a player who cannot lay draws one tile at a time until one fits, and must lay it. "
        "Only with the boneyard empty does a player pass. Drawing is never allowed "
        "while a tile fits."
    ),
    "allfives": N_(
        "**All Fives.** 7 tiles each, the rest is the boneyard. The first double becomes "
        "the spinner: once both its long sides have a tile, its short sides open too. "
        "After every tile, add up the open ends (a double at an end counts both halves); "
        "a multiple of 5 scores that many points. Going out scores the opponents' pips "
        "rounded to 5. First to 250 wins, even in the middle of a deal."
    ),
    "latvian": N_(
        "**Latvian dominoes.** 7 tiles each; the holder of 1-1 leads it (else 2-2, 3-3 … "
        "6-6, then 0-0) and it opens four roads. You may lay several doubles at once, "
        "each on its own road, and lay any tile face down to close its road. "
        "Going out with 0-0 scores −25, with 6-6 −50, with both −75; otherwise your hand "
        "counts its pips ({0-0} alone is 25, {6-6} alone 50, both 75). After the session's "
        "deals the lowest total takes 1st place: places score 4, 3, 2, 1."
    ),
}


def game_name(game: str, tr: Translator) -> str:
    return tr(GAME_NAMES[game])


def rules_summary(rules: Rules, tr: Translator) -> str:
    """One line describing the options of a table."""
    parts = [game_name(rules.game, tr), tr("double-{n}", n=rules.set)]
    parts.append(tr.plural("{n} player", "{n} players", rules.players))
    if rules.teams:
        parts.append(tr("teams"))
    if rules.layout == "spinner" and rules.game in ("block", "draw"):
        parts.append(tr("spinner"))
    if rules.scoring == "single":
        parts.append(tr("one deal"))
    elif rules.scoring == "penalty":
        parts.append(tr("minus points to {n}", n=rules.target))
    elif rules.target is not None:
        parts.append(tr("to {n} points", n=rules.target))
    if rules.deals:
        parts.append(tr.plural("{n} deal", "{n} deals", rules.deals))
    return " · ".join(parts)


def image_labels(tr: Translator) -> Labels:
    """The words drawn in images, translated."""
    return Labels(
        west=tr("west"),
        east=tr("east"),
        north=tr("north"),
        south=tr("south"),
        closed=tr("closed"),
        boneyard=tr("Boneyard"),
        count=tr("Count"),
        hand=tr("Hand"),
        pips=tr("Pips"),
        deal_score=tr("Deal"),
        total=tr("Total"),
        place=tr("Place"),
        domino=tr("Domino"),
        blocked=tr("Blocked"),
        dead=tr("Dead"),
        target=tr("Target reached"),
        drawn=tr("Drawn deal"),
        winners=tr("Winner: {names}"),
        deal_title=tr("Deal {number}"),
    )
