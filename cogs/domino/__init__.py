"""The /domino command group."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import Domino

if TYPE_CHECKING:
    from bot.client import DominoBot


async def setup(bot: DominoBot) -> None:
    await bot.add_cog(Domino(bot))
