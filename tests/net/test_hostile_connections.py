"""Findings of a hostile run against the host, connection by connection, reproduced sans-IO on
the in-memory link with a fake clock (``net.session.features.limits``, ``net.session.features.code``):

* 64 idle connections locked everyone out: no new player could join and no seated player rejoin;
* one stranger's flood of tiny requests slowed the game, each refusal logged;
* the game code fell to guessing: no delay, no lockout, 200,000 codes.
"""

import logging
import math
import os
import random

import pytest

from engine.registry import get_game
from net.session.features import limits
from net.session.features.code import (
    CHECK_BURST,
    CHECK_RATE,
    CODE_SPACE,
    CODE_WORDS,
    DELAY_MAX,
    FREE_WRONG,
    new_code,
)
from net.session.machines.conversation import hello_signature
from net.session.machines.peer_session import PeerSession
from net.session.records.journal import Journal
from net.session.runners.link import RawPeer
from net.wire.errors import E_BUSY, E_TIMEOUT, E_WRONG_CODE
from net.wire.identity import Identity
from net.wire.rpc import Codec, Notification, Request, Response

from .test_session import _steps_until


def _errors(raw):
    return [e.params[0] for e in raw.events() if isinstance(e, Notification) and e.method == "error"]


def _answers(raw):
    return [e for e in raw.events() if isinstance(e, Response)]


def _lobbies(peer):
    return sum(e.kind == "lobby" for e in peer.events)


def _idle(g, n, address=lambda i: "10.0.0.66"):
    raws = []
    for i in range(n):
        raw = RawPeer()
        g.link.add(raw, address=address(i))
        raws.append(raw)
    return raws


# -- idle connections -----------------------------------------------------------------------------


@pytest.mark.long
@pytest.mark.parametrize("spread", [False, True], ids=["one address", "64 addresses"])
def test_64_idle_connections_neither_keep_a_player_out_nor_a_seat_from_coming_back(
        make_game, clock, spread):
    g = make_game(3, clock=clock)
    ids = [Identity.generate() for _ in range(3)]
    entry = get_game("medici")
    for i in range(2):
        g.add_bot(i, identity=ids[i])
    g.link.pump()
    where = (lambda i: f"10.0.1.{i}") if spread else (lambda i: "10.0.0.66")
    idle = _idle(g, 64, where)
    assert sum(not c.closed for c in g.host.conns.values()) <= limits.MAX_CONNECTIONS
    # a new player joins beside them, from the attacker's own address too
    g.link.add(PeerSession(ids[2], "newcomer"), entry.make_bot("greedy", random.Random(2)),
               address=where(0))
    g.peers.append(g.link.peers[g.link._next])
    g.conns.append(g.link._next)
    _steps_until(g, 30)
    assert len(g.host.seats) == 3 and g.host.table.phase != "lobby"
    # a seated player drops; the idle ones fill the host again; the player comes back
    g.link.drop(g.conns[1])
    idle += _idle(g, 64, where)
    back = PeerSession(ids[1], "back", journal=g.peers[1].journal)  # the same program's record
    g.link.add(back, entry.make_bot("greedy", random.Random(7)), address=where(1))
    g.peers[1] = back
    g.link.pump()
    assert g.host.finished and [p.state for p in g.peers] == ["over"] * 3
    # the strangers that made room were told why
    told = [e for raw in idle for e in _errors(raw)]
    assert told and {e["code"] for e in told} == {E_BUSY}
    assert all(raw.closed for raw in idle[:64 - limits.STRANGERS_PER_ADDRESS])


def test_a_stranger_that_says_no_hello_is_closed_after_the_hello_timeout(make_game, clock):
    g = make_game(3, clock=clock)
    (raw,) = _idle(g, 1)
    clock.now += limits.HELLO_TIMEOUT - 0.1
    g.link.deliver(g.host.tick())
    assert not raw.closed
    clock.now += 0.1
    g.link.deliver(g.host.tick())
    assert raw.closed
    assert _errors(raw) == [{"code": E_TIMEOUT, "message": "no seat taken within 5 seconds of "
                             "connecting"}]


