"""Every shuffle proved: Terelius-Wikstrom's proof of a re-encryption shuffle, non-interactive.

A shuffler turns the pile ``e_1..e_N`` into ``e'_1..e'_N`` with ``e'_i = e_{psi(i)} + (r'_i*G,
r'_i*H)`` (``net.deck.cipher``: a permutation ``psi`` and a re-masking of each card) and proves,
without showing ``psi`` or any ``r'_i``, that the output is exactly that: every input card once,
re-masked, and nothing else (no card dropped, duplicated, replaced, or copied in from elsewhere).
The proof is Terelius and Wikstrom's (AFRICACRYPT 2010), written from the step-by-step pseudo-code
of Haenni, Locher, Koenig and Dubuis, "Pseudo-Code Algorithms for Verifiable Re-Encryption
Mix-Nets" (Voting'17, algorithms GenProof and CheckProof), in the prime-order subgroup of
``net.deck.group`` in additive notation. Their ElGamal pair ``(a, b)`` is this project's
``(C2, C1) = (M + r*H, r*G)``; their ``g`` is ``G`` (``group.BASE``), ``pk`` the joint key ``H``.
Indices of the proof's own values run from 1 to N as in the paper; a card's position in the pile
runs from 0 ("masked card j" is ``e'_{j+1}``).

Generators
----------
``h = hash_to_point(GENERATOR_TAG, b"h")`` and ``h_i = hash_to_point(GENERATOR_TAG, b"h_i", i)``
(``i`` as 4 bytes, big-endian) for ``i = 1..N``, with ``GENERATOR_TAG =
b"palazzo/deck/shuffle-generator/v1"``: nobody knows a discrete logarithm between any two of them
or ``G``. They are made once per process (``generators``), under a lock: a seat proves its
shuffle while a worker thread checks another's (``net.deck.checks``), and two threads extending
the list at once would give one of them the wrong ``h_i``.

Proof (prover, with ``psi``, the ``r'_i`` and fresh ``r_i, rhat_i, w_1..w_4, what_i, w'_i``)
------------------------------------------------------------------------------------------
1. Permutation commitment ``c_{psi(i)} = r_{psi(i)}*G + h_i``.
2. Challenges ``u_j`` (one per input card, see Hashes); ``u'_i = u_{psi(i)}``.
3. Commitment chain ``chat_0 = h``, ``chat_i = rhat_i*G + u'_i*chat_{i-1}``.
4. ``rbar = sum r_j``; ``v_N = 1``, ``v_{i-1} = u'_i*v_i``; ``rhat = sum rhat_i*v_i``;
   ``rtilde = sum r_j*u_j``; ``r' = sum r'_i*u'_i``.
5. ``t1 = w_1*G``, ``t2 = w_2*G``, ``t3 = w_3*G + sum w'_i*h_i``,
   ``t4,1 = -w_4*H + sum w'_i*a'_i``, ``t4,2 = -w_4*G + sum w'_i*b'_i``,
   ``that_i = what_i*G + w'_i*chat_{i-1}``. (The prover computes ``t4`` from the inputs:
   ``sum w'_i*a_{psi(i)} + (sum w'_i*r'_i - w_4)*H``, the same point.)
6. Challenge ``c``; ``s1 = w_1 + c*rbar``, ``s2 = w_2 + c*rhat``, ``s3 = w_3 + c*rtilde``,
   ``s4 = w_4 + c*r'``, ``shat_i = what_i + c*rhat_i``, ``s'_i = w'_i + c*u'_i``.

Check (verifier): with ``u = prod u_j``, it recomputes each commitment and compares, in this order,
each failure named (``ShuffleProofError.check``):

* ``t1``: permutation commitment product, ``t1 == s1*G - c*(sum c_j - sum h_i)``;
* ``t2``: commitment chain product, ``t2 == s2*G - c*(chat_N - u*h)``;
* ``t3``: the challenges under the permutation, ``t3 == s3*G + sum s'_i*h_i - c*sum u_j*c_j``;
* ``t4``: re-encryption, ``t4,1 == -s4*H + sum s'_i*a'_i - c*sum u_j*a_j`` and
  ``t4,2 == -s4*G + sum s'_i*b'_i - c*sum u_j*b_j``;
* ``t-hat i``: commitment chain, ``that_i == shat_i*G + s'_i*chat_{i-1} - c*chat_i``.

The check takes every equation as one random linear combination (``_holds``: each weighted by a
scalar fresh from the operating system, so a false proof passes with probability about ``1/L``),
which multiplies ``G`` and each chain point once for all of them; a proof that fails it is
checked again equation by equation, so the failure named is the same. ``verify_all`` takes the
equations of several proofs so: a pile that is one shuffle's output and the next one's input, the
generators ``h_i`` and ``h``, the key and ``G`` are multiplied once for all of them (a caller checks
each proof on its own, in order, to name one that fails). ``Sum`` is that combination built one
proof at a time: a seat adds each proof of a round as it comes and multiplies the points no later
proof shares at once (``fold``), the rest when the round is whole (``net.deck.checks.Chain``).

Before those, ``format``: the proof's length, every scalar canonical (below ``L``), and every point
of the proof and of the output a point of the subgroup. A point is checked once, where it is first
multiplied (``group.mul_checked``: libsodium's multiplication refuses a point outside the
subgroup); the ``t`` points are only compared with points computed here, so one that passes is
valid, and one that fails is named ``format`` if it is no valid point at all. The inputs are the
verifier's own pile, already checked. When ``verify`` returns, every output point is valid.

Hashes (``group.encode``: each part prefixed by its length, 8 bytes big-endian; integers big-endian)
-------------------------------------------------------------------------------------------------
* ``statement = SHA-512(encode(STATEMENT_TAG, H, N (4 bytes), e_1..e_N (64 bytes each, C1 then
  C2), e'_1..e'_N (likewise), context))``; the caller's ``context`` binds the game, the deck,
  the seat, the shuffle number and the transcript hash before the entry.
* ``d = SHA-512(encode(U_TAG, statement, c_1..c_N (32 bytes each)))``;
  ``u_j = SHA-512(encode(U_TAG, d, j (4 bytes))) mod L`` for ``j = 1..N``.
* ``c = SHA-512(encode(CHALLENGE_TAG, d, chat_1..chat_N, t1, t2, t3, t4,1, t4,2,
  that_1..that_N)) mod L``.
* The prover's randomness is hedged: ``ScalarStream(SHA-512(encode(NONCE_TAG, entropy,
  statement, psi (4 bytes each), r'_1..r'_N (32 bytes each))), NONCE_TAG)`` draws, in order,
  ``r_1..r_N`` (by input position), ``rhat_1..rhat_N``, ``w_1..w_4``, ``what_1..what_N``,
  ``w'_1..w'_N``; ``entropy`` is 32 fresh bytes of ``os.urandom`` (fixed bytes in the
  known-answer tests).

Tags: ``STATEMENT_TAG = b"palazzo/deck/shuffle-statement/v1"``, ``U_TAG =
b"palazzo/deck/shuffle-u/v1"``, ``CHALLENGE_TAG = b"palazzo/deck/shuffle-challenge/v1"``,
``NONCE_TAG = b"palazzo/deck/shuffle-nonce/v1"``.

Byte layout (``proof_bytes(N) = 32*(5N + 9)``; points compressed, scalars little-endian)
------------------------------------------------------------------------------------------
========================  ==============  ================================================
offset                    bytes           field
========================  ==============  ================================================
0                         32N             ``c_1..c_N``, the permutation commitment
32N                       32N             ``chat_1..chat_N``, the commitment chain
64N                       5 x 32          ``t1, t2, t3, t4,1, t4,2``
64N + 160                 32N             ``that_1..that_N``
96N + 160                 4 x 32          ``s1, s2, s3, s4``
96N + 288                 32N             ``shat_1..shat_N``
128N + 288                32N             ``s'_1..s'_N``
========================  ==============  ================================================

Cost (libsodium calls; on ristretto255 a variable-base multiplication costs about 3 fixed-base
ones or 3.5 additions): proving ``3N + 3`` fixed-base and ``5N + 1`` variable-base multiplications and about
``6N`` additions (one variable-base multiplication fewer per card when every input's ``C1`` is
``G``, as in a new deck); checking 1 fixed-base, ``8N + 7`` variable-base multiplications and as
many additions, no separate point check (``N`` variable-base fewer for a new deck). ``K`` proofs of
a chain checked together (``verify_all``): ``K(5N + 5) + 3N + 2`` of each (``N`` fewer for a new
deck), so about ``5.5N`` a proof for the six shuffles of a 6-seat deal.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from net.deck import group as g
from net.deck.cipher import Ciphertext

GENERATOR_TAG = b"palazzo/deck/shuffle-generator/v1"
STATEMENT_TAG = b"palazzo/deck/shuffle-statement/v1"
U_TAG = b"palazzo/deck/shuffle-u/v1"
CHALLENGE_TAG = b"palazzo/deck/shuffle-challenge/v1"
NONCE_TAG = b"palazzo/deck/shuffle-nonce/v1"

T1 = "t1: permutation commitment product"
T2 = "t2: commitment chain product"
T3 = "t3: the challenges under the permutation commitment"
T4 = "t4: re-encryption"
T_HAT = "t-hat {}: commitment chain"

_P = g.POINT_BYTES
#: check every equation as one random linear combination (``_holds``); a proof that fails it is
#: checked again equation by equation, to name the check it breaks
BATCHED = True


def proof_bytes(n: int) -> int:
    """The length of a proof for ``n`` cards."""
    return 32 * (5 * n + 9)


class ShuffleProofError(ValueError):
    """A shuffle proof that does not hold; ``check`` names the check it failed (``"format"``,
    ``"t1"`` ... ``"t4"``, ``"t-hat i"``) and the message says what that check is."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.check = message.split(":", 1)[0]


