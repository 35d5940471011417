"""Game review through Discord (issue 40): a match played to its end, ``/domino review``
answers privately with "Reviewing…", then the picture and a few lines; asked again (the
finished table's Review button), it is served from storage; bad requests are refused
politely and change nothing."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image

from bot.engine.review import ReviewSettings
from bot.engine.review.values import KNOWN

SMALL = ReviewSettings(known=replace(KNOWN, work=10_000, worlds=20), open_playouts=2)


async def finished_match(bot, channel, driver, alice):
    """alice against an easy AI seat, a one-deal match played to its end."""
    await alice.slash(channel, "domino new", game="draw", scoring="single")
    table = channel.last_message
    await alice.slash(channel, "domino addbot", level="easy")
    await alice.click(table, label="Start")
    session = await driver.play_until(lambda s: s.status != "playing")
    assert session.status == "finished"
    final = next(m for m in channel.history(viewer=alice) if m.id == session.table_message_id)
    return session, final


def counted(requests) -> list:
    """The calls Discord counts: every route but an interaction's own."""
    return [r for r in requests if not r.path.startswith(("/interactions/", "/webhooks/"))]


async def count_reviews(bot) -> int:
    row = await bot.db.fetchone("SELECT count(*) FROM reviews")
    return int(row[0])


async def test_a_finished_match_is_reviewed_then_served_from_storage(
    simcord_env, bot, channel, alice, bob, driver
):
    bot.reviews.settings = SMALL
    session, final = await finished_match(bot, channel, driver, alice)
    await bot.get_cog("Domino").publisher.settled()
    mark = len(simcord_env.http_requests)

    result = await alice.slash(channel, "domino review")
    assert result.ephemeral
    message = result.response
    assert "Review · match #" in message.content
    assert "· deal 1**" in message.content
    assert "alice: " in message.content  # the seat's accuracy line
    [picture] = message.attachments
    assert picture.filename == "review.png"
    image = Image.open(io.BytesIO(await picture.read()))
    assert image.width == 1000
    assert bot.ai.reviews == 1
    assert await count_reviews(bot) == 1
    # nothing public was posted: the review is the asker's own answer
    assert all("Review · match" not in m.content for m in channel.history(viewer=bob))

    # the table's Review button: the same review, from storage (no new computation)
    again = await bob.click(final, label="Review")
    [reply] = [m for m in [again.response, *again.followups] if m is not None and m.ephemeral]
    assert reply.content == message.content
    assert await reply.attachments[0].read() == await picture.read()
    assert bot.ai.reviews == 1
    assert await count_reviews(bot) == 1
    assert session.id
    # both answers rode on the asker's own interaction: no counted Discord call
    assert counted(simcord_env.http_requests[mark:]) == []


async def test_bad_review_requests_are_refused_politely(bot, channel, alice, bob, driver):
    bot.reviews.settings = SMALL
    none_yet = await alice.slash(channel, "domino review")
    assert none_yet.ephemeral
    assert "no finished match on this server to review yet" in none_yet.response.content
    await finished_match(bot, channel, driver, alice)
    unknown = await alice.slash(channel, "domino review", match=987654)
    assert "There is no such match on this server." in unknown.response.content
    history = await bot.stats.history(channel.guild.id)
    match_id = history.entries[0].id
    wrong_deal = await alice.slash(channel, "domino review", match=match_id, deal=9)
    assert f"Match #{match_id} has finished deals 1 to 1." in wrong_deal.response.content
    assert bot.ai.reviews == 0
    # bob had no seat, but a finished match is public: he may review it by its number
    theirs = await bob.slash(channel, "domino review", match=match_id)
    assert f"match #{match_id}" in theirs.response.content
