"""The end-of-game audit of the fair deck: reveal everything, replay, name the first cheat.

Construction
------------
When the game is over every seat sends ``reveal_message``: ``{"type": "deck/reveal",
"secret": x_j (32 bytes), "seeds": {deck_id: packed seeds}}``, where each deck's seeds are
packed as a 4-byte shuffle number and a 32-byte seed for each of the seat's shuffles. ``read_reveals`` checks
that every seat revealed, that ``x_j*G`` is the key share it proved at the start, and the form of
its seeds; a seat that does not, is named (step ``"reveal"``).

``audit_deck`` then replays one deck's ``log`` through an observer ``FairDeck`` that knows every
secret. Besides every check made in play (points, turns, proofs) it checks, in log order:

* each shuffle: the revealed seed opens the shuffler's commitment, and re-derives the output
  exactly from the input (an output equal to the re-derived one needs no further point checks);
  if not, it unmasks both sides with the joint
  secret to say what the shuffle did (a card not of the table, a card duplicated or dropped, or
  an order its seed does not make: a stacked deck);
* each decryption share: ``D == x_j*C1`` with the revealed ``x_j``;
* at the end, that the pile and every card still out of it unmask to the deck's cards, each once.

The first failure raises ``CheatDetected(seat, step, reason)``; ``audit_game`` audits every deck
of a game in the order given.

Cost: the auditor knows the joint secret ``x`` and every seed, so it tracks the discrete log ``r``
of every first half (``C1 = r*G``, and ``C2 = M + (r*x)*G``). Re-deriving a masked card, a share
(``D = (x_j*r)*G``) or a proof's commitments then takes multiplications of the base point only,
about five times cheaper than by any other point.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from net.deck import cipher as dc
from net.deck import group as g
from net.deck import proofs as dp
from net.deck.fair_deck import FairDeck, unpack
from net.deck.keys import PublicKeys
from net.wire.errors import CheatDetected

Seeds = dict[int, dict[tuple[str, int], bytes]]  # seat -> (deck id, shuffle number) -> seed


def reveal_message(secret: int, decks: Sequence[FairDeck]) -> dict[str, Any]:
    """This seat's end-of-game reveal: its key secret and the seeds of its shuffles."""
    return {"type": "deck/reveal", "secret": g.scalar_bytes(secret),
            "seeds": {d.deck_id: d.my_seeds() for d in decks}}


def read_reveals(keys: PublicKeys, reveals: Mapping[int, Mapping[str, Any]]) -> tuple[dict[int, int], Seeds]:
    """Every seat's secret (checked against its key share) and seeds, or the first seat that
    did not reveal properly."""
    secrets: dict[int, int] = {}
    seeds: Seeds = {}
    for seat in range(keys.seats):
        msg = reveals.get(seat)
        if not isinstance(msg, Mapping) or msg.get("type") != "deck/reveal":
            raise CheatDetected(seat, "reveal", "no end-of-game reveal")
        try:
            x = g.decode_scalar(msg.get("secret"))
        except g.InvalidScalar as e:
            raise CheatDetected(seat, "reveal", f"revealed secret: {e}") from None
        if g.base_mul(x) != keys.shares[seat]:
            raise CheatDetected(seat, "reveal", "the revealed secret is not its key share's")
        secrets[seat] = x
        seeds[seat] = {}
        raw = msg.get("seeds")
        if not isinstance(raw, Mapping):
            raise CheatDetected(seat, "reveal", "seeds must be a map of deck id to packed seeds")
        item = 4 + dc.SEED_BYTES
        for deck_id, packed in raw.items():
            if not isinstance(deck_id, str) or not isinstance(packed, bytes) or len(packed) % item:
                raise CheatDetected(seat, "reveal", "seeds are a 4-byte number and a 32-byte seed each")
            for chunk in unpack(packed, item):
                seeds[seat][(deck_id, int.from_bytes(chunk[:4], "big"))] = chunk[4:]
    return secrets, seeds


