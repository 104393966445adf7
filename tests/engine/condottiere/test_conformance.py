"""Seeded random games for every player count and every variant, checking the contract at
every step: the 110 cards are all there, states and actions round-trip through plain data,
equal states and actions give equal results, listed actions pass the checked door and a sample
of unlisted ones are refused, a seat's view yields the same decisions as the full state, a peer
following its own view with masked actions stays in step, and every game and match ends.

``PALAZZO_LONG=1`` plays thousands of games instead of a few dozen.
"""

from __future__ import annotations

import os
import random

import pytest

from engine.condottiere import RULES, CondottiereConfig
from engine.condottiere import rules as R
from engine.condottiere.bots import GreedyBot, RandomBot
from engine.condottiere.cards import FULL_DECK, KINDS, SLOTS
from engine.condottiere.state import ACTION_KINDS, Action, State, mk, target_field
from engine.condottiere.view import public_action, view
from engine.core import CHANCE, REVEAL, TERMINAL, UNKNOWN, IllegalActionError, sample_chance

LONG = os.environ.get("PALAZZO_LONG") == "1"
#: the variants as the engine declares them: a new one gets conformance games by itself
VARIANTS = RULES.options

CONFIGS = (
    [(f"{n}p", CondottiereConfig(n)) for n in range(2, 7)]
    + [(f"4p-{v}", CondottiereConfig(4, **{v: True})) for v in VARIANTS]
    + [(f"{n}p-all", CondottiereConfig(n, **{v: True for v in VARIANTS})) for n in (2, 3, 4, 5, 6)]
)
GAMES = 400 if LONG else 12
DEEP = 40 if LONG else 3  # games per configuration with every check at every step
#: the quick run's games of each configuration (the first of the GAMES; ``long`` plays them all)
QUICK = 3


def conserved(s: State) -> bool:
    total = [0] * SLOTS
    for h in s.hands:
        for c in h:
            total[c] += 1
    for line in s.lines:
        for c, _ in line:
            total[c] += 1
    for i in range(SLOTS):
        total[i] += s.pile[i] + s.discards[i]
    return tuple(total) == FULL_DECK


def random_action(rng: random.Random, n: int) -> Action:
    kind = rng.choice(ACTION_KINDS)
    k = rng.randrange(4)
    cards = tuple(sorted(rng.randrange(-1, KINDS) for _ in range(k)))
    seat, card, target = rng.randrange(n), rng.randrange(-2, KINDS), rng.randrange(-1, 18)
    return mk(kind, seat, card=card, flip=rng.randrange(-1, 3), cards=cards,
              **{target_field(kind, card) or "region": target})


def mutate(a: Action, rng: random.Random, n: int) -> Action:
    """A legal action with one field changed: usually illegal."""
    field = rng.randrange(5)
    if field == 0:
        return a._replace(seat=(a.seat + 1 + rng.randrange(n - 1)) % n)
    if field == 1:
        return a._replace(card=rng.randrange(-1, KINDS))
    if field == 2:
        return a._replace(**{target_field(a.kind, a.card) or "region": rng.randrange(-1, 18)})
    if field == 3:
        return a._replace(flip=rng.randrange(-1, 3))
    return a._replace(cards=tuple(sorted(a.cards + (rng.randrange(KINDS),))))


def check_step(s: State, a: Action, rng: random.Random) -> State:
    """Every contract check on one step; returns the next state."""
    n = s.players
    assert conserved(s)
    assert State.from_data(s.to_data()) == s
    assert Action.from_data(a.to_data()) == a
    who = R.current_player(s)
    legal = R.legal_actions(s)
    assert a in legal
    assert len(set(legal)) == len(legal)
    after = RULES.apply(s, a)
    assert after == R.apply_unchecked(State.from_data(s.to_data()), Action.from_data(a.to_data()))
    if who >= 0:
        # the actor's view offers exactly the same decisions
        assert R.legal_actions(view(s, who)) == legal
    near = [mutate(rng.choice(legal), rng, n) for _ in range(3)]
    for bad in [random_action(rng, n) for _ in range(3)] + near:
        if bad not in legal:
            with pytest.raises(IllegalActionError):
                RULES.apply(s, bad)
    # a peer that sees only its own view follows the game from the masked action
    seat = rng.randrange(n)
    mine = view(s, seat)
    masked = public_action(s, a, seat)
    followed = RULES.apply(mine, masked)
    assert view(followed, seat) == view(after, seat)
    return after


def play(config: CondottiereConfig, seed: int, deep: bool) -> State:
    rng = random.Random(seed)
    n = config.players
    bots = [(GreedyBot if (seed + i) % 3 == 0 else RandomBot)(random.Random(seed * 7 + i))
            for i in range(n)]
    s = RULES.new_game(config)
    for _ in range(200_000):
        who = R.current_player(s)
        if who == TERMINAL:
            return s
        if who == CHANCE:
            a = sample_chance(R.chance_outcomes(s), rng)
        elif who == REVEAL:
            a = R.legal_actions(s)[0]
            assert R.revealer(s) == a.seat
        else:
            a = bots[who].choose(view(s, who), who)
        s = check_step(s, a, rng) if deep else R.apply_unchecked(s, a)
        if not deep:
            assert conserved(s)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("games", [QUICK, pytest.param(GAMES, marks=pytest.mark.long)],
                         ids=["quick", "all"])
@pytest.mark.parametrize("label,config", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_random_games_keep_the_contract(label: str, config: CondottiereConfig, games: int) -> None:
    for g in range(games):
        end = play(config, 1000 * len(label) + g, deep=g < DEEP)
        o = RULES.outcome(end)
        assert o.winners and all(0 <= w < config.players for w in o.winners)
        assert len(o.scores) == config.players
        if config.playing_for_points:
            assert end.end in (R.END_TARGET, R.END_GAME_LIMIT, R.END_MATCH_FINAL)
            assert max(o.scores) >= config.target_score or end.end != R.END_TARGET
        else:
            assert sum(o.scores) <= 17


def test_a_seeded_game_replays_exactly() -> None:
    config = CondottiereConfig(4, hidden_cards=True)
    assert play(config, 5, deep=False) == play(config, 5, deep=False)
    assert play(config, 5, deep=False) != play(config, 6, deep=False)


def test_chance_outcomes_are_the_pile_and_sum_to_one() -> None:
    s = RULES.new_game(CondottiereConfig(3))
    starts = R.chance_outcomes(s)
    assert [a.seat for a, _ in starts] == [0, 1, 2]
    s = R.apply_unchecked(s, starts[1][0])
    draws = R.chance_outcomes(s)
    assert abs(sum(p for _, p in draws) - 1) < 1e-9
    assert {a.card: round(p * 110) for a, p in draws} == dict(enumerate(FULL_DECK[:KINDS]))
    assert all(a.seat == 1 for a, _ in draws)  # the token holder is dealt first
    # a view's pile is face down: one outcome, an unknown card
    assert [(a.card, p) for a, p in R.chance_outcomes(view(s, 0))] == [(UNKNOWN, 1.0)]
