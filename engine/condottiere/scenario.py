"""Positions written by hand: rule scenarios for tests, documentation and the table.

``position`` builds a full ``State`` from readable pieces. Cards are given by name
(``"Mercenary 6"``, ``"Heroine"``) or by number; a name starting with ``~`` is face down
(``"~Mercenary 10"``). Regions are given by name. Every card not placed anywhere is in the draw
pile, so the 110 cards are always all there.

>>> s = position(2, lines=[["Mercenary 10", "Mercenary 5"], ["Heroine"]], battle="Firenze")
>>> s.phase, s.battle, len(s.hands[0])
('play', 10, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.condottiere import rules
from engine.condottiere.cards import FULL_DECK, SLOTS, counts_of, parse_card, region_index
from engine.condottiere.state import CondottiereConfig, State

CardSpec = int | str


def card_of(spec: CardSpec) -> int:
    if isinstance(spec, int):
        return spec
    return parse_card(spec.lstrip("~"))


def _entry(spec: CardSpec) -> tuple[int, int]:
    down = isinstance(spec, str) and spec.startswith("~")
    return (card_of(spec), 0 if down else 1)


def position(
    players: int = 2,
    *,
    config: CondottiereConfig | None = None,
    hands: Sequence[Iterable[CardSpec]] | None = None,
    lines: Sequence[Iterable[CardSpec]] | None = None,
    owner: Mapping[str, int] | None = None,
    battle: str | None = "Torino",
    holder: int = 0,
    turn: int | None = None,
    favor: str | None = None,
    passed: Sequence[int] | None = None,
    discards: Iterable[CardSpec] = (),
    phase: str = "play",
    battles: int = 1,
    **fields: Any,
) -> State:
    """A position in the middle of a game (by default: a battle, ``holder`` to play)."""
    config = config or CondottiereConfig(players)
    n = config.players
    s = rules.new_game(config)
    s.hands = tuple(tuple(sorted(card_of(c) for c in h)) for h in (hands or [()] * n))
    s.lines = tuple(tuple(_entry(c) for c in line) for line in (lines or [()] * n))
    own = [-1] * len(s.owner)
    for name, seat in (owner or {}).items():
        own[region_index(name)] = seat
    s.owner = tuple(own)
    s.battle = region_index(battle) if battle else -1
    s.holder = s.placer = holder
    if s.battle >= 0 and config.capturing_regions and own[s.battle] >= 0:
        s.defender = own[s.battle]
        s.free = 1
    s.favor = region_index(favor) if favor else -1
    s.passed = tuple(passed) if passed is not None else (0,) * n
    s.discards = counts_of([card_of(c) for c in discards])
    used = [0] * SLOTS
    for h in s.hands:
        for c in h:
            used[c] += 1
    for line in s.lines:
        for c, _ in line:
            used[c] += 1
    pile = tuple(f - u - d for f, u, d in zip(FULL_DECK, used, s.discards, strict=True))
    if any(x < 0 for x in pile):
        raise ValueError("more copies of a card than the deck holds")
    s.pile = pile
    s.phase = phase
    s.turn = holder if turn is None else turn
    s.battles = battles
    for name, value in fields.items():
        setattr(s, name, value)
    return s
