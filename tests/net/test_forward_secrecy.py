"""Forward secrecy: once a game is over, nothing that exists anywhere opens a card the rules never
showed, not every record, journal and capture of the traffic together with every player's
identity key. A seat's secrets of a game are in no entry (protocol version 2): they live in its
own journal, sealed under a key of the game kept apart, and are erased when the game ends."""

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from net.deck import group
from net.session.machines.conversation import Send
from net.session.records.journal import Journal
from net.session.records.verify import verify_bytes
from net.wire.identity import Identity
from tests.net.test_attacks import PLAYERS, Player, dealt, readable, scalars_in, step_until, table


def _capture(host, link):
    """Every byte that crosses the link, both ways."""
    frames = []
    receive, deliver = host.receive_data, link.deliver

    def received(conn, data):
        frames.append(data)
        return receive(conn, data)

    def delivered(outputs):
        frames.extend(o.data for o in outputs if isinstance(o, Send))
        deliver(outputs)

    host.receive_data, link.deliver = received, delivered
    return frames


def _bytes_in(value):
    if type(value) is bytes:
        yield value
    elif type(value) is dict:
        for v in value.values():
            yield from _bytes_in(v)
    elif type(value) is list:
        for v in value:
            yield from _bytes_in(v)


def _opens_with_identity(seed, entries, files):
    """Whether anything opens under the note key an identity seed gives, as protocol version 1
    sealed its notes (what a stolen ``identity.key`` tries): every byte string of every entry,
    for each slot, and every journal file whole."""
    key = ChaCha20Poly1305(HKDF(hashes.SHA256(), 32, salt=None,
                                info=b"palazzo/seal/v1").derive(seed))
    tries = [(b, e.fields["game"] + slot) for e in entries for b in _bytes_in(e.fields)
             for slot in (b"/seed", b"/deck")]
    tries += [(f[:-16], None) for f in files] + [(f, None) for f in files]
    for blob, aad in tries:
        if len(blob) >= 28:
            try:
                key.decrypt(blob[:12], blob[12:], aad)
                return True
            except Exception:
                continue
    return False


@pytest.mark.long
def test_attack_stolen_identity_key(tmp_path):
    seeds = [bytes([i + 1]) * 32 for i in range(PLAYERS)]
    players = [Player(i) for i in range(PLAYERS)]
    for p, seed in zip(players, seeds, strict=True):
        p.identity = Identity(seed)
        p.journal = Journal.for_identity(p.identity.public_key, tmp_path)
    host, link, peers, conns = table(Identity.generate(), players)
    frames = _capture(host, link)
    step_until(link, lambda: dealt(host.table))
    game = host.table.game_id
    secrets = {p.table.me: p.table.dealer.secret for p in peers}  # mid-game, for the check only
    # the check can see a card: mid-game, with one seat's secret of this game, its cards open
    assert {c[2] for c in readable(list(host.table.transcript.entries), host.table,
                                   {1: secrets[1]})} == {1}
    kept = {p.table.me: p.journal.secret(game, "deck") for p in peers}
    assert all(v is not None for v in kept.values())  # in each journal while the game lasts
    assert (tmp_path / players[0].identity.public_key.hex() / "keys" / game.hex()).exists()
    link.pump()
    assert host.finished and [p.state for p in peers] == ["over"] * PLAYERS
    assert verify_bytes(host.table.transcript.to_bytes()).ok

    # everything there is after the end: every record, every journal file, the traffic
    records = [p.table.transcript.to_bytes() for p in peers] + [host.table.transcript.to_bytes()]
    journal_files = [f.read_bytes() for f in tmp_path.rglob("*") if f.is_file()]
    everything = records + journal_files + frames
    assert not list(tmp_path.rglob("keys/*")) and not list(tmp_path.rglob("secret-*"))
    for seat, x in secrets.items():
        assert not any(group.scalar_bytes(x) in blob for blob in everything), seat
    # every identity key, as version 1 used it for its notes: nothing opens
    entries = host.table.transcript.entries
    assert not any(_opens_with_identity(seed, entries, journal_files) for seed in seeds)
    # every scalar any of it carries, tried as a seat's secret: 0 cards the rules never showed
    held = list(host.table.transcript.entries)
    found = set()
    for blob in journal_files + frames:
        found |= scalars_in(blob)
    shares = set(host.table.dealer.keys.shares)
    assert not [x for x in found if group.base_mul(x) in shares]
    assert readable(held, host.table) == []
    # and after the end, each seat's secret of this game opens the cards that seat still holds
    # unseen, and only those (a game may end with a seat's every card shown: 2 games in 30 of
    # these ended with no card to play, one seat alone holding an unseen card)
    still = {c[2] for c in readable(held, host.table, secrets)}
    for seat in still:
        assert {c[2] for c in readable(held, host.table, {seat: secrets[seat]})} == {seat}
