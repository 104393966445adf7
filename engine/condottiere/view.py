"""What one seat may know: ``view(state, seat)`` masks every other card with ``UNKNOWN``.

Hidden from a seat (``docs/rules/condottiere.md``, "What is hidden"):

* other seats' hands (their sizes are public), and so the cards another seat kept at the end
  of a round;
* the draw pile: a view's pile counts only ``UNKNOWN`` cards, and cards that enter the pile of
  a view (a reshuffle) become ``UNKNOWN`` there;
* other seats' face-down cards (Hidden Cards) until they are turned up.

Everything else (battle lines' face-up cards, discards, the map, both tokens, hand sizes,
points) is public. A view is itself a ``State`` (its ``viewer`` is the seat), and the rules
apply actions to it.

What a seat learns of an action: ``public_action(state, action, seat)``, the one place that
decides it (the search's observations, the log's words, the wire form of a networked move and
the checked door on a view all ask it). ``plays_face_down(config, card)`` says which plays go
face down. The relation, checked at every step of the conformance games for every seat
(``tests/engine/test_public_action.py``), with ``m = public_action(state, action, seat)``:

* the author learns its action whole: ``m == action`` when ``seat == action.seat``;
* another seat learns ``action`` with the cards it may not see ``UNKNOWN`` and every other field
  as it is: a draw's card, the card of a play that goes face down (Hidden Cards), the cards a
  seat keeps at the end of a round;
* ``m`` is decided by what ``seat`` sees: ``public_action(view(state, seat), action, seat) ==
  m``, and masking again changes nothing;
* ``m`` is enough to follow the game: applying it to ``seat``'s view gives a state whose view
  for ``seat`` is ``view(after, seat)``;
* ``m`` tells ``seat`` no more than its views do: in any full state that ``seat``'s view before
  the step leaves open, if some action there leaves ``seat`` with the same view after the step,
  one of those actions has the form ``m`` (a card a step shows to all counts as seen, even
  where the views after it forget it: a Condottiere pile refilled from the discards).

A number that is no seat (the host's ``-1``, an observer's seat after the last) learns what
every seat but the author learns: the public form, the one that travels on the wire.
"""

from __future__ import annotations

from engine.condottiere.cards import EMPTY, FACE_DOWN_KINDS, SLOTS
from engine.condottiere.state import Action, CondottiereConfig, State, _new
from engine.core import UNKNOWN

_NONE: frozenset[int] = frozenset()


def _mask_line(line: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    for _, up in line:
        if not up:
            return tuple(e if e[1] else (UNKNOWN, 0) for e in line)
    return line


def view(state: State, seat: int) -> State:
    v = state.copy()
    v.viewer = seat
    v.hands = tuple(h if i == seat else (UNKNOWN,) * len(h) for i, h in enumerate(state.hands))
    if state.config.hidden_cards:
        v.lines = tuple(
            line if i == seat else _mask_line(line) for i, line in enumerate(state.lines)
        )
    pile = state.pile
    v.pile = EMPTY[: SLOTS - 1] + (sum(pile),)
    return v


def face_down_kinds(config: CondottiereConfig) -> frozenset[int]:
    """The cards played face down under ``config``: ``cards.FACE_DOWN_KINDS`` with Hidden Cards,
    none without."""
    return FACE_DOWN_KINDS if config.hidden_cards else _NONE


def plays_face_down(config: CondottiereConfig, card: int) -> bool:
    """Whether playing ``card`` puts it face down (``UNKNOWN``: a card another seat played so)."""
    return config.hidden_cards and (card == UNKNOWN or card in FACE_DOWN_KINDS)


def public_action(state: State, action: Action, seat: int) -> Action:
    """What ``seat`` learns of ``action`` taken in ``state`` (a full state or any seat's view):
    the cards it may not see become ``UNKNOWN`` (see the module docstring)."""
    if seat == action.seat:
        return action
    k = action.kind
    if k == "draw":
        if action.card != UNKNOWN:
            return _new(Action, ("draw", action.seat, UNKNOWN) + action[3:])
    elif k == "play":
        c = action.card
        if c != UNKNOWN and plays_face_down(state.config, c):
            return _new(Action, ("play", action.seat, UNKNOWN) + action[3:])
    elif k == "keep":
        cards = action.cards
        if any(c != UNKNOWN for c in cards):
            return _new(Action, action[:-1] + ((UNKNOWN,) * len(cards),))
    return action
