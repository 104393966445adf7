"""Dealing: who resolves the chance steps of a networked game, and how. One pluggable part.

A ``Dealer`` answers one question for the table (``net.table``): at a chance step, what action
does seat ``me`` apply to its own view? It returns that action, or ``None`` when the action can
only come from an entry in the transcript (a card its owner alone knows, or, with the fair deck,
a card whose decryption shares have not all arrived yet).

``SeedDealer`` (this module) deals from the seed the seats agreed by commit-and-reveal: every
deck order is a pure function of that seed. It needs no messages and hides nothing from a peer
that cares to compute the orders: each peer applies only what its seat may know (another seat's
drawn card is ``UNKNOWN`` to it), but the seed itself is public. ``docs/security.md`` says which
guarantees hold in this mode. The fair deck (``net.deck``) replaces it behind the same
``chance(view, me)`` and ``feed(entry)`` methods.

Court of the Medici (``MediciSeedDealer``): each house deck is shuffled by a generator seeded
with ``SHA-256("palazzo/deal/v1" || seed || house)``; the k-th card drawn from a deck's unordered
top part (its "pool") is the k-th card of that order. Cards put under a deck by *plan for the
future* come back in the order they went down, known to their owner only; the last card of a
deck is shown to all (when it comes from under the deck, its owner shows it in an entry). A tie
for first player goes to the candidate at ``SHA-256("palazzo/first/v1" || seed) mod count``.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any, Protocol

from engine.core import UNKNOWN
from net.transcript import Entry


class Dealer(Protocol):
    def chance(self, view: Any, me: int) -> Any | None:
        """The chance action for ``me``'s view now, or ``None`` if it must come from an entry."""

    def note(self, view: Any, action: Any) -> None:
        """An action from an entry was applied to ``me``'s view (as ``me`` knows it)."""

    def feed(self, entry: Entry) -> None:
        """Take an entry that carries dealing messages (none for the seed dealer)."""


def _seeded(tag: bytes, seed: bytes, *parts: int) -> random.Random:
    h = hashlib.sha256(tag + seed + bytes(parts)).digest()
    return random.Random(int.from_bytes(h, "big"))


class MediciSeedDealer:
    """Court of the Medici's decks dealt from the joint seed."""

    def __init__(self, seed: bytes, config: Any) -> None:
        from engine.medici.cards import house_deck

        self.seed = seed
        self.orders: list[list[int]] = []
        for house in range(config.players):
            order = list(house_deck(house))
            _seeded(b"palazzo/deal/v1", seed, house).shuffle(order)
            self.orders.append(order)

    def chance(self, view: Any, me: int) -> Any | None:
        from engine.medici.cards import HOUSE_SIZE
        from engine.medici.rules import first_candidates
        from engine.medici.state import mk

        if view.phase == "first":
            tied = first_candidates(view)
            pick = int.from_bytes(hashlib.sha256(b"palazzo/first/v1" + self.seed).digest(), "big")
            return mk("first", tied[pick % len(tied)])
        seat = view.turn
        pool, bottoms = view.pools[seat], view.bottoms[seat]
        if pool:
            card = self.orders[seat][HOUSE_SIZE - len(pool)]
            last = len(pool) == 1 and not bottoms
            return mk("draw", seat, card if me == seat or last else UNKNOWN)
        if len(bottoms) == 1:
            return None  # the deck's last card, from under it: its owner shows it in an entry
        return mk("draw", seat, bottoms[0] if me == seat else UNKNOWN)

    def note(self, view: Any, action: Any) -> None:
        return None

    def feed(self, entry: Entry) -> None:
        return None


class CondottiereSeedDealer:
    """Condottiere's shared deck dealt from the joint seed.

    The pile is a multiset that reshuffles take discards into, so this dealer follows the whole
    game in a shadow state with every card known, and draws the k-th card of the game from the
    shadow's pile with a generator seeded by ``SHA-256("palazzo/deal/v1" || seed || k)``
    (``engine.core.sample_chance`` over the pile's cards in order). The starting player is
    drawn the same way (k = 0).

    The shadow learns every action from the entries. A card another seat plays face down
    (Hidden Cards) is unknown until it is turned up; from that play on, the shadow keeps the
    actions aside and replays them once every such card is known. Every face-down card is
    turned up before a battle is resolved, and cards are only dealt after that, so the shadow
    is always complete when a card is dealt.
    """

    def __init__(self, seed: bytes, config: Any) -> None:
        from engine.registry import get_game

        self.seed = seed
        self.rules = get_game("condottiere").rules
        self.shadow = self.rules.new_game(config)
        self.count = 0
        self.tail: list[Any] = []  # actions after the first face-down card not known yet
        self.down: list[list[int | None]] = [[] for _ in range(config.players)]

    def chance(self, view: Any, me: int) -> Any | None:
        from engine.core import sample_chance

        if self.tail:
            raise RuntimeError("a card is due while a face-down card is still unknown")
        rng = _seeded(b"palazzo/deal/v1", self.seed, *self.count.to_bytes(4, "big"))
        self.count += 1
        action = sample_chance(self.rules.chance_outcomes(self.shadow), rng)
        self.shadow = self.rules.apply_unchecked(self.shadow, action)
        if action.kind == "draw" and action.seat != me:
            return action._replace(card=UNKNOWN)
        return action

    def note(self, view: Any, action: Any) -> None:
        """Follow ``action``; ``ValueError`` (and no change) if the shadow's rules refuse it."""
        seat = action.seat
        down = [list(d) for d in self.down]
        tail = list(self.tail)
        if action.kind == "play" and view.config.hidden_cards and (
            action.card == UNKNOWN or action.card in _face_down()
        ):
            down[seat].append(len(tail) if action.card == UNKNOWN or tail else None)
        elif action.kind == "reveal":
            line = view.lines[seat]
            k = sum(1 for _, up in line[: action.target] if not up)
            index = down[seat].pop(k)
            if index is not None:
                tail[index] = tail[index]._replace(card=action.card)
        shadow = self.shadow
        if tail or action.card == UNKNOWN:
            tail.append(action)
            if all(a.card != UNKNOWN for a in tail if a.kind == "play"):
                for a in tail:
                    shadow = self.rules.apply(shadow, a)
                tail = []
                down = [[None] * len(d) for d in down]  # every card in them is known now
        else:
            shadow = self.rules.apply(shadow, action)
        self.shadow, self.tail, self.down = shadow, tail, down

    def feed(self, entry: Entry) -> None:
        return None


def _face_down() -> frozenset[int]:
    from engine.condottiere.cards import FACE_DOWN_KINDS

    return FACE_DOWN_KINDS


SEED_DEALERS: dict[str, Any] = {"medici": MediciSeedDealer, "condottiere": CondottiereSeedDealer}


def seed_dealer(game: str, seed: bytes, config: Any) -> Dealer:
    try:
        return SEED_DEALERS[game](seed, config)
    except KeyError:
        raise ValueError(f"no dealer for the game {game!r}") from None
