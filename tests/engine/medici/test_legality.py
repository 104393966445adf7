"""The checked door decides on one action without listing the others, and agrees with the list.

Positions come from seeded random games (3 and 4 players, both end rules), taken at every step,
whole and as each seat's view. At each, every action of the full list and a spread of
well-formed actions around them (each field moved, another kind, the card of another seat's
move) are put to ``legality.is_legal`` and to the door ``apply``.
"""

import random

import pytest

from engine.core import CHANCE, REVEAL, TERMINAL, UNKNOWN, IllegalActionError, sample_chance
from engine.medici import RULES, game, rules
from engine.medici.legality import is_legal
from engine.medici.state import FIELD_RANGES, KINDS, NO_CARD, NONE, Action, MediciConfig

FIELDS = Action._fields[1:]  # seat, card, value, before, slot, stack, elim, extra
#: the range each field may take in a well-formed action (``state.FIELD_RANGES``)
RANGES = {"seat": FIELD_RANGES["seat"], "card": FIELD_RANGES["card"],
          "value": FIELD_RANGES["value"], "before": FIELD_RANGES["target"],
          "slot": FIELD_RANGES["target"], "stack": FIELD_RANGES["target"],
          "elim": FIELD_RANGES["elim"], "extra": FIELD_RANGES["extra"]}


def positions(games, seed):
    """``(state, who)`` at every step of ``games`` random games, deterministic in ``seed``."""
    rng = random.Random(seed)
    for g in range(games):
        config = MediciConfig(3 + g % 2, end_when_all_struck=g % 4 >= 2)
        s = RULES.new_game(config)
        while (who := RULES.current_player(s)) != TERMINAL:
            yield s, who
            if who == CHANCE:
                a = sample_chance(RULES.chance_outcomes(s), rng)
            elif who == REVEAL:
                a = RULES.legal_actions(s)[0]
            else:
                a = rng.choice(RULES.legal_actions(s))
            s = RULES.apply_unchecked(s, a)


def nearby(legal, rng, count):
    """Well-formed actions near the listed ones: one field moved a little or anywhere in its
    range, or the kind changed (the other fields kept, or left at their defaults); and a few
    made of random fields."""
    out = []
    for _ in range(count):
        if legal and rng.random() < 0.85:
            base = rng.choice(legal)
            if rng.random() < 0.2:
                kind = rng.choice(KINDS)
                if rng.random() < 0.5:
                    out.append(base._replace(kind=kind))
                else:  # the card under another kind, its fields left at their defaults
                    out.append(Action(kind, base.seat, card=base.card, value=0 if kind == "plan" else base.value))
                continue
            name = rng.choice(FIELDS)
            lo, hi = RANGES[name]
            old = getattr(base, name)
            new = old + rng.choice((-2, -1, 1, 2)) if rng.random() < 0.7 else rng.randint(lo, hi)
            out.append(base._replace(**{name: min(hi, max(lo, new))}))
        else:
            out.append(Action(rng.choice(KINDS), rng.randint(0, 3), card=rng.randint(NO_CARD, 51),
                              value=rng.randint(0, 11), before=rng.choice((NONE, 0, 1, 2)),
                              slot=rng.choice((NONE, 0, 1, 2)),
                              stack=rng.choice((NONE, 0, 1, 2, 3)),
                              elim=rng.choice((NONE, 0, 1, 2)), extra=rng.randint(0, 10)))
    return out


def always(s):
    """Moves of the seat on turn that need no card it holds: planning a card the state does not
    show, and being stuck."""
    return [Action("plan", s.turn, card=UNKNOWN), Action("stuck", s.turn)]


def door_accepts(s, a):
    try:
        after = RULES.apply(s, a)
    except IllegalActionError:
        return False
    assert after.to_data() == rules.apply_unchecked(s, a).to_data()
    return True


def old_door(s, a):
    """The door as the list defines it: the action is listed, or (on a view) it is a draw or a
    ``stuck`` the view cannot rule out, or it is listed once a hidden card of the hand is taken
    to be the action's card."""
    if s.phase == "over" or not 0 <= a.seat < s.players:
        return False
    if a in rules.legal_actions(s):
        return True
    if a.kind == "draw" and game._masked_draw_ok(s, a):
        return True
    if a.kind == "stuck" and game._masked_stuck_ok(s, a):
        return True
    if a.kind not in ("draw", "first", "reveal", "flip", "resolve", "stuck"):
        widened = game._with_card_in_hand(s, a.seat, a.card)
        return widened is not None and a in rules.legal_actions(widened)
    return False


@pytest.mark.parametrize("seed", [1, 2])
def test_is_legal_is_membership_of_the_legal_actions_on_states_and_views(seed):
    rng = random.Random(seed)
    checked = refused = 0
    for s, _ in positions(6, seed):
        for st in (s, *(RULES.view(s, p) for p in range(s.players))):
            legal = rules.legal_actions(st)
            assert len(set(legal)) == len(legal)
            assert legal == sorted(legal, key=rules.sort_key)
            for a in legal:
                assert is_legal(st, a), (st.to_data(), a)
            for a in nearby(legal, rng, 12) + always(st):
                expected = a in legal
                assert is_legal(st, a) == expected, (st.to_data(), a, expected)
                refused += not expected
            checked += len(legal)
    assert checked > 30_000 and refused > 30_000


@pytest.mark.parametrize("seed", [3])
def test_checked_door_accepts_the_listed_actions_and_refuses_all_others(seed):
    """On a full state the door takes exactly the listed actions; on a view, exactly what the
    list with the view's allowances takes."""
    rng = random.Random(seed)
    taken = refused = 0
    for i, (s, who) in enumerate(positions(4, seed)):
        legal = rules.legal_actions(s)
        candidates = nearby(legal, rng, 6 if who >= 0 else 2) + always(s)
        for a in legal:
            assert door_accepts(s, a)
            taken += 1
        for a in candidates:
            if a not in legal:
                assert not door_accepts(s, a), (s.to_data(), a)
                refused += 1
        if who >= 0 and i % 3 == 0:
            # what the others hear of a move: a card their view does not hold, or UNKNOWN
            seat = rng.randrange(s.players)
            view = RULES.view(s, seat)
            heard = [a._replace(card=UNKNOWN) if a.card >= 0 and rng.random() < 0.3 else a
                     for a in legal]
            for a in heard + nearby(heard, rng, 4):
                assert door_accepts(view, a) == old_door(view, a), (view.to_data(), a)
    assert taken > 3_000 and refused > 1_500
