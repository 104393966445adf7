"""ElGamal masking of cards under a joint key, and the shuffle step (Barnett-Smart).

Construction
------------
Every function takes the group (``group=``, ``net.deck.group``): ristretto255 unless it reads
a version 1 record.

* **Cards.** Card ``i`` of a game's card table is the point ``M_i = hash_to_point(CARD_TAG,
  domain, i)``: nobody knows a discrete log between two cards. ``CardTable.index`` maps a point
  back to its card (or ``None``: not a card of this table).
* **Keys.** Each seat ``j`` holds a secret share ``x_j``; its public share is ``Y_j = x_j*G`` and
  the joint key is ``H = sum(Y_j)``. Nobody ever knows ``x = sum(x_j)``: no seat publishes its
  share, not even after the game.
* **Masking.** A masked card is ``(C1, C2) = (r*G, M + r*H)`` (64 bytes on the wire).
  ``remask`` adds a fresh masking of zero: ``(C1 + r*G, C2 + r*H)``, which changes every byte and
  not the card. A public card enters a deck as ``(G, M + H)``, its masking with the known ``r = 1``
  (so every first half is a proper group element, never the identity).
* **Unmasking.** Each seat's decryption share of a masked card is ``D_j = x_j*C1``; then
  ``M = C2 - sum(D_j)``. A receiver adds its own share privately, so only it learns ``M``.
* **Shuffle step.** A shuffler draws a uniform permutation ``pi`` (Fisher-Yates) and one
  re-masking scalar per position, ``out[j] = remask(in[pi[j]], r_j)`` (``fresh_draw`` from
  ``os.urandom``; ``shuffle_draw`` from a 32-byte seed, for reproducible tests), and proves the
  shuffle with ``net.deck.shuffle_proof``. Nothing of the draw is ever kept or revealed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from net.deck import group as g

CARD_TAG = b"palazzo/deck/card/v1"
SHUFFLE_TAG = b"palazzo/deck/shuffle/v1"
SEED_BYTES = 32


@dataclass(frozen=True)
class Ciphertext:
    """A masked card ``(c1, c2)``; build one from outside input with ``Ciphertext.decode``."""

    c1: bytes
    c2: bytes

    def to_bytes(self) -> bytes:
        return self.c1 + self.c2

    @classmethod
    def decode(cls, data: object, *, group: g.Group = g.RISTRETTO255) -> Ciphertext:
        """Parse 64 bytes; both halves must be points of the group (``InvalidPoint``)."""
        if not isinstance(data, bytes) or len(data) != 2 * g.POINT_BYTES:
            raise g.InvalidPoint("a masked card must be 64 bytes")
        return cls(group.decode_point(data[:32]), group.decode_point(data[32:]))

    def __repr__(self) -> str:
        return f"Ciphertext.decode(bytes.fromhex({self.to_bytes().hex()!r}))"


class CardTable:
    """The points of a game's cards: ``point(i)`` and its inverse ``index(point)``."""

    def __init__(self, domain: str, size: int, *, group: g.Group = g.RISTRETTO255) -> None:
        if size <= 0:
            raise ValueError("a card table needs at least one card")
        self.domain = domain
        self.size = size
        self.group = group
        self._points = [
            group.hash_to_point(CARD_TAG, domain.encode(), i.to_bytes(4, "big")) for i in range(size)
        ]
        self._index = {p: i for i, p in enumerate(self._points)}

    def point(self, card: int) -> bytes:
        if not 0 <= card < self.size:
            raise ValueError(f"no card {card} in table {self.domain!r} of {self.size}")
        return self._points[card]

    def index(self, point: bytes) -> int | None:
        return self._index.get(point)

    def __repr__(self) -> str:
        return f"CardTable({self.domain!r}, {self.size})"


def joint_key(publics: Sequence[bytes], *, group: g.Group = g.RISTRETTO255) -> bytes:
    return group.add_all(publics)


def mask(message: bytes, r: int, key: bytes, *, group: g.Group = g.RISTRETTO255) -> Ciphertext:
    """``(r*G, M + r*H)`` for a non-zero ``r``."""
    if not 0 < r < g.L:
        raise ValueError("masking needs a non-zero scalar")
    return Ciphertext(group.base_mul(r), group.add(message, group.mul(r, key)))


def public_mask(message: bytes, key: bytes, *, group: g.Group = g.RISTRETTO255) -> Ciphertext:
    """The masking of a public card with the known scalar 1: ``(G, M + H)``."""
    return Ciphertext(group.BASE, group.add(message, key))


def remask(ct: Ciphertext, r: int, key: bytes, *, group: g.Group = g.RISTRETTO255) -> Ciphertext:
    """``(C1 + r*G, C2 + r*H)``: the same card, fresh bytes."""
    return Ciphertext(group.add(ct.c1, group.base_mul(r)), group.add(ct.c2, group.mul(r, key)))


def unmask(ct: Ciphertext, shares: Sequence[bytes], *, group: g.Group = g.RISTRETTO255) -> bytes:
    """``C2 - sum(shares)``: the card point once every seat's share is in."""
    return group.sub(ct.c2, group.add_all(shares))


def decrypt(ct: Ciphertext, secret: int, *, group: g.Group = g.RISTRETTO255) -> bytes:
    """``C2 - x*C1`` with the joint secret (which no peer ever holds: tests that hold every seat's
    secret use it)."""
    return group.sub(ct.c2, group.mul(secret, ct.c1))


@dataclass(frozen=True)
class ShuffleDraw:
    """A shuffle's secret, known to its shuffler alone: ``order[j]`` is the input position sent
    to output ``j``, re-masked by ``scalars[j]``."""

    order: tuple[int, ...]
    scalars: tuple[int, ...]


def shuffle_draw(seed: bytes, size: int) -> ShuffleDraw:
    """The draw a 32-byte seed decides (reproducible shuffles in tests and vectors)."""
    if len(seed) != SEED_BYTES:
        raise ValueError("a shuffle seed is 32 bytes")
    return _draw(g.ScalarStream(seed, SHUFFLE_TAG), size)


def fresh_draw(size: int) -> ShuffleDraw:
    """A uniform permutation and fresh re-masking scalars, straight from ``os.urandom``."""
    return _draw(g.FreshStream(), size)


def _draw(stream: g.ScalarStream, size: int) -> ShuffleDraw:
    order = g.permutation(stream, size)
    return ShuffleDraw(tuple(order), tuple(stream.scalar() for _ in range(size)))


def apply_draw(cards: Sequence[Ciphertext], draw: ShuffleDraw, key: bytes, *,
               group: g.Group = g.RISTRETTO255) -> list[Ciphertext]:
    """Permute and re-mask ``cards`` as ``draw`` says (top of the deck first)."""
    if len(draw.order) != len(cards):
        raise ValueError("the draw is for another number of cards")
    return [remask(cards[i], r, key, group=group)
            for i, r in zip(draw.order, draw.scalars, strict=True)]


def shuffle(cards: Sequence[Ciphertext], seed: bytes, key: bytes, *,
            group: g.Group = g.RISTRETTO255) -> list[Ciphertext]:
    """Permute and re-mask ``cards`` as the seed decides (top of the deck first)."""
    return apply_draw(cards, shuffle_draw(seed, len(cards)), key, group=group)
