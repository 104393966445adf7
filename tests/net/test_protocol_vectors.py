"""Known answers of docs/protocol.md, recomputed from the document alone.

Every value in ``tests/net/data/protocol_vectors.json`` (written by ``gen_protocol_vectors.py``
with the project's code) is computed again here the way ``docs/protocol.md`` describes it, with
nothing but ``hashlib``, ``msgpack``, PyNaCl for the identities' Ed25519
(``nacl.signing``) and ``rbcl`` for the fair deck's ristretto255:
no import from ``net/``, as a stranger writing a compatible peer from the document would. Each
test names the section it follows. Where the project derives a proof's randomness from an
``entropy`` argument the whole proof is recomputed byte for byte; every proof is also checked by
its verification equations, and a changed byte must fail them. The shuffle cases of
``shuffle_vectors.json`` are checked by the same independent verifier.

The last tests check the other way round: the project's code still writes this very file, and its
readers (an observer table, the proofs' verifiers) accept what it holds.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

import msgpack
import pytest
import rbcl
from nacl.signing import SigningKey, VerifyKey

HERE = Path(__file__).resolve().parent
V = json.loads((HERE / "data" / "protocol_vectors.json").read_text())
SHUFFLES = json.loads((HERE / "data" / "shuffle_vectors.json").read_text())

# -- section 3: notation ---------------------------------------------------------------------

L = 2**252 + 27742317777372353535851937790883648493
IDENTITY = bytes(32)  # ristretto255's neutral element (section 10.1)
G = rbcl.crypto_scalarmult_ristretto255_base((1).to_bytes(32, "little"))


def x(s: str) -> bytes:
    return bytes.fromhex(s)


def u16(n: int) -> bytes:
    return n.to_bytes(2, "big")


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def enc(*parts: bytes) -> bytes:
    """``enc(a, b, ...)``: each part after its length as 8 bytes, big-endian."""
    return b"".join(u64(len(p)) + p for p in parts)


def sc(k: int) -> bytes:
    return (k % L).to_bytes(32, "little")


def hs(tag: bytes, *parts: bytes) -> int:
    """``Hs(tag, ...)``: SHA-512 of ``enc(tag, ...)`` as a little-endian integer, mod L."""
    return int.from_bytes(hashlib.sha512(enc(tag, *parts)).digest(), "little") % L


def add(*points: bytes) -> bytes:
    total = IDENTITY
    for p in points:
        total = rbcl.crypto_core_ristretto255_add(total, p)
    return total


def sub(p: bytes, q: bytes) -> bytes:
    return rbcl.crypto_core_ristretto255_sub(p, q)


def mul(k: int, p: bytes) -> bytes:
    k %= L
    if k == 0 or p == IDENTITY:
        return IDENTITY
    return rbcl.crypto_scalarmult_ristretto255(sc(k), p)


def base(k: int) -> bytes:
    return mul(k, G)


def hash_to_point(tag: bytes, *parts: bytes) -> bytes:
    digest = hashlib.sha512(enc(tag, *parts)).digest()
    return rbcl.crypto_core_ristretto255_from_hash(digest)


def nonce(secret: int, entropy: bytes, *parts: bytes) -> int:
    """A proof nonce as palazzo derives it (section 10.9): ``Hs(NONCE_TAG, x, entropy, ...)``,
    1 if that is 0."""
    return hs(b"palazzo/deck/nonce/v1", sc(secret), entropy, *parts) or 1


class Stream:
    """``Stream(seed, tag)`` of section 10.2: SHA-512 of ``enc(tag, seed) || u64(counter)``."""

    def __init__(self, seed: bytes, tag: bytes) -> None:
        self.key, self.counter, self.buffer = enc(tag, seed), 0, b""

    def read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            self.buffer += hashlib.sha512(self.key + u64(self.counter)).digest()
            self.counter += 1
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def scalar(self) -> int:
        while True:
            k = int.from_bytes(self.read(64), "little") % L
            if k:
                return k

    def below(self, n: int) -> int:
        limit = 2**64 - 2**64 % n
        while True:
            v = int.from_bytes(self.read(8), "big")
            if v < limit:
                return v % n

    def permutation(self, n: int) -> list[int]:
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            order[i], order[j] = order[j], order[i]
        return order


# -- Python's Mersenne Twister, for the lots (section 9.3) -----------------------------------


class MT19937:
    N, M = 624, 397

    def __init__(self, n: int) -> None:
        words = []
        while True:
            words.append(n & 0xFFFFFFFF)
            n >>= 32
            if not n:
                break
        mt = [19650218]
        for i in range(1, self.N):
            mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & 0xFFFFFFFF)
        i, j = 1, 0
        for _ in range(max(self.N, len(words))):
            mixed = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + words[j] + j
            mt[i] = mixed & 0xFFFFFFFF
            i, j = i + 1, j + 1
            if i >= self.N:
                mt[0], i = mt[self.N - 1], 1
            if j >= len(words):
                j = 0
        for _ in range(self.N - 1):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
            i += 1
            if i >= self.N:
                mt[0], i = mt[self.N - 1], 1
        mt[0] = 0x80000000
        self.mt, self.index = mt, self.N

    def next32(self) -> int:
        mt, n, m = self.mt, self.N, self.M
        if self.index >= n:
            for k in range(n):
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % n] & 0x7FFFFFFF)
                mt[k] = mt[(k + m) % n] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def randrange(self, n: int) -> int:
        k = n.bit_length()
        while True:
            r = self.next32() >> (32 - k)
            if r < n:
                return r


# -- sections 4 and 5: identities, the handshake ------------------------------------------------


def test_identities_public_keys_and_fingerprints():
    ids = V["identities"]
    for who in (ids["host"], *ids["seats"]):
        assert SigningKey(x(who["seed"])).verify_key.encode().hex() == who["public"]
    digest = hashlib.sha256(x(ids["host"]["public"])).hexdigest()[:16]
    assert "-".join(digest[i:i + 4] for i in range(0, 16, 4)) == ids["host"]["fingerprint"]


def test_the_hello_signature_and_the_hosts_proof():
    hs_ = V["handshake"]
    peer = SigningKey(x(V["identities"]["seats"][0]["seed"]))
    host = SigningKey(x(V["identities"]["host"]["seed"]))
    hello = b"palazzo/hello/v1\x00" + x(hs_["challenge_nonce"]) + x(hs_["host"])
    assert peer.sign(hello).signature.hex() == hs_["hello_sig"]
    proof = b"palazzo/host/v1\x00" + x(hs_["hello_nonce"]) + x(hs_["peer"])
    assert host.sign(proof).signature.hex() == hs_["host_proof"]
    VerifyKey(x(hs_["host"])).verify(proof, x(hs_["host_proof"]))  # raises if it does not hold


# -- section 7: the game id, the genesis, entries and the chain --------------------------------


def test_the_game_id_and_the_genesis():
    gi = V["game_id"]
    data = b"palazzo/game-id/v1\x00" + x(gi["host"]) + bytes([len(gi["seats"])])
    data += b"".join(x(s["key"]) + x(s["nonce"]) for s in gi["seats"])
    assert hashlib.sha256(data).digest()[:16].hex() == gi["game_id"]
    assert hashlib.sha256(b"palazzo/genesis/v1\x00" + x(gi["game_id"])).hexdigest() == gi["genesis"]


def bodies() -> list[tuple[str, int, dict]]:
    """Every entry of the vectors' game, built field by field as section 7 lists them."""
    gi, ent = V["game_id"], V["entries"]
    seats = V["identities"]["seats"]
    out = [("host", -1, {"kind": "start", "rules": "condottiere", "config": ent["config"],
                         "host": x(gi["host"]),
                         "seats": [{"name": s["name"], "key": x(s["public"]), "nonce": x(g["nonce"])}
                                   for s, g in zip(seats, gi["seats"], strict=True)],
                         "time": ent["time"], "timeout": 0, "on_timeout": "forfeit"})]
    for n in ent["seed_commits"]:
        out.append((seats[n["seat"]]["seed"], n["seat"],
                    {"kind": "seed-commit", "commit": x(n["commitment"])}))
    for n in ent["seed_commits"]:
        out.append((seats[n["seat"]]["seed"], n["seat"],
                    {"kind": "seed-open", "value": x(n["value"]), "salt": x(n["salt"])}))
    return out


