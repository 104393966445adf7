"""What a seat may know: ``view(state, seat)`` against the hidden-information table.

The central property: a seat's view does not change when only cards hidden from it change,
that is when the cards of another house are shuffled among that house's hand, deck and face-down
cards (keeping a shown last card, revealed cards and everything public in place).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import CHANCE, REVEAL, TERMINAL, UNKNOWN, IllegalActionError, sample_chance
from engine.medici import RULES, MediciConfig
from engine.medici.scenario import action, after, card_of, cards_of, position
from engine.medici.state import NO_CARD, State


def random_positions(players: int, seed: int, every: int = 1) -> list[State]:
    """The states of a random game, from the deal to the end."""
    rng = random.Random(seed)
    s = RULES.new_game(MediciConfig(players))
    out = []
    while RULES.current_player(s) != TERMINAL:
        out.append(s)
        who = RULES.current_player(s)
        legal = RULES.legal_actions(s)
        if who == CHANCE:
            a = sample_chance(RULES.chance_outcomes(s), rng)
        elif who == REVEAL:
            a = legal[0]
        else:
            a = rng.choice(legal)
        s = RULES.apply_unchecked(s, a)
    out.append(s)
    return out[::every]


def shuffle_hidden(s: State, seat: int, rng: random.Random) -> State:
    """``s`` with every card that ``seat`` may not see moved at random among the places that
    hide it, house by house: hands (but a shown last card), decks and face-down cards."""
    data = s.to_data()
    revealed_slot = None
    if s.pending is not None and s.pending[3] != NO_CARD:
        revealed_slot = (s.turn, s.pending[0])
    for house in range(s.players):
        if house == seat:
            continue
        places: list[tuple] = []
        hand = data["hands"][house]
        shown = s.shown[house]
        kept_shown = False
        for i, c in enumerate(hand):
            if c == shown and not kept_shown:
                kept_shown = True
                continue
            places.append(("hands", house, i))
        places += [("pools", house, i) for i in range(len(data["pools"][house]))]
        places += [("bottoms", house, i) for i in range(len(data["bottoms"][house]))]
        for holder, row in enumerate(data["alliances"]):
            for k, a in enumerate(row):
                if a is None:
                    continue
                if a[0] == house and (holder, k) != revealed_slot:
                    places.append(("hidden", holder, k))
                if holder == house and not a[3] and a[2] != NO_CARD:
                    places.append(("top", holder, k))
        cards = [_get(data, p) for p in places]
        rng.shuffle(cards)
        for p, c in zip(places, cards, strict=True):
            _put(data, p, c)
        data["hands"][house].sort()
        data["pools"][house].sort()
    return State.from_data(data)


def _get(data, place):
    kind, a, b = place
    if kind == "hidden":
        return data["alliances"][a][b][1]
    if kind == "top":
        return data["alliances"][a][b][2]
    return data[kind][a][b]


def _put(data, place, c):
    kind, a, b = place
    if kind == "hidden":
        data["alliances"][a][b][1] = c
    elif kind == "top":
        data["alliances"][a][b][2] = c
    else:
        data[kind][a][b] = c


@given(
    players=st.sampled_from([3, 4]),
    seed=st.integers(0, 2**32 - 1),
    shuffle_seed=st.integers(0, 2**32 - 1),
)
def test_view_does_not_change_when_other_seats_hidden_cards_change(players, seed, shuffle_seed):
    rng = random.Random(shuffle_seed)
    for s in random_positions(players, seed, every=7):
        for seat in range(players):
            other = shuffle_hidden(s, seat, rng)
            assert RULES.view(other, seat) == RULES.view(s, seat)


def test_shuffling_hidden_cards_does_change_the_full_state():
    # the property above is not empty: the shuffles do move cards
    rng = random.Random(1)
    changed = sum(shuffle_hidden(s, 0, rng) != s for s in random_positions(4, 3, every=5))
    assert changed > 10


def test_a_hand_is_known_only_to_its_player():
    s = position(hands=["O5 O9", "C2 C3 C4", "R5", ""])
    for seat in range(4):
        v = RULES.view(s, seat)
        for i in range(4):
            expected = s.hands[i] if i == seat else (UNKNOWN,) * len(s.hands[i])
            assert v.hands[i] == expected


def test_deck_order_is_known_to_nobody_but_planned_cards_to_their_owner():
    s = position(hands=["O5", "C5", "", ""], decks=["O2 O3", None, None, None], bottoms=["O9", "", "", ""])
    own = RULES.view(s, 0)
    assert own.pools[0] == tuple(sorted(cards_of("O2 O3")))  # which cards, not their order
    assert own.bottoms[0] == (card_of("O9"),)
    other = RULES.view(s, 1)
    assert other.pools[0] == (UNKNOWN, UNKNOWN) and other.bottoms[0] == (UNKNOWN,)
    # the drawn card is the draw's own: only its drawer hears which
    s = after(s, action("plan", 0, "O5"))
    (draw, _), *_ = RULES.chance_outcomes(s)
    assert "Orsini draws a card" == RULES.action_text(s, draw, 1)


def test_face_down_card_known_to_its_placer_until_a_strike_reveals_it():
    s = position(hands=["O5", "", "", ""], middle=["R10 R3"], decks=[None, "", None, None])
    hidden = card_of("C6")
    assert [RULES.view(s, seat).alliances[0][0][1] for seat in range(4)] == [UNKNOWN, hidden, UNKNOWN, UNKNOWN]
    s = after(s, action("strike", 0, "O5", slot=1), action("reveal", 1, "C6", slot=1))
    assert [RULES.view(s, seat).alliances[0][0][1] for seat in range(4)] == [hidden] * 4


def test_public_things_are_the_same_in_every_view():
    for s in random_positions(4, 11, every=9):
        views = [RULES.view(s, seat) for seat in range(4)]
        for v in views:
            assert (v.middle, v.eliminated, v.limits, v.shown, v.pending, v.phase, v.turn) == (
                s.middle, s.eliminated, s.limits, s.shown, s.pending, s.phase, s.turn)
            assert [len(h) for h in v.hands] == [len(h) for h in s.hands]
            assert [len(p) + len(b) for p, b in zip(v.pools, v.bottoms, strict=True)] == [
                len(p) + len(b) for p, b in zip(s.pools, s.bottoms, strict=True)]
            for row_v, row_s in zip(v.alliances, s.alliances, strict=True):
                for a, b in zip(row_v, row_s, strict=True):
                    if b is not None and b[3]:
                        assert a[2] == b[2]  # a face-up card is public


def test_shown_last_card_is_public():
    s = position(hands=["O5 O9", "", "", ""], decks=[""] * 4, limits=[9, None, None, None],
                 shown=["O9", None, None, None])
    assert RULES.view(s, 2).hands[0] == (UNKNOWN, card_of("O9"))


def heard(s: State, a, seat: int):
    """The action as ``seat`` hears it: a card private to another seat becomes ``UNKNOWN``."""
    last_draw = a.kind == "draw" and len(s.pools[a.seat]) + len(s.bottoms[a.seat]) == 1
    if a.kind in ("draw", "hide", "top", "plan") and a.seat != seat and not last_draw:
        return a._replace(card=UNKNOWN)
    return a


def test_a_seat_following_the_game_on_its_view_keeps_the_same_view():
    # what a peer does in a networked game: apply each action, as it hears it, to its own view
    for seed in range(16):
        players = 3 + seed % 2
        states = random_positions(players, 500 + seed)
        for s, t in zip(states, states[1:], strict=False):
            a = next(a for a in RULES.legal_actions(s) + [x for x, _ in RULES.chance_outcomes(s)]
                     if RULES.apply_unchecked(s, a) == t)
            for seat in range(players):
                followed = RULES.apply(RULES.view(s, seat), heard(s, a, seat))
                assert RULES.view(followed, seat) == RULES.view(t, seat), (seed, a, seat)


def test_checked_door_on_a_view_accepts_a_stuck_only_when_it_may_be_true():
    hidden_hand = position(hands=["O9 O10", "C2", "", ""], decks=[""] * 4, limits=[5, None, None, None])
    assert RULES.legal_actions(hidden_hand) == [action("stuck", 0)]
    followed = RULES.apply(RULES.view(hidden_hand, 1), action("stuck", 0))
    assert RULES.is_over(followed)
    playable = position(hands=["O9 O10", "C2", "", ""], decks=[""] * 4, limits=[None] * 4)
    with pytest.raises(IllegalActionError):
        RULES.apply(RULES.view(playable, 1), action("stuck", 0))  # no limit: any card plays
