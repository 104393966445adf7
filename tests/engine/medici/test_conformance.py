"""Conformance over seeded random games: at every step of every game, the engine's contract.

At each step: the state and the chosen action round-trip through plain data (and JSON); equal
states and equal actions give equal results; every card is conserved (25 per house); legal
actions are unique and in canonical order; the actor's view lists the same legal actions as the
full state; listed actions apply through the checked door, actions not listed raise
``IllegalActionError`` and malformed ones ``InvalidActionError``; every game ends.

The default run is lean (a few hundred games); ``PALAZZO_LONG=1`` plays thousands.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest

from engine.core import (
    CHANCE,
    REVEAL,
    TERMINAL,
    IllegalActionError,
    InvalidActionError,
    sample_chance,
)
from engine.medici import RULES, MediciConfig
from engine.medici.cards import house_deck
from engine.medici.rules import sort_key
from engine.medici.state import NO_CARD, Action, State, target_field

LONG = os.environ.get("PALAZZO_LONG") == "1"
GAMES = 750 if LONG else 75
#: the quick run's games of each configuration (the first of the GAMES; ``long`` plays them all)
QUICK = 25
#: one game in FULL checks every legal action through the checked door (the others a sample)
FULL = 10 if LONG else 15
STEP_LIMIT = 2000


def all_cards(s: State) -> Counter[int]:
    """Every card of the state, wherever it is."""
    out: Counter[int] = Counter()
    for part in (s.hands, s.pools, s.bottoms):
        for cards in part:
            out.update(cards)
    for row in s.alliances:
        for a in row:
            if a is not None:
                out.update(c for c in a[1:3] if c != NO_CARD)
    for _, _, cards in s.middle:
        out.update(c for c, _ in cards)
    out.update(s.eliminated)
    if s.pending is not None:
        out[s.pending[1]] += 1  # the played card; the hidden one is still in its slot
    return out


def not_listed(a: Action, legal: set[Action], rng: random.Random) -> list[Action]:
    """Well-formed variations of a legal action that are not legal."""
    variants = [
        a._replace(card=a.card + rng.choice((-1, 1, 13, 26))),
        a._replace(value=a.value + rng.choice((-1, 1, 11))),
        _moved(a, rng.choice((-1, 1, 5))),
        a._replace(elim=a.elim + rng.choice((1, 2, 7))),
        a._replace(seat=(a.seat + 1) % 4),
        a._replace(kind=rng.choice(("court", "build", "conspire", "strike", "plan", "draw", "reveal",
                                    "resolve", "stuck", "hide", "top", "flip", "first"))),
        a._replace(extra=a.extra + 1),
    ]
    return [v for v in variants if v not in legal]


def _moved(a: Action, by: int) -> Action:
    """``a`` naming another holder, slot or stack (a stack when its kind names none)."""
    field = target_field(a.kind) or "stack"
    return a._replace(**{field: getattr(a, field) + by})


#: every card of a 3- and a 4-player game: 25 per house
ALL_CARDS = {n: Counter(c for h in range(n) for c in house_deck(h)) for n in (3, 4)}

MALFORMED = [
    {"kind": "conquer", "seat": 0},
    {"seat": 0},
    {"kind": "court", "seat": 0, "card": "Noble 4"},
    {"kind": "court", "seat": 0, "card": 3, "value": 3.0},
    {"kind": "court", "seat": 0, "card": 3, "colour": "red"},
    {"kind": "court", "seat": 0, "card": 3, "value": 10**9},
    ["court", 0, 3],
    None,
    Action("court", 0, card=3, value=True),  # a bool is not an int here
]


def refused(s: State, action: object) -> type[Exception] | None:
    """The kind of error the checked door raises for ``action`` at ``s`` (None: it applies).
    (A plain ``try``: ``pytest.raises`` costs more than the rest of a step.)"""
    try:
        RULES.apply(s, action)
    except (IllegalActionError, InvalidActionError) as e:
        return type(e)
    return None


def check_step(s: State, rng: random.Random, full: bool) -> tuple[Action, State]:
    """Check the contract at ``s``; return the action the random game takes there and the
    state after it."""
    data = s.to_data()
    assert json.loads(json.dumps(data)) == data  # plain data: JSON gives it back unchanged
    restored = State.from_data(json.loads(json.dumps(data)))
    assert restored == s and hash(restored) == hash(s)
    assert all_cards(s) == ALL_CARDS[s.players]

    who = RULES.current_player(s)
    legal = RULES.legal_actions(s)
    assert legal, f"no legal action at {s!r}"
    assert len(set(legal)) == len(legal)
    assert legal == sorted(legal, key=sort_key)
    if who >= 0 or who == REVEAL:
        actor = who if who >= 0 else RULES.revealer(s)
        assert RULES.legal_actions(RULES.view(s, actor)) == legal
    if who == CHANCE:
        outcomes = RULES.chance_outcomes(s)
        assert [a for a, _ in outcomes] == legal
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        chosen = sample_chance(outcomes, rng)
    else:
        chosen = rng.choice(legal)

    # equal states and equal actions give equal results, through the checked door or not
    result = RULES.apply(s, chosen)
    assert result == RULES.apply_unchecked(s, chosen)
    copy = Action.from_data(json.loads(json.dumps(chosen.to_data())))
    assert copy == chosen and RULES.apply(restored, copy) == result
    for a in legal if full else [rng.choice(legal)]:
        assert RULES.apply(s, a) == RULES.apply_unchecked(s, a)
    assert s.to_data() == data  # applying never changes the state it was given
    listed = set(legal)
    variants = not_listed(rng.choice(legal), listed, rng)
    for bad in variants if full else rng.sample(variants, min(3, len(variants))):
        assert refused(s, bad) is IllegalActionError, bad
    malformed = rng.choice(MALFORMED)
    assert refused(s, malformed) is InvalidActionError, malformed
    return chosen, result


def play_checked(config: MediciConfig, seed: int, full: bool) -> State:
    rng = random.Random(seed)
    s = RULES.new_game(config)
    for _ in range(STEP_LIMIT):
        if RULES.current_player(s) == TERMINAL:
            break
        _, s = check_step(s, rng, full)
    else:
        raise AssertionError(f"game {seed} did not end within {STEP_LIMIT} steps")
    assert RULES.is_over(s) and RULES.legal_actions(s) == []
    with pytest.raises(IllegalActionError):
        RULES.apply(s, Action("stuck", s.turn))
    outcome = RULES.outcome(s)
    assert outcome.winners and all(outcome.scores[w] == max(outcome.scores) for w in outcome.winners)
    return s


#: no option, then each rules option as the engine declares it: a new one gets games by itself
OPTIONS = ("", *RULES.options)


@pytest.mark.parametrize("games", [QUICK, pytest.param(GAMES, marks=pytest.mark.long)],
                         ids=["quick", "all"])
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("option", OPTIONS, ids=[o or "default" for o in OPTIONS])
def test_random_games_keep_the_contract(players: int, option: str, games: int):
    config = RULES.make_config(players, {option: True} if option else {})
    end_when_all_struck = config.end_when_all_struck
    ends: Counter[str] = Counter()
    for i in range(games):
        seed = 10_000 * players + 1000 * OPTIONS.index(option) + i
        s = play_checked(config, seed, full=i % FULL == 0)
        ends[s.end] += 1
    # random players end by the alliances (the default reading) or by the empty deck; with the
    # option they hardly ever strike all nine or twelve alliances
    expected = "all-struck" if end_when_all_struck else "alliances-gone"
    assert set(ends) <= {expected, "no-playable-card"}, ends
    if not end_when_all_struck and games == GAMES:
        assert set(ends) == {expected, "no-playable-card"}, ends
