"""The joint key of the fair deck: every seat's key share, each with a proof of knowledge.

Seat ``j`` draws a secret scalar ``x_j`` and sends ``key_message``: ``{"type": "deck/key",
"key": Y_j, "proof": 64 bytes}`` with ``Y_j = x_j*G`` and a Schnorr proof (``net.deck.proofs``)
that it knows ``x_j``, bound to the game id and its seat, so that no seat can pick its share as a
function of the others' (a "rogue key" giving it the joint secret) or copy another seat's.
``read_key_message`` checks one message and names its seat on failure; ``PublicKeys`` holds every
checked share, the group they are points of (``net.deck.group``), and the joint key ``H = sum(Y_j)``, whose secret ``x = sum(x_j)`` nobody ever knows:
no seat publishes its ``x_j``, not even after the game. One key serves every deck of a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from net.deck import cipher as dc
from net.deck import group as g
from net.deck import proofs as dp
from net.wire.errors import CheatDetected
from net.wire.rpc import Fields, Value

KEY_CONTEXT_TAG = b"palazzo/deck/key/v1"


def key_context(game_id: bytes, seat: int) -> bytes:
    return g.encode(KEY_CONTEXT_TAG, game_id, seat.to_bytes(2, "big"))


def key_message(game_id: bytes, seat: int, secret: int, entropy: bytes | None = None, *,
                group: g.Group = g.RISTRETTO255) -> Fields:
    public, proof = dp.prove_key(secret, key_context(game_id, seat), entropy, group=group)
    return {"type": "deck/key", "key": public, "proof": proof}


def read_key_message(game_id: bytes, seat: int, msg: Mapping[str, Value], *,
                     group: g.Group = g.RISTRETTO255) -> bytes:
    """The public key share in ``msg`` from ``seat``, or ``CheatDetected(seat, "key", ...)``."""
    if not isinstance(msg, Mapping) or msg.get("type") != "deck/key":
        raise CheatDetected(seat, "key", "not a key message")
    try:
        public = group.decode_point(msg.get("key"))
    except g.InvalidPoint as e:
        raise CheatDetected(seat, "key", f"invalid key share: {e}") from None
    if not dp.verify_key(public, msg.get("proof"), key_context(game_id, seat), group=group):
        raise CheatDetected(seat, "key", "the proof of knowledge of the key share does not verify")
    return public


@dataclass(frozen=True)
class PublicKeys:
    """Every seat's public key share (checked) and the joint key."""

    game_id: bytes
    shares: tuple[bytes, ...]
    group: g.Group = g.RISTRETTO255
    joint: bytes = field(init=False)

    def __post_init__(self) -> None:
        if len(self.shares) < 2:
            raise ValueError("a fair deck needs at least two seats")
        if len(set(self.shares)) != len(self.shares):
            raise ValueError("two seats have the same key share")
        joint = dc.joint_key(self.shares, group=self.group)
        if not self.group.is_valid_point(joint):
            raise ValueError("the joint key is not a valid point")
        object.__setattr__(self, "joint", joint)

    @property
    def seats(self) -> int:
        return len(self.shares)

    @classmethod
    def from_messages(cls, game_id: bytes, messages: Sequence[Mapping[str, Value]], *,
                      group: g.Group = g.RISTRETTO255) -> PublicKeys:
        """Check every seat's key message (``messages[seat]``) and join the keys."""
        return cls(game_id, tuple(read_key_message(game_id, s, m, group=group)
                                  for s, m in enumerate(messages)), group)
