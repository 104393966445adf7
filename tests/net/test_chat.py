"""Table talk (``net.session.features.chat``): signed messages, relayed live, carried in the record; the
host's checks, every reader's checks, and the attacks of a host, a seat, or both."""

import random
from pathlib import Path

import pytest

from engine.registry import get_game
from net.session.features import chat
from net.session.features.chat import SLOW_DOWN, TEXT_LIMIT, check_record, conflicts, make_say
from net.session.machines.peer_session import PeerSession
from net.session.records.journal import Journal
from net.session.records.verify import verify_bytes
from net.wire.errors import HOST, CheatDetected
from net.wire.identity import Identity
from net.wire.rpc import Codec, Notification, Request
from net.wire.transcript import pack


def _bot(seed=1):
    return get_game("medici").make_bot("greedy", random.Random(seed))


def _talk(peer):
    """What a peer's user was shown of table talk, in order."""
    return [(e.kind, e.data) for e in peer.events if e.kind in ("said", "refused", "note")]


def _texts(peer, live=None):
    return [(d["name"], d["text"]) for k, d in _talk(peer)
            if k == "said" and (live is None or d["live"] is live)]


def _notes(peer):
    return [d for k, d in _talk(peer) if k == "note"]


def _refusals(peer):
    return [d["why"] for k, d in _talk(peer) if k == "refused"]


def _waiting(make_game, clock=None, **kw):
    """A 3-player game under way whose seat 0 (no bot) holds it up on its first decision."""
    g = make_game(3, clock=clock, **kw) if clock is not None else make_game(3, **kw)
    a = g.add_bot(0, name="Ada", bot=None)
    g.add_bot(1, name="Bea")
    g.add_bot(2, name="Cy")
    g.link.pump()
    assert a.decision_due()
    return g, a


def _finish(g):
    g.link.bots[g.conns[0]] = _bot()
    g.link.pump()
    assert [p.state for p in g.peers] == ["over"] * len(g.peers)


def _raw_say(g, peer, conn, body, sig):
    """``peer`` sends a ``say`` of these bytes as it stands; the host's refusal, if any."""
    before = len(_refusals(peer))
    peer._call("say", ({"body": body, "sig": sig},))
    g.link.send(conn, peer.data_to_send())
    got = _refusals(peer)
    return got[before] if len(got) > before else None


def _say_bytes(identity, ctx, seat, n, after, text):
    s = make_say(identity, ctx, seat, n, after, text)
    return s.body, s.sig


# -- the honest game ------------------------------------------------------------------------


@pytest.mark.long
def test_messages_reach_every_peer_in_order_and_every_record_carries_them(make_game):
    g = make_game(3)
    a = PeerSession(Identity.generate(), "Ada", auto_ready=False)
    b = PeerSession(Identity.generate(), "Bea", auto_ready=False)
    g.peers += [a, b]
    g.conns += [g.link.add(a), g.link.add(b, _bot(2))]
    g.link.pump()
    a.say("good luck")  # in the lobby
    g.link.pump()
    assert _texts(b) == [("Ada", "good luck")]
    c = g.add_bot(2, name="Cy")
    g.link.pump()
    assert _texts(c) == [("Ada", "good luck")]  # the lobby's talk so far, to a newcomer
    a.ready()
    b.ready()
    g.link.pump()
    assert a.decision_due()
    a.say("Deal?")
    b.say("No deal")
    g.link.pump()
    _finish(g)
    assert len(g.transcripts()) == 1
    for p in (a, b, c):
        assert _texts(p) == [("Ada", "good luck"), ("Ada", "Deal?"), ("Bea", "No deal")]
    recorded = [(s, n, text) for s, n, _after, text, _seq in g.host.table.said]
    assert sorted(recorded) == [(0, 1, "good luck"), (0, 2, "Deal?"), (1, 1, "No deal")]
    verdict = verify_bytes(g.host.table.transcript.to_bytes())
    assert verdict.ok and verdict.messages == 3 and "3 messages of table talk" in verdict.text


