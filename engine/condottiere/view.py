"""What one seat may know: ``view(state, seat)`` masks every other card with ``UNKNOWN``.

Hidden from a seat (``docs/rules/condottiere.md``, "What is hidden"):

* other seats' hands (their sizes are public), and so the cards another seat kept at the end
  of a round;
* the draw pile: a view's pile counts only ``UNKNOWN`` cards, and cards that enter the pile of
  a view (a reshuffle) become ``UNKNOWN`` there;
* other seats' face-down cards (Hidden Cards) until they are turned up.

Everything else (battle lines' face-up cards, discards, the map, both tokens, hand sizes,
points) is public. A view is itself a ``State`` (its ``viewer`` is the seat), and the rules
apply actions to it: ``mask_action`` gives what a seat learns of an action, so that a peer that
sees only its own view can follow the game.
"""

from __future__ import annotations

from engine.condottiere.cards import EMPTY, SLOTS
from engine.condottiere.state import Action, State, _new
from engine.core import UNKNOWN


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


def mask_action(state: State, action: Action, seat: int) -> Action:
    """What ``seat`` learns of ``action`` taken in ``state``: the cards it may not see become
    ``UNKNOWN``. Applying the result to ``seat``'s view follows the game."""
    if seat == action.seat:
        return action
    k = action.kind
    if k == "draw" and action.card != UNKNOWN:
        return _new(Action, ("draw", action.seat, UNKNOWN, -1, -1, ()))
    if k == "play" and state.config.hidden_cards and 0 <= action.card < 10:
        return _new(Action, ("play", action.seat, UNKNOWN, action.target, action.flip, ()))
    if k == "keep":
        return _new(Action, ("keep", action.seat, action.card, -1, -1, (UNKNOWN,) * len(action.cards)))
    return action
