"""The fair deck's pure functions: proofs, masking and the seeded shuffle, with known answers."""

import json
from pathlib import Path

import pytest

from net.deck import cipher as dc
from net.deck import group as g
from net.deck import proofs as dp

VECTORS = json.loads((Path(__file__).resolve().parent / "data" / "deck_vectors.json").read_text())
X = g.hash_to_scalar(b"test", b"x")


def flip(data: bytes, i: int) -> bytes:
    return data[:i] + bytes([data[i] ^ 1]) + data[i + 1:]


# -- known answers -----------------------------------------------------------------------


def test_card_points_known_answers():
    for domain, size in (("condottiere", 110), ("medici", 100)):
        table = dc.CardTable(domain, size)
        for i, point in VECTORS["cards"][domain].items():
            assert table.point(int(i)).hex() == point
            assert table.index(bytes.fromhex(point)) == int(i)


def test_key_proof_known_answer():
    v = VECTORS["key_proof"]
    x = g.decode_scalar(bytes.fromhex(v["secret"]))
    public, proof = dp.prove_key(x, v["context"].encode(), bytes.fromhex(v["entropy"]))
    assert (public.hex(), proof.hex()) == (v["public"], v["proof"])
    assert dp.verify_key(public, proof, v["context"].encode())


def test_dleq_proof_known_answer():
    v = VECTORS["dleq_proof"]
    x = g.decode_scalar(bytes.fromhex(v["secret"]))
    bases = [bytes.fromhex(b) for b in v["bases"]]
    shares, proof = dp.prove_dleq(x, bases, v["context"].encode(), bytes.fromhex(v["entropy"]))
    assert [d.hex() for d in shares] == v["shares"]
    assert proof.hex() == v["proof"]
    assert all(d == g.mul(x, b) for d, b in zip(shares, bases, strict=True))


def test_mask_known_answer_and_it_unmasks():
    v = VECTORS["mask"]
    x = g.decode_scalar(bytes.fromhex(v["secret"]))
    key = bytes.fromhex(v["key"])
    assert g.base_mul(x) == key
    card = dc.CardTable("condottiere", 110).point(v["card"])
    ct = dc.mask(card, g.decode_scalar(bytes.fromhex(v["r"])), key)
    assert ct.to_bytes().hex() == v["ciphertext"]
    assert dc.decrypt(ct, x) == card


def test_shuffle_known_answer():
    v = VECTORS["shuffle"]
    key, seed = bytes.fromhex(v["key"]), bytes.fromhex(v["seed"])
    table = dc.CardTable("condottiere", 110)
    deck = [dc.public_mask(table.point(c), key) for c in v["cards"]]
    assert [c.to_bytes().hex() for c in deck] == v["input"]
    assert list(dc.shuffle_draw(seed, 5).order) == v["order"]
    out = dc.shuffle(deck, seed, key)
    assert [c.to_bytes().hex() for c in out] == v["output"]
    x = g.hash_to_scalar(b"palazzo/test-vectors", b"secret")
    assert [table.index(dc.decrypt(c, x)) for c in out] == v["order"]


# -- proofs verify, and fail when anything changes ---------------------------------------


def test_key_proof_fails_when_any_field_changes():
    public, proof = dp.prove_key(X, b"game/seat 1")
    assert dp.verify_key(public, proof, b"game/seat 1")
    assert not dp.verify_key(public, proof, b"game/seat 2")
    assert not dp.verify_key(g.base_mul(X + 1), proof, b"game/seat 1")
    for i in (0, 31, 32, 63):
        assert not dp.verify_key(public, flip(proof, i), b"game/seat 1")
    for bad in (proof[:63], proof + b"\0", None, "x" * 64, proof[:32] + g.L.to_bytes(32, "little")):
        assert not dp.verify_key(public, bad, b"game/seat 1")


def test_a_key_proof_needs_the_secret():
    # a proof made for one key does not serve another seat's key (no copying a proof)
    other = g.base_mul(X + 5)
    _, proof = dp.prove_key(X + 5, b"ctx")
    assert dp.verify_key(other, proof, b"ctx")
    assert not dp.verify_key(g.add(other, g.BASE), proof, b"ctx")


