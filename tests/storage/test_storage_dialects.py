"""SQLite's and PostgreSQL's migrations build the same schema (bot/storage/migrations.py).

Both are built by :meth:`Database.open` and read back from each database's own
catalog: the same tables, columns in the same order with the same kinds of values,
nullability and defaults, the same primary, unique and foreign keys, and the same
indexes on the same columns in the same directions. Discord ids (and the seed) are
64-bit on PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.storage import Database

KIND = {  # a column's declared type -> the kind of value it holds
    "integer": "integer",
    "bigint": "integer",
    "real": "float",
    "double precision": "float",
    "text": "text",
}
WIDE = {"id", "seed"}
"""Integer columns besides ``*_id`` that must be 64-bit."""


async def sqlite_schema(db: Database) -> dict[str, Any]:
    tables = [
        r[0]
        for r in await db.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name"
        )
    ]
    schema: dict[str, Any] = {}
    for table in tables:
        columns = [
            (r["name"], KIND[r["type"].lower()], bool(r["notnull"] or r["pk"]), r["dflt_value"])
            for r in await db.fetchall(f"PRAGMA table_info({table})")
        ]
        primary = tuple(
            r["name"]
            for r in sorted(await db.fetchall(f"PRAGMA table_info({table})"), key=lambda r: r["pk"])
            if r["pk"]
        )
        indexes, uniques = {}, set()
        for index in await db.fetchall(f"PRAGMA index_list({table})"):
            keys = tuple(
                (r["name"], bool(r["desc"]))
                for r in await db.fetchall(f"PRAGMA index_xinfo({index['name']})")
                if r["key"]
            )
            if index["origin"] == "c":
                indexes[index["name"]] = (keys, bool(index["unique"]), bool(index["partial"]))
            elif index["origin"] == "u":
                uniques.add(tuple(name for name, _ in keys))
        foreign = {
            (r["from"], r["table"], r["to"], r["on_delete"].lower())
            for r in await db.fetchall(f"PRAGMA foreign_key_list({table})")
        }
        schema[table] = {
            "columns": columns,
            "primary": primary,
            "indexes": indexes,
            "unique": uniques,
            "foreign": foreign,
        }
    return schema


async def postgres_schema(db: Database) -> tuple[dict[str, Any], dict[tuple[str, str], str]]:
    """The schema as :func:`sqlite_schema` gives it, and each column's declared type."""
    tables = [
        r[0]
        for r in await db.fetchall(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
            " AND table_name <> 'dominobot_schema' ORDER BY table_name"
        )
    ]
    schema: dict[str, Any] = {}
    types: dict[tuple[str, str], str] = {}
    for table in tables:
        rows = await db.fetchall(
            "SELECT column_name, data_type, is_nullable, column_default"
            " FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ?"
            " ORDER BY ordinal_position",
            (table,),
        )
        columns = [
            (r[0], KIND[r[1]], r[2] == "NO", None if r[3] is None else r[3].split("::")[0])
            for r in rows
        ]
        types.update({(table, r[0]): r[1] for r in rows})
        keys = await db.fetchall(
            "SELECT i.relname AS name, x.indisprimary AS is_primary, x.indisunique AS is_unique,"
            " x.indpred IS NOT NULL AS partial,"
            " EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid"
            "   AND c.contype = 'u') AS is_constraint,"
            " array_agg(a.attname ORDER BY k.ord) AS columns,"
            " array_agg((x.indoption[k.ord - 1] & 1) = 1 ORDER BY k.ord) AS descending"
            " FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid"
            " JOIN pg_class t ON t.oid = x.indrelid"
            " CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord)"
            " JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum"
            " WHERE t.relname = ? AND t.relnamespace = 'public'::regnamespace"
            " GROUP BY i.relname, x.indisprimary, x.indisunique, x.indpred, x.indexrelid",
            (table,),
        )
        primary: tuple[str, ...] = ()
        indexes, uniques = {}, set()
        for k in keys:
            if k["is_primary"]:
                primary = tuple(k["columns"])
            elif k["is_constraint"]:
                uniques.add(tuple(k["columns"]))
            else:
                indexes[k["name"]] = (
                    tuple(zip(k["columns"], k["descending"], strict=True)),
                    k["is_unique"],
                    k["partial"],
                )
        foreign = {
            (r[0], r[1], r[2], {"c": "cascade", "a": "no action"}[r[3]])
            for r in await db.fetchall(
                "SELECT a.attname, f.relname, fa.attname, c.confdeltype::text"
                " FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid"
                " JOIN pg_class f ON f.oid = c.confrelid"
                " JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = c.conkey[1]"
                " JOIN pg_attribute fa ON fa.attrelid = f.oid AND fa.attnum = c.confkey[1]"
                " WHERE c.contype = 'f' AND t.relname = ?",
                (table,),
            )
        }
        schema[table] = {
            "columns": columns,
            "primary": primary,
            "indexes": indexes,
            "unique": uniques,
            "foreign": foreign,
        }
    return schema, types


async def test_both_backends_build_the_same_schema(tmp_path: Path, postgres: Any) -> None:
    url = await postgres.create_database()
    try:
        async with await Database.open(tmp_path / "s.db") as lite:
            want = await sqlite_schema(lite)
        async with await Database.open(url) as pg:
            got, types = await postgres_schema(pg)
            assert await pg.schema_version() == await _sqlite_version(tmp_path / "s.db")
    finally:
        await postgres.drop_database(url)
    assert set(got) == set(want)
    assert len(want) == 19  # the comparison saw every table
    for table in want:
        assert got[table] == want[table], table
    wide = {
        (table, column)
        for (table, column), _ in types.items()
        if column in WIDE or column.endswith("_id") or column == "reset_by"
    }
    assert {key: types[key] for key in wide} == dict.fromkeys(wide, "bigint")
    assert len(wide) > 20


async def _sqlite_version(path: Path) -> int:
    async with await Database.open(path) as db:
        return await db.schema_version()


@pytest.mark.parametrize("bad", ["dropped column", "other index"])
async def test_the_comparison_sees_a_difference(tmp_path: Path, bad: str) -> None:
    """The schema reader is not blind: a changed schema compares unequal."""
    async with await Database.open(tmp_path / "a.db") as db:
        before = await sqlite_schema(db)
        async with db.transaction() as conn:
            if bad == "dropped column":
                await conn.execute("ALTER TABLE games DROP COLUMN ping_turn")
            else:
                await conn.execute("DROP INDEX games_channel")
                await conn.execute("CREATE INDEX games_channel ON games(channel_id DESC, id)")
        assert await sqlite_schema(db) != before