# -- generators ------------------------------------------------------------------------------

_GENERATORS: dict[str, list[bytes]] = {}  # by group: h, then h_1, h_2, ...
_GENERATOR_SUMS: dict[tuple[str, int], bytes] = {}
_GENERATORS_LOCK = threading.Lock()  # both dicts are written under it


def chain_base(group: g.Group = g.RISTRETTO255) -> bytes:
    """``h``, where the commitment chain starts."""
    return _generators(group, 0)[0]


def generators(n: int, group: g.Group = g.RISTRETTO255) -> list[bytes]:
    """``h_1..h_n`` (made once per process)."""
    return _generators(group, n)[1:n + 1]


def _generators(group: g.Group, n: int) -> list[bytes]:
    made = _GENERATORS.get(group.name)
    if made is not None and len(made) > n:
        return made
    with _GENERATORS_LOCK:
        made = list(_GENERATORS.get(group.name, ()))
        if not made:
            made.append(group.hash_to_point(GENERATOR_TAG, b"h"))
        while len(made) < n + 1:
            made.append(group.hash_to_point(GENERATOR_TAG, b"h_i", len(made).to_bytes(4, "big")))
        _GENERATORS[group.name] = made  # a new list: a reader holding the old one keeps it whole
        return made


def _generator_sum(group: g.Group, n: int) -> bytes:
    total = _GENERATOR_SUMS.get((group.name, n))
    if total is None:
        total = _sum(group, generators(n, group))
        with _GENERATORS_LOCK:
            _GENERATOR_SUMS[group.name, n] = total
    return total