def test_entry_bodies_their_signatures_and_the_chain():
    game = x(V["game_id"]["game_id"])
    head = x(V["game_id"]["genesis"])
    host_seed = V["identities"]["host"]["seed"]
    listed = V["entries"]["list"]
    assert len(listed) == len(bodies()) == 7
    for seq, ((signer, author, fields), want) in enumerate(zip(bodies(), listed, strict=True)):
        key = SigningKey(x(host_seed if signer == "host" else signer))
        body = msgpack.packb({"v": 3, "game": game, "seq": seq, "prev": head, "author": author,
                              **fields}, use_bin_type=True)
        assert body.hex() == want["body"], f"entry {seq} ({fields['kind']})"
        sig = key.sign(b"palazzo/entry/v1\x00" + body).signature
        assert sig.hex() == want["sig"]
        head = hashlib.sha256(head + u32(len(body)) + body + sig).digest()
        assert head.hex() == want["chain_after"]


def test_every_acknowledgement_of_a_head():
    """Section 8.1: "palazzo/ack/v1" 00 || game id || u32(n) || H(n), signed by the host for
    every head and by every seat but the author of the entry that ends it."""
    game = x(V["game_id"]["game_id"])
    listed = V["entries"]["list"]
    acks = V["agreement"]["acks"]
    assert [a["n"] for a in acks] == list(range(1, len(listed) + 1))
    host = SigningKey(x(V["identities"]["host"]["seed"]))
    seats = [SigningKey(x(s["seed"])) for s in V["identities"]["seats"]]
    for a, entry in zip(acks, listed, strict=True):
        assert a["head"] == entry["chain_after"]
        message = b"palazzo/ack/v1\x00" + game + u32(a["n"]) + x(a["head"])
        assert host.sign(message).signature.hex() == a["host"]
        for i, (key, sig) in enumerate(zip(seats, a["seats"], strict=True)):
            if i == entry["author"]:
                assert sig is None  # its entry signs that head already
            else:
                assert key.sign(message).signature.hex() == sig


