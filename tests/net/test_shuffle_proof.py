"""The shuffle proof: known answers (checked again by the paper's equations), correct proofs verify,
and every cheat and every damaged field is refused with the check it broke named."""

import hashlib
import json
from pathlib import Path

import pytest
import rbcl
from hypothesis import given
from hypothesis import strategies as st

from net.deck import cipher as dc
from net.deck import group as g
from net.deck import shuffle_proof as sp

HERE = Path(__file__).resolve().parent
VECTORS = json.loads((HERE / "data" / "shuffle_vectors.json").read_text())
L = 2**252 + 27742317777372353535851937790883648493
TABLE = dc.CardTable("condottiere", 110)
KEY = g.base_mul(g.hash_to_scalar(b"test", b"shuffle key"))
CTX = b"game/deck/seat/number/transcript"


def _bad_points():
    """Encodings ``decode_point`` refuses, one of each kind, with the words it uses: the
    identity, a negative (odd) and an out-of-range encoding, an even number below p that encodes
    no element, and a point of version 1's group (edwards25519) in its own encoding."""
    from net.deck.edwards import EDWARDS25519 as ed

    old = next(p for p in (ed.base_mul(k) for k in range(1, 50))
               if not rbcl.crypto_core_ristretto255_is_valid_point(p))
    return [(bytes(32), "identity"), ((1).to_bytes(32, "little"), "non-canonical encoding"),
            ((2**255 - 18).to_bytes(32, "little"), "non-canonical encoding"),
            ((2).to_bytes(32, "little"), "not the encoding of a ristretto255 point"),
            (old, "encod")]


BAD_POINTS = _bad_points()


def new_deck(n, cards=None):
    return [dc.public_mask(TABLE.point(c), KEY) for c in (cards or range(n))]


def shuffled(inputs, seed=b"s" * 32):
    draw = dc.shuffle_draw(seed, len(inputs))
    return draw, dc.apply_draw(inputs, draw, KEY)


def proved(inputs, seed=b"s" * 32, context=CTX):
    """An honest shuffle of ``inputs``: ``(outputs, proof, draw)``."""
    draw, outputs = shuffled(inputs, seed)
    return outputs, sp.prove(KEY, inputs, outputs, draw.order, draw.scalars, context, seed), draw


def refused(inputs, outputs, proof, context=CTX, key=KEY):
    with pytest.raises(sp.ShuffleProofError) as e:
        sp.verify(key, inputs, outputs, proof, context)
    return e.value


# -- known answers -------------------------------------------------------------------------


def test_generators_known_answer():
    v = VECTORS["generators"]
    assert sp.chain_base().hex() == v["h"]
    assert [p.hex() for p in sp.generators(5)] == v["h_i"]
    assert sp.chain_base() not in sp.generators(110)
    assert len(set(sp.generators(110))) == 110
    assert all(g.is_valid_point(p) for p in sp.generators(110))


@pytest.mark.parametrize("i", range(len(VECTORS["cases"])))
def test_proof_known_answer(i):
    v, case = VECTORS, VECTORS["cases"][i]
    key = bytes.fromhex(v["key"])
    inputs = [dc.Ciphertext.decode(bytes.fromhex(c)) for c in case["inputs"]]
    scalars = [g.decode_scalar(bytes.fromhex(r)) for r in case["scalars"]]
    draw = dc.ShuffleDraw(tuple(case["order"]), tuple(scalars))
    outputs = dc.apply_draw(inputs, draw, key)
    assert [ct.to_bytes().hex() for ct in outputs] == case["outputs"]
    proof = sp.prove(key, inputs, outputs, case["order"], scalars, v["context"].encode(),
                     bytes.fromhex(case["entropy"]))
    assert proof.hex() == case["proof"]
    assert len(proof) == sp.proof_bytes(len(inputs))
    sp.verify(key, inputs, outputs, proof, v["context"].encode())


# -- the same vectors against the paper's equations, with libsodium's group alone ----------------


def _encode(*parts):
    return b"".join(len(p).to_bytes(8, "big") + p for p in parts)


