"""A conformance check that knows nothing of any one game: only the contract
(``engine.core.GameRules``) and the game's rules options as data (``rules.variants``).

``configs(rules)`` gives every player count with no option, each option alone (a numeric one
at each value it offers) and all options together: so a new variant gets conformance games by
being declared. ``check_game(rules, config, seed)`` plays one seeded game of random decisions
and checks at every step what every game promises:

* the state and every legal action round-trip through plain data (and JSON), with equal hashes;
* ``current_player`` is a seat, ``CHANCE``, ``REVEAL`` or ``TERMINAL``; legal actions are unique;
  chance outcomes are the legal actions with probabilities summing to 1; the revealer is a seat;
* the actor's (or revealer's) view lists the same legal actions as the full state; a view
  viewed again is the same view; every seat's view round-trips through plain data;
* the checked door and the unchecked path agree on the chosen action, leave the state as it
  was, and refuse plain junk with ``InvalidActionError``;
* what a seat learns of the action (``public_action``) is the same from its own view, is
  unchanged when masked again, and, applied to its view through the checked door, gives its
  next view;
* the action reads as words to the referee and to every seat; ``scores`` has one per seat;
* the game ends; then there is no legal action, the door refuses anything with
  ``IllegalActionError``, and the outcome names winners among the seats.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.core import (
    CHANCE,
    REVEAL,
    TERMINAL,
    GameRules,
    IllegalActionError,
    InvalidActionError,
    Outcome,
    sample_chance,
)

STEP_LIMIT = 20_000


def configs(rules: GameRules[Any, Any, Any]) -> list[tuple[str, Any]]:
    """``(label, config)`` for every player count, each option alone (at the most players) and
    all options together (at the fewest and the most players); a numeric option at the first
    value it offers (``check_config`` makes one of each)."""
    out = [(f"{n}p", rules.make_config(n, {}))
           for n in range(rules.min_players, rules.max_players + 1)]
    n = rules.max_players
    every: dict[str, object] = {}
    for option in rules.variants:
        value = option.values[0] if option.values else True
        out.append((f"{n}p-{option.name}={value}", rules.make_config(n, {option.name: value})))
        every[option.name] = value
    if len(rules.variants) > 1:
        for p in sorted({rules.min_players, n}):
            out.append((f"{p}p-all", rules.make_config(p, every)))
    return out


def _plain(data: Any) -> Any:
    text = json.dumps(data)
    assert json.loads(text) == data, "not plain data"
    return json.loads(text)


def check_config(rules: GameRules[Any, Any, Any]) -> None:
    """``make_config`` takes every declared option, refuses an unknown one, and gives a
    configuration that round-trips through plain data."""
    for n in range(rules.min_players, rules.max_players + 1):
        config = rules.make_config(n, {})
        assert config.players == n
        assert rules.Config.from_data(_plain(config.to_data())) == config
        assert isinstance(rules.config_warnings(config), list)
        assert len(rules.seat_names) >= n
    for option in rules.variants:
        for value in option.values or (True, False):
            config = rules.make_config(rules.min_players, {option.name: value})
            assert rules.Config.from_data(_plain(config.to_data())) == config
        assert option.default in (False, 0, *option.values)
    with pytest.raises(ValueError):
        rules.make_config(rules.min_players, {"no_such_option": True})
    assert rules.options == tuple(o.name for o in rules.variants)


def check_step(rules: GameRules[Any, Any, Any], s: Any, rng: random.Random) -> Any:
    """Every check at ``s``; returns the action the random game takes there."""
    n = s.players
    data = rules.state_to_data(s)
    restored = rules.state_from_data(_plain(data))
    assert restored == s and hash(restored) == hash(s)
    who = rules.current_player(s)
    assert who in (CHANCE, REVEAL) or 0 <= who < n, who
    legal = rules.legal_actions(s)
    assert legal and len(set(legal)) == len(legal)
    for a in legal:
        assert rules.action_from_data(_plain(rules.action_to_data(a))) == a
    if who == CHANCE:
        outcomes = rules.chance_outcomes(s)
        assert [a for a, _ in outcomes] == legal
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        chosen = sample_chance(outcomes, rng)
    else:
        actor = who if who >= 0 else rules.revealer(s)
        assert 0 <= actor < n
        assert rules.legal_actions(rules.view(s, actor)) == legal
        chosen = rng.choice(legal)
    seat = rng.randrange(n)  # one seat's view a step: every seat's over a game
    v = rules.view(s, seat)
    assert rules.view(v, seat) == v
    assert rules.state_from_data(_plain(rules.state_to_data(v))) == v
    heard = rules.public_action(s, chosen, seat)
    assert rules.public_action(v, chosen, seat) == heard  # the seat's own view is enough to say
    assert rules.public_action(s, heard, seat) == heard  # masking twice changes nothing
    after_seen = rules.view(rules.apply_unchecked(s, chosen), seat)
    assert rules.view(rules.apply(v, heard), seat) == after_seen  # and enough to follow the game
    for viewer in (None, *range(n)):
        said = rules.action_text(s, chosen, viewer)
        assert isinstance(said, str) and said
    assert len(rules.scores(s)) == n
    after = rules.apply(s, chosen)
    assert after == rules.apply_unchecked(s, chosen)
    assert rules.state_to_data(s) == data  # applying never changes the state it was given
    for junk in (None, ["kind", 0], {"kind": "no-such-kind", "seat": 0}, {"seat": 0}):
        with pytest.raises(InvalidActionError):
            rules.apply(s, junk)
    return chosen


def check_game(rules: GameRules[Any, Any, Any], config: Any, seed: int) -> Outcome:
    """One seeded game of random decisions, checked at every step (see the module docstring)."""
    rng = random.Random(seed)
    s = rules.new_game(config)
    for _ in range(STEP_LIMIT):
        if rules.current_player(s) == TERMINAL:
            break
        assert not rules.is_over(s)
        s = rules.apply_unchecked(s, check_step(rules, s, rng))
    else:
        raise AssertionError(f"game {seed} did not end within {STEP_LIMIT} steps")
    assert rules.is_over(s) and rules.legal_actions(s) == []
    with pytest.raises(IllegalActionError):
        rules.apply(s, _any_action(rules, s))
    o = rules.outcome(s)
    assert len(o.scores) == config.players
    assert o.winners and all(0 <= w < config.players for w in o.winners)
    assert rules.scores(s) == o.scores
    return o


def _any_action(rules: GameRules[Any, Any, Any], s: Any) -> Any:
    """A well-formed action of the game: the first one of its opening state."""
    start = rules.new_game(rules.make_config(s.players, {}))
    return rules.legal_actions(start)[0]