def test_a_withdrawal_and_a_confirmation():
    """Section 5.6: a confirmation's ``ack`` is the host's acknowledgement of the head after the
    entry (above); a withdrawal signs "palazzo/withdraw/v1" 00 || game id || u32(seq) ||
    SHA-256(body || sig) of the entry withdrawn, with the host's key."""
    game = x(V["game_id"]["game_id"])
    entry = V["entries"]["list"][-1]
    w = V["agreement"]["withdraw"]
    assert w["seq"] == len(V["entries"]["list"]) - 1
    digest = hashlib.sha256(x(entry["body"]) + x(entry["sig"])).digest()
    assert digest.hex() == w["entry_digest"]
    host = SigningKey(x(V["identities"]["host"]["seed"]))
    message = b"palazzo/withdraw/v1\x00" + game + u32(w["seq"]) + digest
    assert host.sign(message).signature.hex() == w["sig"]
    assert host.verify_key.verify(message, x(w["sig"]))


def test_a_body_is_its_own_shortest_encoding():
    for want in V["entries"]["list"]:
        body = x(want["body"])
        assert msgpack.packb(msgpack.unpackb(body, raw=False), use_bin_type=True) == body
    start = x(V["entries"]["list"][0]["body"])
    seq = msgpack.packb("seq") + b"\x00"
    assert start.count(seq) == 1
    longer = start.replace(seq, msgpack.packb("seq") + b"\xce" + u32(0))  # seq 0 as a uint32
    assert msgpack.unpackb(longer, raw=False) == msgpack.unpackb(start, raw=False)
    assert msgpack.packb(msgpack.unpackb(longer, raw=False), use_bin_type=True) != longer


# -- section 9: the joint seed and the lots ----------------------------------------------------


def test_the_seed_commitments():
    game = x(V["game_id"]["game_id"])

    def lp4(b: bytes) -> bytes:
        return u32(len(b)) + b

    for n in V["entries"]["seed_commits"]:
        parts = (b"palazzo/commit/v1", b"seed", game, n["seat"].to_bytes(4, "big", signed=True),
                 b"seed", x(n["value"]), x(n["salt"]))
        assert hashlib.sha256(b"".join(lp4(p) for p in parts)).hexdigest() == n["commitment"]


