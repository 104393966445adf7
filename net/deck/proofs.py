"""Zero-knowledge proofs of the fair deck: Schnorr and Chaum-Pedersen, made non-interactive.

Both are sigma protocols made non-interactive with the *strong* Fiat-Shamir transform: the
challenge hashes the whole statement (every public point), the prover's commitments, a domain tag
and a caller's ``context`` (game id, seat, card, transcript hash...), so a proof cannot be moved
to another statement, seat, card or moment of the game.

* **Key share** (Schnorr proof of knowledge of ``x`` with ``Y = x*G``). The prover picks ``k``,
  sends ``c = H(tag, G, Y, k*G, context)`` and ``s = k + c*x``. The verifier recomputes
  ``R = s*G - c*Y`` and checks ``c == H(tag, G, Y, R, context)``. It stops a peer from choosing
  its key share as a function of the others' (a "rogue key" that would give it the joint key).
* **Equal discrete logs** (Chaum-Pedersen, ``log_G Y == log_C_i D_i`` for ``i = 1..m``):
  decryption shares ``D_i = x*C_i`` of the first halves ``C_i`` of ``m`` masked cards, all made
  with the secret of the public key share ``Y``. The prover picks one ``k`` and sends
  ``c = H(tag, G, Y, m, C_1, D_1, ..., C_m, D_m, k*G, k*C_1, ..., k*C_m, context)`` and
  ``s = k + c*x``; the verifier recomputes ``A = s*G - c*Y`` and ``B_i = s*C_i - c*D_i`` and the
  hash. Two answers ``s, s'`` to two challenges for the same commitments give
  ``x = (s - s')/(c - c')``, which satisfies every equation at once (soundness); picking ``c`` and
  ``s`` first and solving for the commitments simulates a proof (zero knowledge). One proof covers
  all the shares a seat sends in one message: ``2m + 2`` multiplications to verify instead of
  ``4m``. With ``m = 1`` it is the classic Chaum-Pedersen proof.

* **One of several** (a disjunction of Chaum-Pedersen proofs, in the manner of Cramer, Damgard
  and Schoenmakers): ``log_G Y == log_C T_i`` for *some* ``i`` of ``n`` targets, without saying
  which. A holder shows that its hidden card is one of a set of cards (``T_i = P - M_i``, where
  ``P`` is the masked card with every other seat's share removed and ``M_i`` a card of the set).
  For the true ``t`` the prover commits ``k*G, k*C``; for every other ``i`` it picks ``c_i, s_i``
  and solves ``A_i = s_i*G - c_i*Y``, ``B_i = s_i*C - c_i*T_i``; the challenge
  ``c = H(tag, statement, every A_i and B_i, context)`` fixes ``c_t = c - sum(other c_i)`` and
  ``s_t = k + c_t*x``. The verifier recomputes every ``A_i, B_i`` and checks that the ``c_i`` add up
  to the hash. ``64*n`` bytes; ``3n`` multiplications by a variable point to verify.

A proof is 64 bytes: ``c || s``, two canonical scalars (the disjunction: one such pair per
target). The nonce ``k`` is hedged: a hash of the
secret, the statement, the context and 32 fresh random bytes (``entropy``; tests pass fixed bytes
for known-answer vectors). Verification functions return ``False`` on any malformed or wrong
proof; they never raise for bad input.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from net.deck import group as g
from net.deck.once import Once

KEY_TAG = b"palazzo/deck/key-proof/v1"
DLEQ_TAG = b"palazzo/deck/dleq-proof/v1"
NONCE_TAG = b"palazzo/deck/nonce/v1"
PROOF_BYTES = 64


def _nonce(secret: int, entropy: bytes | None, *parts: bytes) -> int:
    fresh = os.urandom(32) if entropy is None else entropy
    k = g.hash_to_scalar(NONCE_TAG, g.scalar_bytes(secret), fresh, *parts)
    return k or 1


def _split(proof: object) -> tuple[int, int] | None:
    if not isinstance(proof, bytes) or len(proof) != PROOF_BYTES:
        return None
    try:
        return g.decode_scalar(proof[:32]), g.decode_scalar(proof[32:])
    except g.InvalidScalar:
        return None


def prove_key(secret: int, context: bytes, entropy: bytes | None = None, *,
              group: g.Group = g.RISTRETTO255) -> tuple[bytes, bytes]:
    """Return ``(Y, proof)``: the public key share ``secret*G`` and a proof of knowing it."""
    if not 0 < secret < g.L:
        raise ValueError("a secret key share must be a non-zero scalar")
    public = group.base_mul(secret)
    k = _nonce(secret, entropy, KEY_TAG, public, context)
    c = g.hash_to_scalar(KEY_TAG, group.BASE, public, group.base_mul(k), context)
    s = (k + c * secret) % g.L
    return public, g.scalar_bytes(c) + g.scalar_bytes(s)


def verify_key(public: bytes, proof: object, context: bytes, *, group: g.Group = g.RISTRETTO255) -> bool:
    """Whether ``proof`` shows knowledge of the discrete log of ``public`` (a checked point)."""
    cs = _split(proof)
    if cs is None:
        return False
    c, s = cs
    r = group.sub(group.base_mul(s), group.mul(c, public))
    return c == g.hash_to_scalar(KEY_TAG, group.BASE, public, r, context)


def prove_dleq(
    secret: int, bases: Sequence[bytes], context: bytes, entropy: bytes | None = None, *,
    group: g.Group = g.RISTRETTO255,
) -> tuple[list[bytes], bytes]:
    """Return ``(shares, proof)``: ``shares[i] = secret*bases[i]`` and one proof that every
    ``log_bases[i](shares[i])`` equals ``log_G(secret*G)``."""
    if not 0 < secret < g.L:
        raise ValueError("a secret key share must be a non-zero scalar")
    if not bases:
        raise ValueError("a proof of equal logs needs at least one base")
    public = group.base_mul(secret)
    shares = [group.mul(secret, c) for c in bases]
    statement = _dleq_statement(group, public, bases, shares)
    k = _nonce(secret, entropy, DLEQ_TAG, statement, context)
    commitments = [group.base_mul(k), *(group.mul(k, c) for c in bases)]
    c = g.hash_to_scalar(DLEQ_TAG, statement, *commitments, context)
    s = (k + c * secret) % g.L
    return shares, g.scalar_bytes(c) + g.scalar_bytes(s)


def verify_dleq(
    public: bytes, bases: Sequence[bytes], shares: Sequence[bytes], proof: object, context: bytes,
    *, group: g.Group = g.RISTRETTO255,
) -> bool:
    """Whether ``proof`` shows ``log_G(public) == log_bases[i](shares[i])`` for every ``i``
    (``public`` and the bases already checked; every share is checked here, by the
    multiplication that uses it: ``False`` for a share that is no point of the subgroup).
    Remembered as the one-of checks are (``verify_dleq_one_of``)."""
    cs = _split(proof)
    if cs is None or not bases or len(bases) != len(shares):
        return False
    key = (group.name, public, tuple(bases), tuple(shares), proof, context)
    return DLEQ_CHECKED(key, lambda: _verify_dleq(public, bases, shares, cs, context, group))


#: the answers of the equal-logs checks this process made (as ``ONE_OF_CHECKED``)
DLEQ_CHECKED: Once[tuple[object, ...], bool] = Once(1024)


def _verify_dleq(public: bytes, bases: Sequence[bytes], shares: Sequence[bytes],
                 cs: tuple[int, int], context: bytes, group: g.Group) -> bool:
    c, s = cs
    commitments = [group.sub(group.base_mul(s), group.mul(c, public))]
    try:
        commitments += [group.sub(group.mul(s, b), group.mul_checked(c, d)) for b, d in zip(bases, shares, strict=True)]
    except g.InvalidPoint:
        return False
    statement = _dleq_statement(group, public, bases, shares)
    return c == g.hash_to_scalar(DLEQ_TAG, statement, *commitments, context)


def _dleq_statement(group: g.Group, public: bytes, bases: Sequence[bytes],
                    shares: Sequence[bytes]) -> bytes:
    pairs = b"".join(b + d for b, d in zip(bases, shares, strict=True))
    return g.encode(group.BASE, public, len(bases).to_bytes(4, "big"), pairs)


OR_TAG = b"palazzo/deck/dleq-or-proof/v1"


def _or_statement(group: g.Group, public: bytes, base: bytes, targets: Sequence[bytes]) -> bytes:
    return g.encode(group.BASE, public, base, len(targets).to_bytes(4, "big"), b"".join(targets))


def prove_dleq_one_of(
    secret: int, base: bytes, targets: Sequence[bytes], true_index: int, context: bytes,
    entropy: bytes | None = None, *, group: g.Group = g.RISTRETTO255,
) -> bytes:
    """A proof that ``log_G(secret*G) == log_base(targets[i])`` for some ``i``; the caller
    makes sure ``targets[true_index] == secret*base``. Which ``i`` stays hidden."""
    if not 0 < secret < g.L:
        raise ValueError("a secret key share must be a non-zero scalar")
    if not 0 <= true_index < len(targets):
        raise ValueError("the true target must be one of the targets")
    public = group.base_mul(secret)
    statement = _or_statement(group, public, base, targets)
    k = _nonce(secret, entropy, OR_TAG, statement, context)
    cs: list[int] = [0] * len(targets)
    ss: list[int] = [0] * len(targets)
    commitments: list[bytes] = []
    for i, target in enumerate(targets):
        if i == true_index:
            commitments += [group.base_mul(k), group.mul(k, base)]
            continue
        cs[i] = _nonce(secret, entropy, OR_TAG, b"c", i.to_bytes(4, "big"), statement, context)
        ss[i] = _nonce(secret, entropy, OR_TAG, b"s", i.to_bytes(4, "big"), statement, context)
        commitments += [group.sub(group.base_mul(ss[i]), group.mul(cs[i], public)),
                        group.sub(group.mul(ss[i], base), group.mul(cs[i], target))]
    c = g.hash_to_scalar(OR_TAG, statement, *commitments, context)
    cs[true_index] = (c - sum(cs)) % g.L
    ss[true_index] = (k + cs[true_index] * secret) % g.L
    return b"".join(g.scalar_bytes(ci) + g.scalar_bytes(si) for ci, si in zip(cs, ss, strict=True))


def verify_dleq_one_of(
    public: bytes, base: bytes, targets: Sequence[bytes], proof: object, context: bytes, *,
    group: g.Group = g.RISTRETTO255,
) -> bool:
    """Whether ``proof`` shows ``log_G(public) == log_base(targets[i])`` for some ``i`` (every
    point already checked). ``False`` for any malformed proof.

    The answer depends only on these bytes, so it is remembered for the last few statements:
    several tables in one process (a host and its bots) check each proof once, one waiting for
    another that is checking it."""
    if not targets or not isinstance(proof, bytes) or len(proof) != PROOF_BYTES * len(targets):
        return False
    key = (group.name, public, base, tuple(targets), proof, context)
    return ONE_OF_CHECKED(key, lambda: _verify_one_of(group, public, base, tuple(targets), proof, context))


#: the answers of the one-of checks this process made (``net.deck.once``: each worked out once,
#: however many tables ask, and at the same moment)
ONE_OF_CHECKED: Once[tuple[object, ...], bool] = Once(1024)


def _verify_one_of(
    group: g.Group, public: bytes, base: bytes, targets: tuple[bytes, ...], proof: bytes, context: bytes
) -> bool:
    commitments: list[bytes] = []
    total = 0
    for i, target in enumerate(targets):
        cs = _split(proof[i * PROOF_BYTES:(i + 1) * PROOF_BYTES])
        if cs is None:
            return False
        c, s = cs
        total += c
        commitments += [group.sub(group.base_mul(s), group.mul(c, public)), group.sub(group.mul(s, base), group.mul(c, target))]
    statement = _or_statement(group, public, base, targets)
    return total % g.L == g.hash_to_scalar(OR_TAG, statement, *commitments, context)