# -- the proof as bytes ----------------------------------------------------------------------


@dataclass(frozen=True)
class ShuffleProof:
    """A proof cut into its fields (see the layout above). The points are as sent: ``verify``
    checks each where it first uses it."""

    commitments: tuple[bytes, ...]
    chain: tuple[bytes, ...]
    t: tuple[bytes, bytes, bytes, bytes, bytes]
    t_hat: tuple[bytes, ...]
    s: tuple[int, int, int, int]
    s_hat: tuple[int, ...]
    s_prime: tuple[int, ...]

    def to_bytes(self) -> bytes:
        scalars = (*self.s, *self.s_hat, *self.s_prime)
        return b"".join((*self.commitments, *self.chain, *self.t, *self.t_hat,
                         *(k.to_bytes(32, "little") for k in scalars)))

    @classmethod
    def decode(cls, data: object, n: int) -> ShuffleProof:
        """Cut a proof for ``n`` cards; ``ShuffleProofError("format: ...")`` for a wrong type or
        length or a non-canonical scalar."""
        if not isinstance(data, bytes):
            raise ShuffleProofError("format: a shuffle proof is bytes")
        if len(data) != proof_bytes(n):
            raise ShuffleProofError(
                f"format: a proof for {n} cards is {proof_bytes(n)} bytes, not {len(data)}")
        items = [data[i:i + 32] for i in range(0, len(data), 32)]
        points, raw = items[:3 * n + 5], items[3 * n + 5:]
        names = ["s1", "s2", "s3", "s4", *(f"s-hat {i}" for i in range(1, n + 1)),
                 *(f"s' {i}" for i in range(1, n + 1))]
        scalars = []
        for name, item in zip(names, raw, strict=True):
            k = int.from_bytes(item, "little")
            if k >= g.L:
                raise ShuffleProofError(f"format: {name}: a non-canonical scalar (not below L)")
            scalars.append(k)
        t = points[2 * n:2 * n + 5]
        return cls(tuple(points[:n]), tuple(points[n:2 * n]), (t[0], t[1], t[2], t[3], t[4]),
                   tuple(points[2 * n + 5:]), (scalars[0], scalars[1], scalars[2], scalars[3]),
                   tuple(scalars[4:4 + n]), tuple(scalars[4 + n:]))


