"""Plays of Court of the Medici that a player who wants to win would not make, named.

``senseless(state, action, seat)`` names the reason (``""``: the play makes sense). It reads a
full state or a seat's view (a hidden card the state does not show may be any card
``rules.possible_hidden`` allows):

``ends-lost``
    a strike that ends the game (it takes the seat's last shadow alliance) and leaves the seat
    not alone in the lead however the hidden card turns out and whatever stack it eliminates:
    the game's designers observed that "everyone wants to wait until he is in the lead before
    ending the game".

The search bot (``engine.search.medici``) never plays one while it has another move, and its
rollouts avoid them; the greedy bot scores a move that ends the game as a win or a loss, which
comes to the same.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core import REVEAL
from engine.medici import rules
from engine.medici.cards import RANK_VALUE, RANKS
from engine.medici.state import Action, State, mk

ENDS_LOST = "ends-lost"
KINDS = (ENDS_LOST,)


def leads(s: State, seat: int) -> bool:
    """Whether ``seat``'s house has more influence in the middle than every other house."""
    sc = [0] * s.players
    for _, _, cards in s.middle:
        for c, _ in cards:
            sc[c // RANKS] += RANK_VALUE[c % RANKS]
    return all(sc[seat] > x for i, x in enumerate(sc) if i != seat)


def ends_game(s: State, a: Action, seat: int) -> bool:
    """Whether strike ``a`` takes the last shadow alliance of ``seat`` and so ends the game."""
    if a.kind != "strike" or s.config.end_when_all_struck:
        return False
    return sum(1 for al in s.alliances[seat] if al is not None) == 1


def strike_can_win(s: State, a: Action, seat: int, hidden: Iterable[int]) -> bool:
    """Whether strike ``a``, with one of the ``hidden`` cards revealed, can be resolved so
    that ``seat`` leads alone."""
    struck = rules.apply_unchecked(s, a)
    for h in hidden:
        revealed = struck
        if rules.current_player(struck) == REVEAL:
            placer = s.alliances[seat][a.target][0]  # type: ignore[index]
            revealed = rules.apply_unchecked(struck, mk("reveal", placer, h, target=a.target))
        for r in rules.legal_actions(revealed):
            if leads(rules.apply_unchecked(revealed, r), seat):
                return True
    return False


def senseless(s: State, a: Action, seat: int) -> str:
    """Why ``seat`` playing ``a`` in ``s`` is senseless, or ``""``."""
    if not ends_game(s, a, seat):
        return ""
    alliance = s.alliances[seat][a.target]
    assert alliance is not None
    hidden = [alliance[1]] if alliance[1] >= 0 else rules.possible_hidden(s, seat, alliance)
    return "" if strike_can_win(s, a, seat, hidden) else ENDS_LOST
