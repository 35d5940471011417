"""Finished competitions (issue 41): a server's history, a player's part in them, and
the export of one whole competition with its tables' match records.

Read from ``db.competitions`` (each competition saved whole, with its standings'
results) and ``db.matches`` (each table's game stored as a match, its record in the
format of docs/RECORD.md). Only a server's own competitions are ever read for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.games.errors import GameError
from bot.i18n import N_

from . import competition as rules

if TYPE_CHECKING:
    from bot.storage import Database
    from bot.storage.competitions import CompetitionRow

EXPORT_FORMAT = "domino-competition/1"
PLAYER_SCAN = 500
"""A player's competitions are counted over the server's latest this many."""


@dataclass(frozen=True, slots=True)
class FinishedCompetition:
    """One finished competition as the history lists it."""

    id: int
    channel_id: int
    finished_at: datetime
    game: str
    rounds: int
    players: int
    winners: tuple[str, ...]
    """The names in first place (more than one when they share it)."""


@dataclass(frozen=True, slots=True)
class CompetitionHistory:
    """One page of a server's finished competitions, newest first."""

    guild_id: int
    page: int
    page_size: int
    total: int
    entries: tuple[FinishedCompetition, ...]

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.page_size))


@dataclass(frozen=True, slots=True)
class PlayerCompetitions:
    """A player's finished competitions in a server."""

    played: int
    won: int
    """First places (shared ones too)."""
    best: int | None
    """The best rank, None if they played none."""


def _finished(row: CompetitionRow) -> FinishedCompetition:
    c = rules.from_json(row.state)
    standings = c.standings()
    names = {e.user_id: e.name for e in c.entrants}
    return FinishedCompetition(
        id=row.id,
        channel_id=row.channel_id,
        finished_at=row.updated_at,
        game=str(c.format.options.get("game", "latvian")),
        rounds=len(c.rounds),
        players=len(c.entrants),
        winners=tuple(names.get(s.player, str(s.player)) for s in standings if s.rank == 1),
    )


class CompetitionArchive:
    """The finished competitions of a server."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def history(
        self, guild_id: int, page: int = 0, page_size: int = 10
    ) -> CompetitionHistory:
        """A page of the server's finished competitions, newest first (a page past the
        end gives the last)."""
        total = await self.db.competitions.finished_count(guild_id)
        pages = max(1, -(-total // page_size))
        page = min(max(page, 0), pages - 1)
        rows = await self.db.competitions.finished_in(guild_id, page_size, page * page_size)
        return CompetitionHistory(
            guild_id, page, page_size, total, tuple(_finished(r) for r in rows)
        )

    async def player(self, guild_id: int, user_id: int) -> PlayerCompetitions:
        """How ``user_id`` did in the server's finished competitions."""
        played = won = 0
        best: int | None = None
        for row in await self.db.competitions.finished_in(guild_id, PLAYER_SCAN):
            c = rules.from_json(row.state)
            mine = next((s for s in c.standings() if s.player == user_id), None)
            if mine is None or mine.rounds == 0:
                continue
            played += 1
            won += mine.rank == 1
            best = mine.rank if best is None else min(best, mine.rank)
        return PlayerCompetitions(played, won, best)

    async def latest(self, guild_id: int) -> int:
        """The id of the server's latest finished competition."""
        rows = await self.db.competitions.finished_in(guild_id, 1)
        if not rows:
            raise GameError(N_("This server has no finished competition yet."))
        return rows[0].id

    async def export(self, guild_id: int, competition_id: int) -> dict[str, Any]:
        """The whole finished competition: its format, entrants, rounds, tables, results
        and standings, and each table's match record as stored."""
        row = await self.db.competitions.get(competition_id)
        if row is None or row.guild_id != guild_id:
            raise GameError(N_("There is no competition #{id} on this server."), id=competition_id)
        if row.status != "finished":
            raise GameError(N_("Competition #{id} is not finished yet."), id=competition_id)
        c = rules.from_json(row.state)
        rounds = []
        for r in c.rounds:
            tables = []
            for t in r.tables:
                match_id, record = await self._record(guild_id, t.game_id)
                result = t.result
                tables.append(
                    {
                        "table": t.number,
                        "players": list(t.players),
                        "game_id": t.game_id,
                        "match_id": match_id,
                        "score": None if result is None else list(result.score),
                        "lower_wins": None if result is None else result.lower_wins,
                        "places": None if result is None else list(result.places()),
                        "place_points": None if result is None else list(result.place_points()),
                        "record": record,
                    }
                )
            rounds.append({"round": r.number, "tables": tables})
        return {
            "format": EXPORT_FORMAT,
            "id": row.id,
            "guild_id": row.guild_id,
            "channel_id": row.channel_id,
            "referee_id": row.referee_id,
            "status": row.status,
            "created_at": row.created_at.isoformat(),
            "finished_at": row.updated_at.isoformat(),
            "competition": {**rules.to_json(c)["format"], "seed": c.seed},
            "entrants": [
                {"user_id": e.user_id, "name": e.name, "active": e.active} for e in c.entrants
            ],
            "rounds": rounds,
            "standings": [
                {
                    "rank": s.rank,
                    "user_id": s.player,
                    "name": (e.name if (e := c.entrant(s.player)) else str(s.player)),
                    "place_points": s.points,
                    "margin": s.margin,
                    "rounds": s.rounds,
                }
                for s in c.standings()
            ],
            "state": row.state,
        }

    async def _record(
        self, guild_id: int, game_id: int | None
    ) -> tuple[int | None, dict[str, Any] | None]:
        """A table's match id and record as stored (None: its game stored no match)."""
        if game_id is None:
            return None, None
        match_id = await self.db.matches.of_game(guild_id, game_id)
        if match_id is None:
            return None, None
        return match_id, await self.db.matches.record(guild_id, match_id)
