"""Computer players for Court of the Medici that look one move ahead. They decide from a view:
each masks what it is handed to its seat's view first, so a card the seat cannot see is never
read, even when the caller hands it a full state.

``RandomBot`` picks uniformly among the legal actions.

``GreedyBot`` scores every legal action by the immediate change in its own influence minus the
change in the others' (a strike on a hidden card it cannot see is scored as the average over
the cards that card may be, each resolved as well as it can be). Moves that end the game count
as a win or a loss, so it never ends a game it would lose while another move is left (the
game's designers: "everyone wants to wait until he is in the lead before ending the game"). A
strike that may eliminate nothing costs ``FIZZLE_COST`` times the chance that it fizzles, so that
among strikes it prefers those that eliminate; the cost is small, since a strike that fizzles
still sends three cards to court. Ties go to the move that spends the lowest card, and planning comes last.
In the set-up it hides its weakest cards before the others (they will score for its house if
struck) and crowns its alliances with its strongest, keeping Jesters in hand.
"""

from __future__ import annotations

import random

from engine import bots
from engine.medici import rules
from engine.medici.cards import COPIES, JESTER, RANK_VALUE, RANKS
from engine.medici.game import scores
from engine.medici.state import Action, State, mk, place_of
from engine.medici.view import view as seat_view


class RandomBot(bots.RandomBot[State, Action]):
    def legal_actions(self, view: State) -> list[Action]:
        return rules.legal_actions(view)

    def choose(self, view: State, seat: int) -> Action:
        return super().choose(seat_view(view, seat), seat)  # never more than the seat may know


def _card_score(c: int) -> int:
    return RANK_VALUE[c % RANKS]


def _stack_delta(delta: list[int], cards: tuple[tuple[int, int], ...], sign: int) -> None:
    for c, _ in cards:
        delta[c // RANKS] += sign * RANK_VALUE[c % RANKS]


class GreedyBot:
    name = "greedy"
    #: what a strike costs, in points of influence, when it eliminates no stack
    FIZZLE_COST = 1.0

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    # -- evaluation ----------------------------------------------------------------------------

    def _margin(self, delta: list[int], seat: int) -> float:
        return delta[seat] - sum(d for i, d in enumerate(delta) if i != seat)

    def _immediate(self, view: State, a: Action) -> list[int]:
        """The change in every house's influence that ``a`` makes at once."""
        delta = [0] * view.players
        k = a.kind
        if k in ("court", "build", "conspire"):
            delta[a.card // RANKS] += _card_score(a.card)
            if k == "build" and a.card % RANKS == 9:  # Minister on a stack of two or more
                st = view.stack(a.stack)
                if st is not None and len(st[2]) >= 2:
                    _stack_delta(delta, st[2], -1)
            if k == "conspire":
                st = view.stack(a.elim)
                if st is not None:
                    _stack_delta(delta, st[2], -1)
        elif k == "resolve":
            assert view.pending is not None
            slot, pc, _, hidden = view.pending
            alliance = view.alliances[view.turn][slot]
            assert alliance is not None
            for c in (hidden, alliance[2], pc):
                delta[c // RANKS] += _card_score(c)
            if a.elim >= 0:
                st = view.stack(a.elim)
                if st is not None:
                    _stack_delta(delta, st[2], -1)
        return delta

    def _ending_bonus(self, view: State, after: State, seat: int) -> float:
        if after.phase != "over":
            return 0.0
        sc = scores(after)
        mine = sc[seat]
        return 1000.0 if all(mine > x for i, x in enumerate(sc) if i != seat) else -1000.0

    def _value(self, view: State, a: Action, seat: int) -> float:
        if a.kind == "strike":
            return self._strike_value(view, a, seat)
        after = rules.apply_unchecked(view, a)
        return self._margin(self._immediate(view, a), seat) + self._ending_bonus(view, after, seat)

    def _strike_value(self, view: State, a: Action, seat: int) -> float:
        alliance = view.alliances[seat][a.slot]
        assert alliance is not None
        struck = rules.apply_unchecked(view, a)
        seen = rules._public_counts(view, alliance[0])
        total = 0.0
        weight = 0
        for h in rules.possible_hidden(view, seat, alliance):
            w = 1 if alliance[0] == seat else COPIES[h % RANKS] - seen[h % RANKS]
            if w <= 0:
                continue
            revealed = rules.apply_unchecked(struck, mk("reveal", alliance[0], card=h, slot=a.slot))
            best = max(
                self._value(revealed, r, seat) - (self.FIZZLE_COST if r.elim < 0 else 0.0)
                for r in rules.legal_actions(revealed)
            )
            total += w * best
            weight += w
        return total / weight if weight else -1e9

    # -- choice --------------------------------------------------------------------------------

    def choose(self, view: State, seat: int) -> Action:
        view = seat_view(view, seat)  # a card the seat cannot see is never read
        legal = rules.legal_actions(view)
        if len(legal) == 1:
            return legal[0]
        if view.phase == "hide":
            return min(legal, key=lambda a: (self._keep_value(a.card), place_of(a)))
        if view.phase == "top":
            return max(legal, key=lambda a: (-self._is_jester(a.card), _card_score(a.card), -place_of(a)))
        best_key = None
        best: list[Action] = []
        for a in legal:
            key = (self._value(view, a, seat), a.kind != "plan", -self._spent(a))
            if best_key is None or key > best_key:
                best_key, best = key, [a]
            elif key == best_key:
                best.append(a)
        return best[0] if len(best) == 1 else self.rng.choice(best)

    @staticmethod
    def _is_jester(c: int) -> int:
        return 1 if c % RANKS == JESTER else 0

    @staticmethod
    def _keep_value(c: int) -> int:
        """How much the bot wants to keep a card in hand (Jesters most)."""
        return 20 if c % RANKS == JESTER else _card_score(c)

    @staticmethod
    def _spent(a: Action) -> int:
        return _card_score(a.card) if a.card >= 0 else 0


BOTS = {"random": RandomBot, "greedy": GreedyBot}
