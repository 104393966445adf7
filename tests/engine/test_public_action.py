"""``public_action(state, action, seat)`` against the masked states, at every step of seeded
random games of both games, every player count and every option (the options are the engine's
own lists, so a new one is played here too).

The relation checked, for every step ``state -> after`` by ``action`` and every seat (the
modules ``engine.medici.view`` and ``engine.condottiere.view`` state it):

* the author learns its action whole;
* another seat learns it with some card fields ``UNKNOWN`` and every other field as it is, the
  same form for every seat but the author, and the same form as the host (no seat) learns;
* the form is decided by what the seat sees: asked on the seat's view it is the same; masking
  it again changes nothing;
* it is enough to follow the game: through the checked door, applied to the seat's view, it
  gives the seat's view after the step;
* it tells no more than the views do: in any world that the seat's view before the step leaves
  open (the true state, or one drawn by the search's determinizer), if some action there leaves
  the seat with the same view after the step, one of those actions has the same form. So the
  form rules out no world the views leave open: a card the views hide cannot show in it. (Not
  checked for a card a step shows to all when the views after it forget it: a Condottiere
  pile refilled from the discards.)

``PALAZZO_LONG=1`` plays more games.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from engine.condottiere import RULES as CONDOTTIERE
from engine.condottiere.state import OPTIONS as CONDOTTIERE_OPTIONS
from engine.condottiere.state import CondottiereConfig
from engine.condottiere.view import public_action as condottiere_public
from engine.core import CHANCE, REVEAL, TERMINAL, UNKNOWN, sample_chance
from engine.medici import RULES as MEDICI
from engine.medici.state import OPTIONS as MEDICI_OPTIONS
from engine.medici.state import MediciConfig
from engine.medici.view import public_action as medici_public
from engine.search.condottiere import determinize as condottiere_world
from engine.search.medici import determinize as medici_world

LONG = os.environ.get("PALAZZO_LONG") == "1"
GAMES = 20 if LONG else 1
WORLDS = 1  # worlds drawn at random beside the true one, at a sampled step
HOST = -1  # the number that is no seat: the host, which learns the wire form

MEDICI_GAME = (MEDICI, medici_public, medici_world)
CONDOTTIERE_GAME = (CONDOTTIERE, condottiere_public, condottiere_world)
CONFIGS: list[tuple[str, Any, Any, Any, Any]] = (
    [(f"medici-{n}p", *MEDICI_GAME, MediciConfig(n)) for n in (3, 4)]
    + [(f"medici-4p-{o}", *MEDICI_GAME, MEDICI.make_config(4, {o: True})) for o in MEDICI_OPTIONS]
    + [(f"condottiere-{n}p", *CONDOTTIERE_GAME, CondottiereConfig(n)) for n in range(2, 7)]
    + [(f"condottiere-4p-{o}", *CONDOTTIERE_GAME, CondottiereConfig(4, **{o: True}))
       for o in CONDOTTIERE_OPTIONS]
    + [(f"condottiere-{n}p-all", *CONDOTTIERE_GAME,
        CondottiereConfig(n, **dict.fromkeys(CONDOTTIERE_OPTIONS, True))) for n in (2, 4, 6)]
)


def card_fields(a: Any) -> dict[str, Any]:
    """The fields of an action that may name a card another seat may not see."""
    return {f: getattr(a, f) for f in ("card", "cards") if hasattr(a, f)}


def masked_from(m: Any, a: Any) -> bool:
    """``m`` is ``a`` with some card fields ``UNKNOWN`` and nothing else changed."""
    if type(m) is not type(a):
        return False
    rest = {f: getattr(a, f) for f in a._fields if f not in ("card", "cards")}
    if any(getattr(m, f) != v for f, v in rest.items()):
        return False
    if m.card not in (a.card, UNKNOWN):
        return False
    cards = getattr(a, "cards", ())
    return m._replace(card=a.card) == a or (
        len(m.cards) == len(cards)
        and all(c in (k, UNKNOWN) for c, k in zip(m.cards, cards, strict=True)))


def forgets(s: Any, a: Any, after: Any) -> bool:
    """Whether the views after the step forget a card the step showed to all: a Condottiere
    reveal, play or discard after which the pile is refilled from the discards (the card may
    then be anywhere in the pile). A keep is checked all the same: nobody saw the cards kept."""
    return (hasattr(s, "discards") and sum(after.discards) < sum(s.discards)
            and a.kind in ("reveal", "play", "discard"))


def actions(rules: Any, s: Any) -> list[Any]:
    if rules.current_player(s) == CHANCE:
        return [b for b, _ in rules.chance_outcomes(s)]
    return list(rules.legal_actions(s))


def check_step(rules: Any, public: Any, determinize: Any, s: Any, a: Any, rng: random.Random,
               worlds: int) -> Any:
    after = rules.apply_unchecked(s, a)
    n = s.players
    forms = set()
    for seat in range(n):
        m = public(s, a, seat)
        mine = rules.view(s, seat)
        if seat == a.seat:
            assert m == a
        else:
            assert masked_from(m, a), (a, m)
            forms.add(m)
        assert public(mine, a, seat) == m, (seat, a)
        assert public(s, m, seat) == m
        followed = rules.apply(mine, m)  # the checked door on the seat's own view
        assert rules.view(followed, seat) == rules.view(after, seat), (seat, a, m)
        if seat == a.seat or not worlds or forgets(s, a, after):
            continue
        # no more than the views tell: in every world the seat's view before the step leaves
        # open (the true one and a few drawn at random), the actions there that leave it with
        # the same view after the step include one it would learn as ``m``
        seen = rules.view(after, seat)
        for w in [s] + [determinize(mine, seat, rng) for _ in range(worlds)]:
            alike = {public(w, b, seat) for b in actions(rules, w)
                     if rules.view(rules.apply_unchecked(w, b), seat) == seen}
            assert not alike or m in alike, (seat, a, m, alike)
    if forms:
        assert forms == {public(s, a, HOST)} and len(forms) == 1, forms
    return after


@pytest.mark.parametrize("label,rules,public,determinize,config", CONFIGS,
                         ids=[c[0] for c in CONFIGS])
def test_what_a_seat_learns_of_each_action_agrees_with_its_views(
        label: str, rules: Any, public: Any, determinize: Any, config: Any) -> None:
    for g in range(GAMES):
        rng = random.Random(f"{label}/{g}")
        s = rules.new_game(config)
        for _ in range(100_000):
            who = rules.current_player(s)
            if who == TERMINAL:
                break
            if who == CHANCE:
                a = sample_chance(rules.chance_outcomes(s), rng)
            else:
                a = rng.choice(rules.legal_actions(s))
                if who == REVEAL:
                    assert a.seat == rules.revealer(s)
            # every seat is checked at every step; the other worlds at every decision and a
            # sample of chance steps (applying every action in each of them costs)
            worlds = WORLDS if who != CHANCE or rng.random() < 0.1 else 0
            s = check_step(rules, public, determinize, s, a, rng, worlds)
        else:
            raise AssertionError("the game did not end")