def _scalar(tag, *parts):
    return int.from_bytes(hashlib.sha512(_encode(tag, *parts)).digest(), "little") % L


@pytest.mark.parametrize("i", [0, 1])  # a new deck, then the same cards shuffled again
def test_known_answer_checks_out_by_the_papers_equations(i):
    """The module docstring's hashes and CheckProof's equations, recomputed from the bytes with
    ``hashlib`` and the binding (``rbcl``) alone."""
    v, case = VECTORS, VECTORS["cases"][i]
    n = len(case["inputs"])
    raw = bytes.fromhex(case["proof"])
    items = [raw[k:k + 32] for k in range(0, len(raw), 32)]
    commitments, chain = items[:n], items[n:2 * n]
    t, t_hat = items[2 * n:2 * n + 5], items[2 * n + 5:3 * n + 5]
    s = [int.from_bytes(x, "little") for x in items[3 * n + 5:]]
    s1, s2, s3, s4, s_hat, s_prime = *s[:4], s[4:4 + n], s[4 + n:]
    assert len(items) == 5 * n + 9 and all(x < L for x in s)

    key, context = bytes.fromhex(v["key"]), v["context"].encode()
    inputs = [bytes.fromhex(c) for c in case["inputs"]]
    outputs = [bytes.fromhex(c) for c in case["outputs"]]
    statement = hashlib.sha512(_encode(b"palazzo/deck/shuffle-statement/v1", key,
                                       n.to_bytes(4, "big"), b"".join(inputs), b"".join(outputs),
                                       context)).digest()
    assert statement.hex() == case["statement"]
    d = hashlib.sha512(_encode(b"palazzo/deck/shuffle-u/v1", statement, b"".join(commitments))).digest()
    u = [_scalar(b"palazzo/deck/shuffle-u/v1", d, j.to_bytes(4, "big")) for j in range(1, n + 1)]
    assert [x.to_bytes(32, "little").hex() for x in u] == case["u"]
    c = _scalar(b"palazzo/deck/shuffle-challenge/v1", d, b"".join(chain), *t, b"".join(t_hat))
    assert c.to_bytes(32, "little").hex() == case["challenge"]

    def pt(data):
        assert data != bytes(32) and rbcl.crypto_core_ristretto255_is_valid_point(data)
        return data

    def lin(*terms):  # sum of k*P
        out = bytes(32)
        for k, p in terms:
            out = rbcl.crypto_core_ristretto255_add(
                out, rbcl.crypto_scalarmult_ristretto255_allow_scalar_zero(
                    (k % L).to_bytes(32, "little"), p))
        return out

    G, H = rbcl.crypto_scalarmult_ristretto255_base((1).to_bytes(32, "little")), pt(key)
    h = pt(_ref_point(b"h"))
    hs = [pt(_ref_point(b"h_i", j.to_bytes(4, "big"))) for j in range(1, n + 1)]
    cs, chats = [pt(x) for x in commitments], [pt(x) for x in chain]
    b_in = [pt(x[:32]) for x in inputs]
    a_in = [pt(x[32:]) for x in inputs]
    b_out = [pt(x[:32]) for x in outputs]
    a_out = [pt(x[32:]) for x in outputs]
    u_all = 1
    for x in u:
        u_all = u_all * x % L
    c_bar = lin(*((1, p) for p in cs), *((-1, p) for p in hs))
    c_hat = lin((1, chats[-1]), (-u_all, h))
    c_tilde = lin(*zip(u, cs, strict=True))
    a_prime = lin(*zip(u, a_in, strict=True))
    b_prime = lin(*zip(u, b_in, strict=True))
    assert (lin((-c, c_bar), (s1, G))) == t[0]
    assert (lin((-c, c_hat), (s2, G))) == t[1]
    assert (lin((-c, c_tilde), (s3, G), *zip(s_prime, hs, strict=True))) == t[2]
    assert (lin((-c, a_prime), (-s4, H), *zip(s_prime, a_out, strict=True))) == t[3]
    assert (lin((-c, b_prime), (-s4, G), *zip(s_prime, b_out, strict=True))) == t[4]
    for i in range(n):
        previous = h if i == 0 else chats[i - 1]
        assert (lin((-c, chats[i]), (s_hat[i], G), (s_prime[i], previous))) == t_hat[i]