# -- hashes ----------------------------------------------------------------------------------


def _statement(key: bytes, inputs: Sequence[Ciphertext], outputs: Sequence[Ciphertext],
               context: bytes) -> bytes:
    cards = b"".join(ct.c1 + ct.c2 for ct in inputs)
    shuffled = b"".join(ct.c1 + ct.c2 for ct in outputs)
    return hashlib.sha512(g.encode(STATEMENT_TAG, key, len(inputs).to_bytes(4, "big"), cards,
                                   shuffled, context)).digest()


def _challenges(statement: bytes, commitments: Sequence[bytes]) -> tuple[bytes, list[int]]:
    d = hashlib.sha512(g.encode(U_TAG, statement, b"".join(commitments))).digest()
    return d, [g.hash_to_scalar(U_TAG, d, j.to_bytes(4, "big")) for j in range(1, len(commitments) + 1)]


def _challenge(d: bytes, chain: Sequence[bytes], t: Sequence[bytes], t_hat: Sequence[bytes]) -> int:
    return g.hash_to_scalar(CHALLENGE_TAG, d, b"".join(chain), *t, b"".join(t_hat))


# -- sums of multiples -----------------------------------------------------------------------


def _sum(group: g.Group, points: Iterable[bytes]) -> bytes:
    total: bytes | None = None
    for p in points:
        total = p if total is None else group.add(total, p)
    return group.IDENTITY if total is None else total


def _combination(group: g.Group, terms: Iterable[tuple[int, bytes]]) -> bytes:
    """``sum k*P`` over trusted points: each distinct point multiplied once, ``G`` by the
    fixed-base multiplication (a new deck's first halves are all ``G``)."""
    merged: dict[bytes, int] = {}
    for k, p in terms:
        merged[p] = (merged.get(p, 0) + k) % g.L
    return _sum(group, [group.base_mul(k) if p == group.BASE else group.mul(k, p)
                        for p, k in merged.items() if k and p != group.IDENTITY])


