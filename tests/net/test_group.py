import hashlib
import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest
import rbcl

from net.deck import group as g
from net.deck.edwards import EDWARDS25519 as ed

HERE = Path(__file__).resolve().parent
VECTORS = json.loads((HERE / "data" / "deck_vectors.json").read_text())
TAG = b"palazzo/test-vectors"


def _load_ref():
    spec = importlib.util.spec_from_file_location("ed25519_ref", HERE / "ed25519_ref.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ref = _load_ref()
TORSION = [bytes.fromhex(t) for t in VECTORS["torsion"]]


def chi_square(counts, expected):
    return sum((o - expected) ** 2 / expected for o in counts)


# -- ristretto255 (protocol version 2) -------------------------------------------------------


def test_ristretto_base_point_is_rfc9496s():
    # RFC 9496, A.1: the encodings of the first multiples of the generator
    assert g.BASE.hex() == "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76"
    assert g.base_mul(2).hex() == "6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919"
    assert g.base_mul(0) == g.IDENTITY == bytes(32)


def test_ristretto_identity_and_zero_are_handled():
    p = g.base_mul(5)
    assert g.mul(0, p) == g.IDENTITY
    assert g.mul(7, g.IDENTITY) == g.IDENTITY
    assert g.add(p, g.IDENTITY) == p
    assert g.sub(p, p) == g.IDENTITY
    assert g.mul(g.L - 1, p) == g.sub(g.IDENTITY, p)
    assert g.add_all([p, p, p]) == g.mul(3, p) == g.base_mul(15)
    assert g.mul(g.L + 3, p) == g.mul(3, p)


def test_ristretto_decode_refuses_the_identity_and_what_encodes_no_element():
    with pytest.raises(g.InvalidPoint, match="identity"):
        g.decode_point(bytes(32))
    for s in (1, 2**255 - 19, 2**255 - 18, 2**256 - 1):  # negative (odd), or not below p
        with pytest.raises(g.InvalidPoint, match="non-canonical"):
            g.decode_point(s.to_bytes(32, "little"))
    with pytest.raises(g.InvalidPoint, match="not the encoding of a ristretto255 point"):
        g.decode_point((2).to_bytes(32, "little"))
    for bad in (bytes(32), (2).to_bytes(32, "little"), ed.BASE):
        assert not g.is_valid_point(bad)
        with pytest.raises(g.InvalidPoint):
            g.mul_checked(5, bad)
    p = g.base_mul(99)
    assert g.decode_point(p) == p and g.mul_checked(3, p) == g.base_mul(297)


def test_for_version_gives_each_versions_group():
    assert g.for_version(3) is g.RISTRETTO255  # version 3 changed the wire, not the deck
    assert g.for_version(2) is g.RISTRETTO255
    assert g.for_version(1) is ed
    with pytest.raises(ValueError, match="version 4"):
        g.for_version(4)


# -- version 1's group (edwards25519), kept to read old records: against the curve's definition


def test_base_point_is_rfc8032s():
    assert ed.BASE.hex() == "58" + "66" * 31
    assert ed.BASE == ref.encode(ref.BASE)


def test_multiplication_and_addition_agree_with_the_reference_curve():
    for k in (1, 2, 7, 2**200 + 12345, g.L - 1):
        assert ed.base_mul(k) == ref.encode(ref.mul(k, ref.BASE))
    p = ref.mul(987654321, ref.BASE)
    q = ref.mul(123456789, ref.BASE)
    assert ed.mul(31337, ref.encode(p)) == ref.encode(ref.mul(31337, p))
    assert ed.add(ref.encode(p), ref.encode(q)) == ref.encode(ref.add(p, q))
    assert ed.sub(ref.encode(p), ref.encode(q)) == ref.encode(ref.add(p, ref.neg(q)))


def test_identity_and_zero_are_handled():
    p = ed.base_mul(5)
    assert ed.mul(0, p) == ed.IDENTITY
    assert ed.base_mul(0) == ed.IDENTITY
    assert ed.mul(7, ed.IDENTITY) == ed.IDENTITY
    assert ed.add(p, ed.IDENTITY) == p
    assert ed.sub(p, p) == ed.IDENTITY
    assert ed.mul(g.L - 1, p) == ed.sub(ed.IDENTITY, p)
    assert ed.add_all([p, p, p]) == ed.mul(3, p)


def test_the_torsion_vectors_are_the_eight_small_order_points():
    computed = [ref.encode(t) for t in ref.torsion()]
    assert computed == TORSION
    assert len(set(TORSION)) == 8
    for t in ref.torsion():
        assert ref.on_curve(t) and ref.mul(8, t) == ref.IDENT


# -- version 1: decoding refuses what is not a point of the subgroup


def test_decode_accepts_subgroup_points():
    for k in (1, 2, 12345):
        p = ed.base_mul(k)
        assert ed.decode_point(p) == p


@pytest.mark.parametrize("index", range(8))
def test_decode_refuses_every_small_order_point(index):
    with pytest.raises(g.InvalidPoint, match="identity|small order|non-canonical"):
        ed.decode_point(TORSION[index])
    assert not ed.is_valid_point(TORSION[index])


@pytest.mark.parametrize("index", range(1, 8))
def test_decode_refuses_a_point_with_a_torsion_component(index):
    mixed = ed.add(ed.base_mul(424242), TORSION[index])
    assert ref.on_curve(ref.decode(mixed))
    with pytest.raises(g.InvalidPoint, match="outside the prime-order subgroup"):
        ed.decode_point(mixed)


def test_decode_refuses_what_is_not_a_curve_point():
    y = 2
    while ref.decode(y.to_bytes(32, "little")) is not None:
        y += 1
    with pytest.raises(g.InvalidPoint, match="not the encoding of a curve point"):
        ed.decode_point(y.to_bytes(32, "little"))


def test_decode_refuses_non_canonical_encodings():
    # y = p + 1 encodes the identity non-canonically; y = p + y(B) would be B if accepted
    for y in (ref.P, ref.P + 1, ref.P + 4, 2**255 - 1):
        with pytest.raises(g.InvalidPoint, match="non-canonical"):
            ed.decode_point(y.to_bytes(32, "little"))
    # x = 0 with the sign bit set: "negative zero" spellings of the two points with x = 0
    for y in (1, ref.P - 1):
        with pytest.raises(g.InvalidPoint, match="small order|curve point"):
            ed.decode_point((y | 1 << 255).to_bytes(32, "little"))


@pytest.mark.parametrize("bad", [b"", bytes(31), bytes(33), "58" * 32, None, 5, bytearray(32)])
def test_decode_refuses_wrong_types_and_lengths(bad):
    with pytest.raises(g.InvalidPoint, match="32 bytes"):
        g.decode_point(bad)


def test_scalars_are_canonical():
    assert g.decode_scalar(g.scalar_bytes(g.L - 1)) == g.L - 1
    with pytest.raises(g.InvalidScalar, match="non-canonical"):
        g.decode_scalar(g.L.to_bytes(32, "little"))
    with pytest.raises(g.InvalidScalar):
        g.decode_scalar(bytes(31))
    with pytest.raises(g.InvalidScalar):
        g.scalar_bytes(g.L)
    with pytest.raises(g.InvalidScalar):
        g.scalar_bytes(-1)
    assert 0 < g.random_scalar() < g.L


# -- hashing -----------------------------------------------------------------------------


def test_encode_is_unambiguous():
    assert g.encode(b"ab", b"c") != g.encode(b"a", b"bc")
    assert g.encode(b"", b"x") != g.encode(b"x")


def test_hash_to_scalar_is_sha512_reduced():
    digest = hashlib.sha512(g.encode(TAG, b"abc")).digest()
    assert g.hash_to_scalar(TAG, b"abc") == int.from_bytes(digest, "little") % g.L
    vector = VECTORS["hash_to_scalar"]
    assert g.scalar_bytes(g.hash_to_scalar(TAG, vector["input"].encode())).hex() == vector["scalar"]


def test_hash_to_point_gives_distinct_subgroup_points():
    vector = VECTORS["hash_to_point"]
    p = g.hash_to_point(TAG, vector["input"].encode())
    assert p.hex() == vector["point"]
    digest = hashlib.sha512(g.encode(TAG, b"abc")).digest()
    assert p == rbcl.crypto_core_ristretto255_from_hash(digest)
    assert g.decode_point(p) == p
    assert g.hash_to_point(TAG, b"abd") != p
    assert g.hash_to_point(b"another tag", b"abc") != p


# -- the seeded stream -------------------------------------------------------------------


def test_stream_known_answers():
    vector = VECTORS["stream"]
    seed = bytes.fromhex(vector["seed"])
    s = g.ScalarStream(seed, TAG)
    assert [g.scalar_bytes(s.scalar()).hex() for _ in range(2)] == vector["scalars"]
    assert [s.below(1000) for _ in range(5)] == vector["below_1000"]
    assert g.permutation(g.ScalarStream(seed, TAG), 10) == vector["permutation_10"]


def test_stream_depends_on_seed_and_tag():
    a = g.ScalarStream(bytes(32), TAG).read(64)
    assert a == g.ScalarStream(bytes(32), TAG).read(64)
    assert a != g.ScalarStream(bytes(31) + b"\1", TAG).read(64)
    assert a != g.ScalarStream(bytes(32), b"other").read(64)
    s = g.ScalarStream(bytes(32), TAG)
    assert s.read(10) + s.read(54) == a


def test_below_rejects_bad_bounds_and_stays_in_range():
    s = g.ScalarStream(bytes(32), TAG)
    assert all(0 <= s.below(3) < 3 for _ in range(200))
    for bad in (0, -1, 2**32 + 1):
        with pytest.raises(ValueError):
            s.below(bad)


def test_permutations_are_uniform():
    # 4! = 24 permutations, 24,000 draws: the chi-square statistic (23 degrees of freedom) stays
    # below 49.7, its 0.1% critical value, for a uniform shuffle
    counts = Counter(
        tuple(g.permutation(g.ScalarStream(i.to_bytes(32, "big"), TAG), 4)) for i in range(24000)
    )
    assert len(counts) == 24
    assert chi_square([counts[p] for p in counts], 1000) < 49.7


def test_the_uniformity_check_catches_a_biased_shuffle():
    # the classic mistake: swap each position with any position (n^n outcomes over n! orders)
    def naive(stream, n):
        order = list(range(n))
        for i in range(n):
            j = stream.below(n)
            order[i], order[j] = order[j], order[i]
        return tuple(order)

    counts = Counter(naive(g.ScalarStream(i.to_bytes(32, "big"), TAG), 4) for i in range(24000))
    assert chi_square([counts[p] for p in counts], 1000) > 49.7


def test_loading_the_group_leaves_no_copy_of_libsodium_in_the_temporary_folder(tmp_path):
    """Every process that loads the group (each palazzo, each test worker) would otherwise leave
    a 2.7 MB copy of libsodium behind in the temporary folder."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, TMPDIR=str(tmp_path))
    code = "from net.deck.group import Ristretto255; Ristretto255()"
    subprocess.run([sys.executable, "-c", code], env=env, check=True, cwd=os.getcwd())
    assert [p.name for p in tmp_path.iterdir()] == []