def test_a_game_without_talk_writes_no_said_field(played):
    entries = played.host.table.transcript.entries
    assert not any("said" in e.fields for e in entries)
    verdict = verify_bytes(played.host.table.transcript.to_bytes())
    assert verdict.ok and verdict.messages == 0 and "table talk" not in verdict.text


@pytest.mark.long
def test_a_message_said_mid_game_is_recorded_at_its_place(make_game):
    g, a = _waiting(make_game)
    length = len(a.table.transcript)
    a.say("I pass if you pass")
    g.link.pump()
    _finish(g)
    (seat, n, after, text, seq), = g.host.table.said
    assert (seat, n, after, text) == (0, 1, length, "I pass if you pass")
    assert seq >= length and g.host.table.transcript.entries[seq].author == 0
    for p in g.peers[1:]:
        assert _texts(p, live=True) == [("Ada", "I pass if you pass")]


def test_a_text_that_cannot_be_said_is_refused_before_it_is_sent(make_game):
    g, a = _waiting(make_game)
    for text in ("", " ", "x" * (TEXT_LIMIT + 1), "clear\x1b[2J", "two\nlines"):
        with pytest.raises(Exception, match="message"):
            a.say(text)
    a.say("x" * TEXT_LIMIT)
    g.link.pump()
    assert _texts(g.peers[1]) == [("Ada", "x" * TEXT_LIMIT)]


# -- the host's checks --------------------------------------------------------------------


@pytest.mark.long
def test_attack_each_bad_say_is_refused_and_the_game_goes_on(make_game):
    g, a = _waiting(make_game)
    conn, me = g.conns[0], a.identity
    ctx, at = a.table.seats[0].nonce, len(a.table.transcript)
    other = Identity.generate()
    cases = [
        (_say_bytes(me, ctx, 1, 1, at, "as Bea"), "you hold seat 0, not 1"),
        (_say_bytes(other, ctx, 0, 1, at, "forged"), "not signed by your key"),
        (_say_bytes(me, b"\x07" * 32, 0, 1, at, "other game"), "ctx is the nonce that seated"),
        (_say_bytes(me, ctx, 0, 0, at, "number 0"), "n from 1"),
        (_say_bytes(me, ctx, 0, 1, at + 5, "from the future"), "'after' is"),
        (_say_bytes(me, ctx, 0, 1, at, "x" * (TEXT_LIMIT + 1)), "1 to 200 characters"),
        (_say_bytes(me, ctx, 0, 1, at, "bell\x07"), "printable"),
        ((b"\xc1", b"s" * 64), "not msgpack"),
        ((pack({"ctx": ctx, "seat": 0, "n": 1, "after": at, "text": "hi", "x": 1}), b"s" * 64),
         "{ctx, seat, n, after, text}"),
        ((pack({"ctx": ctx, "seat": 0, "n": "1", "after": at, "text": "hi"}), b"s" * 64),
         "'n' must be int"),
        ((pack({"ctx": ctx, "seat": 0, "n": 1, "after": at, "text": "hi"}), b"short"),
         "sig: 64 bytes"),
        ((b"\x80" + b"x" * 2000, b"s" * 64), "at most 1024 bytes"),
    ]
    for (body, sig), why in cases:
        refusal = _raw_say(g, a, conn, body, sig)
        assert refusal is not None and why in refusal, (why, refusal)
    assert not any(_texts(p) for p in g.peers)
    assert a.state == "playing"
    a.say("now a good one")  # the host took no message of Ada's yet
    g.link.pump()
    assert _texts(g.peers[1]) == [("Ada", "now a good one")]
    refusal = _raw_say(g, a, conn, *_say_bytes(me, ctx, 0, 1, at, "n 1 again"))
    assert refusal == "message 1 out of order: it must come after message 1"
    _finish(g)
    assert [n for _, n, *_ in g.host.table.said] == [1]


def test_attack_a_non_canonical_body_is_refused(make_game):
    g, a = _waiting(make_game)
    ctx, at = a.table.seats[0].nonce, len(a.table.transcript)
    body = pack({"ctx": ctx, "seat": 0, "n": 1, "after": at, "text": "hi"})
    longer = body.replace(b"\xa1n\x01", b"\xa1n\xcc\x01")  # n as a uint8: a longer form
    assert longer != body
    refusal = _raw_say(g, a, g.conns[0], longer, a.identity.sign(chat.SAY_TAG, longer))
    assert refusal is not None and "shortest encoding" in refusal