def _checked(group: g.Group, k: int, p: bytes, name: str) -> bytes:
    try:
        return group.mul_checked(k, p)
    except g.InvalidPoint as e:
        raise ShuffleProofError(f"format: {name}: {e}") from None


# -- proving ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Nonces:
    r: list[int]  # the permutation commitment's, by input position
    r_hat: list[int]  # the commitment chain's
    w: tuple[int, int, int, int]
    w_hat: list[int]
    w_prime: list[int]


def _nonces(entropy: bytes | None, statement: bytes, order: Sequence[int],
            scalars: Sequence[int]) -> _Nonces:
    """The prover's randomness, hedged: fresh bytes, the statement and the witness hashed."""
    n = len(order)
    fresh = os.urandom(32) if entropy is None else entropy
    witness = b"".join(i.to_bytes(4, "big") for i in order) + b"".join(
        g.scalar_bytes(r % g.L) for r in scalars)
    seed = hashlib.sha512(g.encode(NONCE_TAG, fresh, statement, witness)).digest()
    rand = g.ScalarStream(seed, NONCE_TAG)
    r = [rand.scalar() for _ in range(n)]
    r_hat = [rand.scalar() for _ in range(n)]
    w = (rand.scalar(), rand.scalar(), rand.scalar(), rand.scalar())
    return _Nonces(r, r_hat, w, [rand.scalar() for _ in range(n)], [rand.scalar() for _ in range(n)])


def _chain(group: g.Group, u_prime: Sequence[int], r_hat: Sequence[int]) -> list[bytes]:
    """``chat_1..chat_N``: ``chat_i = rhat_i*G + u'_i*chat_{i-1}`` from ``chat_0 = h``."""
    chain, previous = [], chain_base(group)
    for u, r in zip(u_prime, r_hat, strict=True):
        previous = group.add(group.base_mul(r), group.mul(u, previous))
        chain.append(previous)
    return chain


def _witness_sums(nonces: _Nonces, u: Sequence[int], u_prime: Sequence[int],
                  scalars: Sequence[int]) -> tuple[int, int, int, int]:
    """``rbar, rhat, rtilde, r'`` (step 4)."""
    L = g.L
    v, r_hat = 1, 0
    for i in range(len(u) - 1, -1, -1):  # v_i = u'_{i+1} * ... * u'_N
        r_hat = (r_hat + nonces.r_hat[i] * v) % L
        v = v * u_prime[i] % L
    r_tilde = sum(rj * uj for rj, uj in zip(nonces.r, u, strict=True)) % L
    r_prime = sum(ri * ui for ri, ui in zip(scalars, u_prime, strict=True)) % L
    return sum(nonces.r) % L, r_hat, r_tilde, r_prime


