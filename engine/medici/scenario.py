"""Positions of Court of the Medici written by hand: for rules tests, scenario files and demos.

A card is written as its house's letter and its rank: ``O`` Orsini, ``C`` Colonna, ``R`` Delle
Rovere, ``G`` Gonzaga; ranks ``2`` .. ``10``, ``M`` Minister, ``L`` Lady-in-Waiting, ``J`` Jester,
``D`` Duke. ``"O7"`` is Orsini's Noble 7, ``"CJ"`` a Colonna Jester. In the middle a Jester
carries its declared value: ``"CJ=5"``.

``position`` builds a state in the play phase (or any phase given) from such strings::

    position(
        hands=["O5 O7", "C3", "R2 RD", "GJ"],
        alliances=[["O4/C9", "O2/R5", "O3/G6"], ...],   # per holder: "face-up/hidden"
        middle=["O5 C3", "G10"],                          # stacks A, B, ... bottom card first
    )

Every house's cards that the position does not place elsewhere make up its deck (``decks``
gives a deck explicitly; the house's cards left over are then eliminated), so a position always
holds each house's 25 cards. The placer of a hidden card is the house it belongs to.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.medici.cards import JESTER, RANK_VALUE, RANKS, card, house_deck
from engine.medici.game import apply
from engine.medici.state import NO_CARD, NO_LIMIT, NONE, Action, State
from engine.medici.text import parse_stack_label

HOUSE_LETTERS = "OCRG"
RANK_CODES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "M", "L", "J", "D")


def card_of(code: str) -> int:
    """``"O7"`` -> Orsini Noble 7."""
    code = code.strip()
    if len(code) < 2 or code[0] not in HOUSE_LETTERS or code[1:] not in RANK_CODES:
        raise ValueError(f"not a card code: {code!r} (e.g. O7, CJ, GD, RM, OL)")
    return card(HOUSE_LETTERS.index(code[0]), RANK_CODES.index(code[1:]))


def code_of(c: int) -> str:
    """Orsini Noble 7 -> ``"O7"``."""
    return HOUSE_LETTERS[c // RANKS] + RANK_CODES[c % RANKS]


def cards_of(text: str) -> list[int]:
    """``"O5 O7 CJ"`` -> three cards."""
    return [card_of(w) for w in text.split()]


def stack_of(text: str) -> list[tuple[int, int]]:
    """``"O5 CJ=4"`` -> ``[(O5, 5), (CJ, 4)]``: a stack, bottom card first."""
    out = []
    for word in text.split():
        code, _, declared = word.partition("=")
        c = card_of(code)
        if c % RANKS == JESTER:
            if not declared:
                raise ValueError(f"a Jester in the middle needs its value: {word!r} (e.g. CJ=5)")
            out.append((c, int(declared)))
        else:
            out.append((c, RANK_VALUE[c % RANKS]))
    return out


def _alliance(text: str | None) -> list[int] | None:
    if text is None:
        return None
    top, slash, hidden = text.partition("/")
    if not slash:
        raise ValueError(f"an alliance is written 'face-up/hidden', not {text!r}")
    h = card_of(hidden)
    return [h // RANKS, h, card_of(top), 1]


def position(
    players: int = 4,
    *,
    hands: Sequence[str] | None = None,
    alliances: Sequence[Sequence[str | None]] | None = None,
    middle: Sequence[str] = (),
    decks: Sequence[str | None] | None = None,
    bottoms: Sequence[str] | None = None,
    limits: Sequence[int | None] | None = None,
    shown: Sequence[str | None] | None = None,
    turn: int = 0,
    phase: str = "play",
    turns: int = 0,
    end_when_all_struck: bool = False,
) -> State:
    """A state in which seat ``turn`` is to act (see the module docstring)."""
    n = players
    hands = list(hands or [""] * n)
    if alliances is None:
        alliance_rows = [_default_alliances(n, h) for h in range(n)]
    else:
        alliance_rows = [list(row) for row in alliances]
    decks = list(decks or [None] * n)
    bottoms = list(bottoms or [""] * n)
    used: Counter[int] = Counter()
    hand_cards = [sorted(cards_of(h)) for h in hands]
    rows = [[_alliance(a) for a in row] for row in alliance_rows]
    stacks = [stack_of(s) for s in middle]
    bottom_cards = [cards_of(b) for b in bottoms]
    for cards in hand_cards + bottom_cards:
        used.update(cards)
    for row in rows:
        for a in row:
            if a is not None:
                used.update((a[1], a[2]))
    for st in stacks:
        used.update(c for c, _ in st)
    pools: list[list[int]] = []
    eliminated: list[int] = []
    for h in range(n):
        rest = Counter(house_deck(h))
        rest.subtract({c: k for c, k in used.items() if c // RANKS == h})
        if any(k < 0 for k in rest.values()):
            over = [code_of(c) for c, k in rest.items() if k < 0]
            raise ValueError(f"more copies than the house has: {over}")
        remaining = sorted(rest.elements())
        if decks[h] is None:
            pools.append(remaining)
            continue
        pool = sorted(cards_of(decks[h] or ""))
        left = Counter(remaining)
        left.subtract(pool)
        if any(k < 0 for k in left.values()):
            raise ValueError(f"deck {decks[h]!r} holds cards placed elsewhere")
        pools.append(pool)
        eliminated.extend(left.elements())
    data: dict[str, Any] = {
        "config": {"players": n, "end_when_all_struck": end_when_all_struck},
        "phase": phase,
        "turn": turn,
        "hands": hand_cards,
        "pools": pools,
        "bottoms": bottom_cards,
        "alliances": rows,
        "middle": [[i, sum(v for _, v in st), [list(p) for p in st]] for i, st in enumerate(stacks)],
        "next_sid": len(stacks),
        "eliminated": sorted(eliminated),
        "limits": [NO_LIMIT if x is None else x for x in (limits or [None] * n)],
        "shown": [NO_CARD if x is None else card_of(x) for x in (shown or [None] * n)],
        "pending": None,
        "turns": turns,
        "end": "",
    }
    return State.from_data(data)


def _default_alliances(n: int, holder: int) -> list[str | None]:
    """Three alliances for ``holder``: its own Nobles 2, 3, 4 face up, each over a Noble 6 + h
    of its placer (``h`` the holder's seat), in the slots the set-up would use."""
    placers = [p for p in range(n) if p != holder or n == 3]
    row: list[str | None] = [None, None, None]
    for p in placers:
        k = (p - holder - 1) % n
        row[k] = f"{HOUSE_LETTERS[holder]}{k + 2}/{HOUSE_LETTERS[p]}{holder + 6}"
    return row


def action(
    kind: str,
    seat: int,
    code: str | None = None,
    value: int | None = None,
    *,
    stack: str | None = None,
    slot: int | None = None,
    elim: str | None = None,
    extra: int = 0,
) -> Action:
    """An action written as people say it: ``action("build", 0, "OJ", 5, stack="B")``; ``slot``
    is a shadow alliance numbered 1 to 3, stacks are letters, a value defaults to the card's."""
    c = NO_CARD if code is None else card_of(code)
    if value is None:
        value = RANK_VALUE[c % RANKS] if c >= 0 and kind in ("court", "build", "conspire", "strike") else 0
    where = {"stack": NONE if stack is None else parse_stack_label(stack),
             "slot": NONE if slot is None else slot - 1}
    return Action(kind, seat, card=c, value=value, elim=NONE if elim is None else parse_stack_label(elim), extra=extra,
                  **where)


def after(state: State, *actions: Action) -> State:
    """``state`` after ``actions``, each through the checked door."""
    for a in actions:
        state = apply(state, a)
    return state


def with_fields(state: State, **fields: Any) -> State:
    """A copy of ``state`` with some fields changed through plain data (checked on the way)."""
    data = state.to_data()
    for name, value in fields.items():
        if name not in data:
            raise ValueError(f"no state field {name!r}")
        data[name] = value
    return State.from_data(data)
