"""What a Condottiere position is worth and where one may go: strength, regions, limits.

Every measure is a function of the state alone (it reads the configuration from ``s.config``),
and every layer that shows or weighs a position calls it: the flow, the table, the log, the
bots and the search. A variant's rule goes here, and every one of them follows it. These read a
``State`` and never change it; ``rules`` builds the game on them.

* **Strength at the end of a battle** (``strengths``; ``announced_strengths`` counts the face-up
  cards alone, ``own_strength`` a seat's line as only that seat knows it): only mercenaries are touched by the
  seasons and Drummers. With a Winter in play every mercenary counts 1; a Drummer doubles its
  own line's mercenaries; with a Spring the mercenaries whose printed strength is the highest
  in play get +3; a Heroine counts 10, a Courtesan 1. "Highest" compares printed strengths.
* **Regions**: the token goes on a region without a marker or the Favor of the Pope (Capturing
  Regions: also another player's); the Favor on any region without a marker (Capturing: any)
  but the one fought over, or off the board.
* **Victory** (``thresholds``): 6 regions or 4 connected with 2-3 players, 5 or 3 with 4-6;
  Bigger Kingdoms asks one more connected region.
* **Hands**: 10 cards to start (7 with Draw After Battle); a deal fills a hand, and a draw may
  fill it, up to 10 plus one per region controlled.
"""

from __future__ import annotations

from engine.condottiere.cards import (
    COURTESAN,
    DRUMMER,
    HEROINE,
    MERC_STRENGTH,
    NREGIONS,
    SPRING,
    WINTER,
    largest_group,
)
from engine.condottiere.state import Line, State

END_ADJACENT = "adjacent"
END_TOTAL = "regions"

HAND_START = 10
HAND_START_DRAW = 7
HAND_BASE = 10
DRAW_MAX = 3
KEEP_MAX = 2
ADJACENT_BONUS = 5
MAX_BATTLES = 200

# -- numbers that depend on the configuration ---------------------------------------------


def thresholds(s: State) -> tuple[int, int]:
    """(regions in total, connected regions) that win, by player count and Bigger Kingdoms."""
    config = s.config
    small = config.players <= 3
    total = 6 if small else 5
    adjacent = 4 if small else 3
    if config.bigger_kingdoms:
        adjacent += 1
    return total, adjacent


def game_limit(s: State) -> int:
    """Games after which a match ends even if nobody reached the target. Every game in which
    some region is held scores a point, so a match that scores reaches the target sooner."""
    config = s.config
    return config.players * config.target_score


def hand_limit(s: State, seat: int) -> int:
    """10 plus one per region ``seat`` controls (the deal's size and the draw limit)."""
    return HAND_BASE + s.owner.count(seat)


def start_hand(s: State) -> int:
    """The cards each seat is dealt at the start of a game (fewer with Draw After Battle)."""
    return HAND_START_DRAW if s.config.draw_after_battle else HAND_START


# -- strength ----------------------------------------------------------------------------------


def strengths(s: State) -> list[int]:
    """Every line's strength at conclusion: every card counted, face down or not (a masked
    card counts nothing)."""
    return _count(s, s.lines, False)


def announced_strengths(s: State) -> list[int]:
    """Every line's strength counting its face-up cards alone: the strength a seat announces
    in Hidden Cards, and what everyone sees."""
    return _count(s, s.lines, True)


def own_strength(s: State, seat: int) -> int | None:
    """What ``seat``'s line would count with its own face-down cards turned up, the others'
    face-down cards left out: the strength only that seat knows. ``None`` with no face-down
    card in its line."""
    if not 0 <= seat < len(s.lines) or all(up for _, up in s.lines[seat]):
        return None
    lines = tuple(line if q == seat else tuple((c, 1) for c, up in line if up)
                  for q, line in enumerate(s.lines))
    return _count(s, lines, False)[seat]


def fought_strengths(before: State, after: State) -> list[int]:
    """The strengths that decided the battle the action from ``before`` to ``after`` concluded,
    as the resolution counted them: the lines fought (``after``'s, unless they were already
    cleared) in ``before``'s battle."""
    if any(after.lines):
        s = before.copy()
        s.lines = after.lines
        return strengths(s)
    return strengths(before)


def _count(s: State, lines: tuple[Line, ...], only_up: bool) -> list[int]:
    """The strengths of ``lines`` in position ``s`` (``only_up``: counting face-up cards
    alone)."""
    winter = spring = False
    top = 0
    for line in lines:
        for c, up in line:
            if only_up and not up:
                continue
            if c < 7:
                if c >= 0 and MERC_STRENGTH[c] > top:
                    top = MERC_STRENGTH[c]
            elif c == WINTER:
                winter = True
            elif c == SPRING:
                spring = True
    out = []
    for line in lines:
        mercs = 0
        bonus = 0
        drum = False
        for c, up in line:
            if (only_up and not up) or c < 0:
                continue
            if c < 7:
                v = 1 if winter else MERC_STRENGTH[c]
                mercs += v
                if spring and MERC_STRENGTH[c] == top:
                    bonus += 3
            elif c == HEROINE:
                bonus += 10
            elif c == COURTESAN:
                bonus += 1
            elif c == DRUMMER:
                drum = True
        out.append((2 * mercs if drum else mercs) + bonus)
    return out


def courtesans(s: State) -> list[int]:
    return [sum(1 for c, _ in line if c == COURTESAN) for line in s.lines]


# -- regions -----------------------------------------------------------------------------------


def battle_regions(s: State, seat: int) -> list[int]:
    """Regions where ``seat`` may place the Condottiere token."""
    favor = s.favor
    owner = s.owner
    if s.config.capturing_regions:
        return [r for r in range(NREGIONS) if r != favor and owner[r] != seat]
    return [r for r in range(NREGIONS) if r != favor and owner[r] < 0]


def favor_regions(s: State) -> list[int]:
    """Regions where a Bishop may place the Favor of the Pope (off the board is -1, always)."""
    battle = s.battle
    if s.config.capturing_regions:
        return [r for r in range(NREGIONS) if r != battle]
    owner = s.owner
    return [r for r in range(NREGIONS) if r != battle and owner[r] < 0]


def max_take(s: State, seat: int) -> int:
    """How many cards ``seat`` may draw after a battle (Draw After Battle)."""
    room = hand_limit(s, seat) - len(s.hands[seat])
    return max(0, min(DRAW_MAX, room, sum(s.pile) + sum(s.discards)))


def victory(s: State, seat: int) -> str:
    """How ``seat`` meets a victory condition now ("" if it does not)."""
    total_need, adjacent_need = thresholds(s)
    mask = s.regions_of(seat)
    if largest_group(mask) >= adjacent_need:
        return END_ADJACENT
    if mask.bit_count() >= total_need:
        return END_TOTAL
    return ""