def test_dleq_proof_fails_when_any_field_changes():
    public = g.base_mul(X)
    bases = [g.hash_to_point(b"t", bytes([i])) for i in range(3)]
    shares, proof = dp.prove_dleq(X, bases, b"ctx")
    assert dp.verify_dleq(public, bases, shares, proof, b"ctx")
    assert not dp.verify_dleq(public, bases, shares, proof, b"other ctx")
    assert not dp.verify_dleq(g.base_mul(X + 1), bases, shares, proof, b"ctx")
    assert not dp.verify_dleq(public, bases[::-1], shares, proof, b"ctx")
    assert not dp.verify_dleq(public, bases, shares[::-1], proof, b"ctx")
    assert not dp.verify_dleq(public, bases[:2], shares[:2], proof, b"ctx")
    assert not dp.verify_dleq(public, bases, shares[:2], proof, b"ctx")
    for i in range(3):
        wrong = list(shares)
        wrong[i] = g.add(wrong[i], g.BASE)
        assert not dp.verify_dleq(public, bases, wrong, proof, b"ctx")
        other = list(bases)
        other[i] = g.hash_to_point(b"t", b"other")
        assert not dp.verify_dleq(public, other, shares, proof, b"ctx")
    for i in (0, 31, 32, 63):
        assert not dp.verify_dleq(public, bases, shares, flip(proof, i), b"ctx")
    assert not dp.verify_dleq(public, [], [], proof, b"ctx")


def test_a_share_made_with_another_secret_cannot_be_proved():
    public = g.base_mul(X)
    base = g.hash_to_point(b"t", b"c1")
    shares, proof = dp.prove_dleq(X + 1, [base], b"ctx")  # honest proof of the wrong secret
    assert not dp.verify_dleq(public, [base], shares, proof, b"ctx")


def test_proofs_refuse_a_zero_secret():
    with pytest.raises(ValueError):
        dp.prove_key(0, b"")
    with pytest.raises(ValueError):
        dp.prove_dleq(0, [g.BASE], b"")
    with pytest.raises(ValueError):
        dp.prove_dleq(1, [], b"")


def test_nonces_are_fresh_unless_entropy_is_fixed():
    a = dp.prove_key(X, b"c")[1]
    b = dp.prove_key(X, b"c")[1]
    assert a != b and dp.verify_key(g.base_mul(X), b, b"c")
    assert dp.prove_key(X, b"c", bytes(32)) == dp.prove_key(X, b"c", bytes(32))


# -- masking and shuffles ----------------------------------------------------------------


def test_masking_hides_and_unmasks_with_every_share():
    xs = [g.hash_to_scalar(b"t", bytes([i])) for i in range(3)]
    key = dc.joint_key([g.base_mul(x) for x in xs])
    table = dc.CardTable("condottiere", 110)
    ct = dc.mask(table.point(42), 12345, key)
    again = dc.remask(ct, 999, key)
    assert again != ct and again.c1 != ct.c1 and again.c2 != ct.c2
    for c in (ct, again, dc.public_mask(table.point(42), key)):
        shares = [g.mul(x, c.c1) for x in xs]
        assert table.index(dc.unmask(c, shares)) == 42
        assert table.index(dc.unmask(c, shares[:2])) is None
        assert table.index(dc.decrypt(c, sum(xs) % g.L)) == 42


def test_ciphertext_decoding_checks_both_halves():
    good = dc.mask(g.hash_to_point(b"t", b"m"), 7, g.base_mul(X))
    assert dc.Ciphertext.decode(good.to_bytes()) == good
    small = bytes([1]) + bytes(31)
    for bad in (good.to_bytes()[:63], small + good.c2, good.c1 + small, None):
        with pytest.raises(g.InvalidPoint):
            dc.Ciphertext.decode(bad)
    assert eval(repr(good), {"Ciphertext": dc.Ciphertext}) == good


def test_a_fresh_draw_is_a_permutation_with_fresh_scalars_every_time():
    key = g.base_mul(X)
    table = dc.CardTable("condottiere", 110)
    deck = [dc.public_mask(table.point(c), key) for c in range(8)]
    draws = [dc.fresh_draw(8) for _ in range(3)]
    for draw in draws:
        assert sorted(draw.order) == list(range(8)) and all(0 < r < g.L for r in draw.scalars)
        out = dc.apply_draw(deck, draw, key)
        assert [table.index(dc.decrypt(c, X)) for c in out] == list(draw.order)
    assert len({d.scalars for d in draws}) == 3
    with pytest.raises(ValueError):
        dc.apply_draw(deck[:7], draws[0], key)


def test_card_table_bounds():
    table = dc.CardTable("medici", 100)
    with pytest.raises(ValueError):
        table.point(100)
    with pytest.raises(ValueError):
        dc.CardTable("x", 0)
    assert table.index(g.BASE) is None
    assert len({table.point(i) for i in range(100)}) == 100
    assert all(g.is_valid_point(table.point(i)) for i in range(100))
    assert dc.CardTable("condottiere", 100).point(0) != table.point(0)
