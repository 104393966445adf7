"""What names the host for an entry it relays (``net.session.records.relayed``): an entry that
fails a check of its place (its author's signature, the chain) names the host only when the
host signed it as relayed (its acknowledgement of the head after it, beside its acknowledgement
of the head before); otherwise it is a fault that names nobody.

Real sessions on the in-memory link; the attackers are ``HostSession`` subclasses that change
only what the host controls (what it relays and what it signs)."""

import pytest

from net.session.machines.host_session import HostSession
from net.session.machines.watch_session import WatchSession
from net.session.records.evidence import verify_evidence
from net.session.records.verify import verify_bytes
from net.wire.errors import HOST, CheatDetected, Fault
from net.wire.identity import Identity
from net.wire.transcript import Entry
from tests.net.test_agreement import cheats_named, readable, table

ACT = 12  # the relayed entry the attack changes: well into the game


class BadRelayHost(HostSession):
    """Relays entry ``ACT`` changed, and signs the head after the changed entry: ``how`` is
    ``"signature"`` (one bit of its author's signature flipped) or ``"chain"`` (a forfeit of
    its own, signed, written on another head than the one it signed for the entries before)."""

    how = "signature"
    changed: Entry | None = None

    def _relay(self, entry):
        if entry.seq != ACT or self.changed is not None:
            return super()._relay(entry)
        if self.how == "signature":
            sig = bytes([entry.sig[0] ^ 1]) + entry.sig[1:]
            self.changed = Entry(entry.body, sig, entry.fields)
        else:
            t = self.table
            self.changed = Entry.sign(self.identity, {
                "game": t.game_id, "seq": entry.seq, "prev": bytes(32), "author": HOST,
                "kind": "forfeit", "seat": 0, "reason": "no move in time"})
        for conn, c in self.conns.items():
            if c.seat is not None and not c.closed:
                self._notify(conn, "entry", self._wire(self.changed))
        return None


@pytest.mark.parametrize("how", ["signature", "chain"])
def test_attack_relayed_entry_the_host_signed_names_the_host_with_evidence(how, tmp_path):
    host, link, peers, _ = table(type("Bad", (BadRelayHost,), {"how": how}), tmp_path=tmp_path)
    watcher = WatchSession(Identity.generate(), "w")
    watcher.evidence_folder = tmp_path / "w"
    link.add(watcher)
    link.pump()
    assert host.changed is not None
    check = "signature check" if how == "signature" else "chain check"
    for p in [*peers, watcher]:  # a watcher checks, names and keeps it as a seat does
        assert p.state == "failed" and isinstance(p.error, CheatDetected), (p.name, p.error)
        assert cheats_named(p) == {HOST}  # no honest seat named
        assert p.error.step == ACT and check in p.error.reason
        # the evidence is kept, and checks again from the file alone
        saved = list((tmp_path / p.name).glob("evidence-*-relayed--1-*.evidence"))
        assert len(saved) == 1, saved
        finding, line = verify_evidence(saved[0].read_bytes())
        assert finding is not None and finding.signer == HOST and check in line, line
        assert line.startswith("cheat: the host: ")
        # verify says the same of the evidence file as the program did
        v = verify_bytes(saved[0].read_bytes())
        assert not v.ok and "cheat: the host" in v.text
        # it went to the host for every other seat and watcher, as it was checked
        assert any(e.kind == "evidence" for e in p.events)
    # the attacker opened nothing the rules never showed
    assert [c for c in readable(host.table.transcript.entries, host.table)] == []


def test_an_evidence_file_with_a_changed_entry_is_rejected(tmp_path):
    host, link, peers, _ = table(BadRelayHost, tmp_path=tmp_path)
    link.pump()
    saved = next((tmp_path / "p0").glob("*.evidence")).read_bytes()
    # the entry's signature flipped back: the host's acknowledgement no longer covers it
    at = saved.index(host.changed.sig)
    fixed = saved[:at] + bytes([saved[at] ^ 1]) + saved[at + 1:]
    finding, line = verify_evidence(fixed)
    assert finding is None and line.startswith("rejected: evidence check: ")


class UnsignedRelayHost(BadRelayHost):
    """Relays entry ``ACT`` with its author's signature flipped, and without its own
    acknowledgement of it (as if it were changed on the way)."""

    def _wire(self, entry):
        wire = super()._wire(entry)
        if entry is self.changed:
            wire["ack"] = bytes(64)
        return wire


