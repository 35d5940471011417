"""Words the /domino commands show: game names, option names, the rules in brief."""

from __future__ import annotations

from dataclasses import replace

from discord.app_commands import Choice, locale_str

from bot.engine import Rules
from bot.i18n import N_, Translator
from render.labels import ENGLISH as ENGLISH_LABELS
from render.labels import Labels

GAME_CHOICES: list[Choice[str]] = [
    Choice(name=locale_str("Block game"), value="block"),
    Choice(name=locale_str("Draw game"), value="draw"),
    Choice(name=locale_str("All Fives"), value="allfives"),
    Choice(name=locale_str("Latvian dominoes"), value="latvian"),
    Choice(name=locale_str("Mexican Train"), value="mexican"),
]
"""The games as a command option's choices (``game:``); Discord shows each name in the
user's language."""
GAME_NAMES = {choice.value: choice.name for choice in GAME_CHOICES}
"""Each game's name (a msgid), as its choice names it."""

ORDER_CHOICES: list[Choice[str]] = [
    Choice(name=locale_str("Rating"), value="rating"),
    Choice(name=locale_str("Place points (latvian)"), value="places"),
]
"""A leaderboard's order as a command option's choices (``order:``), the live board's and
a closed season's."""

AI_LEVEL_CHOICES: list[Choice[str]] = [
    Choice(name=locale_str("easy"), value="easy"),
    Choice(name=locale_str("normal"), value="normal"),
    Choice(name=locale_str("hard"), value="hard"),
]
"""The AI's levels as a command option's choices (``level:``)."""
AI_LEVEL_NAMES = {choice.value: choice.name for choice in AI_LEVEL_CHOICES}
PERIOD_CHOICES: list[Choice[str]] = [
    Choice(name=locale_str("All time"), value="all"),
    Choice(name=locale_str("Last 30 days"), value="month"),
    Choice(name=locale_str("Last 7 days"), value="week"),
]
"""A leaderboard's period as a command option's choices (``period:``)."""
PERIOD_NAMES = {choice.value: choice.name for choice in PERIOD_CHOICES}

# Faithful to docs/RULES.md (each game's section); each stays well under Discord's 2000 characters.
RULES_TEXT = {
    "block": N_(
        "**Block game** (2–4 players on double-6, up to 6 on double-9 and 8 on double-12). "
        "On double-6 each player gets 7 tiles with 2 players, 5 with 3–4, and 7 each in "
        "teams of 4 (seats 1+3 against 2+4); the other tiles stay face down, out of play. "
        "The holder of the highest double leads it (with no double dealt, the heaviest "
        "tile). In turn, lay a tile whose number matches an open end; if none fits, pass. "
        "The deal ends when someone lays their last tile (domino) or nobody can play "
        "(blocked: the lowest pip count wins; equal lowest counts are a drawn deal). "
        "The winner scores the pips left in the opponents' hands; first to 100 points "
        "(61 with 3 or more players, 100 for teams) wins the match. Other scorings: one "
        "deal decides (single), or minus points (penalty): everyone adds their own pips, "
        "the match ends when someone reaches 50, and the lowest total wins. With the "
        "spinner layout the first double played also opens north and south once both its "
        "sides have a tile."
    ),
    "draw": N_(
        "**Draw game.** As the block game, but the undealt tiles form a boneyard: "
        "a player who cannot lay draws one tile at a time until one fits, and must lay it. "
        "Only with the boneyard empty does a player pass. Drawing is never allowed "
        "while a tile fits."
    ),
    "allfives": N_(
        "**All Fives** (2–4 players on double-6, teams with 4). 7 tiles each; the rest is "
        "the boneyard, drawn from as in the draw game. The first deal's leader is drawn "
        "at random and leads any tile; later deals are led by the previous deal's winner. "
        "The first double played is the spinner: once both its long sides have a tile, "
        "its short sides open too (north and south). After every tile, add up the open "
        "ends (a double lying across an end counts both halves, and so does the spinner "
        "until both its long sides have a tile); a multiple of 5 scores that many points "
        "for your side. Going out scores the pips in the opponents' hands rounded to the "
        "nearest 5; in a blocked deal the lowest pip count scores the opponents' pips, "
        "rounded the same way. First to 250 wins, even in the middle of a deal."
    ),
    "latvian": N_(
        "**Latvian dominoes** (2–4 players on double-6, no teams). 7 tiles each; the rest "
        "is the boneyard, drawn from as in the draw game. The holder of 1-1 leads it "
        "(else 2-2, 3-3 … 6-6, then 0-0), and the lead opens four roads: west, east, "
        "north and south. A move is one tile, or several doubles at once, each on its own "
        "road that shows its number. Any tile may be laid face down: it must still match, "
        "and it closes that road for everyone. The deal ends when someone goes out, when "
        "nobody can play, or when it is dead (every open road shows a number whose seven "
        "tiles are all on the table). Going out counts 0, or −25 if your last move "
        "included 0-0, −50 with 6-6, −75 with both; everyone else counts the pips in "
        "their hand, but a hand of just 0-0 counts 25, just 6-6 50, and just those two "
        "75. After the session's deals (4 unless set) the lowest total takes 1st place: "
        "places score 4, 3, 2, 1, and tied players share the average."
    ),
    "mexican": N_(
        "**Mexican Train** (2–8 players on double-12, 2–6 on double-9, no teams). A match "
        "is one round per double: 13 rounds on double-12, 10 on double-9 (or fewer, with "
        "deals). Round 1's engine is 12-12, round 2's 11-11, and so on down to 0-0; it lies "
        "in the station and belongs to nobody. Each player gets 15 tiles (12 with 5–6 "
        "players, 10 with 7–8; on double-9 10, or 8 with 5–6); the rest is the boneyard. "
        "Every player owns a train that starts at the station, and there is one Mexican "
        "train for everyone. A tile goes on a train whose end shows one of its numbers "
        "(an empty train shows the engine's). You may lay on your own train, on the Mexican "
        "train, or on another player's train that carries their marker. If you cannot lay, "
        "draw one tile and lay it if it fits; if it doesn't, put your marker on your train "
        "and your turn ends. Laying on your own train takes your marker back. A double must "
        "be satisfied: whoever laid it plays again, and until a tile goes on that double "
        "nobody may lay anywhere else (each player in turn lays on it, or draws, or puts out "
        "a marker). A round ends when someone lays their last tile, or when nobody can lay "
        "and the boneyard is empty. Everyone adds the pips left in their hand to their "
        "total; after the last round the lowest total wins, and equal lowest totals share "
        "the win."
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
    if rules.deals and rules.mexican:
        parts.append(tr.plural("{n} round", "{n} rounds", rules.deals))
    elif rules.deals:
        parts.append(tr.plural("{n} deal", "{n} deals", rules.deals))
    return " · ".join(parts)


def ai_level_name(level: str, tr: Translator) -> str:
    return tr(AI_LEVEL_NAMES[level]) if level in AI_LEVEL_NAMES else level


def image_labels(tr: Translator) -> Labels:
    """The words drawn in images, translated (every field of :class:`Labels`), and
    numbers written the language's way (``3,4`` in Finnish)."""
    return replace(ENGLISH_LABELS.translated(tr), number=tr.number)
