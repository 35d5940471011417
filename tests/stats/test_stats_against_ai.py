"""A player's matches against the AI: counted, unrated, and on their card per game.

On both backends: the card reads them from the stored seats (a match is against the AI
when no seat of another side is a human's), so nothing new is stored for them.
"""

from __future__ import annotations

from typing import Any

from bot.storage import Database, Tally

ALICE, BOB = 21, 22
AI = None


async def test_a_solo_players_card_counts_their_games_against_the_ai(
    db: Database, matches: Any
) -> None:
    # alone against one AI: a win and a loss (block); against two (allfives): a draw
    await matches.add((ALICE, "Alice", 0, 100.0, True, None), (AI, "Bot", 1, 0.0, False, None))
    await matches.add((ALICE, "Alice", 0, 0.0, False, None), (AI, "Bot", 1, 100.0, True, None))
    await matches.add(
        (ALICE, "Alice", 0, 0.0, False, None),
        (AI, "Bot 1", 1, 0.0, False, None),
        (AI, "Bot 2", 2, 0.0, False, None),
        game="allfives",
    )
    card = await db.leaderboards.card(1, ALICE)
    assert card is not None
    assert dict(card.against_ai) == {"block": Tally(2, 1, 0), "allfives": Tally(1, 0, 1)}
    assert all(s.rating is None for s in card.standings)  # unrated: no human opponent
    assert {s.game: s.matches for s in card.standings} == {"block": 2, "allfives": 1}


async def test_only_matches_without_a_human_opponent_are_against_the_ai(
    db: Database, matches: Any
) -> None:
    # Alice and Bob partners against two AIs: against the AI, for both
    await matches.add(
        (ALICE, "Alice", 0, 100.0, True, None),
        (AI, "Bot 1", 1, 0.0, False, None),
        (BOB, "Bob", 0, 100.0, True, None),
        (AI, "Bot 2", 1, 0.0, False, None),
    )
    # each with an AI partner, against each other: a human opponent (rated)
    await matches.add(
        (ALICE, "Alice", 0, 100.0, True, None),
        (BOB, "Bob", 1, 0.0, False, None),
        (AI, "Bot 1", 0, 100.0, True, None),
        (AI, "Bot 2", 1, 0.0, False, None),
    )
    # free for all, two humans and an AI: a human opponent
    await matches.add(
        (ALICE, "Alice", 0, 10.0, False, None),
        (BOB, "Bob", 1, 0.0, False, None),
        (AI, "Bot", 2, 50.0, True, None),
    )
    alice = await db.leaderboards.card(1, ALICE)
    bob = await db.leaderboards.card(1, BOB)
    assert alice is not None
    assert bob is not None
    assert dict(alice.against_ai) == {"block": Tally(1, 1, 0)}
    assert dict(bob.against_ai) == {"block": Tally(1, 1, 0)}
    assert alice.standings[0].matches == 3
    assert alice.standings[0].rated == 2  # the other two moved her rating


async def test_a_player_who_never_met_the_ai_has_none(db: Database, matches: Any) -> None:
    await matches.add((ALICE, "Alice", 0, 100.0, True, None), (BOB, "Bob", 1, 0.0, False, None))
    card = await db.leaderboards.card(1, ALICE)
    assert card is not None
    assert dict(card.against_ai) == {}
    # another server's matches are not hers here
    await matches.add(
        (ALICE, "Alice", 0, 100.0, True, None), (AI, "Bot", 1, 0.0, False, None), guild_id=2
    )
    again = await db.leaderboards.card(1, ALICE)
    assert again is not None
    assert dict(again.against_ai) == {}
