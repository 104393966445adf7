"""What a seat may know: hands (not their sizes), the pile, face-down and kept cards are
hidden; everything else is public. A face-down card is learnt only from a reveal step."""

from __future__ import annotations

import random

from engine.condottiere import RULES, CondottiereConfig
from engine.condottiere import rules as R
from engine.condottiere.cards import FACE_DOWN_KINDS, HEROINE, KINDS, parse_card
from engine.condottiere.scenario import position
from engine.condottiere.state import State, mk
from engine.condottiere.text import action_text
from engine.condottiere.view import public_action, view
from engine.core import REVEAL, UNKNOWN

M10 = parse_card("Mercenary 10")


def states(config: CondottiereConfig, seed: int, every: int = 7):
    """Positions of a seeded random game."""
    rng = random.Random(seed)
    s = RULES.new_game(config)
    k = 0
    while not R.is_over(s):
        a = rng.choice(R.legal_actions(s))
        s = R.apply_unchecked(s, a)
        k += 1
        if k % every == 0:
            yield s


def swap_hidden(s: State, seat: int, rng: random.Random) -> State | None:
    """Change a card that ``seat`` may not see: in another hand, or face down in another line,
    trading it with the pile."""
    n = s.players
    t = s.copy()
    others = [q for q in range(n) if q != seat]
    rng.shuffle(others)
    for q in others:
        spots = [("hand", i) for i in range(len(s.hands[q]))]
        spots += [("line", i) for i, (_, up) in enumerate(s.lines[q]) if not up]
        if not spots:
            continue
        where, i = rng.choice(spots)
        old = s.hands[q][i] if where == "hand" else s.lines[q][i][0]
        kinds = FACE_DOWN_KINDS if where == "line" else range(KINDS)
        choices = [c for c in kinds if c != old and s.pile[c] > 0]
        if not choices:
            continue
        new = rng.choice(choices)
        pile = list(s.pile)
        pile[new] -= 1
        pile[old] += 1
        t.pile = tuple(pile)
        if where == "hand":
            hand = list(s.hands[q])
            hand[i] = new
            t.hands = t.hands[:q] + (tuple(sorted(hand)),) + t.hands[q + 1 :]
        else:
            line = list(s.lines[q])
            line[i] = (new, 0)
            t.lines = t.lines[:q] + (tuple(line),) + t.lines[q + 1 :]
        return t
    return None


CONFIGS = [
    CondottiereConfig(3),
    CondottiereConfig(4, hidden_cards=True),
    CondottiereConfig(5, hidden_cards=True, draw_after_battle=True, capturing_regions=True),
]


def test_a_view_does_not_change_when_only_others_hidden_cards_do() -> None:
    rng = random.Random(3)
    checked = 0
    for g, config in enumerate(CONFIGS):
        for s in states(config, g):
            seat = rng.randrange(s.players)
            t = swap_hidden(s, seat, rng)
            if t is None:
                continue
            assert t != s
            assert view(t, seat) == view(s, seat)
            checked += 1
    assert checked > 50


def test_the_actor_decides_from_its_view_exactly_as_from_the_full_state() -> None:
    checked = 0
    for g, config in enumerate(CONFIGS):
        for s in states(config, 10 + g, every=1):
            who = R.current_player(s)
            if who >= 0:
                assert R.legal_actions(view(s, who)) == R.legal_actions(s)
                checked += 1
    assert checked > 300


def test_a_view_masks_hands_pile_and_face_down_cards_only() -> None:
    config = CondottiereConfig(3, hidden_cards=True)
    s = position(config=config, hands=[["Heroine"], ["Bishop", "Winter"], ["Mercenary 1"]],
                 lines=[["~Mercenary 10", "Winter"], ["Mercenary 6", "~Drummer"], []],
                 discards=["Scarecrow"], owner={"Roma": 2}, favor="Siena")
    v = view(s, 0)
    assert v.hands == ((HEROINE,), (UNKNOWN, UNKNOWN), (UNKNOWN,))
    assert v.lines[0] == s.lines[0]  # its own face-down card is known to it
    assert v.lines[1] == ((parse_card("Mercenary 6"), 1), (UNKNOWN, 0))
    assert v.pile[:KINDS] == (0,) * KINDS and v.pile[-1] == sum(s.pile)
    assert v.discards == s.discards and v.owner == s.owner and v.favor == s.favor
    assert view(v, 0) == v


def test_a_face_down_play_is_unknown_to_the_others_until_revealed() -> None:
    config = CondottiereConfig(2, hidden_cards=True)
    s = position(config=config, hands=[["Mercenary 10", "Winter"], ["Mercenary 1", "Heroine"]])
    a = mk("play", 0, card=M10)
    s1 = RULES.apply(s, a)
    assert s1.lines[0] == ((M10, 0),)
    masked = public_action(s, a, 1)
    assert masked.card == UNKNOWN
    assert "face down" in action_text(s, a, viewer=1) and "Mercenary 10" not in action_text(s, a, 1)
    assert "Mercenary 10" in action_text(s, a, viewer=0)
    # the other seat follows the game from its view with the masked action
    follower = RULES.apply(view(s, 1), masked)
    assert follower.lines[0] == ((UNKNOWN, 0),) and view(s1, 1) == view(follower, 1)
    # the next play by seat 0 turns its face-down card up: a reveal step
    s2 = RULES.apply(RULES.apply(s1, mk("play", 1, card=HEROINE)), mk("play", 0, card=10, flip=0))
    assert R.current_player(s2) == REVEAL and R.revealer(s2) == 0
    assert R.legal_actions(s2) == [mk("reveal", 0, card=M10, position=0)]
    # a follower cannot know the card: any face-down kind could be shown
    v2 = view(s2, 1)
    assert len(R.legal_actions(v2)) == len(FACE_DOWN_KINDS)
    s3 = RULES.apply(s2, mk("reveal", 0, card=M10, position=0))
    assert s3.lines[0] == ((M10, 1), (10, 1)) and view(s3, 1).lines[0] == s3.lines[0]


def test_cards_kept_at_the_end_of_a_round_stay_hidden() -> None:
    s = position(2, hands=[["Heroine", "Bishop", "Winter"], []], phase="keep", battles=3)
    a = mk("keep", 0, cards=(HEROINE, parse_card("Bishop")))
    assert a in R.legal_actions(s)
    masked = public_action(s, a, 1)
    assert masked.cards == (UNKNOWN, UNKNOWN)
    after = RULES.apply(s, a)
    follower = RULES.apply(view(s, 1), masked)
    assert view(after, 1) == view(follower, 1)
    assert view(after, 1).hands[0][:2] == (UNKNOWN, UNKNOWN)
    assert "Heroine" not in action_text(s, a, viewer=1)
