"""Findings of a hostile run against the host, entry by entry: each is reproduced through the host,
a peer and ``verify``, and each is refused at once, naming the field, while the game goes on.

* A signed move naming stack -2 froze the host and ``verify`` for good (``stack_label`` looped).
* The host took an unknown extra field, and a missing or non-bytes ``sealed``, that the author's
  own program then refused, so that the game stalled.
"""

import random
from pathlib import Path

import pytest

from engine.registry import get_game
from net.session.machines.peer_session import PeerSession
from net.session.machines.table import Table
from net.session.records.verify import verify_bytes, verify_file
from net.wire.errors import E_BAD_PARAMS, E_ILLEGAL, CheatDetected
from net.wire.rpc import Codec, Notification
from net.wire.transcript import Entry

RECORD = Path(__file__).parent / "data" / "stack-minus-two.palazzo"


def _header(t, kind, **extra):
    return {"game": t.game_id, "seq": len(t.transcript), "prev": t.transcript.head,
            "author": t.me, "kind": kind, **extra}


def _play_until(g, cheat, conn, done):
    """Let the held seat write honestly until ``done(table)`` holds when it is due to write."""
    bot = get_game(g.host.game).make_bot("greedy", random.Random(3))
    for _ in range(2000):
        t = cheat.table
        if t.writer() == t.me and done(t):
            return t
        if t.writer() == t.me:
            entry = t.auto_entry() or t.decide(bot.choose(t.view, t.me))
            assert cheat.post_now(g.link, conn, entry) is None
        g.link.pump()
    raise AssertionError("the held seat never came to that point")


def _finish(g, cheat, conn):
    cheat.hold = False
    g.link.bots[conn] = get_game(g.host.game).make_bot("greedy", random.Random(9))
    cheat._maybe_write()
    g.link.pump()
    assert g.host.finished
    assert [p.state for p in g.peers] == ["over"] * len(g.peers)
    assert len(g.transcripts()) == 1


def _decision(t):
    return t.decision_due() and t.view.phase == "play"


def _relay_to(peer, entry):
    """What a host that relays ``entry`` as accepted (with an ``ack``, as a rejoin's resend)
    does to ``peer`` (the reader refuses it before it looks at the ``ack``; a host that confirms
    a bad entry relayed pending: ``test_relay_at_once.py``)."""
    peer.receive_data(Codec().send(Notification("entry", ({**entry.to_wire(),
                                                             "ack": bytes(64)},))))


# -- a move naming a stack that is not there ----------------------------------------------------


@pytest.mark.long
@pytest.mark.parametrize("target", [-2, 999])
@pytest.mark.parametrize("kind", ["build", "conspire"])
def test_a_move_naming_no_stack_is_refused_by_the_host_and_every_peer(tolerant_game, budget,
                                                                      target, kind):
    g, cheat, conn = tolerant_game()
    t = _play_until(g, cheat, conn, _decision)
    card = t.view.hands[t.me][0]
    action = {"kind": kind, "seat": t.me, "card": card, "value": 2, "target": 0, "elim": 0}
    action["target" if kind == "build" else "elim"] = target
    bad = Entry.sign(cheat.identity, _header(t, "act", action=action))
    with budget(5):
        err = cheat.post_now(g.link, conn, bad)
    assert err is not None and err.code in (E_BAD_PARAMS, E_ILLEGAL)
    named = "target" if kind == "build" else "elim"
    if target == -2:
        assert f"action field {named} must be an int from -1 to 999, not -2" in err.message
    else:
        assert "illegal action" in err.message and "stack ALL" in err.message
    assert len(g.host.table.transcript) == len(t.transcript)
    # a host that relays it anyway: a peer (a copy of seat 1's) refuses it at once, naming
    # its author
    other = _copy_of_peer(g, 1)
    with budget(5):
        _relay_to(other, bad)
    assert other.state == "failed" and isinstance(other.error, CheatDetected)
    assert other.error.seat == t.me
    # and verify, from a record that ends with it
    with budget(20):
        v = verify_bytes(g.host.table.transcript.to_bytes() + _pair(bad))
    assert v.kind == "cheat" and v.seat == t.me and v.step == len(t.transcript)
    _finish(g, cheat, conn)


def _copy_of_peer(g, seat):
    """A peer session for ``seat``'s key that has followed the game so far (it finds its
    secrets again in its journal)."""
    original = g.peers[seat]
    peer = PeerSession(original.identity, "copy", journal=original.journal)
    peer.table = Table(g.host.identity.public_key, original.identity, original.journal)
    for e in g.host.table.transcript.entries:
        peer.table.accept(e)
    peer.state, peer.seat = "playing", seat
    return peer


def test_verify_refuses_the_record_that_hung_it(budget):
    with budget(20):
        v = verify_file(RECORD)
    # it was made before a game's chain began from its own id: it ends at its first entry
    assert v.kind == "rejected" and not v.ok and v.exit_status == 3
    assert v.text.startswith("rejected: entry 0: ")