class _AuditDeck(FairDeck):
    """An observer that also knows every secret and seed, and so the discrete log ``r`` of the
    first half of every masked card (``C1 = r*G``, ``C2 = M + (r*x)*G``): it re-derives shuffles
    and recomputes shares and proofs with fixed-base multiplications only."""

    def __init__(
        self, keys: PublicKeys, start: Mapping[str, Any], secrets: dict[int, int], seeds: Seeds
    ) -> None:
        table = dc.CardTable(start["domain"], start["size"])
        super().__init__(keys, start["deck"], table, start["cards"])
        self._secrets = secrets
        self._seeds = seeds
        self._joint_secret = sum(secrets.values()) % g.L
        self._pile_logs = [1] * len(self.pile)  # public masks: r = 1
        self._pile_cards = list(start["cards"])
        self._held_logs: list[int] = []
        self._held_cards: list[int] = []

    def deal(self, to: int | None) -> int:
        handle = super().deal(to)
        self._held_logs.append(self._pile_logs.pop(0))
        self._held_cards.append(self._pile_cards.pop(0))
        return handle

    def return_to_bottom(self, handle: int) -> None:
        super().return_to_bottom(handle)
        self._pile_logs.append(self._held_logs[handle])
        self._pile_cards.append(self._held_cards[handle])

    def reshuffle(self, cards: Sequence[int]) -> None:
        super().reshuffle(cards)
        self._pile_logs += [1] * len(cards)
        self._pile_cards += list(cards)

    def _read_shuffle(self, author: int, raw: list[bytes], commitment: bytes) -> list[dc.Ciphertext]:
        number = self.shuffles
        seed = self._seeds[author].get((self.deck_id, number))
        if seed is None:
            raise CheatDetected(author, "reveal", f"no seed revealed for shuffle {number}")
        expected = dc.seed_commitment(self.keys.game_id, self.deck_id, author, number, seed)
        if expected != commitment:
            raise CheatDetected(
                author, "shuffle", f"the revealed seed does not open the commitment of shuffle {number}"
            )
        draw = dc.shuffle_draw(seed, len(self.pile))
        logs = [(self._pile_logs[i] + s) % g.L for i, s in zip(draw.order, draw.scalars, strict=True)]
        cards = [self._pile_cards[i] for i in draw.order]
        made = [
            dc.Ciphertext(g.base_mul(r), g.add(self.table.point(m), g.base_mul(r * self._joint_secret)))
            for r, m in zip(logs, cards, strict=True)
        ]
        if [ct.to_bytes() for ct in made] == raw:
            self._pile_logs, self._pile_cards = logs, cards
            return made  # made here from checked values: no need to decode them again
        out = super()._read_shuffle(author, raw, commitment)
        raise CheatDetected(author, "shuffle", f"shuffle {number}: {self._describe(self.pile, out)}")

    def _describe(self, before: Sequence[dc.Ciphertext], after: Sequence[dc.Ciphertext]) -> str:
        def cards(cts: Sequence[dc.Ciphertext]) -> list[int | None]:
            return [self.table.index(dc.decrypt(ct, self._joint_secret)) for ct in cts]

        was, now = Counter(cards(before)), cards(after)
        if None in now:
            return f"output position {now.index(None)} is not a card of the deck"
        count = Counter(now)
        extra = sorted(c for c in count if c is not None and count[c] > was[c])
        lost = sorted(c for c in was if c is not None and count[c] < was[c])
        if extra or lost:
            parts = []
            if extra:
                parts.append("duplicates card " + ", ".join(map(str, extra)))
            if lost:
                parts.append("drops card " + ", ".join(map(str, lost)))
            return "; ".join(parts)
        return "the order is not the one its committed seed derives (a stacked deck)"

    def _read_share(self, author: int, handle: int, data: object, step: str) -> bytes:
        share = g.base_mul(self._secrets[author] * self._held_logs[handle])
        if data == share:
            return share
        super()._read_share(author, handle, data, step)
        raise CheatDetected(author, step, f"the share for card {handle} is not x*C1")

    def _verify_shares(
        self, author: int, handles: Sequence[int], bases: Sequence[bytes],
        shares: Sequence[bytes], proof: object, context: bytes,
    ) -> bool:
        # every share was just recomputed by _read_share, so the fast check is exact
        logs = [self._held_logs[h] for h in handles]
        return dp.verify_dleq_known(
            self.keys.shares[author], bases, shares, proof, context, self._secrets[author], logs
        )

    def check_composition(self) -> None:
        """The pile and the cards out of it hold the deck's cards, each exactly once."""
        found = [self.table.index(dc.decrypt(ct, self._joint_secret)) for ct in self.pile]
        found += [
            self.table.index(dc.decrypt(d.ciphertext, self._joint_secret))
            for d in self._dealt if d.in_play
        ]
        if Counter(found) != Counter(self.log[0]["cards"]):
            raise AssertionError(f"deck {self.deck_id!r} does not hold its cards at the end")


def audit_deck(
    keys: PublicKeys, log: Sequence[Mapping[str, Any]], secrets: dict[int, int], seeds: Seeds
) -> list[int]:
    """Replay one deck's log with every secret; raise ``CheatDetected`` for the first cheat.
    Return the card dealt under each handle, in handle order."""
    if not log or log[0].get("op") != "start":
        raise ValueError("a deck log begins with its start entry")
    deck = _AuditDeck(keys, log[0], secrets, seeds)
    for entry in log[1:]:
        try:
            deck.replay(entry)
        except CheatDetected as e:
            found = CheatDetected(e.seat, e.step, f"deck {deck.deck_id}: {e.reason}", e.code)
            found.context = entry.get("context")  # type: ignore[attr-defined]
            raise found from None
    deck.check_composition()
    return list(deck._held_cards)


def audit_game(
    keys: PublicKeys, logs: Sequence[Sequence[Mapping[str, Any]]], reveals: Mapping[int, Mapping[str, Any]]
) -> dict[str, list[int]]:
    """Check every reveal, then every deck's log in order. Return each deck's cards by handle
    (``{deck id: [card of handle 0, ...]}``)."""
    secrets, seeds = read_reveals(keys, reveals)
    return {log[0]["deck"]: audit_deck(keys, log, secrets, seeds) for log in logs}
