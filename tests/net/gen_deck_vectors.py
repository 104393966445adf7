"""Write tests/net/data/deck_vectors.json: known-answer vectors of the fair-deck crypto.

Run once from the repository root (``.venv/bin/python tests/net/gen_deck_vectors.py``) when a
construction changes on purpose; the tests then check the code against the file. Every input is
fixed here, so the file is reproducible. The torsion points come from the independent pure-Python
curve in ``ed25519_ref.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]

import ed25519_ref  # noqa: E402

from net.deck import cipher as dc  # noqa: E402
from net.deck import group as g  # noqa: E402
from net.deck import proofs as dp  # noqa: E402

TAG = b"palazzo/test-vectors"
SEED = bytes(range(32))
ENTROPY = bytes(32)


def h(b: bytes) -> str:
    return b.hex()


def make() -> dict:
    v: dict = {}
    v["torsion"] = [h(ed25519_ref.encode(t)) for t in ed25519_ref.torsion()]
    v["hash_to_scalar"] = {"input": "abc", "scalar": h(g.scalar_bytes(g.hash_to_scalar(TAG, b"abc")))}
    v["hash_to_point"] = {"input": "abc", "point": h(g.hash_to_point(TAG, b"abc"))}
    s = g.ScalarStream(SEED, TAG)
    v["stream"] = {"seed": h(SEED), "scalars": [h(g.scalar_bytes(s.scalar())) for _ in range(2)],
                   "below_1000": [s.below(1000) for _ in range(5)],
                   "permutation_10": g.permutation(g.ScalarStream(SEED, TAG), 10)}
    cond, medici = dc.CardTable("condottiere", 110), dc.CardTable("medici", 100)
    v["cards"] = {"condottiere": {str(i): h(cond.point(i)) for i in (0, 1, 109)},
                  "medici": {str(i): h(medici.point(i)) for i in (0, 99)}}

    x = g.hash_to_scalar(TAG, b"secret")
    public, proof = dp.prove_key(x, b"context", ENTROPY)
    v["key_proof"] = {"secret": h(g.scalar_bytes(x)), "context": "context", "entropy": h(ENTROPY),
                      "public": h(public), "proof": h(proof)}
    bases = [g.hash_to_point(TAG, b"base", bytes([i])) for i in range(3)]
    shares, proof = dp.prove_dleq(x, bases, b"context", ENTROPY)
    v["dleq_proof"] = {"secret": h(g.scalar_bytes(x)), "bases": [h(b) for b in bases],
                       "context": "context", "entropy": h(ENTROPY),
                       "shares": [h(d) for d in shares], "proof": h(proof)}

    key = g.base_mul(x)
    r = g.hash_to_scalar(TAG, b"r")
    ct = dc.mask(cond.point(7), r, key)
    v["mask"] = {"secret": h(g.scalar_bytes(x)), "key": h(key), "card": 7,
                 "r": h(g.scalar_bytes(r)), "ciphertext": h(ct.to_bytes())}
    deck = [dc.public_mask(cond.point(c), key) for c in range(5)]
    out = dc.shuffle(deck, SEED, key)
    v["shuffle"] = {"key": h(key), "cards": [0, 1, 2, 3, 4], "seed": h(SEED),
                    "input": [h(c.to_bytes()) for c in deck],
                    "order": list(dc.shuffle_draw(SEED, 5).order),
                    "output": [h(c.to_bytes()) for c in out]}
    v["protocol"] = protocol_vector()
    return v


def protocol_vector() -> dict:
    """A whole small game through the in-memory table, every input fixed: the SHA-256 of the
    msgpack encoding of every message in order freezes the wire format and every domain tag."""
    import hashlib
    import random

    import msgpack

    from net.deck.memory_table import LocalTable

    sent: list = []

    def spy(author: int, msg: dict) -> dict:
        sent.append([author, msg])
        return msg

    t = LocalTable(2, game_id=b"vector game", rng=random.Random(1), tamper=spy)
    t.new_deck("d", dc.CardTable("condottiere", 110), range(4))
    t.shuffle("d")
    hands = t.deal_round("d", 1)
    t.open("d", hands[0][0])
    keys = [h(k) for k in t.keys.shares]
    digest = hashlib.sha256(msgpack.packb(sent, use_bin_type=True)).hexdigest()
    return {"seats": 2, "game_id": "vector game", "rng_seed": 1, "cards": 4,
            "key_shares": keys, "messages": len(sent), "sha256": digest,
            "opened": t.peers[1].decks["d"].card(hands[0][0])}


if __name__ == "__main__":
    path = HERE / "data" / "deck_vectors.json"
    path.write_text(json.dumps(make(), indent=1) + "\n")
    print(f"wrote {path}")
