"""The fitted choice model (``choice_model.py``, ``SearchSettings.model``): what a
choice records of its moment, the fast reader against the plain features, and the
fitted weights against heavy-first on players it was fitted to."""

from __future__ import annotations

import math
import random

import pytest
from ai_support import exact_choices

from bot.engine import Rules, new_match, play, view
from bot.engine.ai import Level, SearchSettings, choose_move
from bot.engine.ai.choice_model import FITTED, ChoiceReader, ChoiceWeights, features, placements
from bot.engine.ai.determinize import play_weight, tile_heft
from bot.engine.ai.knowledge import open_values, read_view
from bot.engine.ai.search import MODELS, hard_move, model_for
from bot.engine.tiles import PIPS

TWO = Rules.make(game="block", players=2)
TEAMS = Rules.make(game="block", players=4, teams=True)
DRAW = Rules.make(game="draw", players=3)
WEIGHTS = FITTED["block", 2]


def plain_weight(know, hands, weights: ChoiceWeights, scale: float, at_random: float) -> float:
    """The model's likelihood computed from :func:`features`, seat by seat."""
    w = weights.vector(scale)
    model: dict[int, float] = {}
    uniform: dict[int, float] = {}
    for c in know.choices:
        if not c.exact or c.seat == know.seat:
            continue
        hand = hands[c.seat] | c.later | (1 << c.tile)
        options = placements(c, hand)
        scores = {
            o: math.exp(
                sum(a * b for a, b in zip(w, features(c, hand, *o, know.every), strict=True))
            )
            for o in options
        }
        chosen = (int(c.tile), PIPS[c.tile] - c.exposed)
        model[c.seat] = model.get(c.seat, 1.0) * scores[chosen] / sum(scores.values())
        uniform[c.seat] = uniform.get(c.seat, 1.0) / len(options)
    weight = 1.0
    for seat, m in model.items():
        weight *= (1 - at_random) * m + at_random * uniform[seat]
    return weight


@pytest.mark.parametrize(
    ("rules", "scale", "at_random"),
    [(TWO, 1.0, 0.0), (TWO, 0.6, 0.0), (TWO, 1.0, 0.3), (TEAMS, 1.0, 0.0), (TEAMS, 2.0, 0.3)],
)
def test_the_reader_computes_the_plain_likelihood(
    rules: Rules, scale: float, at_random: float
) -> None:
    """In the real world and in sampled ones, the fast reader gives what the plain
    features give, placement by placement (2-player block and 4-player teams, with
    their own fitted weights)."""
    weights = FITTED[rules.game, rules.players]
    checked = 0
    for know, world, pairs in exact_choices(rules, 12, 0):
        others = {s for s in range(rules.players) if s != know.seat}
        reader = ChoiceReader(know, others, weights, scale, at_random)
        expected = plain_weight(know, world.hands, weights, scale, at_random)
        assert reader.weight(world.hands) == pytest.approx(expected, rel=1e-9)
        checked += len(pairs)
    assert checked > 100


def test_a_choice_records_the_table_of_its_moment() -> None:
    """Replayed move by move (three players, with draws): each recorded choice carries
    the open numbers, the tiles face up and the next seat's share as they were."""
    checked = 0
    for seed in range(10):
        rng = random.Random(seed)
        state = new_match(DRAW, rng)
        moments = []
        while not state.deal.over:
            deal = state.deal
            seat = deal.turn
            move = choose_move(view(state, seat), Level.NORMAL, rng)
            in_hands = 0
            for h in deal.hands:
                in_hands |= h
            stock = 0
            for t in deal.stock[deal.drawn :]:
                stock |= 1 << t
            table = (1 << DRAW.tile_count) - 1 & ~in_hands & ~stock
            could_not_see = DRAW.tile_count - table.bit_count() - deal.hands[seat].bit_count()
            share = deal.hands[(seat + 1) % 3].bit_count() / could_not_see
            moments.append((seat, move, tuple(open_values(deal.layout)), table, share))
            state = play(state, move, seat)
            know = read_view(view(state, 0)) if not state.deal.over else None
            if know is None or not know.choices:
                continue
            last = know.choices[-1]
            _seat, _move, values, table_then, share_then = next(
                m for m in reversed(moments) if m[0] == last.seat and last.tile in m[1].tiles
            )
            assert last.values == values
            assert last.table == table_then
            assert last.share == pytest.approx(min(1.0, share_then))
            checked += 1
    assert checked > 50


def log_gain(reader_of, deals: int, seed: int) -> float:
    """Mean log-likelihood of the real hands over sampled worlds, at seat 0's turns."""
    gaps = []
    real = None
    for _know, world, _pairs in exact_choices(TWO, deals, seed):
        weight = reader_of(_know)(world)
        if real is None:
            real = weight
        else:
            gaps.append(math.log(real) - math.log(weight))
            real = None
    return sum(gaps) / len(gaps)


def test_the_fitted_model_reads_normal_players_better_than_heavy_first() -> None:
    """On deals it was not fitted on (the fit's deals are its own), the real hands
    explain normal players' choices better than sampled hands do, by more under the
    fitted model than under heavy-first."""
    heft = tile_heft(0.3, 3.0, TWO.tile_count)

    def heavy(know):
        return lambda world: play_weight(know, world, heft)

    def fitted(know):
        reader = ChoiceReader(know, {1 - know.seat}, WEIGHTS)
        return lambda world: reader.weight(world.hands)

    heavy_gain = log_gain(heavy, 30, 5)
    fitted_gain = log_gain(fitted, 30, 5)
    assert heavy_gain > 0
    assert fitted_gain > heavy_gain + 0.5


def test_the_model_is_off_where_it_was_not_measured_better() -> None:
    assert model_for(TWO, SearchSettings()) == MODELS.get(("block", 2), 0.0)
    assert model_for(DRAW, SearchSettings(model=1.0)) == 0.0  # nothing fitted for it
    assert model_for(TWO, SearchSettings(model=0.5)) == 0.5
    assert model_for(TEAMS, SearchSettings()) == MODELS.get(("block", 4), 0.0)
    assert model_for(TEAMS, SearchSettings(model=1.0)) == 1.0


def test_the_hard_level_with_the_model_plays_legally_and_repeats_itself() -> None:
    settings = SearchSettings(model=1.0, work=20_000)
    rng = random.Random(3)
    state = new_match(TWO, rng)
    decisions = 0
    while not state.deal.over:
        seat = state.deal.turn
        seen = view(state, seat)
        know = read_view(seen)
        move = hard_move(know, random.Random(decisions), settings)
        assert move in seen.legal_moves
        assert hard_move(read_view(seen), random.Random(decisions), settings) == move
        decisions += 1
        state = play(state, move, seat)
    assert decisions > 5
