"""The group of the fair deck (ristretto255), and what every version shares: scalars and hashes.

Construction
------------
* The group is **ristretto255** (RFC 9496): a group of prime order ``L = 2**252 +
  27742317777372353535851937790883648493`` built on edwards25519, with no cofactor. Its
  encodings are canonical: a 32-byte string encodes at most one element, and every element has
  exactly one encoding, so there is no small-order point and no second encoding to refuse.
  libsodium's ristretto255 functions do the arithmetic, through ``rbcl`` (a wheel that bundles
  libsodium, for Linux, macOS and Windows): ``crypto_scalarmult_ristretto255`` and ``_base``
  (the scalar used as given: it is below ``L``), ``crypto_core_ristretto255_add`` and ``_sub``.
  The calls release Python's global lock, so checks may run in a worker thread.
* A **point** is its 32-byte encoding. ``IDENTITY`` (32 zero bytes) is the neutral element,
  handled here because libsodium refuses it as a multiplication result. Every point from outside
  goes through ``decode_point`` (or ``mul_checked``, whose multiplication decodes it), which
  accepts only the encoding of an element other than the identity, and explains a refusal.
* A **scalar** is a Python ``int`` in ``[0, L)``; on the wire 32 bytes little-endian, and
  ``decode_scalar`` refuses a non-canonical value (``>= L``). Scalars, hashes to scalars and the
  streams below are the same in every version of the protocol.
* ``hash_to_scalar``: SHA-512 over a domain tag and length-prefixed parts, reduced mod ``L``.
* ``Group.hash_to_point``: SHA-512 over a domain tag and length-prefixed parts, mapped by
  ``crypto_core_ristretto255_from_hash`` (RFC 9496's element derivation: two Elligator maps
  added), so nobody knows a discrete logarithm between two such points.
* ``ScalarStream``: a deterministic stream of bytes, integers and scalars from a seed (SHA-512 in
  counter mode over the tag and the seed), for the nonces of a proof and for reproducible shuffles
  in tests; ``FreshStream`` draws the same way straight from ``os.urandom`` (a real shuffle).
  ``below(n)`` is unbiased (rejection sampling) and ``permutation`` is Fisher-Yates over it.

Versions
--------
A ``Group`` is an object, so one process can read records of every version: protocol versions 2
and 3 play on ``RISTRETTO255`` (3 changed the wire only); version 1 records were made on the prime-order subgroup of
edwards25519 (``net.deck.edwards``, kept to read them). ``for_version(v)`` gives a version's
group. The module-level ``BASE``, ``IDENTITY``, ``base_mul``, ``mul``, ... are the current
group's.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from collections.abc import Sequence
from typing import Final

L: Final[int] = 2**252 + 27742317777372353535851937790883648493
POINT_BYTES: Final[int] = 32
SCALAR_BYTES: Final[int] = 32
#: the protocol version this program plays (``net.wire.transcript`` writes it in every entry)
CURRENT_VERSION: Final[int] = 3


class InvalidPoint(ValueError):
    """Bytes that are not the encoding of a point of the group."""


class InvalidScalar(ValueError):
    """Bytes that are not the canonical encoding of a scalar."""


# -- encoding -------------------------------------------------------------------------------


def encode(*parts: bytes) -> bytes:
    """Unambiguous concatenation: each part prefixed by its length (8 bytes, big-endian)."""
    out = bytearray()
    for part in parts:
        out += len(part).to_bytes(8, "big")
        out += part
    return bytes(out)


def scalar_bytes(k: int) -> bytes:
    """The 32-byte little-endian encoding of a scalar in ``[0, L)``."""
    if not 0 <= k < L:
        raise InvalidScalar(f"scalar out of range [0, L): {k}")
    return k.to_bytes(SCALAR_BYTES, "little")


def decode_scalar(data: object) -> int:
    """Parse a canonical 32-byte scalar; raise ``InvalidScalar`` otherwise."""
    if not isinstance(data, bytes) or len(data) != SCALAR_BYTES:
        raise InvalidScalar("a scalar must be 32 bytes")
    k = int.from_bytes(data, "little")
    if k >= L:
        raise InvalidScalar("non-canonical scalar (not below the group order)")
    return k


def random_scalar() -> int:
    """A uniform non-zero scalar from the operating system's randomness."""
    while True:
        k = int.from_bytes(os.urandom(64), "little") % L
        if k:
            return k


