"""Write tests/net/data/protocol_vectors.json: known answers for every hash, signature and proof
of docs/protocol.md, made by the project's own code from fixed inputs.

Run from the repository root (``.venv/bin/python tests/net/gen_protocol_vectors.py``) when the
protocol changes on purpose; ``test_protocol_vectors.py`` recomputes each value from the
document's description alone and checks that this code still makes the same file.

Every input is fixed: the identities come from fixed 32-byte seeds, the nonces, salts, seed
values, key secrets and proof entropy are hashes of fixed labels. The game is a three-seat Condottiere with a host that
holds no seat. The deck part uses a small deck (cards 0, 1 and 2 of the ``condottiere/pile``
table) and fixed stand-ins for the transcript hash before each deck message.

Bytes are written as lowercase hex; scalars as their 32-byte little-endian encoding.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1])]

from engine.condottiere.state import CondottiereConfig  # noqa: E402
from net.deck import cipher as dc  # noqa: E402
from net.deck import group as g  # noqa: E402
from net.deck import shuffle_proof as sp  # noqa: E402
from net.deck.fair_deck import FairDeck  # noqa: E402
from net.deck.keys import PublicKeys, key_context, key_message  # noqa: E402
from net.deck.rehand import make_rehand, receive_rehand, rehand_context  # noqa: E402
from net.session.machines.agreement import sign_ack  # noqa: E402
from net.session.machines.commit import commit  # noqa: E402
from net.session.machines.conversation import HELLO_TAG, hello_signature, host_proof  # noqa: E402
from net.session.machines.relay import sign_withdraw  # noqa: E402
from net.session.machines.table import Table  # noqa: E402
from net.wire.errors import HOST  # noqa: E402
from net.wire.identity import Identity, fingerprint  # noqa: E402
from net.wire.transcript import Entry, derive_game_id, genesis  # noqa: E402

PATH = HERE / "data" / "protocol_vectors.json"
NAMES = ("ada", "bo", "cy")
SEATS = len(NAMES)
TIME = 1_700_000_000
DECK = "pile"
DOMAIN = "condottiere/pile"
DECK_CARDS = (0, 1, 2)


def label(text: str) -> bytes:
    """32 fixed bytes named by ``text``."""
    return hashlib.sha256(b"palazzo/protocol-vectors/" + text.encode()).digest()


def h(b: bytes) -> str:
    return b.hex()


def sc(k: int) -> str:
    return g.scalar_bytes(k).hex()


def make() -> dict[str, Any]:
    host = Identity(label("host seed"))
    seats = [Identity(label(f"seat {i} seed")) for i in range(SEATS)]
    v: dict[str, Any] = {
        "about": "docs/protocol.md known answers; written by tests/net/gen_protocol_vectors.py",
        "identities": {
            "host": {"seed": h(label("host seed")), "public": h(host.public_key),
                     "fingerprint": fingerprint(host.public_key)},
            "seats": [{"name": NAMES[i], "seed": h(label(f"seat {i} seed")),
                       "public": h(s.public_key)} for i, s in enumerate(seats)],
        },
    }
    v["handshake"] = handshake(host, seats[0])
    nonces = [label(f"seat {i} hello nonce") for i in range(SEATS)]
    pairs = [(s.public_key, n) for s, n in zip(seats, nonces, strict=True)]
    game_id = derive_game_id(host.public_key, pairs)
    v["game_id"] = {"host": h(host.public_key),
                    "seats": [{"key": h(k), "nonce": h(n)} for k, n in pairs],
                    "game_id": h(game_id), "genesis": h(genesis(game_id))}
    v["entries"], table = entries(host, seats, nonces, game_id)
    v["agreement"] = agreement(host, seats, table)
    v["seed"] = {"values": [h(label(f"seat {i} seed value")) for i in range(SEATS)],
                 "seed": h(table.seed)}
    v["lot"] = lot(table.seed)
    v["cards"] = cards()
    v["deck"] = deck(game_id)
    return v


def handshake(host: Identity, peer: Identity) -> dict[str, Any]:
    challenge_nonce = label("challenge nonce")
    hello_nonce = label("seat 0 hello nonce")
    sig = hello_signature(peer, challenge_nonce, host.public_key)
    assert sig == peer.sign(HELLO_TAG, challenge_nonce + host.public_key)
    return {"challenge_nonce": h(challenge_nonce), "host": h(host.public_key),
            "peer": h(peer.public_key), "hello_sig": h(sig), "hello_nonce": h(hello_nonce),
            "host_proof": h(host_proof(host, hello_nonce, peer.public_key))}


def entries(host: Identity, seats: list[Identity], nonces: list[bytes],
            game_id: bytes) -> tuple[dict[str, Any], Table]:
    """The start, then every seat's seed-commit and seed-open, each accepted by an observer
    table (as the host's and ``palazzo verify``'s are)."""
    config = CondottiereConfig(players=SEATS).to_data()
    table = Table(host.public_key, None)
    out: dict[str, Any] = {"config": config, "time": TIME, "list": []}

    def add(identity: Identity, author: int, kind: str, fields: dict[str, Any]) -> Entry:
        header = {"game": game_id, "seq": len(table.transcript),
                  "prev": table.transcript.head if table.transcript.entries else genesis(game_id),
                  "author": author, "kind": kind}
        entry = Entry.sign(identity, {**header, **fields})
        table.accept(entry)
        out["list"].append({"kind": kind, "author": author, "body": h(entry.body),
                            "sig": h(entry.sig), "chain_after": h(table.transcript.head)})
        return entry

    add(host, HOST, "start", {
        "rules": "condottiere", "config": config, "host": host.public_key,
        "seats": [{"name": n, "key": s.public_key, "nonce": x}
                  for n, s, x in zip(NAMES, seats, nonces, strict=True)],
        "time": TIME, "timeout": 0, "on_timeout": "forfeit"})
    notes = []
    for i, s in enumerate(seats):
        value, salt = label(f"seat {i} seed value"), label(f"seat {i} seed salt")
        c = commit(b"seed", game_id, i, b"seed", value, salt)
        add(s, i, "seed-commit", {"commit": c})
        notes.append({"seat": i, "value": h(value), "salt": h(salt), "commitment": h(c)})
    for i, s in enumerate(seats):
        add(s, i, "seed-open", {"value": label(f"seat {i} seed value"),
                                "salt": label(f"seat {i} seed salt")})
    assert table.phase == "play"
    out["seed_commits"] = notes
    return out, table


def agreement(host: Identity, seats: list[Identity], table: Table) -> dict[str, Any]:
    """Acknowledgements of every head of the entries above (section 8.1): the host's, as it
    relays each entry, and every seat's but the entry's author's."""
    game_id = table.game_id
    acks = []
    for n in range(1, len(table.transcript) + 1):
        head = table.transcript.head_at(n)
        author = table.transcript.entries[n - 1].author
        acks.append({"n": n, "head": h(head), "host": h(sign_ack(host, game_id, n, head)),
                     "seats": [h(sign_ack(s, game_id, n, head)) if i != author else None
                               for i, s in enumerate(seats)]})
    # a withdrawal (section 5.6): the host's signature over the last seat entry above, as if it
    # had failed its check beside the relay
    last = table.transcript.entries[-1]
    withdrawn = {"seq": last.seq, "entry_digest": h(hashlib.sha256(last.body + last.sig).digest()),
                 "sig": h(sign_withdraw(host, game_id, last))}
    return {"acks": acks, "withdraw": withdrawn}


