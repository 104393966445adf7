"""The warning line of a Condottiere table: who is one region from victory, and when the board
is about to run out, from one seat's view (the map is public, so every seat reads the same).

Victory (``docs/rules/condottiere.md``, "Victory"), checked when a battle is resolved: a player
holds the regions in total, or the connected regions, that ``thresholds`` gives. A player is
one region from victory when one more region would meet either: any region when it holds one
less than the total; for the connected condition, the regions that would join its largest group
to the size needed (a region another holds counts only with Capturing Regions; the region under
the Favor of the Pope does not count). With Playing For Points such a win ends one game of the
match, and is said so; when the points it brings (a point a region, five more for connected
regions) reach the target, it ends the match too.

The board runs out when the token has no legal region to go to: then the most regions wins (a
tie fights a final battle). When the region fought over is the last free one, its conquest ends
the game that way. The long war ends the same way after ``MAX_BATTLES`` battles: the last one is
announced.

Nothing is said before the first battle, in a final battle (which is the end itself) or after.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.condottiere.cards import NREGIONS, REGIONS, largest_group
from engine.condottiere.measures import ADJACENT_BONUS, MAX_BATTLES, thresholds
from engine.condottiere.state import State
from engine.words import plural


def _name(names: Sequence[str], q: int) -> str:
    return names[q] if 0 <= q < len(names) else f"seat {q + 1}"


def _or(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def winning_regions(s: State, q: int) -> list[int]:
    """The regions of which one more would meet a victory condition for ``q``."""
    total, adjacent = thresholds(s)
    mask = s.regions_of(q)
    open_ = [r for r in range(NREGIONS)
             if r != s.favor and s.owner[r] != q and (s.owner[r] < 0 or s.config.capturing_regions)]
    if mask.bit_count() + 1 >= total:
        return open_
    return [r for r in open_ if largest_group(mask | 1 << r) >= adjacent]


def warning(s: State, seat: int, names: Sequence[str]) -> str:
    """One line (or "") naming every player one region from victory, and a last free region."""
    if s.phase == "over" or s.final:
        return ""
    total, adjacent = thresholds(s)
    said: list[str] = []
    for q in range(s.players):
        wins = winning_regions(s, q)
        if not wins:
            continue
        who = _name(names, q)
        held = s.owner.count(q)
        game = _game_words(s, q, wins)
        if held + 1 >= total:
            said.append(f"{who} holds {held} of {plural(total, 'region')}: one more wins {game}.")
        elif len(wins) <= 4:
            places = _or([REGIONS[r] for r in wins])
            said.append(f"{who} is one region from {adjacent} adjacent ones: {places} wins {game}.")
        else:
            said.append(f"{who} is one region from {adjacent} adjacent ones ({len(wins)} regions "
                        f"would do): the next conquest may win {game}.")
    if s.battle >= 0 and not s.config.capturing_regions and s.owner[s.battle] < 0:
        free = [r for r in range(NREGIONS) if s.owner[r] < 0 and r not in (s.battle, s.favor)]
        if not free:
            said.append(f"{REGIONS[s.battle]} is the last free region: if it is conquered, the "
                        "game ends: the most regions wins.")
    if s.battles + 1 >= MAX_BATTLES:
        said.append(f"Battle {MAX_BATTLES} is the last of the long war: after it, the most "
                    "regions wins.")
    return " ".join(said)


def _game_words(s: State, q: int, wins: list[int]) -> str:
    """What a win by ``q`` with one of the regions ``wins`` ends: the game, a game of the match,
    or the match itself (its points can reach the target)."""
    if not s.config.playing_for_points:
        return "the game"
    _, adjacent = thresholds(s)
    mask = s.regions_of(q)
    gain = mask.bit_count() + 1
    if any(largest_group(mask | 1 << r) >= adjacent for r in wins):
        gain += ADJACENT_BONUS  # a connected win earns the bonus
    if s.points[q] + gain >= s.config.target_score:
        return "this game and the match"
    return "this game of the match"
