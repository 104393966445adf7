"""The host relays a seat's entry at once, pending, and checks it beside the relay
(``net.session.machines.relay``): no seat writes on, acknowledges or discloses on a pending head;
a bad entry is withdrawn and its author named; a host that withdraws a good entry or confirms a
bad one is named by every reader with its own signature; nobody sees two histories."""

import random

import pytest

from engine.registry import get_game
from net.session.machines.agreement import ack_valid
from net.session.machines.relay import withdraw_valid
from net.session.records.evidence import EVIDENCE_MAGIC
from net.session.records.verify import verify_bytes, verify_file
from net.wire.errors import HOST, CheatDetected, Fault
from net.wire.rpc import Codec, Notification
from net.wire.transcript import Entry, chain, pack, unpack


def _to_seed_open(g, cheat, conn):
    """Seat 0 (held) commits its seed honestly; the others commit; seat 0 must open now."""
    t = cheat.table
    assert cheat.post_now(g.link, conn, t.auto_entry()) is None
    g.link.pump()
    assert t.writer() == t.me and t.phase == "seed-open"
    return t.auto_entry()


def _finish(g, cheat, conn):
    cheat.hold = False
    g.link.bots[conn] = get_game(g.host.game).make_bot("greedy", random.Random(1))
    cheat._maybe_write()
    g.link.pump()
    assert g.host.finished
    assert [p.state for p in g.peers] == ["over"] * len(g.peers), [str(p.error) for p in g.peers]
    assert len(g.transcripts()) == 1  # one history


def _heard(g, conn):
    """Every notification the host sends ``conn`` from now on, decoded (a list kept up to date)."""
    heard = []
    original = g.link.deliver

    def deliver(outputs):
        for o in outputs:
            if getattr(o, "conn", None) == conn and hasattr(o, "data"):
                heard.extend(e for e in Codec().receive_data(o.data) if isinstance(e, Notification))
        original(outputs)

    g.link.deliver = deliver
    return heard


@pytest.mark.long
def test_a_post_is_relayed_pending_before_its_check_and_confirmed_with_the_hosts_ack(make_game):
    g = make_game(3)
    for i in range(3):
        g.add_bot(i)
    heard = _heard(g, g.conns[2])
    g.link.pump()
    assert g.host.finished and len(g.transcripts()) == 1
    entries = [Entry.parse(n.params[0]["body"], n.params[0]["sig"]) for n in heard
               if n.method == "entry"]
    confirms = [n.params[0] for n in heard if n.method == "confirm"]
    pending = [e for e in entries if e.author >= 0]
    assert pending and all(
        "ack" not in n.params[0] for n in heard if n.method == "entry"
        and Entry.parse(n.params[0]["body"], n.params[0]["sig"]).author >= 0)
    # each seat's entry came pending, then its confirmation: the host's ack of the head after it
    assert [c["n"] for c in confirms] == [e.seq + 1 for e in pending]
    host = g.host.table
    for e, c in zip(pending, confirms, strict=True):
        assert ack_valid(host.host_key, host.game_id, e.seq + 1, chain(e.prev, e), c["ack"])


@pytest.mark.long
def test_no_seat_writes_acknowledges_or_discloses_on_a_pending_head(make_game):
    g = make_game(3)
    for i in range(3):
        g.add_bot(i)
    g.link.settle_at_once = False  # the test settles each pending entry itself, and only it
    settle, allowed = g.host._settle_pending, []
    g.host._settle_pending = lambda wait=False: settle(wait) if allowed else None
    checked = 0
    for _ in range(5000):
        g.link.pump()
        p = g.host.pending
        if p is None:
            if g.host.finished:
                break
            continue
        p.run_later()  # a small entry's check, left for the host's loop, runs now
        p.check.result()  # its check has run: still nobody takes it before the confirmation
        for peer in g.peers:
            assert len(peer.table.transcript) == p.entry.seq
            assert peer.agreement.sent <= p.entry.seq
        checked += 1
        allowed.append(True)
        g.link.deliver(g.host.settle(wait=True))
        allowed.clear()
    assert g.host.finished
    assert checked == len([e for e in g.host.table.transcript.entries if e.author >= 0])
    assert [p.state for p in g.peers] == ["over"] * 3 and len(g.transcripts()) == 1


