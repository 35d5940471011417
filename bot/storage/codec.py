"""Encoding of column values: JSON text and ISO-8601 UTC timestamps; rows as values."""

from __future__ import annotations

import dataclasses
import json
import types
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Final, TypeVar, get_args, get_type_hints

from .errors import StorageError
from .sql import Row

T = TypeVar("T")


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


_DECODERS: Final[dict[Any, Callable[[Any], Any]]] = {
    int: int,
    float: float,
    str: str,
    bool: bool,
    datetime: from_text,
}
_FIELDS: dict[type, tuple[tuple[str, Callable[[Any], Any] | None], ...]] = {}
"""Each dataclass's fields and how each one's column is decoded (worked out once)."""


def from_row(cls: type[T], row: Row, **given: Any) -> T:
    """A ``cls`` (a dataclass) from ``row``: the ``given`` fields as given, every other one
    from the column of its name, decoded as its type says (an int, a float, a str, a bool,
    a datetime from its text; NULL as None), or as it is (any other type)."""
    values = dict(given)
    for name, decode in _FIELDS.get(cls) or _decoders(cls):
        if name not in values:
            value = row[name]
            values[name] = value if value is None or decode is None else decode(value)
    return cls(**values)


def to_row(value: Any, columns: str, **given: Any) -> tuple[Any, ...]:
    """The row of ``columns`` (as the SQL lists them: ``"a, b"``) for ``value``: the
    ``given`` ones as given, every other one its attribute of that name (a datetime as
    its text)."""
    row = (given[c] if c in given else getattr(value, c) for c in columns.split(", "))
    return tuple(to_text(v) if isinstance(v, datetime) else v for v in row)


def _decoders(cls: type) -> tuple[tuple[str, Callable[[Any], Any] | None], ...]:
    hints = get_type_hints(cls)
    found = []
    for field in dataclasses.fields(cls):
        hint = hints[field.name]
        if isinstance(hint, types.UnionType):  # a nullable field: decoded as its type
            hint = next(t for t in get_args(hint) if t is not type(None))
        found.append((field.name, _DECODERS.get(hint)))
    _FIELDS[cls] = tuple(found)
    return _FIELDS[cls]
