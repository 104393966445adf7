"""Computer players for Condottiere. They decide from a view: each masks what it is handed to
its seat's view first, so a card the seat cannot see is never read, even in a full state.

``RandomBot`` picks uniformly among the legal actions.

``GreedyBot`` plays like a sensible person, one decision at a time:

* **What a battle is worth.** A region is worth more when it joins or extends the bot's largest
  connected group, most when it wins the game; it is worth fighting to deny a region that would
  win the game for someone else. Cards are a resource for the whole round, so the bot spends
  only what the region is worth.
* **In a battle** it estimates every line's strength (face-up cards exactly, a face-down card as
  an average mercenary) and scores each play by the lead it gives over the strongest other line
  against the card's worth in hand. It plays the cheapest card that takes the lead when the
  region deserves it, and passes when it leads or cannot lead cheaply. A Surrender ends a battle
  it leads; a Bishop comes when the top mercenaries in play are mostly others'; Winter and
  Spring when they swing the totals its way; a Scarecrow takes back its best mercenary from a
  battle it is losing (and then it passes).
* **The Favor of the Pope** goes on the region that best serves the strongest rival's groups;
  the **Condottiere token** on the free region that best extends its own group.
* It discards a hand with no mercenary when the hand is weak, keeps its two strongest cards at
  the end of a round, and always draws as many cards as it may.
"""

from __future__ import annotations

import random

from engine import bots
from engine.condottiere import rules
from engine.condottiere.cards import (
    BISHOP,
    COURTESAN,
    HEROINE,
    MERC_STRENGTH,
    NEIGHBOURS,
    NREGIONS,
    SCARECROW,
    SURRENDER,
    largest_group,
)
from engine.condottiere.state import NONE, Action, State
from engine.condottiere.view import view as seat_view
from engine.core import UNKNOWN

#: how much the bot likes to hold each card (mercenaries by strength, specials by use)
HAND_WORTH: tuple[float, ...] = (1, 2, 3, 4, 5, 6, 10, 10, 1.5, 4, 3, 3, 5, 2.5, 6)
FACE_DOWN_GUESS = 4.0
#: a card's worth in hand against a region's worth in a battle
COST_WEIGHT = 0.5


class RandomBot(bots.RandomBot[State, Action]):
    def legal_actions(self, view: State) -> list[Action]:
        return rules.legal_actions(view)

    def choose(self, view: State, seat: int) -> Action:
        return super().choose(seat_view(view, seat), seat)  # never more than the seat may know


def estimated_strengths(view: State) -> list[float]:
    """Each line's strength as ``view`` knows it; a masked face-down card counts as an average
    mercenary."""
    known = rules.strengths(view)
    return [
        k + FACE_DOWN_GUESS * sum(1 for c, up in line if c == UNKNOWN)
        for k, line in zip(known, view.lines, strict=True)
    ]


def region_worth(view: State, seat: int, region: int) -> float:
    """What winning ``region`` is worth to ``seat``, in points of card strength: more when it
    grows the seat's largest group, most when it wins the game."""
    if region < 0:
        return 100.0  # a final battle decides the game
    total_need, adjacent_need = rules.thresholds(view)
    mask = view.regions_of(seat)
    mine = mask | (1 << region)
    group = largest_group(mine)
    if group >= adjacent_need or mine.bit_count() >= total_need:
        return 60.0
    worth = 6.0 + 4.0 * (group - largest_group(mask))
    if NEIGHBOURS[region] & mask:
        worth += 2.0
    return worth


def threat(view: State, seat: int, region: int) -> float:
    """How much it is worth to ``seat`` to stop the others from winning ``region``."""
    if region < 0:
        return 0.0
    total_need, adjacent_need = rules.thresholds(view)
    worst = 0.0
    for other in range(view.players):
        if other == seat:
            continue
        theirs = view.regions_of(other) | (1 << region)
        if largest_group(theirs) >= adjacent_need or theirs.bit_count() >= total_need:
            return 40.0
        worst = max(worst, 2.0 * (largest_group(theirs) - 1))
    return worst


