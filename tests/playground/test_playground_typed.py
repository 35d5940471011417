"""A slash command typed whole in the playground's message box runs as if picked.

Each test posts what the page's message box posts when Enter is pressed on a typed
line (a ``send_message`` action, over the preview's HTTP API, as the page does),
to a preview with the playground's hook (``accept_typed_commands``) attached.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
import simcord
from simcord.preview import Preview

from bot.playground.typed import (
    LineError,
    TypedLine,
    accept_typed_commands,
    is_command_line,
    parse_line,
)
from bot.playground.world import World, running_world


@dataclass
class Page:
    """One viewer's page of the preview, speaking its HTTP API."""

    http: aiohttp.ClientSession
    headers: dict[str, str]
    context: dict[str, Any]
    bot_generation: int
    sequence: itertools.count[int]

    async def state(self) -> dict[str, Any]:
        async with self.http.get("/api/state", headers=self.headers) as response:
            return dict(await response.json())

    async def type_line(self, content: str) -> dict[str, Any]:
        """Type ``content`` in the message box and press Enter."""
        state = await self.state()
        action = {
            "protocol_version": 3,
            "sequence": next(self.sequence),
            "request_id": f"typed-{content}",
            "generation": state["context"]["generation"],
            "bot_generation": self.bot_generation,
            "published_revision": state["publishedRevision"],
            "kind": "send_message",
            "content": content,
            "target_id": None,
            "reply_to_id": None,
        }
        async with self.http.post("/api/action", json=action, headers=self.headers) as response:
            assert response.status == 200
            return dict(await response.json())


@asynccontextmanager
async def playground(new_bot: Any) -> AsyncIterator[tuple[simcord.Env, World, Any]]:
    """The playground's world and page (the hook attached), and ``open_page(name)``."""
    async with running_world(new_bot()) as (env, world):
        preview = env.preview(world.channel, viewers=list(world.members), layout="channel", port=0)
        async with preview:
            accept_typed_commands(preview)
            base, _, capability = preview.url.partition("/#")
            async with aiohttp.ClientSession(base) as http:

                async def open_page(name: str) -> Page:
                    headers = {"X-Simcord-Capability": capability}
                    viewer = str(world.member(name).id)
                    body = {"viewer_id": viewer}
                    async with http.post("/api/pages", json=body, headers=headers) as response:
                        page = await response.json()
                    headers["X-Simcord-Context"] = page["context"]["id"]
                    return Page(
                        http, headers, page["context"], page["botGeneration"], itertools.count(1)
                    )

                yield env, world, open_page


def settled(result: dict[str, Any]) -> None:
    assert not result["rejected"], result
    assert result["settlement"] == "settled", result


def visible(world: World, name: str) -> list[Any]:
    return list(world.channel.history(viewer=world.member(name)))


async def test_a_typed_command_opens_a_table_and_plays_a_move(new_bot):
    async with playground(new_bot) as (env, world, open_page):
        alice = await open_page("Alice")
        settled(await alice.type_line("/domino new game:block players:2 scoring:single"))
        game = await env.bot.games.in_channel(world.channel.id)
        assert game is not None
        assert game.rules.game == "block"
        assert game.rules.scoring == "single"
        # nothing was posted as plain text: the channel holds the bot's messages only
        assert all(m.author.id == env.bot.user.id for m in visible(world, "Bob"))
        assert "table is open" in world.channel.last_message.embeds[0].title

        bob = await open_page("Bob")
        settled(await bob.type_line("/domino join"))
        settled(await alice.type_line("/domino start"))
        game = await env.bot.games.in_channel(world.channel.id)
        mover = "Alice" if game.turn_seat.user_id == world.member("Alice").id else "Bob"
        page = alice if mover == "Alice" else bob
        seat = game.turn
        [move, *_] = game.state.deal.legal_moves()
        assert move.tile in game.state.deal.hand(seat)
        end = move.placements[0].end
        typed = f"/domino play tile:{move.tile.low}-{move.tile.high}"
        settled(await page.type_line(typed if end is None else f"{typed} end:{end}"))
        after = await env.bot.games.in_channel(world.channel.id)
        assert after.version > game.version
        assert move.tile not in after.state.deal.hand(seat)  # it is on the table now


async def test_a_choice_by_its_name_and_a_true_false_option(new_bot):
    async with playground(new_bot) as (env, world, open_page):
        alice = await open_page("Alice")
        settled(await alice.type_line('/domino new game:"Draw game" teams:false'))
        game = await env.bot.games.in_channel(world.channel.id)
        assert game.rules.game == "draw"
        assert not game.rules.teams


