"""A journal of database calls and interaction acknowledgements, in order (tests only).

``install(monkeypatch, bot)`` wraps the bot's database and SimCord's HTTP router;
``journal.check(what)`` asserts the last action was acknowledged before any
database call.
"""

from __future__ import annotations

import contextlib

import simcord.http.router


class Journal:
    def __init__(self) -> None:
        self.events: list[str] = []

    def clear(self) -> None:
        self.events.clear()

    def check(self, what: str) -> None:
        acks = [i for i, e in enumerate(self.events) if e == "ack"]
        reads = [i for i, e in enumerate(self.events) if e.startswith("db")]
        assert acks, f"{what}: never acknowledged ({self.events})"
        assert not reads or acks[0] < reads[0], f"{what}: database before ack: {self.events}"


def install(monkeypatch, bot) -> Journal:
    journal = Journal()
    dispatch = simcord.http.router.dispatch

    def logged_dispatch(backend, method, path, **kw):
        if path.startswith("/interactions/") and path.endswith("/callback"):
            journal.events.append("ack")
        return dispatch(backend, method, path, **kw)

    monkeypatch.setattr(simcord.http.router, "dispatch", logged_dispatch)
    db = bot.db
    for name in ("fetchone", "fetchall", "write"):
        original = getattr(db, name)

        def logged(*args, _original=original, _name=name, **kw):
            journal.events.append(f"db {_name}")
            return _original(*args, **kw)

        monkeypatch.setattr(db, name, logged)
    for name in ("transaction", "snapshot"):
        original = getattr(db, name)

        @contextlib.asynccontextmanager
        async def logged_cm(*args, _original=original, _name=name, **kw):
            journal.events.append(f"db {_name}")
            async with _original(*args, **kw) as conn:
                yield conn

        monkeypatch.setattr(db, name, logged_cm)
    return journal
