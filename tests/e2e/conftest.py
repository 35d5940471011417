"""SimCord fixtures: the real bot against a simulated Discord, with a real database.

Every test that uses the bot runs on both backends (``[sqlite]``: a SQLite file;
``[postgresql]``: a fresh database on the session's throwaway PostgreSQL server, see
tests/postgres_support.py), as the storage tests do; ``db_path`` is the file's path or
the database's URL, and ``new_bot`` builds a bot on it (a restart's new bot too). A test
about the SQLite file itself, or a whole match that the PostgreSQL half need not play
again (the time of the suite), is marked ``sqlite_only`` with its reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import simcord.interactions

from bot.client import DominoBot


@pytest.fixture
async def db_path(database_at):
    """Where the test's database lives: a SQLite file, or a new PostgreSQL database's URL."""
    return await database_at("dominobot.sqlite3")


@pytest.fixture
def new_bot(db_path):
    """A new bot on the test's database (``DominoBot``'s other arguments passed on)."""

    def make(**kw):
        if isinstance(db_path, Path):
            return DominoBot(database_path=db_path, **kw)
        return DominoBot(database_url=db_path, **kw)

    return make


@pytest.fixture
def user_locales(monkeypatch):
    """user id -> the Discord locale their interactions carry (default en-US)."""
    locales: dict[int, str] = {}
    original = simcord.interactions.base_payload

    def base_payload(backend, **kw):
        record, payload = original(backend, **kw)
        payload["locale"] = locales.get(kw["user_id"], "en-US")
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    return locales


@pytest.fixture
def simcord_bot(new_bot):
    return new_bot()


@pytest.fixture
async def bot(simcord_env):
    bot = simcord_env.bot
    await bot.tree.sync()
    yield bot
    await bot.shutdown()


@pytest.fixture
def guild(simcord_env, bot):
    return simcord_env.create_guild("Domino Club")


@pytest.fixture
def channel(guild):
    return guild.create_text_channel("dominoes")


@pytest.fixture
def alice(simcord_env, guild):
    return guild.add_member(simcord_env.create_user("alice"))


@pytest.fixture
def bob(simcord_env, guild):
    return guild.add_member(simcord_env.create_user("bob"))


@pytest.fixture
def carol(simcord_env, guild):
    return guild.add_member(simcord_env.create_user("carol"))


@pytest.fixture
def dave(simcord_env, guild):
    return guild.add_member(simcord_env.create_user("dave"))


class Driver:
    """Plays through the real UI: the ping's "Show my hand" button, then a move button."""

    def __init__(self, env, bot, channel, users):
        self.env = env
        self.bot = bot
        self.channel = channel
        self.users = {u.id: u for u in users}

    async def session(self):
        session = await self.bot.games.in_channel(self.channel.id)
        if session is None:
            session = await self.bot.games.latest_in_channel(self.channel.id)
        return session

    async def hand(self, user):
        """Open ``user``'s hand with /domino hand; returns the ephemeral message."""
        result = await user.slash(self.channel, "domino hand")
        assert result.ephemeral
        return result.response

    def move_ids(self, message):
        ids = []
        for row in message.components:
            for component in row["components"]:
                cid = component.get("custom_id", "")
                if cid.startswith("domino:m:"):
                    ids.append(cid)
        return ids

    def move_options(self, message):
        """(custom_id, value, label) of every move offered by a select."""
        out = []
        for row in message.components:
            for component in row["components"]:
                if component.get("custom_id", "").startswith("domino:s:"):
                    out += [
                        (component["custom_id"], o["value"], o["label"])
                        for o in component["options"]
                    ]
        return out

    async def turn_hand(self):
        """The human to move opens their hand; returns (user, the hand message)."""
        session = await self.session()
        seat = session.turn_seat
        assert seat is not None
        assert seat.user_id is not None
        user = self.users[seat.user_id]
        return user, await self.hand(user)

    async def play_turn(self, choose=None):
        """The human to move plays one move through the UI; returns (user, label, result)."""
        user, hand = await self.turn_hand()
        return await self.play_from(user, hand, choose)

    async def play_from(self, user, hand, choose=None):
        """``user`` plays a move from their open hand message; returns (user, label, result)."""
        buttons = [
            (c["custom_id"], c["label"])
            for row in hand.components
            for c in row["components"]
            if c.get("custom_id", "").startswith("domino:m:")
        ]
        if buttons:
            index = choose([label for _, label in buttons]) if choose else 0
            result = await user.click(hand, custom_id=buttons[index][0])
            return user, buttons[index][1], result
        options = self.move_options(hand)
        assert options, "a player to move is offered moves"
        index = choose([label for _, _, label in options]) if choose else 0
        cid, value, label = options[index]
        result = await user.select(hand, [value], custom_id=cid)
        return user, label, result

    async def play_until(self, done, choose=None, limit=2000):
        for _ in range(limit):
            session = await self.session()
            if done(session):
                return session
            await self.play_turn(choose)
        raise AssertionError("the game did not reach the goal")


@pytest.fixture
def driver(simcord_env, bot, channel, alice, bob, carol, dave):
    return Driver(simcord_env, bot, channel, [alice, bob, carol, dave])
