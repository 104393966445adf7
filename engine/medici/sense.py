"""Plays of Court of the Medici that a player who wants to win would not make, named.

``senseless(state, action, seat)`` names the reason (``""``: the play makes sense). It reads a
full state or a seat's view (a hidden card the state does not show may be any card
``rules.possible_hidden`` allows):

``ends-lost``
    a strike that ends the game (it takes the seat's last shadow alliance; under the option
    ``end_when_all_struck``, the last one on the table) and more likely than
    not leaves the seat not alone in the lead, the hidden card weighed by the copies of each
    card the seat cannot see, each resolved as well as it can be (in a full state the card is
    known: the strike wins or it does not). The game's designers observed that "everyone wants
    to wait until he is in the lead before ending the game".

The search bot (``engine.search.medici``) never plays one while it has another move, and its
rollouts avoid them; the greedy bot scores a move that ends the game as a win or a loss, which
comes to the same.
"""

from __future__ import annotations

from engine.medici import rules
from engine.medici.cards import COPIES, RANK_VALUE, RANKS
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
    """Whether strike ``a`` ends the game: it takes the last shadow alliance of ``seat`` (the
    short game), or with ``end_when_all_struck`` the last one in front of any player."""
    if a.kind != "strike":
        return False
    if s.config.end_when_all_struck:
        return sum(1 for row in s.alliances for al in row if al is not None) == 1
    return sum(1 for al in s.alliances[seat] if al is not None) == 1


def _strike_wins(struck: State, a: Action, seat: int, placer: int, h: int) -> bool:
    revealed = rules.apply_unchecked(struck, mk("reveal", placer, card=h, slot=a.slot))
    return any(leads(rules.apply_unchecked(revealed, r), seat) for r in rules.legal_actions(revealed))


def win_share(s: State, a: Action, seat: int) -> float:
    """The chance that strike ``a`` can be resolved so that ``seat`` leads alone, over the
    cards its hidden card may be (weighed by their unseen copies)."""
    alliance = s.alliances[seat][a.slot]
    assert alliance is not None
    placer, hidden = alliance[0], alliance[1]
    struck = rules.apply_unchecked(s, a)
    if hidden >= 0:
        return 1.0 if _strike_wins(struck, a, seat, placer, hidden) else 0.0
    seen = rules._public_counts(s, placer)
    won = total = 0
    for h in rules.possible_hidden(s, seat, alliance):
        w = COPIES[h % RANKS] - seen[h % RANKS]
        if w > 0:
            total += w
            won += w if _strike_wins(struck, a, seat, placer, h) else 0
    return won / total if total else 0.0


def senseless(s: State, a: Action, seat: int) -> str:
    """Why ``seat`` playing ``a`` in ``s`` is senseless, or ``""``."""
    if not ends_game(s, a, seat):
        return ""
    return "" if win_share(s, a, seat) >= 0.5 else ENDS_LOST