def test_the_seed_and_the_first_lot():
    values = b"".join(x(v) for v in V["seed"]["values"])
    seed = hashlib.sha256(b"palazzo/seed/v1" + values).digest()
    assert seed.hex() == V["seed"]["seed"]
    lot = V["lot"]
    digest = hashlib.sha256(b"palazzo/lot/v1" + seed + u32(lot["lot"])).digest()
    assert digest.hex() == lot["digest"]
    n = int.from_bytes(digest, "big")
    mt = MT19937(n)
    assert [mt.next32() for _ in range(4)] == lot["first_outputs"]
    for k, draw in lot["randrange"].items():
        assert MT19937(n).randrange(int(k)) == draw, f"randrange({k})"


# -- section 10: the fair deck ------------------------------------------------------------------


def test_card_points():
    cards = V["cards"]
    for c in cards["points"]:
        parts = (c["domain"].encode(), u32(c["index"]))
        digest = hashlib.sha512(enc(cards["tag"].encode(), *parts)).digest()
        assert digest.hex() == c["sha512"]
        assert hash_to_point(cards["tag"].encode(), *parts).hex() == c["point"]


def secret(seat: int) -> int:
    return int.from_bytes(x(V["deck"]["keys"][seat]["secret"]), "little")


def game_id() -> bytes:
    return x(V["game_id"]["game_id"])


def test_key_proofs():
    deck = V["deck"]
    entropy = x(deck["entropy"])
    tag = b"palazzo/deck/key-proof/v1"
    for k in deck["keys"]:
        xj = secret(k["seat"])
        context = enc(b"palazzo/deck/key/v1", game_id(), u16(k["seat"]))
        assert context.hex() == k["context"]
        y = base(xj)
        r = nonce(xj, entropy, tag, y, context)
        c = hs(tag, G, y, base(r), context)
        proof = sc(c) + sc(r + c * xj)
        assert k["message"] == {"type": "deck/key", "key": y.hex(), "proof": proof.hex()}
        assert key_proof_holds(y, x(k["message"]["proof"]), context)
    assert add(*(x(k["message"]["key"]) for k in deck["keys"])).hex() == deck["joint_key"]


def key_proof_holds(y: bytes, proof: bytes, context: bytes) -> bool:
    c, s = int.from_bytes(proof[:32], "little"), int.from_bytes(proof[32:], "little")
    if c >= L or s >= L:
        return False
    return c == hs(b"palazzo/deck/key-proof/v1", G, y, sub(base(s), mul(c, y)), context)


def test_a_key_proof_fails_for_another_seat_or_a_changed_byte():
    k = V["deck"]["keys"][1]
    y, proof = x(k["message"]["key"]), x(k["message"]["proof"])
    assert key_proof_holds(y, proof, x(k["context"]))
    assert not key_proof_holds(y, proof, enc(b"palazzo/deck/key/v1", game_id(), u16(0)))
    assert not key_proof_holds(y, bytes([proof[0] ^ 1]) + proof[1:], x(k["context"]))


def public_mask(card: bytes, key: bytes) -> bytes:
    return G + add(card, key)


def card_point(index: int) -> bytes:
    return hash_to_point(b"palazzo/deck/card/v1", V["deck"]["domain"].encode(), u32(index))


SHUFFLE_TAGS = {
    "generator": b"palazzo/deck/shuffle-generator/v1",
    "statement": b"palazzo/deck/shuffle-statement/v1",
    "u": b"palazzo/deck/shuffle-u/v1",
    "challenge": b"palazzo/deck/shuffle-challenge/v1",
    "nonce": b"palazzo/deck/shuffle-nonce/v1",
}


def generators(n: int) -> tuple[bytes, list[bytes]]:
    tag = SHUFFLE_TAGS["generator"]
    return hash_to_point(tag, b"h"), [hash_to_point(tag, b"h_i", u32(i)) for i in range(1, n + 1)]


def cut(data: bytes, size: int) -> list[bytes]:
    return [data[i:i + size] for i in range(0, len(data), size)]


def shuffle_statement(key: bytes, inputs: list[bytes], outputs: list[bytes],
                      context: bytes) -> bytes:
    return hashlib.sha512(enc(SHUFFLE_TAGS["statement"], key, u32(len(inputs)), b"".join(inputs),
                              b"".join(outputs), context)).digest()