def _ref_point(*parts):
    digest = hashlib.sha512(_encode(b"palazzo/deck/shuffle-generator/v1", *parts)).digest()
    return rbcl.crypto_core_ristretto255_from_hash(digest)


# -- correct proofs ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 25, 110])
def test_a_correct_proof_verifies(n):
    inputs = new_deck(n)
    outputs, proof, _ = proved(inputs)
    assert len(proof) == sp.proof_bytes(n) == 32 * (5 * n + 9)
    sp.verify(KEY, inputs, outputs, proof, CTX)
    again, proof2, _ = proved(outputs, seed=b"t" * 32)  # inputs no longer all G in C1
    sp.verify(KEY, outputs, again, proof2, CTX)


def test_the_prover_is_hedged():
    inputs = new_deck(4)
    draw, outputs = shuffled(inputs)
    made = [sp.prove(KEY, inputs, outputs, draw.order, draw.scalars, CTX) for _ in range(2)]
    assert made[0] != made[1]  # fresh randomness each time
    for proof in made:
        sp.verify(KEY, inputs, outputs, proof, CTX)
    fixed = [sp.prove(KEY, inputs, outputs, draw.order, draw.scalars, CTX, bytes(32)) for _ in range(2)]
    assert fixed[0] == fixed[1]


def test_the_proof_round_trips_through_its_fields():
    inputs = new_deck(3)
    _, proof, _ = proved(inputs)
    parsed = sp.ShuffleProof.decode(proof, 3)
    assert parsed.to_bytes() == proof
    assert len(parsed.commitments) == len(parsed.chain) == len(parsed.t_hat) == 3
    assert len(parsed.s_hat) == len(parsed.s_prime) == 3


def test_the_prover_refuses_a_claim_that_is_no_shuffle():
    inputs = new_deck(3)
    draw, outputs = shuffled(inputs)
    for order in ([0, 0, 1], [0, 1], [1, 2, 3]):
        with pytest.raises(ValueError):
            sp.prove(KEY, inputs, outputs, order, draw.scalars, CTX)
    with pytest.raises(ValueError):
        sp.prove(KEY, inputs, outputs[:2], draw.order, draw.scalars, CTX)
    with pytest.raises(ValueError):
        sp.prove(KEY, [], [], [], [], CTX)


# -- cheats: a shuffler who proves a false claim as best it can ----------------------------


def cheat(change, n=6, order=None):
    """The output of an honest shuffle changed by ``change(inputs, outputs)``, proved by the
    shuffler as if it were the shuffle it claims (its own permutation, or ``order``)."""
    inputs = new_deck(n)
    draw, outputs = shuffled(inputs)
    outputs = change(inputs, list(outputs))
    claim = draw.order if order is None else order
    return inputs, outputs, sp.prove(KEY, inputs, outputs, claim, draw.scalars, CTX, bytes(32))


def test_a_wrong_permutation_claimed_is_refused():
    # the output is a shuffle, but not by the permutation the proof commits to
    draw, _ = shuffled(new_deck(6))
    other = list(draw.order[1:]) + [draw.order[0]]
    inputs, outputs, proof = cheat(lambda i, o: o, order=other)
    e = refused(inputs, outputs, proof)
    assert str(e) == "t4: re-encryption" and e.check == "t4"


def test_a_card_dropped_for_a_fresh_masking_of_another_is_refused():
    draw, _ = shuffled(new_deck(6))

    def drop(inputs, outputs):
        outputs[1] = dc.remask(inputs[draw.order[0]], 12345, KEY)  # card order[1] is gone
        return outputs

    assert str(refused(*cheat(drop))) == "t4: re-encryption"


def test_a_card_duplicated_is_refused():
    def duplicate(inputs, outputs):
        outputs[3] = outputs[2]
        return outputs

    assert str(refused(*cheat(duplicate))) == "t4: re-encryption"


