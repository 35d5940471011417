"""Reading the table's feed (the field that tells what happened since a turn)."""

from __future__ import annotations

from typing import Any


def is_feed(name: str) -> bool:
    """Whether an embed field named ``name`` is the feed (English)."""
    return name == "Latest" or (name.startswith("Since ") and name.endswith("'s last turn"))


def feed_lines(message: Any) -> list[str]:
    """The feed's lines of a table message ([] without one)."""
    if not message.embeds:
        return []
    for f in message.embeds[0].fields:
        if is_feed(f.name):
            return str(f.value).splitlines()
    return []
