"""``python -m bot.engine replay RECORD.json``: check a match record and print its result.

Exit status 0 with the summary on standard output, 1 with ``{"error": ...}`` for a
record that breaks the rules or the format, 2 for a usage error (RECORD.md): bad
arguments, a file that cannot be read, text that is not UTF-8, or not JSON.
Whatever the input, it never ends in a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import IO, Any

from .errors import RecordError
from .record import load_record, read_json, replay_summary

USAGE = "usage: python -m bot.engine replay RECORD.json   (a path, or - for standard input)"


def main(argv: Sequence[str] | None = None, stdin: IO[Any] | None = None) -> int:
    """Run the command; ``stdin`` (text or bytes) stands in for standard input."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2 or args[0] != "replay":
        print(USAGE, file=sys.stderr)
        return 2
    path = args[1]
    try:
        data = _read(path, stdin)
    except (OSError, ValueError) as e:  # ValueError: a path with a NUL in it
        reason = e.strerror if isinstance(e, OSError) and e.strerror else e
        print(f"cannot read {path}: {reason}", file=sys.stderr)
        return 2
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else str(data)
        text.encode("utf-8")  # text handed in may hold lone surrogates
    except UnicodeError:
        print(f"{path} is not UTF-8 text", file=sys.stderr)
        return 2
    try:
        doc = read_json(text)
    except RecordError as e:  # a key named twice
        return _fault(e.message, e.deal, e.move)
    except RecursionError:
        return _fault("the record is nested too deeply")
    except ValueError as e:  # json.JSONDecodeError, NaN or Infinity
        print(f"{path} is not JSON: {e}", file=sys.stderr)
        return 2
    try:
        summary = replay_summary(load_record(doc))
    except RecordError as e:
        return _fault(e.message, e.deal, e.move)
    except RecursionError:
        return _fault("the record is nested too deeply")
    print(json.dumps(summary))
    return 0


def _read(path: str, stdin: IO[Any] | None) -> str | bytes:
    if path != "-":
        with open(path, "rb") as f:
            return f.read()
    if stdin is not None:
        data: str | bytes = stdin.read()
        return data
    if sys.stdin is None:
        raise OSError(0, "there is no standard input")
    buffer = getattr(sys.stdin, "buffer", None)  # bytes: decoded here, strictly
    read: str | bytes = buffer.read() if buffer is not None else sys.stdin.read()
    return read


def _fault(message: str, deal: int | None = None, move: int | None = None) -> int:
    # ASCII JSON: a message may quote the record's text, lone surrogates included.
    print(json.dumps({"error": {"deal": deal, "move": move, "message": message}}))
    return 1


if __name__ == "__main__":
    sys.exit(main())