def hash_to_scalar(tag: bytes, *parts: bytes) -> int:
    """SHA-512 over the tag and the length-prefixed parts, reduced modulo ``L``."""
    return int.from_bytes(hashlib.sha512(encode(tag, *parts)).digest(), "little") % L


# -- the group ------------------------------------------------------------------------------


class Group:
    """A group of prime order ``L`` on 32-byte encodings (the deck's modules take one)."""

    name = ""
    BASE: bytes = b""
    IDENTITY: bytes = b""

    def decode_point(self, data: object) -> bytes:
        """``data`` if it encodes a point of the group other than the identity, else
        ``InvalidPoint`` naming the fault."""
        raise NotImplementedError

    def is_valid_point(self, data: object) -> bool:
        raise NotImplementedError

    def base_mul(self, k: int) -> bytes:
        """``k * BASE``."""
        raise NotImplementedError

    def mul(self, k: int, p: bytes) -> bytes:
        """``k * p`` for a point ``p`` of the group (or the identity)."""
        raise NotImplementedError

    def mul_checked(self, k: int, p: object) -> bytes:
        """``k * p`` for a point ``p`` from outside, checked as ``decode_point`` would check it.
        Raises ``InvalidPoint``."""
        raise NotImplementedError

    def add(self, p: bytes, q: bytes) -> bytes:
        raise NotImplementedError

    def sub(self, p: bytes, q: bytes) -> bytes:
        raise NotImplementedError

    def hash_to_point(self, tag: bytes, *parts: bytes) -> bytes:
        """A point with no known discrete logarithm, from a tag and parts."""
        raise NotImplementedError

    def add_all(self, points: Sequence[bytes]) -> bytes:
        if not points:
            return self.IDENTITY
        total = points[0]
        for p in points[1:]:
            total = self.add(total, p)
        return total

    def __repr__(self) -> str:
        return self.name


class Ristretto255(Group):
    """ristretto255 through libsodium (``rbcl``)."""

    name = "ristretto255"
    IDENTITY = bytes(32)

    def __init__(self) -> None:
        import rbcl

        # rbcl writes its libsodium to a new temporary file at every import (2.7 MB) and leaves
        # it there; once loaded the file may go (on Windows it stays while it is loaded). The
        # module, not the package's ``_sodium`` attribute (that is the loaded library), names it.
        loader = sys.modules.get("rbcl._sodium")
        lib_path = getattr(loader, "lib_path", None)
        if isinstance(lib_path, str) and os.name != "nt":
            with contextlib.suppress(OSError):
                os.unlink(lib_path)
        self._mul = rbcl.crypto_scalarmult_ristretto255
        self._base = rbcl.crypto_scalarmult_ristretto255_base
        self._add = rbcl.crypto_core_ristretto255_add
        self._sub = rbcl.crypto_core_ristretto255_sub
        self._valid = rbcl.crypto_core_ristretto255_is_valid_point
        self._from_hash = rbcl.crypto_core_ristretto255_from_hash
        self.BASE = self._base((1).to_bytes(32, "little"))

    def decode_point(self, data: object) -> bytes:
        if not isinstance(data, bytes) or len(data) != POINT_BYTES:
            raise InvalidPoint("a point must be 32 bytes")
        if data == self.IDENTITY:
            raise InvalidPoint("the identity is not a valid point here")
        if self._valid(data):
            return data
        s = int.from_bytes(data, "little")
        if s >= 2**255 - 19 or s & 1:
            raise InvalidPoint("a non-canonical encoding")
        raise InvalidPoint("not the encoding of a ristretto255 point")

    def is_valid_point(self, data: object) -> bool:
        return (isinstance(data, bytes) and len(data) == POINT_BYTES and data != self.IDENTITY
                and bool(self._valid(data)))

    def base_mul(self, k: int) -> bytes:
        k %= L
        return self._base(k.to_bytes(SCALAR_BYTES, "little")) if k else self.IDENTITY

    def mul(self, k: int, p: bytes) -> bytes:
        k %= L
        if k == 0 or p == self.IDENTITY:
            return self.IDENTITY
        out: bytes = self._mul(k.to_bytes(SCALAR_BYTES, "little"), p)
        return out

    def mul_checked(self, k: int, p: object) -> bytes:
        k %= L
        if k == 0 or not isinstance(p, bytes) or len(p) != POINT_BYTES or p == self.IDENTITY:
            self.decode_point(p)
            return self.IDENTITY
        try:
            out: bytes = self._mul(k.to_bytes(SCALAR_BYTES, "little"), p)
        except RuntimeError:  # p is no element (a result of a non-zero k is never the identity)
            self.decode_point(p)
            raise InvalidPoint("refused by the multiplication") from None  # not reached
        return out

    def add(self, p: bytes, q: bytes) -> bytes:
        out: bytes = self._add(p, q)
        return out

    def sub(self, p: bytes, q: bytes) -> bytes:
        out: bytes = self._sub(p, q)
        return out

    def hash_to_point(self, tag: bytes, *parts: bytes) -> bytes:
        out: bytes = self._from_hash(hashlib.sha512(encode(tag, *parts)).digest())
        return out