def test_attack_a_stranger_cannot_talk(make_game):
    g, _ = _waiting(make_game)
    raw, conn = g.add_raw()
    ident = Identity.generate()
    body, sig = _say_bytes(ident, b"\x01" * 32, 0, 1, 0, "let me in")
    raw.outbox += Codec().send(Request(1, "say", ({"body": body, "sig": sig},)))
    g.link.pump()
    answer = [e for e in raw.events() if getattr(e, "msgid", None) == 1]
    assert answer and "say hello first" in answer[0].error.message
    assert not any(_texts(p) for p in g.peers)


@pytest.mark.long
def test_attack_a_flooding_seat_is_slowed_down_and_the_others_still_talk(make_game, clock):
    g, a = _waiting(make_game, clock=clock)
    b = g.peers[1]
    for i in range(8):
        a.say(f"spam {i}")
    g.link.pump()
    assert _texts(b) == [("Ada", f"spam {i}") for i in range(chat.BURST)]
    assert _refusals(a) == [SLOW_DOWN] * 3
    assert SLOW_DOWN.startswith("slow down: at most 5 messages in 10 seconds")
    b.say("calm down")
    g.link.pump()
    assert _texts(g.peers[2])[-1] == ("Bea", "calm down")
    clock.now += chat.BURST_SECONDS
    a.say("sorry")
    g.link.pump()
    assert _texts(b)[-1] == ("Ada", "sorry")
    _finish(g)
    # a refused message keeps its number (6, 7, 8): Ada never signs two messages for one
    assert [n for s, n, *_ in g.host.table.said if s == 0] == [1, 2, 3, 4, 5, 9]
    assert verify_bytes(g.host.table.transcript.to_bytes()).ok


def test_the_window_counts_a_minute_too(clock):
    w = chat.Window(clock)
    said = 0
    for _ in range(200):
        if w.allows():
            w.count()
            said += 1
        clock.now += 0.5
    # 100 seconds: 5 in each 10 seconds at most, and never more than 30 in any 60
    assert said == 50
    w2 = chat.Window(clock)
    for _ in range(chat.PER_MINUTE):
        w2.times.append(clock.now - 30)  # 30 said half a minute ago
    assert not w2.allows()
    clock.now += 30
    assert w2.allows()


# -- the record, as every reader checks it ---------------------------------------------------


@pytest.mark.parametrize("said, why", [
    ([], "non-empty list"),
    ("hi", "non-empty list"),
    ([{"n": 1, "after": 0}], "{n, after, text}"),
    ([{"n": 0, "after": 0, "text": "hi"}], "message 0 out of order: it comes after message 0"),
    ([{"n": 1, "after": 0, "text": "a"}, {"n": 1, "after": 0, "text": "b"}], "out of order"),
    ([{"n": 1, "after": 9, "text": "hi"}], "not from 0 to 5"),
    ([{"n": 1, "after": 3, "text": "a"}, {"n": 2, "after": 2, "text": "b"}], "not from 3 to 5"),
    ([{"n": 1, "after": 0, "text": "\x1b[31mred"}], "printable"),
    ([{"n": 1, "after": 0, "text": "y" * 201}], "1 to 200"),
    ([{"n": True, "after": 0, "text": "hi"}], "out of order"),
])
def test_every_reader_refuses_a_bad_record_of_talk_naming_its_author(said, why):
    with pytest.raises(CheatDetected) as e:
        check_record(said, 2, 5, 0, 0)
    assert e.value.seat == 2 and why in e.value.reason


def test_a_record_that_differs_from_the_live_message_is_a_conflict_not_a_refusal():
    recorded = check_record([{"n": 1, "after": 0, "text": "No deal"}], 1, 4, 0, 0)
    assert conflicts(recorded, {1: (0, "Deal?")}) == [(1, (0, "Deal?"), (0, "No deal"))]
    assert conflicts(recorded, {1: (0, "No deal")}) == [] == conflicts(recorded, {})
    assert check_record([{"n": 3, "after": 0, "text": "gap"}], 1, 4, 1, 0) == [(3, 0, "gap")]