def test_a_relayed_entry_nobody_signed_is_a_fault_that_names_nobody(tmp_path):
    host, link, peers, _ = table(UnsignedRelayHost, tmp_path=tmp_path)
    link.pump()
    for p in peers:
        assert p.state == "failed" and isinstance(p.error, Fault), (p.name, p.error)
        assert "nobody is named" in str(p.error) and "bad signature" in str(p.error)
        assert "join again" in str(p.error)
        assert cheats_named(p) == set()
        assert not list((tmp_path / p.name).glob("*.evidence"))


# -- each named check, from the item alone ----------------------------------------------------------


def _signed_start():
    import os

    from net.wire.transcript import derive_game_id, genesis

    host = Identity.generate()
    seats = [Identity.generate() for _ in range(2)]
    pairs = [(s.public_key, os.urandom(32)) for s in seats]
    game = derive_game_id(host.public_key, pairs)
    start = Entry.sign(host, {"game": game, "seq": 0, "prev": genesis(game), "author": HOST,
                              "kind": "start", "host": host.public_key,
                              "seats": [{"name": f"s{i}", "key": k, "nonce": n}
                                        for i, (k, n) in enumerate(pairs)]})
    return host, seats, start


@pytest.mark.parametrize("check", ["format", "sequence", "chain", "game", "author", "signature",
                                   "passes", "unsigned"])
def test_a_relayed_item_names_the_host_by_the_check_its_entry_fails(check):
    import hashlib
    import struct

    from net.session.machines.agreement import sign_ack
    from net.session.records.evidence import check_evidence
    from net.session.records.relayed import relayed
    from net.wire.transcript import chain

    host, seats, start = _signed_start()
    game, n = start.game_id, 1
    head = chain(start.prev, start)  # H(1): the start is the one entry before
    fields = {"game": game, "seq": n, "prev": head, "author": 0, "kind": "seed-commit",
              "commit": bytes(32)}
    change = {"sequence": {"seq": 2}, "chain": {"prev": bytes(32)}, "game": {"game": bytes(16)},
              "author": {"author": 5}}.get(check, {})
    entry = Entry.sign(seats[0], {**fields, **change})
    body, sig = entry.body, entry.sig
    if check == "format":
        body = b"\xc1" + body[1:]
    if check == "signature":
        sig = bytes([sig[0] ^ 1]) + sig[1:]
    on = bytes(32) if check == "chain" else head  # the head the host wrote the entry on
    after = hashlib.sha256(on + struct.pack(">I", len(body)) + body + sig).digest()
    ack = sign_ack(host, game, n + 1, after) if check != "unsigned" else bytes(64)
    item = relayed(n, {"head": head, "sig": sign_ack(host, game, n, head)}, body, sig, ack)
    if check in ("passes", "unsigned"):  # an honest relay, or nothing the host signed
        with pytest.raises(ValueError, match="evidence check: "):
            check_evidence(start, item)
        return
    finding = check_evidence(start, item)
    assert finding.signer == HOST and finding.n == n
    assert finding.reason.startswith(f"{check} check: the host acknowledged")


@pytest.mark.long
def test_a_seat_stopped_by_an_entry_changed_on_the_way_joins_again_and_the_game_goes_on(
        make_game, tamper):
    """The fault names nobody and costs nothing: the entry comes again, as it was signed, to
    the seat's program joining again with its key and journal, and the game ends agreed."""
    from net.session.machines.peer_session import PeerSession
    from net.session.records.journal import Journal
    from net.wire.rpc import Notification

    g = make_game(3)
    journal = Journal()
    for i in range(3):
        g.add_bot(i, journal=journal if i == 1 else None)
    victim = g.peers[1]
    changed = []

    def change(e):
        if isinstance(e, Notification) and e.method == "entry" and not changed \
                and Entry.parse(e.params[0]["body"], e.params[0]["sig"]).seq == 6:
            changed.append(e)
            sig = e.params[0]["sig"]
            return [Notification("entry", ({**e.params[0], "sig": bytes([sig[0] ^ 1]) + sig[1:]},))]
        return [e]

    tamper(g, g.conns[1], change)
    g.link.pump()
    assert changed and victim.state == "failed" and isinstance(victim.error, Fault)
    assert "join again" in str(victim.error) and "nobody is named" in str(victim.error)
    g.link.drop(g.conns[1])
    again = PeerSession(victim.identity, victim.name, code=g.host.code, journal=journal)
    g.link.add(again, _bot())
    g.link.pump()
    assert g.host.finished and again.state == "over", (again.state, again.error)
    assert again.table.transcript.to_bytes() == g.host.table.transcript.to_bytes()
    assert again.table.agreed()[0]
    assert all(e.kind != "cheat" for p in [*g.peers, again] for e in p.events)


def _bot():
    import random

    from engine.registry import get_game

    return get_game("medici").make_bot("greedy", random.Random(9))
