"""A server's puzzle of one day, as the service hands it on: the puzzle and its names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine.puzzle import Puzzle
from bot.storage import PuzzleRow


@dataclass(frozen=True, slots=True)
class DailyPuzzle:
    """The day's puzzle of a server (``id``: its row, which its buttons carry)."""

    id: int
    guild_id: int
    day: str
    puzzle: Puzzle
    names: tuple[str, ...]
    """The seats' names as the match had them (empty for a built-in puzzle)."""
    channel_id: int | None = None
    message_id: int | None = None

    @property
    def builtin(self) -> bool:
        return self.puzzle.source.startswith("builtin")


def stored(puzzle: Puzzle, names: tuple[str, ...]) -> dict[str, Any]:
    """What ``puzzles.puzzle`` holds: the puzzle's JSON and the seats' names."""
    return {"puzzle": puzzle.to_json(), "names": list(names)}


def from_row(row: PuzzleRow) -> DailyPuzzle:
    names = row.puzzle.get("names") or []
    return DailyPuzzle(
        id=row.id,
        guild_id=row.guild_id,
        day=row.day,
        puzzle=Puzzle.from_json(row.puzzle["puzzle"]),
        names=tuple(str(n) for n in names),
        channel_id=row.channel_id,
        message_id=row.message_id,
    )