def _conflicts(peer):
    return [n for n in _notes(peer) if "signed two messages" in n]


def test_attack_a_seat_recording_another_text_than_it_said_is_noted_and_the_game_goes_on(
        make_game):
    """Every reader that saw the live message notes the conflict against its one author, with
    both signed forms kept; nobody refuses the entry, so every reader keeps one record."""
    g, a = _waiting(make_game)
    a.say("Deal?")
    g.link.pump()
    a.table.said_out = [{"n": 1, "after": a.table.said_out[0]["after"], "text": "No deal"}]
    a.act(_bot().choose(a.view, 0))
    g.link.pump()
    assert g.host.table.talk_conflicts and g.host.table.talk_conflicts[0][:2] == (0, 1)
    for p in g.peers[1:]:
        assert p.state == "playing"
        proof = p.chat.evidence[0]
        assert _conflicts(p) == [f"table talk: Ada signed two messages 1, 'Deal?' and 'No deal' "
                                 f"(live, and in entry {proof['entry']}); both signatures are "
                                 "kept as evidence, and the game goes on"]
        said = chat.read_say(proof["body"], proof["sig"])
        assert chat.signed_by(said, a.identity.public_key) and said.text == "Deal?"
        assert g.host.table.transcript.entries[proof["entry"]].fields["said"][0]["text"] \
            == "No deal"  # the other form, signed in Ada's entry
        _talk_evidence_kept(p, "'Deal?' and 'No deal'")
    _finish(g)
    assert len(g.transcripts()) == 1


def _talk_evidence_kept(peer, texts):
    """``peer`` kept the conflict as a file of evidence that ``palazzo verify`` checks again,
    naming Ada (seat 0) for her talk; the game was not stopped for it."""
    saved = [e.data for e in peer.events if e.kind == "evidence"]
    assert len(saved) == 1 and "-talk-0-1" in saved[0], saved
    v = verify_bytes(Path(saved[0]).read_bytes())
    assert v.kind == "cheat" and v.seat == 0 and v.step == 1, v.text
    assert v.text == (f"cheat: Ada (seat 0): table talk: seat 0 signed two different messages "
                      f"numbered 1 ({texts}) (evidence checked)")
    assert peer.state == "playing" and peer.error is None


def test_attack_a_host_letting_a_changed_record_through_stops_no_game(make_game):
    g, a = _waiting(make_game)
    a.say("Deal?")
    g.link.pump()
    g.host.table.live.clear()  # the host sides with the seat: it forgets what it relayed
    a.table.said_out = [{"n": 1, "after": a.table.said_out[0]["after"], "text": "No deal"}]
    a.act(_bot().choose(a.view, 0))
    g.link.pump()
    for p in g.peers[1:]:
        assert p.state == "playing" and len(_conflicts(p)) == 1 and "Ada" in _conflicts(p)[0]
    _finish(g)
    assert verify_bytes(g.host.table.transcript.to_bytes()).ok  # alone, the record is consistent


def test_attack_verify_names_a_seat_whose_entry_carries_bad_talk(make_game):
    g, a = _waiting(make_game)
    a.table.said_out = [{"n": 1, "after": 0, "text": "clear\x1b[2J"}]
    g.host.table._check_said = lambda entry: []  # a host that checks nothing
    a.act(_bot().choose(a.view, 0))
    g.link.pump()
    # every reader refuses the entry; the host that confirmed it anyway is named, with its
    # signed confirmation of the seat's signed entry as the evidence
    for p in g.peers[1:]:
        assert p.state == "failed" and p.error.seat == HOST and "table talk" in str(p.error)
        assert p.error.evidence["kind"] == "confirmed"
    verdict = verify_bytes(g.host.table.transcript.to_bytes())
    assert verdict.kind == "cheat" and verdict.seat == 0 and "table talk" in verdict.text


# -- a malicious host ------------------------------------------------------------------------