def test_a_card_replaced_by_one_not_in_the_deck_is_refused():
    def replace(inputs, outputs):
        outputs[0] = dc.mask(TABLE.point(50), 777, KEY)
        return outputs

    assert str(refused(*cheat(replace))) == "t4: re-encryption"


def test_a_card_copied_from_a_dealt_card_is_refused():
    # a masked card seen elsewhere (dealt from another pile to another seat) slipped in
    elsewhere = dc.remask(dc.public_mask(TABLE.point(80), KEY), 4242, KEY)

    def copy_in(inputs, outputs):
        outputs[5] = elsewhere
        return outputs

    assert str(refused(*cheat(copy_in))) == "t4: re-encryption"


def test_a_card_dropped_outright_is_refused():
    inputs = new_deck(5)
    outputs, proof, _ = proved(inputs)
    assert str(refused(inputs, outputs[:4], proof)) == "format: 5 cards shuffled into 4"


def test_patching_t4_to_what_the_check_computes_breaks_t1():
    # the challenge hashes every commitment: a prover cannot fix one after the fact
    inputs, outputs, proof = cheat(lambda i, o: [dc.remask(o[1], 5, KEY), *o[1:]])
    p = sp.ShuffleProof.decode(proof, 6)
    statement = sp._statement(KEY, inputs, outputs, CTX)
    d, u = sp._challenges(statement, p.commitments)
    c = sp._challenge(d, p.chain, p.t, p.t_hat)
    minus = [-c * x % g.L for x in u]
    t41 = g.add_all([*(g.mul(k, ct.c2) for k, ct in zip(p.s_prime, outputs, strict=True)),
                     *(g.mul(k, ct.c2) for k, ct in zip(minus, inputs, strict=True)),
                     g.mul(-p.s[3] % g.L, KEY)])
    assert t41 != p.t[3]
    patched = sp.ShuffleProof(p.commitments, p.chain, (*p.t[:3], t41, p.t[4]), p.t_hat, p.s,
                              p.s_hat, p.s_prime)
    assert str(refused(inputs, outputs, patched.to_bytes())) == "t1: permutation commitment product"


# -- a proof moved to another statement ----------------------------------------------------


def test_a_proof_moved_to_another_context_key_or_pile_is_refused():
    inputs = new_deck(5)
    outputs, proof, _ = proved(inputs)
    for context in (b"game/deck/seat/number/transcript2", b"", CTX + b"\0"):
        assert refused(inputs, outputs, proof, context=context).check == "t1"
    assert refused(inputs, outputs, proof, key=g.add(KEY, g.BASE)).check == "t1"
    assert refused(inputs[::-1], outputs, proof).check == "t1"  # another input order
    assert refused(inputs, outputs[::-1], proof).check == "t1"  # the output reordered
    other = new_deck(5, cards=range(5, 10))
    assert refused(other, outputs, proof).check == "t1"


# -- every field of the proof --------------------------------------------------------------


N = 4
INPUTS = new_deck(N)
OUTPUTS, PROOF, _ = proved(INPUTS)


def offset(field, i=1):
    n = N
    return {"c": 32 * (i - 1), "chat": 32 * n + 32 * (i - 1), "t": 64 * n + 32 * (i - 1),
            "that": 64 * n + 160 + 32 * (i - 1), "s": 96 * n + 160 + 32 * (i - 1),
            "shat": 96 * n + 288 + 32 * (i - 1), "s'": 128 * n + 288 + 32 * (i - 1)}[field]


def put(proof, at, item):
    return proof[:at] + item + proof[at + 32:]


RESPONSES = [("s", 1, "t1: permutation commitment product"),
             ("s", 2, "t2: commitment chain product"),
             ("s", 3, "t3: the challenges under the permutation commitment"),
             ("s", 4, "t4: re-encryption"),
             *(("shat", i, f"t-hat {i}: commitment chain") for i in range(1, N + 1)),
             *(("s'", i, "t3: the challenges under the permutation commitment") for i in range(1, N + 1))]


