"""Hash commitments: commit to a secret now, open it later, and nobody can change it between.

They serve the joint seed (``net.session.machines.table``: each seat's ``seed-commit`` and ``seed-open``, tag and
slot ``b"seed"``), which draws the lots; cards are dealt and hidden by the fair deck
(``net.games.dealer``), not by commitments.

``commit(tag, game, seat, slot, value, salt)`` is SHA-256 over the fields, each as a 4-byte
big-endian length and its bytes, in this order:

    b"palazzo/commit/v1", tag, game id, seat (signed 4-byte big-endian), slot, value, salt

* ``tag`` names the purpose and ``slot`` the place within it: a commitment made for one place
  cannot be opened at another, in another game, or for another seat.
* ``salt`` is 32 fresh random bytes (``new_salt``), so a value from a small set cannot be tried
  one by one against a commitment.
* ``opens`` is the check; a mismatch is a detected cheat for the caller to name.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import struct

DOMAIN = b"palazzo/commit/v1"
SALT_SIZE = 32
COMMIT_SIZE = 32


def new_salt() -> bytes:
    return os.urandom(SALT_SIZE)


def _field(b: bytes) -> bytes:
    return struct.pack(">I", len(b)) + b


def commit(tag: bytes, game: bytes, seat: int, slot: bytes, value: bytes, salt: bytes) -> bytes:
    if len(salt) != SALT_SIZE:
        raise ValueError(f"a salt is {SALT_SIZE} bytes")
    h = hashlib.sha256()
    for part in (DOMAIN, tag, game, struct.pack(">i", seat), slot, value, salt):
        h.update(_field(part))
    return h.digest()


def opens(
    commitment: bytes, tag: bytes, game: bytes, seat: int, slot: bytes, value: bytes, salt: bytes
) -> bool:
    """Whether ``value`` and ``salt`` open ``commitment`` for this game, seat and slot."""
    if len(salt) != SALT_SIZE or len(commitment) != COMMIT_SIZE:
        return False
    return hmac.compare_digest(commitment, commit(tag, game, seat, slot, value, salt))
