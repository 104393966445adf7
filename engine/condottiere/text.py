"""Condottiere in words: action texts and a one-line summary of a position.

``action_text(state, action, viewer)`` says what ``action`` does in ``state`` as the seat
``viewer`` may hear it (``None``: everything, for a referee): what ``viewer`` learns of it is
``engine.condottiere.view.public_action``'s to decide, and a card it may not know is "a card".
Seats are named by colour: ``Red: plays Mercenary 6``, ``Blue: Bishop, Favor of the Pope to
Firenze``.
"""

from __future__ import annotations

from engine.condottiere.cards import (
    BISHOP,
    REGIONS,
    SCARECROW,
    SURRENDER,
    name,
)
from engine.condottiere.state import Action, State
from engine.condottiere.view import plays_face_down, public_action
from engine.core import UNKNOWN
from engine.words import plural

SEAT_NAMES: tuple[str, ...] = ("Red", "Blue", "Green", "Yellow", "Purple", "Black")
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def seat_name(seat: int) -> str:
    return SEAT_NAMES[seat] if 0 <= seat < len(SEAT_NAMES) else f"seat {seat}"


def region_name(r: int) -> str:
    return REGIONS[r] if 0 <= r < len(REGIONS) else f"region {r}"


def card_list(cards: tuple[int, ...]) -> str:
    if not cards:
        return "nothing"
    if all(c == UNKNOWN for c in cards):
        return plural(len(cards), "card")
    return ", ".join(name(c) for c in cards)


def _ordinal(k: int) -> str:
    return ORDINALS[k] if k < len(ORDINALS) else f"#{k + 1}"


def action_text(state: State, a: Action, viewer: int | None = None) -> str:
    who = seat_name(a.seat)
    if viewer is not None:
        a = public_action(state, a, viewer)
    k = a.kind
    if k == "start":
        return f"{who} is drawn by lot to start and takes the Condottiere token"
    if k == "draw":
        card = name(a.card) if a.card != UNKNOWN else "a card"
        return f"{who} draws {card}"
    if k == "place":
        text = f"{who}: places the Condottiere token on {region_name(a.region)}"
        if 0 <= a.region < len(state.owner):
            o = state.owner[a.region]
            if o >= 0:
                text += f", attacking {seat_name(o)}"
        return text
    if k == "pass":
        if a.flip >= 0:
            return f"{who}: passes, and turns up the {_ordinal(a.flip)} face-down card"
        return f"{who}: passes"
    if k == "play":
        return f"{who}: {_play_text(state, a)}"
    if k == "reveal":
        return f"{who} turns up {name(a.card)}"
    if k == "take":
        return f"{who}: draws {plural(a.draws, 'card')}"
    if k == "hold":
        return f"{who}: keeps the hand"
    if k == "discard":
        return f"{who}: discards the whole hand ({card_list(a.cards)})"
    if k == "keep":
        return f"{who}: keeps {card_list(a.cards)}, discards the rest"
    return repr(a)


def _play_text(state: State, a: Action) -> str:
    c = a.card
    down = plays_face_down(state.config, c)
    if c == BISHOP:
        where = "off the board" if a.region < 0 else f"to {region_name(a.region)}"
        text = f"Bishop, Favor of the Pope {where}"
    elif c == SCARECROW:
        back = "nothing" if a.taken < 0 else name(a.taken)
        text = f"Scarecrow, takes back {back}"
    elif c == SURRENDER:
        text = "Surrender, the battle ends"
    elif down:
        text = f"plays {name(c)} face down" if c != UNKNOWN else "plays a card face down"
    else:
        text = f"plays {name(c)}"
    if a.flip >= 0:
        text += f", and turns up the {_ordinal(a.flip)} face-down card"
    return text


def summary(state: State) -> str:
    """One line about the position, for error messages."""
    if state.phase == "over":
        return f"the game is over ({state.end})"
    where = f", battle for {region_name(state.battle)}" if state.battle >= 0 else ""
    if state.final:
        where = ", final battle"
    return (
        f"phase {state.phase}, {seat_name(state.turn)} to act{where}, "
        f"battle {state.battles + 1}, regions {list(state.region_counts())}"
    )
