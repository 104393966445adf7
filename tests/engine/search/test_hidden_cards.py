"""No bot reads a card its seat cannot see.

Every bot a game offers (its kinds and its levels) and the coach are handed, for the seat to
move, two full states that differ only in cards that seat cannot see (another seat's hand, a
deck, a hidden shadow-alliance card, a face-down mercenary): the same state with its hidden cards
dealt otherwise, as the seat's own view allows. With the same seeded generator each must decide
exactly as it does from the seat's view: whatever a caller hands it, a bot knows only what its
seat may know. Several seeded positions of each game, the set-up of Court of the Medici among
them, and strikes on hidden cards.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.registry import get_game
from engine.search import condottiere as condottiere_search
from engine.search import medici as medici_search
from engine.search.coach import suggest

from .positions import game_position

#: a small fixed budget and a cap that does not bind: a search decides the same from the same
#: generator state
QUICK = {"iterations": 24, "think": 1000.0, "setup_iterations": 24, "setup_think": 1000.0}

DETERMINIZE = {"medici": medici_search.determinize, "condottiere": condottiere_search.determinize}
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "medici": [{}],
    "condottiere": [{}, {"hidden_cards": True}],
}


def _other_deal(game: str, state: Any, seat: int) -> Any:
    """A full state that looks like ``state`` to ``seat`` but deals its hidden cards otherwise."""
    rules = get_game(game).rules
    seen = rules.view(state, seat)
    for k in range(50):
        other = DETERMINIZE[game](seen, seat, random.Random(k))
        if rules.view(other, seat) == seen and other != state:
            return other
    raise AssertionError("no other deal of the hidden cards found")


def _positions(game: str) -> list[tuple[Any, Any, int]]:
    """(a full state, another full state that only ``seat`` cannot tell from it, seat)."""
    entry = get_game(game)
    rules = entry.rules
    out = []
    for options in OPTIONS[game]:
        config = rules.make_config(4, options)
        for seed, steps in ((1, 50), (2, 62), (3, 90), (4, 120), (5, 150), (6, 200)):
            s = game_position(rules, config, seed, steps)
            seat = rules.current_player(s)
            if seat < 0 or len(rules.legal_actions(rules.view(s, seat))) < 2:
                continue
            out.append((s, _other_deal(game, s, seat), seat))
    assert len(out) >= 3
    return out


def _bots(game: str) -> list[str]:
    entry = get_game(game)
    return list(dict.fromkeys(entry.bot_names()))


def _choice(game: str, name: str, state: Any, seat: int) -> Any:
    entry = get_game(game)
    settings = QUICK if name not in ("random", "greedy", "easy") else {}
    return entry.make_bot(name, random.Random(11), **settings).choose(state, seat)


@pytest.mark.parametrize("game", ["medici", "condottiere"])
def test_no_bot_reads_a_hidden_card(game):
    rules = get_game(game).rules
    for state, other, seat in _positions(game):
        seen = rules.view(state, seat)
        for name in _bots(game):
            mine = _choice(game, name, seen, seat)
            assert _choice(game, name, state, seat) == mine, (name, state.phase)
            assert _choice(game, name, other, seat) == mine, (name, state.phase)


@pytest.mark.parametrize("game", ["medici", "condottiere"])
def test_no_bot_reads_a_hidden_card_through_the_coach(game):
    entry = get_game(game)
    rules = entry.rules
    for state, other, seat in _positions(game)[:3]:
        hints = [
            suggest(entry, s, seat, random.Random(5), **QUICK)
            for s in (rules.view(state, seat), state, other)
        ]
        assert hints[0] == hints[1] == hints[2]


def test_no_bot_reads_a_hidden_card_of_a_shadow_alliance():
    """A strike on a hidden card placed by another seat: the two states differ in that card."""
    entry = get_game("medici")
    rules = entry.rules
    found = 0
    for seed in range(1, 40):
        s = game_position(rules, rules.make_config(4, {}), seed, 76 + 3 * seed)
        seat = rules.current_player(s)
        if seat < 0 or s.phase != "play":
            continue
        mine = [
            (k, al) for k, al in enumerate(s.alliances[seat]) if al is not None and al[0] != seat
        ]
        if not mine:
            continue
        k, (placer, hidden, top, up) = mine[0]
        # another card of the placer's house that the seat cannot see either: in its pool
        swaps = [c for c in s.pools[placer] if c % 25 != hidden % 25]
        if not swaps:
            continue
        other = s.copy()
        row = list(s.alliances[seat])
        row[k] = (placer, swaps[0], top, up)
        other.alliances = s.alliances[:seat] + (tuple(row),) + s.alliances[seat + 1 :]
        pool = list(s.pools[placer])
        pool.remove(swaps[0])
        pool.append(hidden)
        other.pools = s.pools[:placer] + (tuple(sorted(pool)),) + s.pools[placer + 1 :]
        assert rules.view(other, seat) == rules.view(s, seat)
        for name in _bots("medici"):
            assert _choice("medici", name, s, seat) == _choice("medici", name, other, seat), name
        found += 1
        if found == 3:
            break
    assert found == 3