def lot(seed: bytes) -> dict[str, Any]:
    digest = hashlib.sha256(b"palazzo/lot/v1" + seed + (0).to_bytes(4, "big")).digest()
    n = int.from_bytes(digest, "big")
    words = random.Random(n)
    return {"lot": 0, "digest": h(digest),
            "first_outputs": [words.getrandbits(32) for _ in range(4)],
            "randrange": {str(k): random.Random(n).randrange(k) for k in range(1, 7)}}


def cards() -> dict[str, Any]:
    out: dict[str, Any] = {"tag": dc.CARD_TAG.decode(), "points": []}
    for domain, size, index in ((DOMAIN, 110, 0), (DOMAIN, 110, 1), (DOMAIN, 110, 109),
                                ("medici/house0", 25, 0), ("medici/house3", 25, 24)):
        digest = hashlib.sha512(g.encode(dc.CARD_TAG, domain.encode(),
                                         index.to_bytes(4, "big"))).digest()
        point = dc.CardTable(domain, size).point(index)
        out["points"].append({"domain": domain, "index": index, "sha512": h(digest),
                              "point": h(point)})
    return out


def deck(game_id: bytes) -> dict[str, Any]:
    """Keys, the three shuffles of a three-card deck, the shares of two cards dealt to seat 0,
    seat 0's proof that its first card is one of the three, and its hand masked anew."""
    secrets = [g.hash_to_scalar(b"palazzo/protocol-vectors", b"secret", bytes([i]))
               for i in range(SEATS)]
    entropy = label("proof entropy")
    keys_out, messages = [], []
    for i, x in enumerate(secrets):
        msg = key_message(game_id, i, x, entropy)
        messages.append(msg)
        keys_out.append({"seat": i, "secret": sc(x), "context": h(key_context(game_id, i)),
                         "message": {"type": msg["type"], "key": h(msg["key"]),
                                     "proof": h(msg["proof"])}})
    keys = PublicKeys.from_messages(game_id, messages)
    table = dc.CardTable(DOMAIN, 110)
    decks = [FairDeck(keys, DECK, table, DECK_CARDS, i, x) for i, x in enumerate(secrets)]

    def send(author: int, msg: dict[str, Any], context: bytes) -> None:
        for d in decks:
            d.receive(author, msg, context)

    out: dict[str, Any] = {"entropy": h(entropy), "keys": keys_out, "joint_key": h(keys.joint),
                           "deck": DECK, "domain": DOMAIN, "cards": list(DECK_CARDS),
                           "shuffles": []}
    for i in range(SEATS):
        pile = [ct.to_bytes() for ct in decks[i].pile]
        context = label(f"shuffle {i} prev")
        seed = label(f"shuffle {i} seed")
        msg = decks[i].make_shuffle(context, seed)
        bound = decks[i].shuffle_context(i, decks[i].shuffles, context)
        proof = sp.ShuffleProof.decode(msg["proof"], len(pile))
        statement = sp._statement(keys.joint, decks[i].pile,
                                  [dc.Ciphertext(c[:32], c[32:]) for c in _cut(msg["cards"])],
                                  bound)
        d, u = sp._challenges(statement, proof.commitments)
        send(i, msg, context)
        out["shuffles"].append({
            "seat": i, "prev": h(context), "seed": h(seed), "input": [h(c) for c in pile],
            "proof_context": h(bound), "statement": h(statement), "d": h(d),
            "u": [sc(x) for x in u],
            "challenge": sc(sp._challenge(d, proof.chain, proof.t, proof.t_hat)),
            "message": {"type": msg["type"], "deck": msg["deck"], "number": msg["number"],
                        "cards": h(msg["cards"]), "proof": h(msg["proof"])}})
    handles = []
    for _ in range(2):  # the top two cards to seat 0, in lockstep on every seat's deck
        dealt = {d.deal(0) for d in decks}
        assert len(dealt) == 1
        handles += dealt
    out["dealt"] = {"handles": list(handles), "to": 0}
    shares_out = []
    for i in (1, 2):
        context = label(f"shares {i} prev")
        msg = decks[i].make_shares(list(handles), context, entropy)
        send(i, msg, context)
        shares_out.append({
            "seat": i, "prev": h(context),
            "bases": [h(decks[i].ciphertext(k).c1) for k in handles],
            "proof_context": h(decks[i]._share_context(list(handles), i, context)),
            "message": {"type": msg["type"], "deck": msg["deck"], "handles": h(msg["handles"]),
                        "shares": h(msg["shares"]), "proof": h(msg["proof"])}})
    out["shares"] = shares_out
    mine = decks[0]
    held = [mine.card(k) for k in handles]
    context = label("one-of prev")
    proof = mine.prove_one_of(handles[0], list(DECK_CARDS), context, entropy)
    assert all(d.verify_one_of(0, handles[0], list(DECK_CARDS), proof, context) for d in decks)
    ct = mine.ciphertext(handles[0])
    out["one_of"] = {"seat": 0, "handle": handles[0], "prev": h(context),
                     "cards": list(DECK_CARDS), "true_card": held[0],
                     "masked": h(ct.to_bytes()),
                     "proof_context": h(mine._one_of_context(handles[0], 0, context)),
                     "proof": h(proof)}
    out["held"] = held
    # seat 0 masks its hand of two anew (as after a Scarecrow's take-back), every deck takes it
    context, seed = label("rehand prev"), label("rehand seed")
    msg = make_rehand(mine, list(handles), context, seed)
    new = {tuple(receive_rehand(d, 0, msg, context, list(handles))) for d in decks}
    assert len(new) == 1
    out["rehand"] = {"seat": 0, "prev": h(context), "seed": h(seed),
                     "proof_context": h(rehand_context(mine, 0, list(handles), context)),
                     "new_handles": list(next(iter(new))),
                     "message": {"type": msg["type"], "deck": msg["deck"],
                                 "handles": h(msg["handles"]), "cards": h(msg["cards"]),
                                 "proof": h(msg["proof"])}}
    return out


def _cut(data: bytes) -> list[bytes]:
    return [data[i:i + 64] for i in range(0, len(data), 64)]


if __name__ == "__main__":
    PATH.write_text(json.dumps(make(), indent=1) + "\n")
    print(f"wrote {PATH}")