def shuffle_challenges(statement: bytes, commitments: list[bytes]) -> tuple[bytes, list[int]]:
    d = hashlib.sha512(enc(SHUFFLE_TAGS["u"], statement, b"".join(commitments))).digest()
    return d, [hs(SHUFFLE_TAGS["u"], d, u32(j)) for j in range(1, len(commitments) + 1)]


def prove_shuffle(key: bytes, inputs: list[bytes], order: list[int], scalars: list[int],
                  context: bytes, entropy: bytes) -> tuple[list[bytes], bytes]:
    """The outputs and the proof, step by step as section 10.7 gives them."""
    n = len(inputs)
    outputs = [add(inputs[j][:32], base(r)) + add(inputs[j][32:], mul(r, key))
               for j, r in zip(order, scalars, strict=True)]
    statement = shuffle_statement(key, inputs, outputs, context)
    witness = b"".join(u32(j) for j in order) + b"".join(sc(r) for r in scalars)
    rand = Stream(hashlib.sha512(enc(SHUFFLE_TAGS["nonce"], entropy, statement, witness)).digest(),
                  SHUFFLE_TAGS["nonce"])
    r = [rand.scalar() for _ in range(n)]
    r_hat = [rand.scalar() for _ in range(n)]
    w1, w2, w3, w4 = (rand.scalar() for _ in range(4))
    w_hat = [rand.scalar() for _ in range(n)]
    w_prime = [rand.scalar() for _ in range(n)]
    h, hi = generators(n)
    position = {j: i for i, j in enumerate(order)}
    commitments = [add(base(r[j]), hi[position[j]]) for j in range(n)]
    d, u = shuffle_challenges(statement, commitments)
    u_prime = [u[j] for j in order]
    chain, previous = [], h
    for up, rh in zip(u_prime, r_hat, strict=True):
        previous = add(base(rh), mul(up, previous))
        chain.append(previous)
    t = [base(w1), base(w2), add(base(w3), *(mul(w, p) for w, p in zip(w_prime, hi, strict=True))),
         add(mul(-w4, key), *(mul(w, o[32:]) for w, o in zip(w_prime, outputs, strict=True))),
         add(mul(-w4, G), *(mul(w, o[:32]) for w, o in zip(w_prime, outputs, strict=True)))]
    t_hat = [add(base(wh), mul(wp, ch))
             for wh, wp, ch in zip(w_hat, w_prime, [h, *chain[:-1]], strict=True)]
    c = hs(SHUFFLE_TAGS["challenge"], d, b"".join(chain), *t, b"".join(t_hat))
    v, rhat_sum = 1, 0
    for i in range(n - 1, -1, -1):
        rhat_sum, v = rhat_sum + r_hat[i] * v, v * u_prime[i] % L
    sums = (sum(r), rhat_sum, sum(a * b for a, b in zip(r, u, strict=True)),
            sum(a * b for a, b in zip(scalars, u_prime, strict=True)))
    s = [w + c * y for w, y in zip((w1, w2, w3, w4), sums, strict=True)]
    s_hat = [w + c * y for w, y in zip(w_hat, r_hat, strict=True)]
    s_prime = [w + c * y for w, y in zip(w_prime, u_prime, strict=True)]
    proof = b"".join([*commitments, *chain, *t, *t_hat, *(sc(k) for k in (*s, *s_hat, *s_prime))])
    return outputs, proof