@pytest.mark.parametrize("field, i, check", RESPONSES)
def test_each_response_tampered_names_its_check(field, i, check):
    at = offset(field, i)
    k = (int.from_bytes(PROOF[at:at + 32], "little") + 1) % g.L
    assert str(refused(INPUTS, OUTPUTS, put(PROOF, at, k.to_bytes(32, "little")))) == check


POINT_FIELDS = [*(("c", i, f"permutation commitment {i}") for i in range(1, N + 1)),
                *(("chat", i, f"commitment chain {i}") for i in range(1, N + 1)),
                *(("t", i, name) for i, name in enumerate(["t1", "t2", "t3", "t4,1", "t4,2"], 1)),
                *(("that", i, f"t-hat {i}") for i in range(1, N + 1))]


@pytest.mark.parametrize("field, i, name", POINT_FIELDS)
def test_each_commitment_changed_to_another_point_breaks_the_challenge(field, i, name):
    at = offset(field, i)
    other = g.add(PROOF[at:at + 32], g.BASE)  # a proper point, but not the one the proof made
    assert refused(INPUTS, OUTPUTS, put(PROOF, at, other)).check == "t1"


@pytest.mark.parametrize("field, i, name", POINT_FIELDS)
@pytest.mark.parametrize("bad, words", BAD_POINTS)
def test_each_point_of_the_proof_must_be_a_point_of_the_group(field, i, name, bad, words):
    e = refused(INPUTS, OUTPUTS, put(PROOF, offset(field, i), bad))
    assert e.check == "format"
    assert str(e).startswith(f"format: {name}: ") and words in str(e), str(e)


@pytest.mark.parametrize("card", range(N))
@pytest.mark.parametrize("half", [0, 1])
@pytest.mark.parametrize("bad, words", BAD_POINTS)
def test_each_point_of_the_output_must_be_a_point_of_the_group(card, half, bad, words):
    outputs = list(OUTPUTS)
    ct = outputs[card]
    outputs[card] = dc.Ciphertext(bad, ct.c2) if half == 0 else dc.Ciphertext(ct.c1, bad)
    e = refused(INPUTS, outputs, PROOF)
    assert str(e).startswith(f"format: masked card {card}: ") and words in str(e), str(e)


@pytest.mark.parametrize("field, i", [("s", 1), ("s", 4), ("shat", 2), ("s'", N)])
@pytest.mark.parametrize("value", [g.L, g.L + 1, 2**256 - 1])
def test_a_non_canonical_scalar_is_refused(field, i, value):
    e = refused(INPUTS, OUTPUTS, put(PROOF, offset(field, i), value.to_bytes(32, "little")))
    name = {"s": f"s{i}", "shat": f"s-hat {i}", "s'": f"s' {i}"}[field]
    assert str(e) == f"format: {name}: a non-canonical scalar (not below L)"


def test_a_scalar_equal_to_another_representative_is_refused_not_reduced():
    # s + L encodes the same residue for some s: still refused (no malleable proofs)
    at = offset("s", 2)
    s = int.from_bytes(PROOF[at:at + 32], "little")
    e = refused(INPUTS, OUTPUTS, put(PROOF, at, (s + g.L).to_bytes(32, "little")))
    assert str(e) == "format: s2: a non-canonical scalar (not below L)"


@pytest.mark.parametrize("proof, words", [
    (PROOF[:-1], f"a proof for {N} cards is {sp.proof_bytes(N)} bytes, not {sp.proof_bytes(N) - 1}"),
    (PROOF + b"\0", f"is {sp.proof_bytes(N)} bytes, not {sp.proof_bytes(N) + 1}"),
    (PROOF[:-32], "bytes, not"),
    (b"", "bytes, not 0"),
    (None, "a shuffle proof is bytes"),
    (list(PROOF[:8]), "a shuffle proof is bytes"),
    ("x" * sp.proof_bytes(N), "a shuffle proof is bytes"),
])
def test_a_truncated_padded_or_foreign_proof_is_refused(proof, words):
    e = refused(INPUTS, OUTPUTS, proof)
    assert e.check == "format" and words in str(e)