def test_a_seated_player_is_never_closed_for_idling(make_game, clock):
    g = make_game(3, clock=clock)
    ada = g.add_bot(0, bot=None)
    g.link.pump()
    clock.now += 1000
    g.link.deliver(g.host.tick())
    assert ada.state == "lobby" and not g.host.conns[g.conns[0]].closed


# -- floods ---------------------------------------------------------------------------------------


@pytest.mark.long
def test_a_strangers_flood_is_cut_after_a_few_requests_and_logged_a_few_times(make_game, clock,
                                                                              caplog):
    g = make_game(3, clock=clock)
    caplog.set_level(logging.WARNING, "palazzo.net")
    flood = Codec().send(Request(1, "ready", ())) * 10_000
    strangers = []
    for _ in range(50):  # one stranger after another, from one address
        (raw,) = _idle(g, 1)
        g.link.send(g.link._next, flood)
        g.link.send(g.link._next, flood)  # not even parsed
        assert not g.host.reading(g.link._next)
        assert len(_answers(raw)) == limits.STRANGER_REQUESTS
        assert _errors(raw)[-1]["code"] == E_BUSY
        strangers.append(raw)
    # a muted stranger holds its place among its address's strangers until it is closed to make
    # room, or at its hello timeout
    assert sum(not raw.closed for raw in strangers) == limits.STRANGERS_PER_ADDRESS
    clock.now += limits.HELLO_TIMEOUT
    g.link.deliver(g.host.tick())
    assert all(raw.closed for raw in strangers)
    lines = [r for r in caplog.records if r.name == "palazzo.net"]
    assert len(lines) == 1  # for 50 x 20,000 frames: one line in the minute
    # once the minute is over, one line counts what was left out, and nothing more is said
    clock.now += limits.SUMMARY_EVERY - limits.HELLO_TIMEOUT
    g.link.deliver(g.host.tick())
    g.link.deliver(g.host.tick())
    lines = [r.getMessage() for r in caplog.records if r.name == "palazzo.net"]
    assert len(lines) == 2 and "of connections without a seat in the last 60 seconds" in lines[-1]
    assert "from 1 address " in lines[-1]
    # the game goes on beside it
    for i in range(3):
        g.add_bot(i)
    g.link.pump()
    assert g.host.finished


def test_a_seated_flood_is_closed_and_its_player_may_come_back(make_game, clock):
    g = make_game(3, clock=clock)
    me = Identity.generate()
    raw = RawPeer()
    conn = g.link.add(raw, address="10.0.0.5")
    challenge = raw.events()[0].params[0]
    record = Journal()  # the player's program: it keeps what it contributed
    nonce = os.urandom(32)
    record.contribute(nonce)
    hello = {"name": "flood", "key": me.public_key, "nonce": nonce,
             "sig": hello_signature(me, challenge["nonce"], challenge["host"])}
    g.link.send(conn, Codec().send(Request(1, "hello", (hello,))))
    assert _answers(raw)[0].result["seat"] == 0
    others = [g.add_bot(i, bot=None) for i in (1, 2)]
    g.link.pump()
    before = [_lobbies(p) for p in others]
    g.link.send(conn, Codec().send(Request(7, "ready", ())) * (limits.REQUEST_BURST + 50))
    assert raw.closed and _errors(raw)[-1]["code"] == E_BUSY
    assert len(_answers(raw)) == 1 + limits.REQUEST_BURST  # the rest was never read
    # a second ready tells nobody anything: the others heard of the first (which started the
    # game) and of the seat going offline, not of 400 readies
    assert [_lobbies(p) for p in others] == [n + 2 for n in before]
    assert g.host.table.phase != "lobby"
    # the player comes back with the same key, and the game is played
    back = g.add_bot(0, identity=me, journal=record)
    for i in range(len(others)):  # the others, held so far, now play too
        g.link.bots[g.conns[i]] = get_game("medici").make_bot("greedy", random.Random(i))
    g.link.pump()
    assert g.host.finished and back.state == "over"