def prove(
    key: bytes, inputs: Sequence[Ciphertext], outputs: Sequence[Ciphertext], order: Sequence[int],
    scalars: Sequence[int], context: bytes, entropy: bytes | None = None, *,
    group: g.Group = g.RISTRETTO255,
) -> bytes:
    """The proof that ``outputs[i] == remask(inputs[order[i]], scalars[i], key)`` for every
    ``i``. The prover does not check that claim (a false one gives a proof that fails)."""
    n = len(inputs)
    if not n or len(outputs) != n or len(scalars) != n or sorted(order) != list(range(n)):
        raise ValueError("a shuffle proof needs n inputs, n outputs, a permutation of n, n scalars")
    L = g.L
    statement = _statement(key, inputs, outputs, context)
    nonces = _nonces(entropy, statement, order, scalars)
    hs = generators(n, group)
    h = chain_base(group)
    position = [0] * n  # position[j]: the output the input j goes to
    for i, j in enumerate(order):
        position[j] = i
    commitments = [group.add(group.base_mul(nonces.r[j]), hs[position[j]]) for j in range(n)]
    d, u = _challenges(statement, commitments)
    u_prime = [u[j] for j in order]
    chain = _chain(group, u_prime, nonces.r_hat)

    w1, w2, w3, w4 = nonces.w
    w_prime = nonces.w_prime
    remasked = (sum(w * r for w, r in zip(w_prime, scalars, strict=True)) - w4) % L
    a_terms = [(w, inputs[j].c2) for w, j in zip(w_prime, order, strict=True)]
    b_terms = [(w, inputs[j].c1) for w, j in zip(w_prime, order, strict=True)]
    t = (
        group.base_mul(w1),
        group.base_mul(w2),
        group.add(group.base_mul(w3), _combination(group, zip(w_prime, hs, strict=True))),
        _combination(group, [*a_terms, (remasked, key)]),
        _combination(group, [*b_terms, (remasked, group.BASE)]),
    )
    t_hat = [group.add(group.base_mul(wh), group.mul(wp, ch))
             for wh, wp, ch in zip(nonces.w_hat, w_prime, [h, *chain[:-1]], strict=True)]
    c = _challenge(d, chain, t, t_hat)

    witness = _witness_sums(nonces, u, u_prime, scalars)
    s = tuple((w + c * x) % L for w, x in zip(nonces.w, witness, strict=True))
    proof = ShuffleProof(
        tuple(commitments), tuple(chain), t, tuple(t_hat), (s[0], s[1], s[2], s[3]),
        tuple((w + c * r) % L for w, r in zip(nonces.w_hat, nonces.r_hat, strict=True)),
        tuple((w + c * x) % L for w, x in zip(w_prime, u_prime, strict=True)),
    )
    return proof.to_bytes()


# -- checking --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Claim:
    """A proof read against its statement: what the checks sum."""

    key: bytes
    inputs: Sequence[Ciphertext]
    outputs: Sequence[Ciphertext]
    p: ShuffleProof
    u: list[int]
    c: int


def _read(key: bytes, inputs: Sequence[Ciphertext], outputs: Sequence[Ciphertext], proof: object,
          context: bytes) -> _Claim:
    """The proof cut into its fields with its challenges; ``ShuffleProofError`` (format)."""
    n = len(inputs)
    if not n or len(outputs) != n:
        raise ShuffleProofError(f"format: {n} cards shuffled into {len(outputs)}")
    p = ShuffleProof.decode(proof, n)
    statement = _statement(key, inputs, outputs, context)
    d, u = _challenges(statement, p.commitments)
    return _Claim(key, inputs, outputs, p, u, _challenge(d, p.chain, p.t, p.t_hat))


def verify(
    key: bytes, inputs: Sequence[Ciphertext], outputs: Sequence[Ciphertext], proof: object,
    context: bytes, *, group: g.Group = g.RISTRETTO255,
) -> None:
    """Check that ``outputs`` is a shuffle of ``inputs`` (checked points) under ``key``, bound
    to ``context``; raise ``ShuffleProofError`` naming the first check that fails. The outputs'
    points may come from outside: each is checked here."""
    claim = _read(key, inputs, outputs, proof, context)
    if BATCHED and _holds(group, [claim]):
        return
    p, n = claim.p, len(inputs)
    expected = _recompute(group, key, inputs, outputs, p, claim.u, claim.c)
    names = [T1, T2, T3, T4, T4, *(T_HAT.format(i) for i in range(1, n + 1))]
    labels = ["t1", "t2", "t3", "t4,1", "t4,2", *(f"t-hat {i}" for i in range(1, n + 1))]
    sent = [*p.t, *p.t_hat]
    wrong = [k for k, (want, got) in enumerate(zip(expected, sent, strict=True)) if want != got]
    for k in wrong:  # a commitment that is no point at all is a format fault
        try:
            group.decode_point(sent[k])
        except g.InvalidPoint as e:
            raise ShuffleProofError(f"format: {labels[k]}: {e}") from None
    if wrong:
        raise ShuffleProofError(names[wrong[0]])


