"""Logging for the bot: one format, and no hand ever written to a log.

discord.py logs whole payloads at DEBUG: every gateway event (a click on a hand's
move button carries that hand's move labels), every HTTP request body (an
ephemeral hand reply) and webhook call. aiosqlite logs every statement with its
parameters (a saved game state holds every hand). A bot run with
``LOG_LEVEL=DEBUG`` must still keep hands out of its logs, so those loggers stay
at INFO (aiosqlite at WARNING) unless payload logging is asked for explicitly
(``LOG_PAYLOADS=1``, for debugging on a test server only).
"""

from __future__ import annotations

import logging

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

PAYLOAD_LOGGERS = {
    "discord.gateway": logging.INFO,
    "discord.http": logging.INFO,
    "discord.webhook": logging.INFO,
    "discord.state": logging.INFO,
    "discord.client": logging.INFO,
    "aiosqlite": logging.WARNING,
}
"""Loggers that print payloads (hands) below these levels."""


def configure(level: str = "INFO", *, payloads: bool = False) -> None:
    """Log at ``level`` to stderr; keep payload loggers quiet unless ``payloads``."""
    logging.basicConfig(level=level, format=FORMAT)
    logging.getLogger().setLevel(level)
    quiet_payloads(enabled=payloads)


def quiet_payloads(*, enabled: bool = False) -> None:
    """Hold the payload loggers above DEBUG (``enabled`` lets them follow the root level).

    Each is set to its floor or the root's level, whichever is higher: a bot run at
    ``WARNING`` does not print discord.py's INFO lines either.
    """
    root = logging.getLogger().getEffectiveLevel()
    for name, floor in PAYLOAD_LOGGERS.items():
        logging.getLogger(name).setLevel(logging.NOTSET if enabled else max(floor, root))


# Quiet from the first import: whoever configures logging later (a test, the
# playground, an embedding program) starts safe.
quiet_payloads()
