"""Records of protocol version 1 (the fair deck on edwards25519) still read: the version 1 known
answers hold under the old group, which only a version 1 game uses, and a game never mixes two
versions."""

import json
from pathlib import Path

import pytest

from net.deck import cipher as dc
from net.deck import group as g
from net.deck import proofs as dp
from net.deck import shuffle_proof as sp
from net.deck.edwards import EDWARDS25519 as ed
from net.deck.keys import PublicKeys, key_message
from net.wire.errors import CheatDetected, RemoteProtocolError
from net.wire.transcript import Entry, Transcript, decode_body

DATA = Path(__file__).resolve().parent / "data"
DECK_V1 = json.loads((DATA / "deck_vectors_v1.json").read_text())
SHUFFLE_V1 = json.loads((DATA / "shuffle_vectors_v1.json").read_text())
PROTOCOL_V1 = json.loads((DATA / "protocol_vectors_v1.json").read_text())


def x(s: str) -> bytes:
    return bytes.fromhex(s)


def test_version_1_card_points_and_proofs_hold_under_the_old_group_only():
    cond = dc.CardTable("condottiere", 110, group=ed)
    for i, point in DECK_V1["cards"]["condottiere"].items():
        assert cond.point(int(i)).hex() == point
        assert dc.CardTable("condottiere", 110).point(int(i)).hex() != point
    v = DECK_V1["key_proof"]
    assert dp.verify_key(x(v["public"]), x(v["proof"]), v["context"].encode(), group=ed)
    v = DECK_V1["dleq_proof"]
    bases, shares = [x(b) for b in v["bases"]], [x(d) for d in v["shares"]]
    assert dp.verify_dleq(dp.prove_key(g.decode_scalar(x(v["secret"])), b"", group=ed)[0],
                          bases, shares, x(v["proof"]), v["context"].encode(), group=ed)


@pytest.mark.parametrize("i", range(len(SHUFFLE_V1["cases"])))
def test_version_1_shuffle_proofs_verify_under_the_old_group(i):
    case, key = SHUFFLE_V1["cases"][i], x(SHUFFLE_V1["key"])
    inputs = [dc.Ciphertext.decode(x(c), group=ed) for c in case["inputs"]]
    outputs = [dc.Ciphertext.decode(x(c), group=ed) for c in case["outputs"]]
    context = SHUFFLE_V1["context"].encode()
    sp.verify(key, inputs, outputs, x(case["proof"]), context, group=ed)
    proof = bytearray(x(case["proof"]))
    proof[-1] ^= 1
    with pytest.raises(sp.ShuffleProofError):
        sp.verify(key, inputs, outputs, bytes(proof), context, group=ed)
    with pytest.raises((sp.ShuffleProofError, g.InvalidPoint)):  # its points are no ristretto255
        sp.verify(key, [dc.Ciphertext.decode(x(c)) for c in case["inputs"]], outputs,
                  x(case["proof"]), context)


def test_version_1_entries_still_decode_and_chain():
    t = Transcript()
    for want in PROTOCOL_V1["entries"]["list"]:
        e = Entry.parse(x(want["body"]), x(want["sig"]))
        assert e.fields["v"] == 1
        t.append(e)
        assert t.head.hex() == want["chain_after"]


def test_a_game_never_mixes_two_versions():
    listed = PROTOCOL_V1["entries"]["list"]
    t = Transcript()
    t.append(Entry.parse(x(listed[0]["body"]), x(listed[0]["sig"])))
    fields = decode_body(x(listed[1]["body"]))
    from net.wire.transcript import pack

    body = pack({**fields, "v": 2})
    with pytest.raises(RemoteProtocolError, match="protocol version 2, its game of version 1"):
        t.append(Entry(body, x(listed[1]["sig"]), decode_body(body)))
    with pytest.raises(ValueError, match="entry version 4"):
        decode_body(pack({**fields, "v": 4}))


def test_a_version_1_deck_plays_on_the_old_group():
    """The old group still deals: keys, a masked card and its unmasking (a test's view with
    every secret)."""
    xs = [5, 7, 11]
    keys = PublicKeys.from_messages(b"g", [key_message(b"g", s, k, group=ed)
                                           for s, k in enumerate(xs)], group=ed)
    assert keys.joint == ed.base_mul(sum(xs))
    table = dc.CardTable("condottiere", 110, group=ed)
    ct = dc.mask(table.point(3), 99, keys.joint, group=ed)
    assert table.index(dc.decrypt(ct, sum(xs), group=ed)) == 3
    with pytest.raises(CheatDetected, match="invalid key share"):  # not in version 2
        PublicKeys.from_messages(b"g", [key_message(b"g", s, k, group=ed)
                                        for s, k in enumerate(xs)])