@pytest.mark.long
def test_an_honest_game_never_meets_the_request_budget(make_game, clock):
    g = make_game(3, game="condottiere", clock=clock)
    entry = get_game("condottiere")
    peers = [PeerSession(Identity.generate(), f"p{i}") for i in range(3)]
    for i, p in enumerate(peers):  # each from an address of its own, as over a network
        g.link.add(p, entry.make_bot("greedy", random.Random(i)), address=f"10.0.2.{i}")
    g.link.pump()  # the fake clock never moves here: the whole game is one burst
    assert g.host.finished and [p.state for p in peers] == ["over"] * 3
    posts = [sum(e.author == i for e in g.host.table.transcript.entries) for i in range(3)]
    assert max(posts) < limits.REQUEST_BURST


# -- guessing the code ----------------------------------------------------------------------------


def _hello(g, address, code, identity=None):
    raw = RawPeer()
    conn = g.link.add(raw, address=address)
    challenge = raw.events()[0].params[0]
    me = identity or Identity.generate()
    hello = {"name": "guess", "key": me.public_key, "code": code, "nonce": os.urandom(32),
             "sig": hello_signature(me, challenge["nonce"], challenge["host"])}
    g.link.send(conn, Codec().send(Request(1, "hello", (hello,))))
    (answer,) = _answers(raw)
    return answer


def _pending_hello(g, address, code, identity=None):
    """A hello sent; its raw peer (the answer may wait for its turn)."""
    raw = RawPeer()
    conn = g.link.add(raw, address=address)
    challenge = raw.events()[0].params[0]
    me = identity or Identity.generate()
    hello = {"name": "guess", "key": me.public_key, "code": code, "nonce": os.urandom(32),
             "sig": hello_signature(me, challenge["nonce"], challenge["host"])}
    g.link.send(conn, Codec().send(Request(1, "hello", (hello,))))
    return raw


def _answer_within(g, clock, raw, seconds):
    """The hello's answer, the host ticking every 0.1 s for up to ``seconds``; and when."""
    start = clock.now
    while True:
        answers = _answers(raw)
        if answers:
            return answers[0], clock.now - start
        if clock.now - start > seconds:
            return None, clock.now - start
        clock.now += 0.1
        g.link.deliver(g.host.tick())


def test_wrong_codes_from_an_address_delay_the_right_code_a_few_seconds_never_ban_it(
        make_game, clock):
    code = new_code()
    g = make_game(3, code=code, clock=clock)
    for i in range(FREE_WRONG + 30):  # a stranger at the same address (a NAT) guesses on
        guess = _pending_hello(g, "10.9.9.9", f"ROOK-ROOK-ROOK-{i:04d}")
        answer, _ = _answer_within(g, clock, guess, 5)
        assert answer.error.code == E_WRONG_CODE
    assert "checked in 2 seconds" in answer.error.message  # a delay, at most DELAY_MAX
    # an honest player at that address, with the right code, is in within a few seconds
    answer, waited = _answer_within(g, clock, _pending_hello(g, "10.9.9.9", code), 10)
    assert answer is not None and answer.error is None and waited <= DELAY_MAX + 0.5
    assert len(g.host.seats) == 1
    # another address was never slowed
    answer, waited = _answer_within(g, clock, _pending_hello(g, "10.9.9.10", code), 10)
    assert answer.error is None and waited < 0.5