def verify_all(
    statements: Sequence[tuple[bytes, Sequence[Ciphertext], Sequence[Ciphertext], object, bytes]],
    *, group: g.Group = g.RISTRETTO255,
) -> bool:
    """Whether every proof of ``statements`` (each ``(key, inputs, outputs, proof, context)`` as
    ``verify`` takes them) holds, every equation of every proof checked as one random linear
    combination (``_holds``): a pile that is one shuffle's output and the next one's input, the
    generators, the key and ``G`` are multiplied once for them all. ``False`` if any fails, or
    any point is no point: ``verify`` each one to name it. Never raises for bad input."""
    try:
        claims = [_read(*s) for s in statements]
    except ShuffleProofError:
        return False
    return bool(claims) and _holds(group, claims)


def _recompute(group: g.Group, key: bytes, inputs: Sequence[Ciphertext],
               outputs: Sequence[Ciphertext], p: ShuffleProof, u: Sequence[int],
               c: int) -> list[bytes]:
    """``t1, t2, t3, t4,1, t4,2, that_1..that_N`` as the check computes them. Every point from
    outside is multiplied, and so checked, before any sum uses it."""
    L, n = g.L, len(inputs)
    s1, s2, s3, s4 = p.s
    minus_c = -c % L
    cu = [minus_c * uj % L for uj in u]
    c_terms = [_checked(group, k, cj, f"permutation commitment {j}")
               for j, (k, cj) in enumerate(zip(cu, p.commitments, strict=True), 1)]
    chain_c = [_checked(group, minus_c, ch, f"commitment chain {i}")
               for i, ch in enumerate(p.chain, 1)]
    pairs = list(enumerate(zip(p.s_prime, outputs, strict=True)))
    a_out = [_checked(group, k, ct.c2, f"masked card {j}") for j, (k, ct) in pairs]
    b_out = [_checked(group, k, ct.c1, f"masked card {j}") for j, (k, ct) in pairs]
    h = chain_base(group)
    chain_s = [group.mul(k, ch) for k, ch in zip(p.s_prime, [h, *p.chain[:-1]], strict=True)]

    u_product = 1
    for uj in u:
        u_product = u_product * uj % L
    c_bar = group.sub(_sum(group, p.commitments), _generator_sum(group, n))
    a_in = [*zip(cu, [ct.c2 for ct in inputs], strict=True), (-s4, key)]
    b_in = [*zip(cu, [ct.c1 for ct in inputs], strict=True), (-s4, group.BASE)]
    hs = generators(n, group)
    return [
        group.add(group.base_mul(s1), group.mul(minus_c, c_bar)),
        _sum(group, [group.base_mul(s2), chain_c[-1], group.mul(c * u_product, h)]),
        _sum(group, [group.base_mul(s3), _combination(group, zip(p.s_prime, hs, strict=True)),
                     *c_terms]),
        _sum(group, [*a_out, _combination(group, a_in)]),
        _sum(group, [*b_out, _combination(group, b_in)]),
        *(_sum(group, [group.base_mul(k), cs, cc])
          for k, cs, cc in zip(p.s_hat, chain_s, chain_c, strict=True)),
    ]


def _holds(group: g.Group, claims: Sequence[_Claim]) -> bool:
    """Whether every equation of every claim holds, as one random linear combination (``Sum``)."""
    total = Sum(group)
    for cl in claims:
        total.add(cl)
    return total.holds()