def test_a_proof_for_another_number_of_cards_is_refused():
    inputs = new_deck(N + 1)
    outputs, proof, _ = proved(inputs)
    e = refused(INPUTS, OUTPUTS, proof)
    assert e.check == "format" and "bytes, not" in str(e)
    assert refused([], [], b"").check == "format"


@given(at=st.integers(0, sp.proof_bytes(N) - 1), bit=st.integers(0, 7))
def test_any_bit_flipped_anywhere_in_the_proof_is_refused(at, bit):
    flipped = PROOF[:at] + bytes([PROOF[at] ^ (1 << bit)]) + PROOF[at + 1:]
    with pytest.raises(sp.ShuffleProofError):
        sp.verify(KEY, INPUTS, OUTPUTS, flipped, CTX)


@given(card=st.integers(0, N - 1), at=st.integers(0, 63), bit=st.integers(0, 7))
def test_any_bit_flipped_anywhere_in_the_output_is_refused(card, at, bit):
    outputs = list(OUTPUTS)
    raw = bytearray(outputs[card].to_bytes())
    raw[at] ^= 1 << bit
    outputs[card] = dc.Ciphertext(bytes(raw[:32]), bytes(raw[32:]))
    with pytest.raises(sp.ShuffleProofError):
        sp.verify(KEY, INPUTS, outputs, PROOF, CTX)


def test_checked_multiplication_refuses_what_decode_point_refuses():
    for bad, _ in BAD_POINTS:
        with pytest.raises(g.InvalidPoint) as e1:
            g.decode_point(bad)
        for k in (0, 1, 5, g.L - 1):
            with pytest.raises(g.InvalidPoint) as e2:
                g.mul_checked(k, bad)
            assert str(e2.value) == str(e1.value)
    p = g.hash_to_point(b"t", b"ok")
    assert g.mul_checked(7, p) == g.mul(7, p)
    assert g.mul_checked(0, p) == g.IDENTITY
    with pytest.raises(g.InvalidPoint):
        g.mul_checked(3, p[:31])


# -- several proofs checked together ---------------------------------------------------------


def chain_of_shuffles(shuffles=3):
    """Honest shuffles in turn, each of the pile the one before made: their statements, as
    ``verify`` takes them (key, inputs, outputs, proof, context)."""
    pile, statements = INPUTS, []
    for k in range(shuffles):
        context = CTX + bytes([k])
        outputs, proof, _ = proved(pile, seed=bytes([k + 1]) * 32, context=context)
        statements.append((KEY, pile, outputs, proof, context))
        pile = outputs
    return statements


def test_the_proofs_of_a_chain_checked_together_hold():
    statements = chain_of_shuffles()
    assert sp.verify_all(statements)
    assert sp.verify_all(statements[1:2])
    assert sp.verify_all(statements + statements)  # the same proof twice: still every equation
    assert not sp.verify_all([])


TAMPERED = [("s", 1), ("s", 3), ("s", 4), ("shat", 1), ("shat", N), ("s'", 2), ("c", 1),
            ("chat", N), ("t", 2), ("t", 5), ("that", 3)]


def chain_with_a_false_proof(bad, field, i):
    """``chain_of_shuffles`` with one response (plus one) or one commitment (plus ``G``) of
    proof ``bad`` changed."""
    statements = chain_of_shuffles()
    key, inputs, outputs, proof, context = statements[bad]
    at = offset(field, i)
    if field in ("s", "shat", "s'"):
        item = ((int.from_bytes(proof[at:at + 32], "little") + 1) % g.L).to_bytes(32, "little")
    else:
        item = g.add(proof[at:at + 32], g.BASE)
    statements[bad] = (key, inputs, outputs, put(proof, at, item), context)
    return statements