def test_attack_many_addresses_guess_no_faster_than_the_hosts_budget(make_game, clock):
    code = new_code()
    g = make_game(3, code=code, clock=clock)
    raws = [_pending_hello(g, f"10.{i // 250}.{i % 250}.1", f"OWL-OWL-OWL-{i:04d}")
            for i in range(60)]  # sixty addresses at once, then the host's clock runs 1 s
    checked_at_once = sum(bool(_answers(r)) for r in raws)
    for _ in range(10):
        clock.now += 0.1
        g.link.deliver(g.host.tick())
    checked = sum(bool(_answers(r)) for r in raws)
    assert checked_at_once == CHECK_BURST
    assert checked <= CHECK_BURST + CHECK_RATE * 1.0 + 1
    assert all(a.error.code == E_WRONG_CODE for r in raws for a in _answers(r))
    for _ in range(30):  # every guess answered, 20 a second
        clock.now += 0.1
        g.link.deliver(g.host.tick())
    assert all(_answers(r) for r in raws)
    # the same addresses guess again; an honest player from an address that never gave a
    # wrong code goes before every one of them
    raws = [_pending_hello(g, f"10.{i // 250}.{i % 250}.1", f"OWL-OWL-OWL-{i + 100:04d}")
            for i in range(60)]
    honest = _pending_hello(g, "192.168.1.20", code)
    answer, waited = _answer_within(g, clock, honest, 5)
    assert answer.error is None and waited <= 0.2


def test_attack_the_guard_forgets_no_guesser_to_make_room(clock):
    from net.session.features import code as codes

    guard = codes.CodeGuard(clock)
    for _ in range(FREE_WRONG + 3):
        guard.wrong("10.1.1.1")
    for i in range(codes.MAX_TRACKED + 10):  # a sweep of addresses, one wrong code each
        guard.wrong(f"v6-{i}")
    assert guard.rank("10.1.1.1") == FREE_WRONG + 3 and guard.delay("10.1.1.1") > 0


def test_a_seated_key_comes_back_without_waiting_for_a_turn(make_game, clock):
    code = new_code()
    g = make_game(3, code=code, clock=clock)
    me = Identity.generate()
    assert _hello(g, "10.7.7.7", code, me).error is None
    for _ in range(FREE_WRONG + 3):
        clock.now += 0.5
        _answer_within(g, clock, _pending_hello(g, "10.7.7.7", "WOLF-WOLF-WOLF-1111"), 5)
    answer = _hello(g, "10.7.7.7", code, me)  # no code check, so no delay
    assert answer.error is None and answer.result["seat"] == 0


def test_the_code_takes_a_century_to_guess_at_the_hosts_most_checks():
    from net.session.features import code as codes

    assert len(CODE_WORDS) == 256 and CODE_SPACE == 256**3 * 10**4
    years = codes.HALF_CODES_SECONDS / (365.25 * 24 * 3600)
    assert years >= 100 and math.log2(CODE_SPACE) > 37


def test_attack_a_connection_waiting_for_its_turn_queues_no_second_hello(make_game, clock):
    code = new_code()
    g = make_game(3, code=code, clock=clock)
    for i in range(CHECK_BURST):  # the budget is spent
        _pending_hello(g, f"10.5.5.{i}", f"OWL-OWL-OWL-{i:04d}")
    raw = RawPeer()
    conn = g.link.add(raw, address="10.6.6.6")
    challenge = raw.events()[0].params[0]
    me, codec = Identity.generate(), Codec()
    hellos = b"".join(codec.send(Request(n, "hello", ({
        "name": "guess", "key": me.public_key, "code": f"OWL-OWL-OWL-{n + 100:04d}",
        "nonce": os.urandom(32), "sig": hello_signature(me, challenge["nonce"],
                                                        challenge["host"])},))) for n in (1, 2, 3))
    g.link.send(conn, hellos)
    answers = _answers(raw)
    assert [a.msgid for a in answers] == [2, 3] and all(a.error for a in answers)
    assert len(g.host._turns) == 1  # one turn for the connection, one code checked at most
