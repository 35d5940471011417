"""Errors the storage layer raises, each named for what went wrong."""

from __future__ import annotations


class StorageError(Exception):
    """Base of every storage error."""


class ChannelBusyError(StorageError):
    """The channel already has a game in the lobby or being played."""

    def __init__(self, message: str, *, channel_id: int | None = None) -> None:
        super().__init__(message)
        self.channel_id = channel_id


class StaleGameError(StorageError):
    """A save gave a version that is no longer current: someone else saved first.

    ``actual_version`` is the version found (``None`` when the game does not exist).
    """

    def __init__(
        self,
        message: str,
        *,
        game_id: int | None = None,
        expected_version: int | None = None,
        actual_version: int | None = None,
    ) -> None:
        super().__init__(message)
        self.game_id = game_id
        self.expected_version = expected_version
        self.actual_version = actual_version


class MigrationError(StorageError):
    """The schema cannot be brought to the wanted version."""


class IntegrityError(StorageError):
    """A constraint refused a write (a unique key, a CHECK, a foreign key).

    The driver's own error is the ``__cause__``; ``constraint`` names the constraint
    where the database says (PostgreSQL), else it is the driver's message (SQLite).
    """

    def __init__(self, message: str, *, constraint: str = "") -> None:
        super().__init__(message)
        self.constraint = constraint


class DatabaseUnavailableError(StorageError):
    """The database server cannot be reached, refused the connection, or dropped it.

    Nothing the call asked for is known to have happened (a write whose commit was
    cut off may have landed: the next versioned save finds out); ``sent`` is False
    when the statement certainly never left (no connection, or one found dead). A
    later call may succeed: connections are made anew once the server is back.
    """

    def __init__(self, message: str, *, sent: bool = True) -> None:
        super().__init__(message)
        self.sent = sent


class DatabaseTimeoutError(DatabaseUnavailableError):
    """The database server did not finish a statement in time: it waited longer than
    the lock timeout for a lock another connection holds, ran past the statement
    timeout, or did not answer at all (a hung server, a lost network). The statement's
    transaction is rolled back; a later call may succeed."""