def _said_note(identity, ctx, seat, n, after, text):
    s = make_say(identity, ctx, seat, n, after, text)
    return Notification("said", ({"seat": seat, "body": s.body, "sig": s.sig},))


def test_attack_a_host_forging_a_message_is_not_shown(make_game):
    g, a = _waiting(make_game)
    b = g.peers[1]
    forged = _said_note(g.host.identity, a.table.seats[0].nonce, 0, 1, 3, "I resign")
    b.receive_data(Codec().send(forged))
    assert _texts(b) == [] and b.state == "playing"
    assert _notes(b) == ["the host relayed a message Ada did not sign: not shown"]
    b.receive_data(Codec().send(Notification("said", ({"seat": 7, "body": b"", "sig": b""},))))
    assert "which is nobody" in _notes(b)[-1]
    b.receive_data(Codec().send(Notification("said", ({"seat": 0, "body": 5, "sig": b""},))))
    assert "malformed message of Ada" in _notes(b)[-1] and b.state == "playing"


def test_attack_a_host_replaying_a_message_shows_it_once(make_game, tamper):
    g, a = _waiting(make_game)
    b = g.peers[1]
    tamper(g, g.conns[1], lambda e: [e, e] if getattr(e, "method", "") == "said" else [e])
    a.say("Leave this region to me")
    g.link.pump()
    assert _texts(b) == [("Ada", "Leave this region to me")] and _notes(b) == []


def test_attack_a_message_of_another_game_is_not_shown(make_game):
    g, a = _waiting(make_game)
    b = g.peers[1]
    old = _said_note(a.identity, b"\x05" * 32, 0, 1, 0, "from last week")
    b.receive_data(Codec().send(old))
    assert _texts(b) == [] and "from another game" in _notes(b)[-1]


@pytest.mark.long
def test_attack_a_host_reordering_two_messages_is_noted_and_the_record_sets_it_right(
        make_game, tamper):
    g, a = _waiting(make_game)
    b = g.peers[1]
    held = []

    def swap(e):
        if getattr(e, "method", "") != "said":
            return [e]
        held.append(e)
        return list(reversed(held)) if len(held) == 2 else []

    tamper(g, g.conns[1], swap)
    a.say("first")
    a.say("second")
    g.link.pump()
    assert _texts(b) == [("Ada", "second")]
    assert _notes(b) == ["Ada's messages 1 did not reach this table (refused by the host, "
                         "withheld or missed)",
                         "the host relayed Ada's message 1 after message 2: out of order, not shown"]
    _finish(g)
    assert _texts(b, live=False) == [("Ada", "first")]  # from Ada's signed entry


@pytest.mark.long
def test_attack_a_host_withholding_a_message_from_one_peer_cannot_keep_it_from_the_record(
        make_game, tamper):
    g, a = _waiting(make_game)
    b, c = g.peers[1], g.peers[2]
    tamper(g, g.conns[2], lambda e: [] if getattr(e, "method", "") == "said" else [e])
    a.say("Let's not fight here")
    g.link.pump()
    assert _texts(b) == [("Ada", "Let's not fight here")] and _texts(c) == []
    _finish(g)
    assert _texts(c) == [("Ada", "Let's not fight here")]
    assert _texts(c, live=False) == [("Ada", "Let's not fight here")]
    assert len(g.transcripts()) == 1


