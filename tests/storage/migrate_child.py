"""A process of ``test_storage_migrations.py``'s race: opens the SQLite files it is given.

    python tests/storage/migrate_child.py

Prints ``READY`` once imported, then for each line on stdin (a path to a SQLite file,
new or not) opens it with :meth:`Database.open` (which migrates it), closes it and
prints one line: ``OK <schema version>`` or ``FAILED <the error>``. Ends at EOF.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


async def open_and_close(path: str) -> str:
    from bot.storage import Database, StorageError

    try:
        db = await Database.open(path)
    except StorageError as exc:
        return f"FAILED {type(exc).__name__}: {exc}"
    try:
        return f"OK {await db.schema_version()}"
    finally:
        await db.close()


def main() -> None:
    import bot.storage  # noqa: F401 - imported before READY: both start together

    print("READY", flush=True)
    for line in sys.stdin:
        print(asyncio.run(open_and_close(line.strip())), flush=True)


if __name__ == "__main__":
    main()