RISTRETTO255: Final[Ristretto255] = Ristretto255()


def for_version(version: int) -> Group:
    """The group of the fair deck in protocol ``version`` (1, 2 or 3); ``ValueError`` for another."""
    if version in (2, CURRENT_VERSION):  # version 3 changed the wire, not the deck
        return RISTRETTO255
    if version == 1:
        from net.deck.edwards import EDWARDS25519

        return EDWARDS25519
    raise ValueError(f"no fair deck for protocol version {version}")


# -- the current group, by name -------------------------------------------------------------

BASE: Final[bytes] = RISTRETTO255.BASE
IDENTITY: Final[bytes] = RISTRETTO255.IDENTITY
decode_point = RISTRETTO255.decode_point
is_valid_point = RISTRETTO255.is_valid_point
base_mul = RISTRETTO255.base_mul
mul = RISTRETTO255.mul
mul_checked = RISTRETTO255.mul_checked
add = RISTRETTO255.add
sub = RISTRETTO255.sub
add_all = RISTRETTO255.add_all
hash_to_point = RISTRETTO255.hash_to_point


# -- streams --------------------------------------------------------------------------------


class ScalarStream:
    """Deterministic bytes, integers and scalars from a seed (SHA-512 in counter mode)."""

    def __init__(self, seed: bytes, tag: bytes) -> None:
        self._key = encode(tag, seed)
        self._counter = 0
        self._buffer = b""

    def read(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hashlib.sha512(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._buffer += block
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def scalar(self) -> int:
        """A non-zero scalar (64 bytes reduced mod ``L``: bias below 2**-250)."""
        while True:
            k = int.from_bytes(self.read(64), "little") % L
            if k:
                return k

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection sampling over 64-bit draws."""
        if not 0 < n <= 2**32:
            raise ValueError(f"below() takes 0 < n <= 2**32, not {n}")
        limit = 2**64 - (2**64 % n)
        while True:
            x = int.from_bytes(self.read(8), "big")
            if x < limit:
                return x % n


class FreshStream(ScalarStream):
    """``ScalarStream``'s draws from the operating system's randomness (nothing to re-derive)."""

    def __init__(self) -> None:
        super().__init__(b"", b"")

    def read(self, n: int) -> bytes:
        return os.urandom(n)


def permutation(stream: ScalarStream, n: int) -> list[int]:
    """A uniform permutation of ``range(n)`` (Fisher-Yates driven by ``stream``)."""
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = stream.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order