@pytest.mark.parametrize("bad", range(3))
@pytest.mark.parametrize("field, i", TAMPERED)
def test_one_false_proof_among_proofs_checked_together_fails_them_all(bad, field, i):
    """A proof with one response or one commitment changed, first, in the middle or last of
    the chain: the proofs checked together do not hold, and checked alone only that one fails."""
    statements = chain_with_a_false_proof(bad, field, i)
    assert not sp.verify_all(statements)
    for k, statement in enumerate(statements):
        if k == bad:
            with pytest.raises(sp.ShuffleProofError):
                sp.verify(*statement)
        else:
            sp.verify(*statement)


def test_a_pile_that_is_not_the_one_proved_fails_proofs_checked_together():
    """Each proof honest for its own statement, yet the second shuffle claims a pile the first
    did not make (two of its cards swapped): the statements as given do not hold together."""
    statements = chain_of_shuffles()
    key, inputs, outputs, proof, context = statements[1]
    swapped = [inputs[1], inputs[0], *inputs[2:]]
    statements[1] = (key, swapped, outputs, proof, context)
    assert not sp.verify_all(statements)


@pytest.mark.parametrize("bad, words", BAD_POINTS)
@pytest.mark.parametrize("where", ["output", "proof"])
def test_a_point_that_is_no_point_fails_proofs_checked_together(bad, words, where):
    """Never an exception: a pile between two shuffles, or a point of a proof, that is no
    point of the group makes the proofs checked together fail."""
    statements = chain_of_shuffles()
    key, inputs, outputs, proof, context = statements[1]
    if where == "output":
        outputs = [dc.Ciphertext(outputs[0].c1, bad), *outputs[1:]]
        after = statements[2]
        statements[2] = (after[0], outputs, *after[2:])
    else:
        proof = put(proof, offset("chat", 2), bad)
    statements[1] = (key, inputs, outputs, proof, context)
    assert not sp.verify_all(statements)


def test_proofs_checked_together_refuse_a_malformed_proof_without_raising():
    statements = chain_of_shuffles()
    for proof in (None, b"", statements[0][3][:-1], "x"):
        assert not sp.verify_all([*statements[:1], (*statements[1][:3], proof, statements[1][4])])


def summed_as_they_come(statements):
    """The chain's proofs summed one by one as a seat's worker sums them (``checks.Chain``):
    each proof's own points at once, a pile once both proofs on it are in, the rest at the end."""
    total = sp.Sum(g.RISTRETTO255)
    for k, statement in enumerate(statements):
        claim = sp._read(*statement)
        total.add(claim)
        total.fold([x for ct in claim.inputs for x in (ct.c1, ct.c2)])
        total.fold_own(claim)
        if k == len(statements) - 1:
            total.fold([x for ct in claim.outputs for x in (ct.c1, ct.c2)])
    return total.holds()


def test_a_chain_summed_as_its_proofs_come_holds_for_the_multiplications_of_one_check(monkeypatch):
    """Summed as they come, the proofs of a chain hold, and each point is multiplied once, as
    when they are checked together."""
    statements = chain_of_shuffles()
    counted = []
    real = g.RISTRETTO255.mul_checked
    monkeypatch.setattr(g.RISTRETTO255, "mul_checked", lambda k, p: (counted.append(p), real(k, p))[1])
    assert sp.verify_all(statements)
    together = len(counted)
    counted.clear()
    assert summed_as_they_come(statements)
    assert len(counted) == together and len(set(counted)) == together


@pytest.mark.parametrize("bad", range(3))
@pytest.mark.parametrize("field, i", TAMPERED[::2])
def test_one_false_proof_in_a_chain_summed_as_it_comes_fails_the_sum(bad, field, i):
    statements = chain_with_a_false_proof(bad, field, i)
    assert not summed_as_they_come(statements)


@pytest.mark.parametrize("bad, words", BAD_POINTS)
def test_a_pile_point_that_is_no_point_fails_a_chain_summed_as_it_comes(bad, words):
    statements = chain_of_shuffles()
    key, inputs, outputs, proof, context = statements[1]
    outputs = [dc.Ciphertext(outputs[0].c1, bad), *outputs[1:]]
    statements[1] = (key, inputs, outputs, proof, context)
    statements[2] = (statements[2][0], outputs, *statements[2][2:])
    assert not summed_as_they_come(statements)