class GreedyBot:
    name = "greedy"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def choose(self, view: State, seat: int) -> Action:
        view = seat_view(view, seat)  # a card the seat cannot see is never read
        legal = rules.legal_actions(view)
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase == "play":
            return self._battle(view, seat, legal)
        if phase == "place":
            return max(legal, key=lambda a: (self._place_score(view, seat, a.region), -a.region))
        if phase == "take":
            return legal[-1]
        if phase == "discard":
            # a hand without mercenaries adds little: only a Heroine or a few Courtesans
            # are worth keeping it for
            hand = view.hands[seat]
            weak = HEROINE not in hand and hand.count(COURTESAN) < 3
            return legal[-1] if weak else legal[0]
        if phase == "keep":
            return max(legal, key=lambda a: (len(a.cards), sum(HAND_WORTH[c] for c in a.cards)))
        return legal[0]

    # -- the token -----------------------------------------------------------------------------

    def _place_score(self, view: State, seat: int, region: int) -> float:
        score = region_worth(view, seat, region)
        defender = view.owner[region]
        if defender >= 0:
            # a defender wins ties and passes freely: attack only to stop a leader
            counts = view.region_counts()
            score -= 3.0
            if counts[defender] == max(counts):
                score += 2.0 + counts[defender]
        # keep away from regions where a rival would grow most
        score -= 0.3 * threat(view, seat, region)
        return score

    # -- a battle ------------------------------------------------------------------------------

    def _battle(self, view: State, seat: int, legal: list[Action]) -> Action:
        region = view.battle
        stakes = max(region_worth(view, seat, region), threat(view, seat, region))
        now = estimated_strengths(view)
        n = view.players
        others_in = any(not view.passed[q] for q in range(n) if q != seat)
        lead = now[seat] - max(now[q] for q in range(n) if q != seat)
        if lead > 0 and not others_in:
            return legal[0]  # alone and ahead: passing wins the region
        hand = view.hands[seat]
        # cards grow dearer as the hand shrinks (they come back only at the end of a round),
        # and cheap again when the round is ending: unspent cards are then mostly lost
        scarcity = 1.0 + 0.12 * max(0, 7 - len(hand))
        if sum(1 for q in range(n) if q != seat and view.hands[q]) <= 1:
            scarcity *= 0.5
        choice, best = legal[0], 0.0
        leads: dict[tuple[int, int], float] = {}
        masks = [view.regions_of(q) for q in range(n)]
        for a in legal[1:]:
            score = self._play_score(view, seat, a, stakes, scarcity, lead, leads, masks)
            if score > best:
                choice, best = a, score
        if choice.flip >= 0:
            # turn up the face-down card that tells the others least
            down = [c for c, up in view.lines[seat] if not up]
            weakest = min(range(len(down)), key=lambda k: (HAND_WORTH[down[k]], k))
            choice = choice._replace(flip=weakest)
        return choice

    def _play_score(
        self, view: State, seat: int, a: Action, stakes: float, scarcity: float, lead: float,
        leads: dict[tuple[int, int], float], masks: list[int],
    ) -> float:
        c = a.card
        cost = HAND_WORTH[c] * scarcity * COST_WEIGHT
        if c == SURRENDER:
            # ends the battle at once: a sure win when ahead
            return stakes + 4.0 - cost if lead > 0 else -1.0
        # where the Favor goes and which face-down card turns up change no strength
        key = (c, a.taken)
        new_lead = leads.get(key)
        if new_lead is None:
            strengths = estimated_strengths(rules.apply_unchecked(view, a._replace(flip=NONE)))
            new_lead = strengths[seat] - max(s for q, s in enumerate(strengths) if q != seat)
            leads[key] = new_lead
        if c == SCARECROW:
            if a.taken < 0 or lead > 0:
                return -1.0
            # take back the best mercenary from a battle that is not worth winning
            if self._can_win(view, seat, lead, stakes, scarcity):
                return -1.0
            return MERC_STRENGTH[a.taken] * 0.8 - cost * 0.5
        if c == BISHOP:
            cost += self._favor_cost(view, seat, a.region, masks)
        gain = new_lead - lead
        if gain <= 0:
            return -1.0
        if lead > 0:
            # already ahead: only cheap insurance
            return min(gain, 6.0) * 0.4 - cost * 0.5
        if new_lead > 0:
            return stakes - cost - max(0.0, new_lead - 6) * 0.2
        return stakes * 0.25 - cost

    def _can_win(self, view: State, seat: int, lead: float, stakes: float, scarcity: float) -> bool:
        """Whether the hand could still take the lead at a price the region is worth."""
        hand = [c for c in view.hands[seat] if 0 <= c < 8]
        if not hand:
            return False
        need = -lead + 1
        power = sum(MERC_STRENGTH[c] if c < 7 else 10 for c in hand)
        return power >= need and need * scarcity <= stakes * 1.5

    @staticmethod
    def _favor_cost(view: State, seat: int, target: int, masks: list[int]) -> float:
        """Lower is better: the Favor is best on a region a strong rival wants."""
        if target < 0:
            return 1.0
        best = 0.0
        for other in range(view.players):
            if other == seat:
                continue
            theirs = masks[other]
            if NEIGHBOURS[target] & theirs:
                best = max(best, 1.0 + largest_group(theirs | (1 << target)) - largest_group(theirs))
        mine = masks[seat]
        if NEIGHBOURS[target] & mine and view.owner[target] < 0:
            best -= 1.5  # do not block our own growth
        return -best * 0.5


BOTS = {"random": RandomBot, "greedy": GreedyBot}
assert NREGIONS == 17
