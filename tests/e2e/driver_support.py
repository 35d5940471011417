"""Playing a game through the real UI in SimCord (the ``driver`` fixture's class; import
it from here, not from conftest, whose module name other folders share)."""

from __future__ import annotations


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