def shuffle_proof_holds(key: bytes, inputs: list[bytes], outputs: list[bytes], proof: bytes,
                        context: bytes) -> bool:
    """The verification equations of section 10.7, over the proof's fields by its layout."""
    n = len(inputs)
    if len(outputs) != n or len(proof) != 32 * (5 * n + 9):
        return False
    items = cut(proof, 32)
    commitments, chain = items[:n], items[n:2 * n]
    t, t_hat = items[2 * n:2 * n + 5], items[2 * n + 5:3 * n + 5]
    scalars = [int.from_bytes(k, "little") for k in items[3 * n + 5:]]
    if any(k >= L for k in scalars):
        return False
    points = [*commitments, *chain, *t, *t_hat, *(half for o in outputs for half in cut(o, 32))]
    if not all(p != IDENTITY and rbcl.crypto_core_ristretto255_is_valid_point(p) for p in points):
        return False
    s1, s2, s3, s4 = scalars[:4]
    s_hat, s_prime = scalars[4:4 + n], scalars[4 + n:]
    statement = shuffle_statement(key, inputs, outputs, context)
    d, u = shuffle_challenges(statement, commitments)
    c = hs(SHUFFLE_TAGS["challenge"], d, b"".join(chain), *t, b"".join(t_hat))
    h, hi = generators(n)
    u_all = 1
    for uj in u:
        u_all = u_all * uj % L
    want = [
        sub(base(s1), mul(c, sub(add(*commitments), add(*hi)))),
        sub(base(s2), mul(c, sub(chain[-1], mul(u_all, h)))),
        sub(add(base(s3), *(mul(k, p) for k, p in zip(s_prime, hi, strict=True))),
            mul(c, add(*(mul(k, p) for k, p in zip(u, commitments, strict=True))))),
        sub(add(mul(-s4, key), *(mul(k, o[32:]) for k, o in zip(s_prime, outputs, strict=True))),
            mul(c, add(*(mul(k, e[32:]) for k, e in zip(u, inputs, strict=True))))),
        sub(add(mul(-s4, G), *(mul(k, o[:32]) for k, o in zip(s_prime, outputs, strict=True))),
            mul(c, add(*(mul(k, e[:32]) for k, e in zip(u, inputs, strict=True))))),
        *(sub(add(base(sh), mul(sp, prev)), mul(c, ch))
          for sh, sp, prev, ch in zip(s_hat, s_prime, [h, *chain[:-1]], chain, strict=True)),
    ]
    return want == [*t, *t_hat]


def test_the_shuffle_messages_and_their_proofs():
    deck = V["deck"]
    key = x(deck["joint_key"])
    pile = [public_mask(card_point(c), key) for c in deck["cards"]]
    for number, s in enumerate(deck["shuffles"]):
        assert [c.hex() for c in pile] == s["input"]
        context = enc(b"palazzo/deck/shuffle/v2", game_id(), deck["deck"].encode(), u16(s["seat"]),
                      u32(number), x(s["prev"]))
        assert context.hex() == s["proof_context"]
        draw = Stream(x(s["seed"]), b"palazzo/deck/shuffle/v1")
        order = draw.permutation(len(pile))
        scalars = [draw.scalar() for _ in pile]
        outputs, proof = prove_shuffle(key, pile, order, scalars, context, x(s["seed"]))
        msg = s["message"]
        assert (msg["type"], msg["deck"], msg["number"]) == ("deck/shuffle", deck["deck"], number)
        assert b"".join(outputs).hex() == msg["cards"]
        assert proof.hex() == msg["proof"]
        assert shuffle_proof_holds(key, pile, outputs, x(msg["proof"]), context)
        statement = shuffle_statement(key, pile, outputs, context)
        d, u = shuffle_challenges(statement, cut(proof, 32)[:len(pile)])
        assert (statement.hex(), d.hex()) == (s["statement"], s["d"])
        assert [sc(k).hex() for k in u] == s["u"]
        pile = outputs


def test_the_shuffle_vectors_check_out_by_the_same_equations():
    key, context = x(SHUFFLES["key"]), SHUFFLES["context"].encode()
    h, hi = generators(5)
    assert (h.hex(), [p.hex() for p in hi]) == (SHUFFLES["generators"]["h"],
                                                SHUFFLES["generators"]["h_i"])
    for case in SHUFFLES["cases"]:
        inputs, outputs = [x(c) for c in case["inputs"]], [x(c) for c in case["outputs"]]
        proof = x(case["proof"])
        assert shuffle_proof_holds(key, inputs, outputs, proof, context)
        assert not shuffle_proof_holds(key, inputs, outputs, proof, context + b"!")


@pytest.mark.parametrize("offset", [0, 3 * 32, 2 * 3 * 32 + 2 * 32, 3 * 3 * 32 + 5 * 32 + 1])
def test_a_changed_byte_in_a_shuffle_proof_fails_the_equations(offset):
    deck = V["deck"]
    s = deck["shuffles"][1]
    key = x(deck["joint_key"])
    inputs = [x(c) for c in s["input"]]
    outputs = cut(x(s["message"]["cards"]), 64)
    proof = bytearray(x(s["message"]["proof"]))
    assert shuffle_proof_holds(key, inputs, outputs, bytes(proof), x(s["proof_context"]))
    proof[offset] ^= 1
    assert not shuffle_proof_holds(key, inputs, outputs, bytes(proof), x(s["proof_context"]))