async def test_an_unknown_command_is_answered_to_the_typist_alone(new_bot):
    async with playground(new_bot) as (env, world, open_page):
        bob = await open_page("Bob")
        settled(await bob.type_line("/domino dance floor:yes"))
        [answer] = visible(world, "Bob")
        assert answer.flags.ephemeral
        assert answer.author.id == env.bot.user.id
        assert answer.content.startswith("There is no command `/domino dance`.")
        assert "`/domino help`" in answer.content
        assert visible(world, "Alice") == []  # nobody else sees it, nothing was posted
        assert await env.bot.games.in_channel(world.channel.id) is None
        # the page shows it to Bob
        assert str(answer.id) in (await bob.state())["messages"]
        alice = await open_page("Alice")
        assert str(answer.id) not in (await alice.state())["messages"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("/domino", "`/domino` is not a whole command. The commands: `/domino about`, `/domino"),
        ("/domino settings", "The commands: `/domino settings language`, `/domino settings"),
        ("/domino play 6-4", "Write each option as name:value, e.g. `tile:6-4`; `6-4` has no"),
        ("/domino new game:chess", "`chess` does not fit the option `game` of `/domino new`."),
        ("/domino new game:block players:99", "is a whole number from 2 to 8."),
        ("/domino new", "`/domino new` needs the option `game`, e.g. `game:…`."),
        ("/domino new game:block colour:red", "`/domino new` has no option `colour`."),
        ("/domino join seat:2", "`/domino join` has no option `seat`: it takes none."),
        ('/domino play tile:"6-4', "A quote in your command is not closed"),
        ("/domino new game:block game:draw", "The option `game` is given twice"),
    ],
)
async def test_a_line_that_does_not_fit_says_why_and_runs_nothing(new_bot, line, expected):
    async with playground(new_bot) as (env, world, open_page):
        alice = await open_page("Alice")
        settled(await alice.type_line(line))
        [answer] = visible(world, "Alice")
        assert answer.flags.ephemeral
        assert expected in answer.content
        assert await env.bot.games.in_channel(world.channel.id) is None


async def test_plain_text_and_a_refused_move_stay_as_they_were(new_bot):
    async with playground(new_bot) as (_env, world, open_page):
        alice = await open_page("Alice")
        settled(await alice.type_line("good luck, everyone"))
        [said] = visible(world, "Bob")
        assert said.content == "good luck, everyone"
        assert said.author.id == world.member("Alice").id
        # the bot's own refusal, as when the command is picked from the popup
        settled(await alice.type_line("/domino play tile:6-4"))
        answer = visible(world, "Alice")[-1]
        assert answer.flags.ephemeral
        assert answer.content == "There is no game in this channel. Open one with /domino new."


def test_lines_are_read_as_words_and_options():
    assert is_command_line("  /domino board ")
    assert not is_command_line("hello /domino")
    assert not is_command_line("/domino new\ngame:block")
    assert parse_line('/Domino PLAY tile:"3-3 5-5" end:"north east"') == TypedLine(
        ("domino", "play"), {"tile": "3-3 5-5", "end": "north east"}
    )
    with pytest.raises(LineError):
        parse_line("/domino play tile:6-4 east")


def test_the_hook_is_still_there():
    """The preview prepares every page action in one method, which the hook wraps."""
    assert callable(Preview._prepare_action)


async def test_a_puzzle_on_demand_in_the_playground(new_bot):
    """Issue 40: the playground shows the daily puzzle on demand (a built-in one, the
    fresh world having no finished match), and an answer is told privately."""
    async with playground(new_bot) as (_env, world, open_page):
        alice = await open_page("Alice")
        settled(await alice.type_line("/domino puzzle today"))
        [shown] = visible(world, "Alice")
        assert shown.flags.ephemeral
        assert shown.attachments  # the position's picture
        moves = [
            c.custom_id
            for row in shown.components
            for c in row.children
            if (c.custom_id or "").startswith("domino:pz:")
        ]
        assert len(moves) >= 2
        assert visible(world, "Bob") == []  # nobody else sees Alice's puzzle
        answered = await world.member("Alice").click(shown, custom_id=moves[0])
        told = [answered.response, *answered.followups]
        assert any(m.flags.ephemeral for m in told)
        assert any("streak" in (m.content or "").lower() for m in told)