@pytest.mark.long
def test_attack_a_seat_and_host_showing_two_texts_for_one_message_are_noted_not_stopping(
        make_game):
    g, a = _waiting(make_game)
    b = g.peers[1]
    ctx, at = a.table.seats[0].nonce, len(a.table.transcript)
    b.receive_data(Codec().send(_said_note(a.identity, ctx, 0, 1, at, "Deal?")))
    assert _texts(b) == [("Ada", "Deal?")]
    b.receive_data(Codec().send(_said_note(a.identity, ctx, 0, 1, at, "No deal")))
    assert b.state == "playing" and _texts(b) == [("Ada", "Deal?")]
    assert _conflicts(b) == ["table talk: Ada signed two messages 1, 'Deal?' and 'No deal' "
                             "(both live); both signatures are kept as evidence, and the game "
                             "goes on"]
    proof = b.chat.evidence[0]
    for body, sig in ((proof["body"], proof["sig"]), (proof["body2"], proof["sig2"])):
        assert chat.signed_by(chat.read_say(body, sig), a.identity.public_key)
    _talk_evidence_kept(b, "'Deal?' and 'No deal'")
    # passed on: the host checks it and relays it, and every other reader checks it again
    g.link.pump()
    c = g.peers[2]
    assert [str(e.data) for e in c.events if e.kind == "cheat"] == [
        "cheat detected: seat 0 at step 1: table talk: seat 0 signed two different messages "
        "numbered 1 ('Deal?' and 'No deal')"]
    assert c.state == "playing" and any(e.kind == "evidence" for e in c.events)
    _finish(g)
    assert len(g.transcripts()) == 1


# -- drops and restarts --------------------------------------------------------------------


def test_a_peer_back_from_a_drop_hears_what_it_missed(make_game):
    g, a = _waiting(make_game)
    b = g.peers[1]
    g.link.drop(g.conns[1])
    a.say("are you there?")
    g.link.pump()
    b.reconnect()
    g.conns[1] = g.link.add(b, _bot(5))
    g.link.pump()
    assert _texts(b) == [("Ada", "are you there?")]


@pytest.mark.long
def test_a_restarted_program_goes_on_counting_its_messages(make_game):
    g = make_game(3)
    me, journal = Identity.generate(), Journal()
    a = g.add_bot(0, name="Ada", identity=me, journal=journal, bot=None)
    g.add_bot(1, name="Bea")
    g.add_bot(2, name="Cy")
    g.link.pump()
    a.say("one")
    a.say("two")
    g.link.pump()
    g.link.drop(g.conns[0])  # the program dies; a new one starts with the same key and journal
    again = PeerSession(me, "Ada", journal=journal)
    g.peers[0] = again
    g.conns[0] = g.link.add(again)
    g.link.pump()
    assert [t for _, t in _texts(again)] == ["one", "two"]
    again.say("three")
    g.link.pump()
    g.link.bots[g.conns[0]] = _bot()
    g.link.pump()
    assert [p.state for p in g.peers] == ["over"] * 3
    assert [(n, t) for s, n, _, t, _ in g.host.table.said] == [(1, "one"), (2, "two"),
                                                               (3, "three")]
    assert _texts(g.peers[1]) == [("Ada", "one"), ("Ada", "two"), ("Ada", "three")]


def test_attack_a_watcher_cannot_talk(make_game):
    """A watcher (seat -1: ``hello`` with ``watch``) is refused before anything of its message
    is read."""
    from net.wire.errors import E_NOT_YOUR_SEAT, RemoteProtocolError

    g, a = _waiting(make_game)
    watcher = Identity.generate()
    body, sig = _say_bytes(watcher, b"\x02" * 32, 0, 1, 0, "I see your cards")
    with pytest.raises(RemoteProtocolError) as e:
        g.host.chat.say(-1, watcher.public_key, b"\x02" * 32, {"body": body, "sig": sig})
    assert e.value.code == E_NOT_YOUR_SEAT and "only a seated player" in str(e.value)
    # and through the host: a connection the host holds as seat -1 (a watcher) is refused
    # before any seat's state is looked at
    raw, conn = g.add_raw()
    g.host.conns[conn].seat = -1
    raw.outbox += Codec().send(Request(1, "say", ({"body": body, "sig": sig},)))
    g.link.pump()
    answer = [x for x in raw.events() if getattr(x, "msgid", None) == 1]
    assert answer and answer[0].error.code == E_NOT_YOUR_SEAT
    assert not any(_texts(p) for p in g.peers) and a.state == "playing"


def test_join_say_refuses_a_text_that_cannot_be_said_before_joining(capsys):
    from tui.cli import main

    assert main(["join", "127.0.0.1:1", "--bot", "greedy", "--say", "ok", "--say", "a\tb"]) == 2
    err = capsys.readouterr().err
    assert "--say 'a\\tb': a message is printable characters" in err
