"""Encoding of column values: JSON text and ISO-8601 UTC timestamps."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from .errors import StorageError


def to_json(value: Any) -> str:
    """Compact JSON text for a JSON column."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def json_object(text: str, column: str) -> dict[str, Any]:
    """A JSON column that must hold an object."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise StorageError(f"column {column} holds {type(value).__name__}, not an object")
    return value


def json_list(text: str, column: str) -> list[Any]:
    """A JSON column that must hold a list."""
    value = json.loads(text)
    if not isinstance(value, list):
        raise StorageError(f"column {column} holds {type(value).__name__}, not a list")
    return value


def to_text(moment: datetime) -> str:
    """A timezone-aware datetime as fixed-width ISO-8601 UTC text (sorts by time)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment!r}: give a timezone-aware one")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def from_text(text: str) -> datetime:
    """A stored timestamp back as an aware UTC datetime."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def opt_from_text(text: str | None) -> datetime | None:
    """:func:`from_text` for a nullable column."""
    return None if text is None else from_text(text)
