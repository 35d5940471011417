"""The payload loggers: never below their floor, never below the bot's own level."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from bot import logs


@pytest.fixture
def root_level() -> Iterator[None]:
    root = logging.getLogger()
    before = root.level
    yield
    root.setLevel(before)
    logs.quiet_payloads()


@pytest.mark.usefixtures("root_level")
@pytest.mark.parametrize(
    ("level", "client", "sqlite"),
    [
        ("DEBUG", logging.INFO, logging.WARNING),  # the floors hold back the payloads
        ("INFO", logging.INFO, logging.WARNING),
        ("WARNING", logging.WARNING, logging.WARNING),  # no INFO line from discord.py
        ("ERROR", logging.ERROR, logging.ERROR),
    ],
)
def test_each_payload_logger_keeps_the_higher_of_its_floor_and_the_bots_level(
    level: str, client: int, sqlite: int
) -> None:
    logs.configure(level)
    assert logging.getLogger("discord.client").level == client
    assert logging.getLogger("aiosqlite").level == sqlite
    assert not logging.getLogger("discord.client").isEnabledFor(client - 10)


@pytest.mark.usefixtures("root_level")
def test_payload_logging_asked_for_follows_the_root_level() -> None:
    logs.configure("DEBUG", payloads=True)
    assert logging.getLogger("discord.gateway").isEnabledFor(logging.DEBUG)