def test_palazzo_verify_says_one_line_for_that_record(budget, capsys):
    from tui.cli import main

    with budget(20):
        status = main(["verify", str(RECORD)])
    out = capsys.readouterr().out
    assert status == 3 and out.count("\n") == 1 and out.startswith("rejected: ")


# -- strict fields ------------------------------------------------------------------------------


def _seed_commit_due(t):
    return t.phase == "seed-commit"


def _deck_due(t):
    return t.phase == "play" and t.dealer.due() == t.me


def _changed(identity, honest, change):
    """``honest`` with the fields of ``change`` (``None``: left out), signed by ``identity``."""
    fields = {k: v for k, v in honest.fields.items() if k != "v"}
    fields.update(change)
    return Entry.sign(identity, {k: v for k, v in fields.items() if v is not None})


@pytest.mark.long
@pytest.mark.parametrize("change, named", [
    ({"extra": 1}, "unknown field 'extra' in a 'seed-commit' entry"),
    # version 2 keeps every secret in the seat's own journal: a sealed note is refused
    ({"sealed": b"n" * 40}, "unknown field 'sealed' in a 'seed-commit' entry"),
    ({"commit": None}, "field 'commit' is missing"),
])
def test_a_seed_commit_with_a_loose_field_is_refused_by_every_reader(tolerant_game, change, named):
    g, cheat, conn = tolerant_game()
    t = _play_until(g, cheat, conn, _seed_commit_due)
    honest = t.auto_entry()
    bad = _changed(cheat.identity, honest, change)
    err = cheat.post_now(g.link, conn, bad)
    assert err is not None and err.code == E_BAD_PARAMS and named in err.message
    # the same refusal from a peer's table and from verify, on the same entry
    peer = Table(g.host.identity.public_key, g.peers[1].identity)
    for e in g.host.table.transcript.entries:
        peer.accept(e)
    with pytest.raises(CheatDetected, match=named):
        peer.accept(bad)
    record = g.host.table.transcript.to_bytes() + _pair(bad)
    v = verify_bytes(record)
    assert v.kind == "cheat" and v.seat == t.me and named in v.text
    _finish(g, cheat, conn)


def _pair(entry):
    import msgpack

    return msgpack.packb([entry.body, entry.sig], use_bin_type=True)


@pytest.mark.parametrize("change, named", [
    ({"shuffled": True}, "unknown field 'shuffled' in a 'deck' entry"),
    ({"sealed": b"n" * 40}, "unknown field 'sealed' in a 'deck' entry"),
    ({"msgs": None}, "field 'msgs' is missing from a 'deck' entry"),
    ({"msgs": {}}, "field 'msgs' of a 'deck' entry must be list"),
])
def test_a_deck_entry_with_a_loose_field_is_refused_by_the_host(tolerant_game, change, named):
    g, cheat, conn = tolerant_game()
    t = _play_until(g, cheat, conn, _deck_due)
    honest = t.auto_entry()
    bad = _changed(cheat.identity, honest, change)
    err = cheat.post_now(g.link, conn, bad)
    assert err is not None and err.code == E_BAD_PARAMS and named in err.message
    assert len(g.host.table.transcript) == len(t.transcript)
    _finish(g, cheat, conn)


@pytest.mark.long
def test_an_act_entry_with_an_unknown_field_is_refused(tolerant_game):
    g, cheat, conn = tolerant_game()
    t = _play_until(g, cheat, conn, _decision)
    honest = t.decide(t.rules.legal_actions(t.view)[0])
    for change, named in (({"note": "hi"}, "unknown field 'note' in a 'act' entry"),
                          ({"handles": 5}, "field 'handles' of a 'act' entry must be bytes"),
                          ({"kind_proof": b""}, "unknown field 'kind_proof'")):  # Condottiere's
        bad = _changed(cheat.identity, honest, change)
        err = cheat.post_now(g.link, conn, bad)
        assert err is not None and err.code == E_BAD_PARAMS and named in err.message
    _finish(g, cheat, conn)


@pytest.mark.parametrize("have", [-1, 1, 2**40])
def test_a_new_key_with_a_have_beyond_the_transcript_is_refused(make_game, have):
    from net.session.machines.conversation import hello_signature
    from net.wire.identity import Identity
    from net.wire.rpc import Request, Response

    g = make_game(3)
    raw, rconn = g.add_raw()
    challenge = raw.events()[0].params[0]
    me = Identity.generate()
    hello = {"name": "x", "key": me.public_key, "have": have, "nonce": bytes(range(32)),
             "sig": hello_signature(me, challenge["nonce"], challenge["host"])}
    g.link.send(rconn, Codec().send(Request(1, "hello", (hello,))))
    (answer,) = [e for e in raw.events() if isinstance(e, Response)]
    assert answer.error.code == E_BAD_PARAMS and f"'have' is {have}" in answer.error.message
    assert g.host.seats == []


def test_a_turn_timeout_beyond_what_a_start_may_carry_is_refused_at_once(make_game):
    with pytest.raises(ValueError, match="turn timeout"):
        make_game(3, turn_timeout=10**9)