class Sum:
    """Every equation of the claims added to it, as one random linear combination: each equation
    (``t1``, ``t2``, ``t3``, ``t4,1``, ``t4,2``, every ``t-hat``) of each claim weighted by its own
    scalar, fresh from the operating system and unknown to any prover, so that a false equation
    passes with probability ``1/L``. Terms on one point are merged before it is multiplied: ``G``
    once (fixed-base) for everything, and each other point once, whatever its roles (the
    generators, the key, a pile between two claims), unless ``fold`` multiplied it earlier (the
    sum is the same: a point's later terms are multiplied on their own). Every point goes
    through ``mul_checked``; one that is no point (or the identity) makes ``holds`` false.

    ``add`` then ``fold`` let a chain's proofs be summed as they come: a claim's own points
    (its commitments, its chain, its ``t`` values) at once, a pile once both claims on it are in,
    the generators, the key and ``G`` at the end (``holds``)."""

    def __init__(self, group: g.Group) -> None:
        self.group = group
        self.terms: dict[bytes, int] = {}
        self.base = 0
        self.total = group.IDENTITY
        self.ok = True

    def _put(self, k: int, point: bytes) -> None:
        self.terms[point] = self.terms.get(point, 0) + k

    def add(self, cl: _Claim) -> None:
        """Add every equation of ``cl``, each with weights of its own (nothing multiplied yet)."""
        L, put, group = g.L, self._put, self.group
        p, u, c, n = cl.p, cl.u, cl.c, len(cl.inputs)
        s1, s2, s3, s4 = p.s
        w1, w2, w3, w4, w5 = (g.random_scalar() for _ in range(5))
        v = [g.random_scalar() for _ in range(n)]
        u_product = 1
        for uj in u:
            u_product = u_product * uj % L
        self.base += w1 * s1 + w2 * s2 + w3 * s3 - w5 * s4 + sum(
            vi * sh for vi, sh in zip(v, p.s_hat, strict=True))
        for uj, cj in zip(u, p.commitments, strict=True):  # t1 and t3
            put(-c * (w1 + w3 * uj), cj)
        hs = generators(n, group)
        for sp_i, hi in zip(p.s_prime, hs, strict=True):  # t1 and t3
            put(c * w1 + w3 * sp_i, hi)
        put(w2 * c * u_product + v[0] * p.s_prime[0], chain_base(group))  # t2, that_1
        for i in range(n - 1):  # that_i and that_{i+1}
            put(v[i + 1] * p.s_prime[i + 1] - v[i] * c, p.chain[i])
        put(-(w2 + v[-1]) * c, p.chain[-1])  # t2 and that_N
        for sp_i, ct in zip(p.s_prime, cl.outputs, strict=True):  # t4,1 and t4,2
            put(w4 * sp_i, ct.c2)
            put(w5 * sp_i, ct.c1)
        for uj, ct in zip(u, cl.inputs, strict=True):
            put(-w4 * c * uj, ct.c2)
            put(-w5 * c * uj, ct.c1)
        put(-w4 * s4, cl.key)
        for k, t in zip((w1, w2, w3, w4, w5), p.t, strict=True):
            put(-k, t)
        for vi, t in zip(v, p.t_hat, strict=True):
            put(-vi, t)

    def fold(self, points: Iterable[bytes]) -> None:
        """Multiply the terms on ``points`` now (those with any) and add them to the sum."""
        group, terms = self.group, self.terms
        for point in points:
            k = terms.pop(point, None)
            if k is None or not self.ok:
                continue
            if point == group.BASE:
                self.base += k
                continue
            try:
                self.total = group.add(self.total, group.mul_checked(k % g.L, point))
            except g.InvalidPoint:
                self.ok = False

    def fold_own(self, cl: _Claim) -> None:
        """Multiply the points of ``cl`` that no other claim shares: its permutation commitments,
        its commitment chain and its ``t`` values."""
        self.fold([*cl.p.commitments, *cl.p.chain, *cl.p.t, *cl.p.t_hat])

    def holds(self) -> bool:
        """Whether the sum of every equation added is zero (everything left multiplied now)."""
        self.fold(list(self.terms))
        if not self.ok:
            return False
        total = self.group.add(self.total, self.group.base_mul(self.base % g.L))
        return total == self.group.IDENTITY