def test_a_hand_masked_anew_and_its_proof():
    """Section 10.13: seat 0's hand of the two dealt cards, permuted and re-masked under the
    joint key with a shuffle proof bound to the rehand context."""
    deck, r = V["deck"], V["deck"]["rehand"]
    key = x(deck["joint_key"])
    handles = deck["dealt"]["handles"]
    context = enc(b"palazzo/deck/rehand/v1", game_id(), deck["deck"].encode(), u16(r["seat"]),
                  b"".join(u64(k) for k in handles), x(r["prev"]))
    assert context.hex() == r["proof_context"]
    inputs = dealt()
    draw = Stream(x(r["seed"]), b"palazzo/deck/shuffle/v1")
    order = draw.permutation(len(inputs))
    scalars = [draw.scalar() for _ in inputs]
    outputs, proof = prove_shuffle(key, inputs, order, scalars, context, x(r["seed"]))
    msg = r["message"]
    assert (msg["type"], msg["deck"]) == ("deck/rehand", deck["deck"])
    assert msg["handles"] == b"".join(u32(k) for k in handles).hex()
    assert (b"".join(outputs).hex(), proof.hex()) == (msg["cards"], msg["proof"])
    assert shuffle_proof_holds(key, inputs, outputs, proof, context)
    other = enc(b"palazzo/deck/shuffle/v2", game_id(), deck["deck"].encode(), u16(0), u32(3),
                x(r["prev"]))
    assert not shuffle_proof_holds(key, inputs, outputs, proof, other)  # bound to its context
    # the new handles are the deck's next ones, in the order of the cards
    assert r["new_handles"] == [len(handles) + i for i in range(len(handles))]


def dealt() -> list[bytes]:
    """The masked cards dealt: the top of the pile after the last shuffle, in order."""
    last = V["deck"]["shuffles"][-1]["message"]["cards"]
    return cut(x(last), 64)[:len(V["deck"]["dealt"]["handles"])]


def dleq_statement(y: bytes, bases: list[bytes], shares: list[bytes]) -> bytes:
    return enc(G, y, u32(len(bases)), b"".join(b + s for b, s in zip(bases, shares, strict=True)))


def test_the_share_messages_and_their_proofs():
    deck = V["deck"]
    entropy, tag = x(deck["entropy"]), b"palazzo/deck/dleq-proof/v1"
    handles = deck["dealt"]["handles"]
    bases = [c[:32] for c in dealt()]
    for s in deck["shares"]:
        xj, y = secret(s["seat"]), x(deck["keys"][s["seat"]]["message"]["key"])
        assert [b.hex() for b in bases] == s["bases"]
        context = enc(b"palazzo/deck/share/v1", game_id(), deck["deck"].encode(), u16(s["seat"]),
                      b"".join(u64(h) for h in handles), x(s["prev"]))
        assert context.hex() == s["proof_context"]
        shares = [mul(xj, b) for b in bases]
        statement = dleq_statement(y, bases, shares)
        k = nonce(xj, entropy, tag, statement, context)
        c = hs(tag, statement, base(k), *(mul(k, b) for b in bases), context)
        assert s["message"] == {"type": "deck/shares", "deck": deck["deck"],
                                "handles": b"".join(u32(h) for h in handles).hex(),
                                "shares": b"".join(shares).hex(),
                                "proof": (sc(c) + sc(k + c * xj)).hex()}
        assert dleq_holds(y, bases, shares, x(s["message"]["proof"]), context)
        assert not dleq_holds(y, bases, shares[::-1], x(s["message"]["proof"]), context)


def dleq_holds(y: bytes, bases: list[bytes], shares: list[bytes], proof: bytes,
               context: bytes) -> bool:
    c, s = int.from_bytes(proof[:32], "little"), int.from_bytes(proof[32:], "little")
    if c >= L or s >= L:
        return False
    commitments = [sub(base(s), mul(c, y)),
                   *(sub(mul(s, b), mul(c, d)) for b, d in zip(bases, shares, strict=True))]
    return c == hs(b"palazzo/deck/dleq-proof/v1", dleq_statement(y, bases, shares), *commitments,
                   context)


