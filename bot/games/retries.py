"""Retrying what the bot does by itself (an AI seat's move, a turn timer's move, the idle
limit) when its save fails: a database that cannot be reached now may well answer in a
moment, and nobody else will act for the game meanwhile."""

from __future__ import annotations

import logging

RETRY_DELAYS = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
"""Seconds before each retry of a failed save; the last one repeats while it fails."""


class Backoff:
    """The delays of one run of retries: longer after each failure, up to the last."""

    def __init__(self, delays: tuple[float, ...] = RETRY_DELAYS) -> None:
        self.delays = delays
        self.failures = 0

    def reset(self) -> None:
        """A save went through: the next failure waits the first delay again."""
        self.failures = 0

    def warn(self, log: logging.Logger, game_id: int, what: str, error: Exception) -> float:
        """Count a failure and log it in one line (a traceback the first time only);
        the seconds to wait before trying again."""
        delay = self.delays[min(self.failures, len(self.delays) - 1)]
        self.failures += 1
        log.warning(
            "game %d: saving %s failed (%s); trying again in %.0f s",
            game_id,
            what,
            error,
            delay,
            exc_info=error if self.failures == 1 else None,
        )
        return delay
