"""``/domino rules``: each game's rules as a short embed with a sample board.

The words are the translated rule texts of :data:`cogs.domino.texts.RULES_TEXT` (one
msgid per game), cut into short paragraphs of a few sentences each; the picture is a
board of a sample deal in progress (:func:`render.samples.random_match`), drawn from
its public view. Sample boards never change: each (game, language) is drawn once per
process and kept (:func:`sample_board`). Shown for the channel's own game, the embed
also names that table's options.

Asked where no game is played, it is a select of the games (:func:`rules_picker`), whose
``custom_id`` is ``domino:rules`` (nothing else to carry, so it works after a restart);
its values are game codes (:data:`bot.engine.rules.GAMES`), which come back from the
client and are checked by the cog like any input.
"""

from __future__ import annotations

import asyncio
import io
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import Rules
from bot.engine.rules import GAMES
from bot.engine.view import public_view
from bot.i18n import N_, Translator
from render.board import render_board
from render.samples import mexican_late, random_match

from .items import DominoItem, select, sent_view
from .texts import RULES_TEXT, game_name, image_labels, rules_summary

if TYPE_CHECKING:
    from .cog import Domino

COLOUR = discord.Colour.from_rgb(46, 125, 50)
PARAGRAPH = 320
"""Characters a paragraph grows to before the next sentence starts a new one."""

SAMPLES: dict[str, tuple[dict[str, object], int, int]] = {
    "block": ({"players": 3}, 7, 7),
    "draw": ({"players": 2}, 3, 10),
    "allfives": ({"players": 2}, 1, 9),
    "latvian": ({"players": 3}, 14, 8),
    "mexican": ({"players": 4}, 0, 0),
}
"""Each game's sample: its options, the seed and the number of moves made (Mexican
Train's is :func:`render.samples.mexican_late` of that seed: a round late in play, with
markers out and a double waiting)."""
SAMPLE_NAMES = ("Anna", "Bo", "Cleo", "Dan")
"""The sample seats' names (given names, the same in every language)."""

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[*(\"'«„]?[^\W_a-zß-ÿ])")
"""A space after a sentence's full stop, before a capital letter or a digit."""


def paragraphs(text: str, limit: int = PARAGRAPH) -> list[str]:
    """``text`` cut between sentences into paragraphs of about ``limit`` characters."""
    out: list[str] = []
    for sentence in _SENTENCE_END.split(text.strip()):
        if out and len(out[-1]) + 1 + len(sentence) <= limit:
            out[-1] += " " + sentence
        else:
            out.append(sentence)
    return out


THIS_TABLE = N_("At this channel's table")


def rules_embed(game: str, tr: Translator, table: Rules | None = None) -> discord.Embed:
    """One game's rules: its name, short paragraphs, and the sample board (attached as
    :func:`sample_filename`); with ``table``, the options of the channel's table too."""
    embed = discord.Embed(
        title=game_name(game, tr),
        description="\n\n".join(paragraphs(tr(RULES_TEXT[game]))),
        colour=COLOUR,
    )
    if table is not None:
        embed.add_field(name=tr(THIS_TABLE), value=rules_summary(table, tr), inline=False)
    embed.set_image(url=f"attachment://{sample_filename(game)}")
    return embed


def sample_filename(game: str) -> str:
    return f"rules-{game}.png"


@lru_cache(maxsize=32)
def _sample_png(game: str, language: str) -> bytes:
    options, seed, moves = SAMPLES[game]
    rules = Rules.make(game, **options)
    state = mexican_late(rules.players, seed) if rules.mexican else random_match(rules, seed, moves)
    tr = Translator(language)
    return render_board(
        public_view(state),
        names=SAMPLE_NAMES[: rules.players],
        labels=image_labels(tr),
    )


async def sample_board(game: str, tr: Translator) -> discord.File:
    """The sample board of ``game`` with ``tr``'s words (drawn once, off the event loop)."""
    png = await asyncio.to_thread(_sample_png, game, tr.language)
    return discord.File(io.BytesIO(png), filename=sample_filename(game))


RULES_SELECT = "domino:rules"
PICK_A_GAME = N_("Which game's rules would you like to read?")


class RulesSelect(DominoItem[discord.ui.Select[Any]], template=r"domino:rules"):
    """Shows the chosen game's rules in place of the message it is on."""

    def __init__(
        self, options: list[discord.SelectOption] | None = None, placeholder: str | None = None
    ) -> None:
        super().__init__(select(RULES_SELECT, options or [], placeholder))

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        values = self.item.values
        await cog.on_rules_choice(interaction, values[0] if values else "")


def rules_picker(tr: Translator, chosen: str | None = None) -> discord.ui.View:
    """The select of the five games (``chosen`` shown as selected)."""
    options = [
        discord.SelectOption(label=game_name(game, tr), value=game, default=game == chosen)
        for game in GAMES
    ]
    return sent_view(RulesSelect(options, tr("Choose a game")))


RULES_ITEMS = (RulesSelect,)