def test_the_holder_learns_its_cards_and_the_one_of_proof():
    deck, one = V["deck"], V["deck"]["one_of"]
    entropy, tag = x(deck["entropy"]), b"palazzo/deck/dleq-or-proof/v1"
    x0, y0 = secret(0), x(deck["keys"][0]["message"]["key"])
    masked = dealt()
    others = [cut(x(s["message"]["shares"]), 32) for s in deck["shares"]]
    for i, ct in enumerate(masked):  # the holder adds its own share: it alone learns the card
        point = sub(ct[32:], add(*(o[i] for o in others), mul(x0, ct[:32])))
        assert point == card_point(deck["held"][i])
    ct = masked[one["handle"]]
    assert ct.hex() == one["masked"]
    rest = sub(ct[32:], add(*(o[one["handle"]] for o in others)))
    targets = [sub(rest, card_point(c)) for c in one["cards"]]
    true = targets.index(mul(x0, ct[:32]))
    assert one["cards"][true] == one["true_card"]
    context = enc(b"palazzo/deck/one-of/v1", game_id(), deck["deck"].encode(), u16(one["seat"]),
                  u64(one["handle"]), x(one["prev"]))
    assert context.hex() == one["proof_context"]
    statement = enc(G, y0, ct[:32], u32(len(targets)), b"".join(targets))
    k = nonce(x0, entropy, tag, statement, context)
    cs, ss, commitments = [0] * len(targets), [0] * len(targets), []
    for i, t in enumerate(targets):
        if i == true:
            commitments += [base(k), mul(k, ct[:32])]
            continue
        cs[i] = nonce(x0, entropy, tag, b"c", u32(i), statement, context)
        ss[i] = nonce(x0, entropy, tag, b"s", u32(i), statement, context)
        commitments += [sub(base(ss[i]), mul(cs[i], y0)), sub(mul(ss[i], ct[:32]), mul(cs[i], t))]
    c = hs(tag, statement, *commitments, context)
    cs[true] = (c - sum(cs)) % L
    ss[true] = k + cs[true] * x0
    assert b"".join(sc(a) + sc(b) for a, b in zip(cs, ss, strict=True)).hex() == one["proof"]
    assert one_of_holds(y0, ct[:32], targets, x(one["proof"]), context)
    assert not one_of_holds(y0, ct[:32], targets[1:] + targets[:1], x(one["proof"]), context)


def one_of_holds(y: bytes, c1: bytes, targets: list[bytes], proof: bytes, context: bytes) -> bool:
    pairs = cut(proof, 64)
    if len(pairs) != len(targets):
        return False
    commitments, total = [], 0
    for pair, t in zip(pairs, targets, strict=True):
        c, s = int.from_bytes(pair[:32], "little"), int.from_bytes(pair[32:], "little")
        if c >= L or s >= L:
            return False
        total += c
        commitments += [sub(base(s), mul(c, y)), sub(mul(s, c1), mul(c, t))]
    statement = enc(G, y, c1, u32(len(targets)), b"".join(targets))
    return total % L == hs(b"palazzo/deck/dleq-or-proof/v1", statement, *commitments, context)


# -- the project's code, the other way round ------------------------------------------------------


def generator():
    spec = importlib.util.spec_from_file_location("gen_protocol_vectors",
                                                  HERE / "gen_protocol_vectors.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_project_still_writes_these_vectors():
    # make() also has an observer table accept every entry and every deck verify every proof
    assert generator().make() == V


def test_the_projects_readers_accept_the_proofs():
    from net.deck import cipher as dc
    from net.deck import proofs as dp
    from net.deck import shuffle_proof as sp

    deck = V["deck"]
    for k in deck["keys"]:
        assert dp.verify_key(x(k["message"]["key"]), x(k["message"]["proof"]), x(k["context"]))
    s = deck["shuffles"][0]
    sp.verify(x(deck["joint_key"]), [dc.Ciphertext.decode(x(c)) for c in s["input"]],
              [dc.Ciphertext.decode(c) for c in cut(x(s["message"]["cards"]), 64)],
              x(s["message"]["proof"]), x(s["proof_context"]))
    # no entry of version 2 carries a secret: a seed commitment is the commitment alone
    assert all(set(msgpack.unpackb(x(e["body"]))) == {"v", "game", "seq", "prev", "author",
                                                      "kind", "commit"}
               for e in V["entries"]["list"] if e["kind"] == "seed-commit")
