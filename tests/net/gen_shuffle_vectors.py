"""Write tests/net/data/shuffle_vectors.json: known-answer vectors of the shuffle proof.

Run once from the repository root (``.venv/bin/python tests/net/gen_shuffle_vectors.py``) when the
construction changes on purpose; ``test_shuffle_proof.py`` then checks the code against the file,
and checks the proofs' equations and hashes again on the independent curve of ``ed25519_ref.py``.
Every input is fixed here (key, cards, permutations, scalars, context, entropy), so the file is
reproducible.

Cases: a new deck of 3 cards (every first half ``G``), the same 3 cards shuffled again (first
halves all different), a new deck of 5 cards, and a single card.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1])]

from net.deck import cipher as dc  # noqa: E402
from net.deck import group as g  # noqa: E402
from net.deck import shuffle_proof as sp  # noqa: E402

TAG = b"palazzo/test-vectors"
CONTEXT = b"palazzo/test-vectors/shuffle context"
TABLE = dc.CardTable("condottiere", 110)


def h(b: bytes) -> str:
    return b.hex()


def case(key: bytes, inputs: list[dc.Ciphertext], order: list[int], label: bytes) -> dict:
    scalars = [g.hash_to_scalar(TAG, label, b"r'", bytes([i])) for i in range(len(order))]
    entropy = g.scalar_bytes(g.hash_to_scalar(TAG, label, b"entropy"))
    outputs = dc.apply_draw(inputs, dc.ShuffleDraw(tuple(order), tuple(scalars)), key)
    proof = sp.prove(key, inputs, outputs, order, scalars, CONTEXT, entropy)
    parsed = sp.ShuffleProof.decode(proof, len(inputs))
    statement = sp._statement(key, inputs, outputs, CONTEXT)
    d, u = sp._challenges(statement, parsed.commitments)
    c = sp._challenge(d, parsed.chain, parsed.t, parsed.t_hat)
    return {"inputs": [h(ct.to_bytes()) for ct in inputs], "order": order,
            "scalars": [h(g.scalar_bytes(r)) for r in scalars], "entropy": h(entropy),
            "outputs": [h(ct.to_bytes()) for ct in outputs], "statement": h(statement),
            "u": [h(g.scalar_bytes(x)) for x in u], "challenge": h(g.scalar_bytes(c)),
            "proof": h(proof)}


def make() -> dict:
    x = g.hash_to_scalar(TAG, b"shuffle key")
    key = g.base_mul(x)
    new3 = [dc.public_mask(TABLE.point(c), key) for c in (4, 9, 17)]
    first = case(key, new3, [2, 0, 1], b"new 3")
    again = [dc.Ciphertext.decode(bytes.fromhex(ct)) for ct in first["outputs"]]
    new5 = [dc.public_mask(TABLE.point(c), key) for c in range(5)]
    one = [dc.public_mask(TABLE.point(42), key)]
    return {
        "key": h(key), "context": CONTEXT.decode(),
        "generators": {"h": h(sp.chain_base()), "h_i": [h(p) for p in sp.generators(5)]},
        "cases": [first, case(key, again, [1, 2, 0], b"again 3"),
                  case(key, new5, [3, 0, 4, 1, 2], b"new 5"), case(key, one, [0], b"one")],
    }


if __name__ == "__main__":
    path = HERE / "data" / "shuffle_vectors.json"
    path.write_text(json.dumps(make(), indent=1) + "\n")
    print(f"wrote {path}")