@pytest.mark.long
def test_attack_a_seat_posts_a_bad_entry_to_make_the_host_withdraw_it(tolerant_game):
    """The host relays it, finds it bad, withdraws it with the author's signed entry: every
    reader checks it again, names its author, and the game goes on on one history (the host is
    named by nobody)."""
    g, cheat, conn = tolerant_game()
    honest = _to_seed_open(g, cheat, conn)
    bad = Entry.sign(cheat.identity, {**honest.fields, "value": bytes(32)})
    heard = _heard(g, g.conns[1])
    err = cheat.post_now(g.link, conn, bad)
    assert err is not None and "does not match its commitment" in err.message
    (withdrawn,) = [n.params[0] for n in heard if n.method == "withdraw"]
    assert withdrawn["entry"] == bad.to_wire()
    assert withdraw_valid(g.host.identity.public_key, g.host.table.game_id, bad, withdrawn["sig"])
    for peer in g.peers[1:]:
        named = [e.data for e in peer.events if e.kind == "cheat"]
        assert [c.seat for c in named] == [0] and "does not match" in named[0].reason
        assert len(peer.table.transcript) == bad.seq and peer.state == "playing"
    assert len(g.host.table.transcript) == bad.seq
    assert cheat.post_now(g.link, conn, honest) is None
    _finish(g, cheat, conn)
    assert all(not isinstance(p.error, CheatDetected) for p in g.peers)


def test_attack_a_host_that_withdraws_a_good_entry_is_named_by_every_other_reader(make_game):
    g = make_game(3)
    for i in range(3):
        g.add_bot(i)
    host = g.host
    confirm = host._confirm

    def lying(p, change):
        if p.entry.author == 1 and p.entry.kind == "seed-open":
            host._withdraw(p, CheatDetected(1, p.entry.seq, "made up"))
        else:
            confirm(p, change)

    host._confirm = lying
    g.link.pump()
    author, readers = g.peers[1], [g.peers[0], g.peers[2]]
    for peer in readers:
        assert peer.state == "failed" and isinstance(peer.error, CheatDetected)
        assert peer.error.seat == HOST and "which this table accepts" in str(peer.error)
        assert peer.error.evidence["kind"] == "withdrawn"
        assert not [e for e in peer.events if e.kind == "cheat"]  # the author is not named
        _kept_names_the_host(peer, "withdrew")
    assert author.state == "failed" and "the host refused post" in str(author.error)
    # nobody holds the withdrawn entry: one history, up to it
    assert len({p.table.transcript.to_bytes() for p in g.peers}) == 1


def test_attack_a_host_that_confirms_a_bad_entry_is_named_with_its_signed_ack(tolerant_game):
    g, cheat, conn = tolerant_game()
    honest = _to_seed_open(g, cheat, conn)
    bad = Entry.sign(cheat.identity, {**honest.fields, "value": bytes(32)})
    host = g.host

    def confirming(p, error):  # a host in league with seat 0: its bad entry goes in
        host._confirm(p, lambda: None)

    host._withdraw = confirming
    cheat.post_now(g.link, conn, bad)
    for peer in g.peers[1:]:
        assert peer.state == "failed" and isinstance(peer.error, CheatDetected)
        assert peer.error.seat == HOST and "which this table refuses" in str(peer.error)
        evidence = peer.error.evidence
        assert evidence["kind"] == "confirmed" and evidence["entry"] == bad.to_wire()
        t = peer.table
        assert ack_valid(t.host_key, t.game_id, bad.seq + 1, chain(bad.prev, bad), evidence["ack"])
        assert len(t.transcript) == bad.seq  # never taken
        path = _kept_names_the_host(peer, "confirmed")
    # the file holds nothing but what it shows: changed, it names nobody
    data = bytes(open(path, "rb").read())
    m = unpack(data[len(EVIDENCE_MAGIC):])
    honest_ack = {**m["item"], "entry": {"body": honest.body, "sig": honest.sig}}
    cut = {**m["item"], "record": m["item"]["record"][:-1]}
    for item in (honest_ack, cut):
        verdict = verify_bytes(EVIDENCE_MAGIC + pack({**m, "item": item}))
        assert verdict.kind == "rejected" and verdict.seat is None, verdict.text


def _kept_names_the_host(peer, word):
    """The evidence file ``peer`` kept when it named the host: ``palazzo verify`` checks it again
    on its own (the record before the entry, the entry, the host's signed settlement) and names
    the host; its path."""
    (path,) = [e.data for e in peer.events if e.kind == "evidence"]
    verdict = verify_file(path)
    assert verdict.kind == "cheat" and verdict.seat == HOST, verdict.text
    assert f"the host {word} entry" in verdict.text and "settlement check" in verdict.text
    return path


def test_attack_a_settlement_the_host_did_not_sign_is_a_fault_that_names_nobody(make_game, tamper):
    g = make_game(3)
    for i in range(3):
        g.add_bot(i)

    def unsigned(e):
        if isinstance(e, Notification) and e.method == "confirm":
            return [Notification("confirm", ({**e.params[0], "ack": bytes(64)},))]
        return [e]

    tamper(g, g.conns[2], unsigned)
    g.link.pump()
    victim = g.peers[2]
    assert victim.state == "failed" and isinstance(victim.error, Fault)
    assert not isinstance(victim.error, CheatDetected) and "does not check" in str(victim.error)
    assert g.peers[0].state != "failed" and g.peers[1].state != "failed"
