"""The daily puzzle's move buttons: ``domino:pz:<puzzle id>:<choice>``.

The id names the server's puzzle of a day (its row), the choice its index in the
puzzle's choices: both are all a click needs, so the buttons work after a restart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.engine.puzzle import Puzzle
from bot.i18n import Translator

from .items import DominoItem, button
from .puzzle_texts import move_label

if TYPE_CHECKING:
    from .cog import Domino

MAX_BUTTONS = 25
"""Discord's limit on a message's buttons (five rows of five)."""


class PuzzleButton(
    DominoItem[discord.ui.Button[Any]],
    template=r"domino:pz:(?P<puzzle_id>\d{1,18}):(?P<choice>\d{1,2})",
):
    def __init__(self, puzzle_id: int, choice: int, label: str = "…") -> None:
        super().__init__(button(f"domino:pz:{puzzle_id}:{choice}", label))
        self.puzzle_id = puzzle_id
        self.choice = choice

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_puzzle_answer(interaction, self.puzzle_id, self.choice)


PUZZLE_ITEMS = (PuzzleButton,)


def puzzle_view(puzzle_id: int, puzzle: Puzzle, tr: Translator) -> discord.ui.View:
    """One button a choice (a persistent view: no timeout)."""
    view = discord.ui.View(timeout=None)
    for choice in range(min(len(puzzle.choices), MAX_BUTTONS)):
        view.add_item(PuzzleButton(puzzle_id, choice, move_label(puzzle, choice, tr)))
    return view
