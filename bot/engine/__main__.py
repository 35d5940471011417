"""``python -m bot.engine replay RECORD.json``: check a match record and print its result.

Exit status 0 with the summary on standard output, 1 with ``{"error": ...}`` for a
record that breaks the rules or the format, 2 for a usage error (RECORD.md).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TextIO

from .errors import RecordError
from .record import load_record, replay_summary

USAGE = "usage: python -m bot.engine replay RECORD.json   (a path, or - for standard input)"


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2 or args[0] != "replay":
        print(USAGE, file=sys.stderr)
        return 2
    path = args[1]
    try:
        if path == "-":
            text = (stdin or sys.stdin).read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        print(f"cannot read {path}: {e.strerror or e}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"{path} is not UTF-8 text", file=sys.stderr)
        return 2
    try:
        summary = replay_summary(load_record(json.loads(text)))
    except json.JSONDecodeError as e:
        print(f"{path} is not JSON: {e}", file=sys.stderr)
        return 2
    except RecordError as e:
        error = {"deal": e.deal, "move": e.move, "message": e.message}
        print(json.dumps({"error": error}, ensure_ascii=False))
        return 1
    except RecursionError:
        error = {"deal": None, "move": None, "message": "the record is nested too deeply"}
        print(json.dumps({"error": error}))
        return 1
    print(json.dumps(summary, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
