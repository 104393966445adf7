"""The end-of-game audit of the fair deck: reveal everything, replay, name the first cheat.

Construction
------------
When the game is over every seat sends ``reveal_message``: ``{"type": "deck/reveal",
"secret": x_j (32 bytes)}``. ``read_reveals`` checks that every seat revealed and that ``x_j*G``
is the key share it proved at the start; a seat that does not, is named (step ``"reveal"``).
No seat reveals anything of its shuffles: each was proved when it was made.

``audit_deck`` then replays one deck's ``log`` through an observer ``FairDeck`` that knows every
secret. Besides every check made in play (points, turns, every proof, the shuffles' included) it
checks, in log order:

* each decryption share: ``D == x_j*C1`` with the revealed ``x_j``;
* at the end, that the pile and every card still out of it unmask to the deck's cards, each once.

The first failure raises ``CheatDetected(seat, step, reason)``; ``audit_game`` audits every deck
of a game in the order given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from net.deck import cipher as dc
from net.deck import group as g
from net.deck.fair_deck import FairDeck
from net.deck.keys import PublicKeys
from net.wire.errors import CheatDetected


def reveal_message(secret: int, decks: Sequence[FairDeck]) -> dict[str, Any]:
    """This seat's end-of-game reveal: its key secret."""
    return {"type": "deck/reveal", "secret": g.scalar_bytes(secret)}


def read_reveals(keys: PublicKeys, reveals: Mapping[int, Mapping[str, Any]]) -> dict[int, int]:
    """Every seat's secret (checked against its key share), or the first seat that did not
    reveal properly."""
    secrets: dict[int, int] = {}
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
    return secrets


class _AuditDeck(FairDeck):
    """An observer that also knows every secret: it recomputes every share."""

    def __init__(self, keys: PublicKeys, start: Mapping[str, Any], secrets: dict[int, int]) -> None:
        table = dc.CardTable(start["domain"], start["size"])
        super().__init__(keys, start["deck"], table, start["cards"])
        self._secrets = secrets
        self._joint_secret = sum(secrets.values()) % g.L

    def _read_share(self, author: int, handle: int, data: bytes, step: str) -> bytes:
        share = g.mul(self._secrets[author], self._dealt[handle].ciphertext.c1)
        if data == share:
            return share
        try:
            g.decode_point(data)
        except g.InvalidPoint as e:
            raise CheatDetected(author, step, f"share for card {handle}: {e}") from None
        raise CheatDetected(author, step, f"the share for card {handle} is not x*C1")

    def cards(self) -> list[int]:
        """The card under each handle, in handle order."""
        out = []
        for d in self._dealt:
            card = self.table.index(dc.decrypt(d.ciphertext, self._joint_secret))
            assert card is not None
            out.append(card)
        return out

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
    keys: PublicKeys, log: Sequence[Mapping[str, Any]], secrets: dict[int, int]
) -> list[int]:
    """Replay one deck's log with every secret; raise ``CheatDetected`` for the first cheat.
    Return the card dealt under each handle, in handle order."""
    if not log or log[0].get("op") != "start":
        raise ValueError("a deck log begins with its start entry")
    deck = _AuditDeck(keys, log[0], secrets)
    for entry in log[1:]:
        try:
            deck.replay(entry)
        except CheatDetected as e:
            found = CheatDetected(e.seat, e.step, f"deck {deck.deck_id}: {e.reason}", e.code)
            found.context = entry.get("context")  # type: ignore[attr-defined]
            raise found from None
    deck.check_composition()
    return deck.cards()


def audit_game(
    keys: PublicKeys, logs: Sequence[Sequence[Mapping[str, Any]]], reveals: Mapping[int, Mapping[str, Any]]
) -> dict[str, list[int]]:
    """Check every reveal, then every deck's log in order. Return each deck's cards by handle
    (``{deck id: [card of handle 0, ...]}``)."""
    secrets = read_reveals(keys, reveals)
    return {log[0]["deck"]: audit_deck(keys, log, secrets) for log in logs}
