"""Watchers (``net.session.features.watch``, ``net.session.commands.watcher``), sans-IO on the in-memory link: a
watcher follows a whole game on an observer table, from the lobby or from the middle, sees
only what the rules show everyone, saves the seats' very record, and can change nothing: not
post, not ready, not take a seat, not crowd the host, not flood it."""

import os

import pytest

from net.session.commands.watcher import lobby_line
from net.session.features import limits, watch
from net.session.machines.conversation import hello_signature
from net.session.machines.watch_session import WatchSession
from net.session.records.verify import verify_bytes
from net.session.runners.link import RawPeer
from net.wire.errors import (
    E_BUSY,
    E_FULL,
    E_NOT_YOUR_SEAT,
    E_WRONG_CODE,
    E_WRONG_PHASE,
    HOST,
    Fault,
    LocalProtocolError,
)
from net.wire.identity import Identity
from net.wire.rpc import Codec, Notification, Request, Response
from net.wire.transcript import Entry

from .test_nothing_revealed import _check_views
from .test_session import _steps_until

GAMES = [("medici", 3, {}), ("condottiere", 3, {"hidden_cards": True})]


def _watcher(g, name="Wat", identity=None, code=None, address="10.0.7.1"):
    w = WatchSession(identity or Identity.generate(), name, code if code is not None else g.host.code)
    conn = g.link.add(w, address=address)
    g.link.send(conn, w.data_to_send())  # its hello, answered at once
    return w, conn


def _answers(raw):
    return [e for e in raw.events() if isinstance(e, Response)]


def _notes(raw, method):
    return [e.params[0] for e in raw.events() if isinstance(e, Notification) and e.method == method]


def _raw_watcher(g, name="raw", identity=None, address="10.0.7.9", **extra):
    """A watcher driven by hand: it says a watch hello and is let in."""
    raw = RawPeer()
    conn = g.link.add(raw, address=address)
    challenge = raw.events()[0].params[0]
    me = identity or Identity.generate()
    hello = {"name": name, "key": me.public_key, "nonce": os.urandom(32), "code": g.host.code,
             "sig": hello_signature(me, challenge["nonce"], challenge["host"]), "watch": True,
             **extra}
    g.link.send(conn, Codec().send(Request(1, "hello", (hello,))))
    return raw, conn, me, challenge


# -- following ----------------------------------------------------------------------------------


@pytest.mark.long
@pytest.mark.parametrize("game, players, options", GAMES)
def test_a_watcher_follows_the_whole_game_seeing_only_what_the_rules_show_everyone(
        make_game, full_game, game, players, options):
    g = make_game(players, game=game, options=options)
    w, _ = _watcher(g)
    for i in range(players):
        g.add_bot(i)
    g.link.pump()
    assert g.host.finished and [p.state for p in g.peers] == ["over"] * players
    assert w.state == "over" and w.seat == -1 and w.table.me == HOST
    # the very record every seat saved, and it verifies
    record = w.table.transcript.to_bytes()
    assert g.transcripts() == {record} and verify_bytes(record).ok
    assert w.table.result() == g.peers[0].table.result()
    # at every step its view is the rules' view for a seat that holds nothing, whatever the
    # hidden cards were (only a test holding every seat's table can rebuild them)
    states = full_game([p.table for p in g.peers])
    _check_views(w.table, players, states)
    # and its log is the host's, an observer's: the public words, not a seat's
    assert w.table.log == g.host.table.log
    assert w.table.log != g.peers[0].table.log  # a seat hears its own cards: the test can fail


@pytest.mark.long
def test_a_watcher_that_comes_in_mid_game_gets_everything_so_far(make_game):
    g = make_game(3)
    for i in range(3):
        g.add_bot(i)
    _steps_until(g, 30)
    w, _ = _watcher(g)
    assert len(w.table.transcript) >= 30  # all of it at once, checked entry by entry
    g.link.pump()
    assert g.host.finished and w.state == "over"
    assert g.transcripts() == {w.table.transcript.to_bytes()}


@pytest.mark.long
def test_a_watcher_whose_connection_drops_comes_back_with_what_it_has(make_game):
    g = make_game(3)
    w, conn = _watcher(g)
    for i in range(3):
        g.add_bot(i)
    _steps_until(g, 20)
    g.link.drop(conn)
    assert w.state == "disconnected" and g.host.watchers() == []
    have = len(w.table.transcript)
    w.reconnect()
    sent = []
    deliver = g.link.deliver
    again = g.link._next + 1  # the id of its next connection

    def counting(outputs):
        sent.extend(o for o in outputs if o.conn == again and hasattr(o, "data"))
        deliver(outputs)

    g.link.deliver = counting
    g.link.add(w, address="10.0.7.1")
    g.link.pump()
    assert w.state == "over" and g.transcripts() == {w.table.transcript.to_bytes()}
    resent = [e for o in sent for e in Codec().receive_data(o.data)
              if isinstance(e, Notification) and e.method == "entry"]
    assert min(Entry.parse(e.params[0]["body"], e.params[0]["sig"]).seq for e in resent) >= have


def test_the_lobby_lists_the_watchers_to_every_seat_and_watcher_as_they_come_and_go(make_game):
    g = make_game(3)
    a = g.add_bot(0, bot=None)
    g.link.pump()
    assert "watchers" not in g.host.lobby()  # no watcher: the lobby is as it always was
    w1, c1 = _watcher(g, "Wanda")
    w2, _ = _watcher(g, "Walt")
    assert g.host.watchers() == ["Wanda", "Walt"]
    assert a.lobby["watchers"] == ["Wanda", "Walt"] and w1.lobby["watchers"] == ["Wanda", "Walt"]
    assert "watching: Wanda, Walt" in lobby_line(a.lobby)
    g.link.drop(c1)
    assert g.host.watchers() == ["Walt"] and a.lobby["watchers"] == ["Walt"]
    assert [s["name"] for s in g.host.lobby()["seats"]] == ["bot0"]  # no watcher took a seat
    assert w2.state == "lobby" and w2.seat == -1


@pytest.mark.long
def test_a_game_with_a_watcher_starts_and_ends_as_one_without(make_game):
    """A watcher is not a seat: the game starts when the seats are ready, the watcher counted
    nowhere, and the start names the seats only."""
    g = make_game(3)
    w, _ = _watcher(g)
    g.add_bot(0)
    g.add_bot(1)
    g.link.pump()
    assert g.host.table.phase == "lobby" and w.state == "lobby"
    g.add_bot(2)
    g.link.pump()
    start = g.host.table.transcript.entries[0]
    assert [s["key"] for s in start.fields["seats"]] == [p.identity.public_key for p in g.peers]
    assert w.identity.public_key not in [s["key"] for s in start.fields["seats"]]
    assert g.host.finished and w.state == "over"


def test_a_watcher_may_not_act_or_be_ready_on_its_side_either(make_game):
    g = make_game(3)
    w, _ = _watcher(g)
    assert not w.decision_due()
    with pytest.raises(LocalProtocolError):
        w.act(None)
    with pytest.raises(LocalProtocolError):
        w.ready()


# -- attacks by a watcher -----------------------------------------------------------------------


@pytest.mark.long
def test_attack_a_watcher_posting_an_entry_is_refused_and_nothing_is_relayed(make_game, played):
    """A watcher posts an entry: one of a seat's, replayed from another game, and one it signs
    itself as seat 0 and as the host. Each is refused with E_NOT_YOUR_SEAT; nothing reaches the
    seats and the game goes on."""
    g = make_game(3)
    raw, conn, me, _ = _raw_watcher(g)
    for i in range(3):
        g.add_bot(i)
    _steps_until(g, 10)
    n = len(g.host.table.transcript)
    t = g.host.table
    theirs = next(e for e in played.host.table.transcript.entries  # a seat's, small enough
                  if e.author >= 0 and len(e.body) < 1000)
    header = {"game": t.game_id, "seq": n, "prev": t.transcript.head, "kind": "forfeit",
              "seat": 0, "reason": "watcher says so"}
    forged = [Entry.sign(me, {**header, "author": a}) for a in (0, HOST)]
    for i, entry in enumerate([theirs, *forged], 2):
        g.link.send(conn, Codec().send(Request(i, "post", (entry.to_wire(),))))
    refusals = [a.error for a in _answers(raw)[1:]]
    assert [r.code for r in refusals] == [E_NOT_YOUR_SEAT] * 3
    assert "watcher holds no seat: it may not post an entry" in refusals[0].message
    assert len(g.host.table.transcript) == n and not raw.closed
    # a large one (a seat's deck entry) is more than a watcher may send at all: a frame error
    big = next(e for e in played.host.table.transcript.entries if len(e.body) > 5000)
    g.link.send(conn, Codec().send(Request(9, "post", (big.to_wire(),))))
    assert raw.closed and "frame larger than" in _notes(raw, "error")[-1]["message"]
    assert len(g.host.table.transcript) == n
    g.link.pump()
    assert g.host.finished and [p.state for p in g.peers] == ["over"] * 3
    assert all(e.fields.get("reason") != "watcher says so" for e in t.transcript.entries)


def test_attack_a_watcher_saying_ready_is_refused_and_starts_nothing(make_game):
    g = make_game(3)
    raw, conn, _, _ = _raw_watcher(g)
    g.add_bot(0)
    g.add_bot(1, bot=None)
    g.link.pump()
    g.link.send(conn, Codec().send(Request(2, "ready", ())))
    assert _answers(raw)[-1].error.code == E_NOT_YOUR_SEAT
    assert [s.ready for s in g.host.seats] == [True, True] and g.host.table.phase == "lobby"


def test_attack_a_watcher_saying_hello_twice_or_asking_for_a_seat_is_refused(make_game):
    """On its connection a second hello, watching or not (with its own key or a fresh one), is
    refused; the watcher stays a watcher and no seat is taken."""
    g = make_game(3)
    raw, conn, me, challenge = _raw_watcher(g)
    assert _answers(raw)[0].result["seat"] == -1
    for i, (key, watching) in enumerate([(me, True), (me, False), (Identity.generate(), False)], 2):
        hello = {"name": "seat me", "key": key.public_key, "nonce": os.urandom(32),
                 "sig": hello_signature(key, challenge["nonce"], challenge["host"]),
                 **({"watch": True} if watching else {})}
        g.link.send(conn, Codec().send(Request(i, "hello", (hello,))))
    assert [a.error.code for a in _answers(raw)[1:]] == [E_WRONG_PHASE] * 3
    assert g.host.seats == [] and g.host.watchers() == ["raw"]


def test_attack_a_watch_hello_with_a_malformed_watch_field_is_refused(make_game):
    g = make_game(3)
    raw, _, _, _ = _raw_watcher(g, watch=1)
    (answer,) = _answers(raw)
    assert answer.error is not None and "'watch'" in answer.error.message
    assert g.host.watchers() == [] and g.host.seats == []


@pytest.mark.long
def test_attack_a_ninth_watcher_is_refused_and_closed(make_game):
    g = make_game(3)
    for i in range(watch.MAX_WATCHERS):
        _watcher(g, f"w{i}", address=f"10.0.8.{i}")
    raw, _, _, _ = _raw_watcher(g, "ninth")
    (answer,) = _answers(raw)
    assert answer.error.code == E_FULL and "8 watchers already" in answer.error.message
    assert raw.closed and len(g.host.watchers()) == watch.MAX_WATCHERS
    # the players still get in, and the game is played
    for i in range(3):
        g.add_bot(i)
    g.link.pump()
    assert g.host.finished


@pytest.mark.long
def test_attack_a_watcher_with_a_seated_players_key_takes_nothing_from_the_seat(make_game):
    """A player's own key watching (from another program): the seat is not claimed, its
    program is not pinged, and the game goes on."""
    g = make_game(3)
    for i in range(3):
        g.add_bot(i)
    _steps_until(g, 10)
    seat0 = g.host.seats[0].conn
    w, _ = _watcher(g, "bot0", identity=g.peers[0].identity)
    assert w.seat == -1 and g.host.seats[0].conn == seat0 and seat0 in g.link.peers
    assert g.host.conns[seat0].ping is None and g.peers[0].state == "playing"
    g.link.pump()
    assert g.host.finished and w.state == "over" and g.peers[0].state == "over"


@pytest.mark.long
def test_attack_a_watcher_flooding_the_host_is_closed_and_the_game_goes_on(make_game, clock):
    g = make_game(3, clock=clock)
    raw, conn, _, _ = _raw_watcher(g)
    for i in range(3):
        g.add_bot(i)
    _steps_until(g, 10)
    g.link.send(conn, Codec().send(Request(9, "ready", ())) * 1000)
    assert raw.closed and _notes(raw, "error")[-1]["code"] == E_BUSY
    assert len(_answers(raw)) == 1 + watch.BURST  # the hello, the burst; the rest never read
    assert g.host.watchers() == []
    g.link.pump()
    assert g.host.finished and [p.state for p in g.peers] == ["over"] * 3


@pytest.mark.long
def test_attack_a_watcher_coming_again_and_again_to_pull_the_record_is_slowed(make_game, clock):
    """Each watch hello let in costs the host the whole record; from one address only
    ``ADMIT_BURST`` come in at once, then one per ``ADMIT_EVERY`` seconds: the next is told to
    come back later (a retry) and sent no entry."""
    g = make_game(3, clock=clock)
    for i in range(3):
        g.add_bot(i)
    _steps_until(g, 30)
    n = len(g.host.table.transcript)
    for _ in range(watch.ADMIT_BURST):
        raw, conn, _, _ = _raw_watcher(g, address="10.0.9.9")
        assert len(_notes(raw, "entry")) == n
        g.link.drop(conn)
    raw, _, _, _ = _raw_watcher(g, address="10.0.9.9")
    assert raw.closed and _notes(raw, "entry") == [] and _answers(raw) == []
    assert _notes(raw, "error")[-1]["code"] == E_BUSY and "watch again in" in _notes(
        raw, "error")[-1]["message"]
    other, _, _, _ = _raw_watcher(g, address="10.0.9.10")  # another address is not slowed
    assert len(_notes(other, "entry")) == n
    clock.now += watch.ADMIT_EVERY
    again, _, _, _ = _raw_watcher(g, address="10.0.9.9")
    assert len(_notes(again, "entry")) == n
    g.link.pump()
    assert g.host.finished


@pytest.mark.long
def test_a_watcher_gets_a_small_budget_but_an_honest_one_never_meets_it(make_game, clock):
    assert watch.BURST < limits.REQUEST_BURST
    g = make_game(3, clock=clock)
    w, _ = _watcher(g)
    for i in range(3):
        g.add_bot(i)
    g.link.pump()  # the clock never moves: the watcher's whole game in its burst
    assert w.state == "over"


def test_attack_a_watcher_without_the_code_is_refused(make_game):
    g = make_game(3, code="ROOK-MITRE-LILY-4242")
    w, _ = _watcher(g, code="ROOK-ROOK-ROOK-0000")
    assert w.state == "failed" and w.error.code == E_WRONG_CODE and g.host.watchers() == []


def test_a_stranger_flood_still_cannot_crowd_out_watchers_or_seats(make_game):
    """Watchers are not strangers: a crowd of idle connections closes strangers for room, never
    a watcher."""
    g = make_game(3)
    w, _ = _watcher(g)
    for i in range(limits.MAX_CONNECTIONS):
        g.link.add(RawPeer(), address=f"10.1.{i // 200}.{i % 200}")
    assert g.host.watchers() == ["Wat"] and w.state == "lobby"


# -- attacks by a host on a watcher -------------------------------------------------------------


def test_attack_a_host_that_seats_a_watcher_is_refused_by_it(make_game):
    """A host that answers a watch hello with a seat (one that does not know watchers) is
    refused: a watcher never plays."""
    g = make_game(3)
    real = g.host._watch

    def seat_it(conn, name, key, nonce, have):
        answer = real(conn, name, key, nonce, have)
        return {**answer, "seat": 0}

    g.host._watch = seat_it
    w, _ = _watcher(g)
    assert w.state == "failed" and "does not take watchers" in str(w.error)


@pytest.mark.long
def test_attack_an_entry_changed_on_the_way_to_a_watcher_is_a_fault_and_the_game_goes_on(
        make_game, tamper):
    """Changed after the host signed it: nothing signed shows who changed it (a host that
    signs a changed entry is named: ``test_relayed_evidence.py``)."""
    g = make_game(3)
    w, conn = _watcher(g)
    for i in range(3):
        g.add_bot(i)

    def change(e):
        if isinstance(e, Notification) and e.method == "entry":
            entry = Entry.parse(e.params[0]["body"], e.params[0]["sig"])
            if entry.seq == 5:
                body = bytearray(entry.body)
                body[-1] ^= 1
                return [Notification("entry", ({"body": bytes(body), "sig": entry.sig},))]
        return [e]

    tamper(g, conn, change)
    g.link.pump()
    assert w.state == "failed" and isinstance(w.error, Fault) and "nobody is named" in str(w.error)
    assert g.host.finished and [p.state for p in g.peers] == ["over"] * 3  # the game went on


def test_attack_a_host_that_does_not_prove_its_key_to_a_watcher_is_refused(make_game, tamper):
    g = make_game(3)
    w = WatchSession(Identity.generate(), "Wat")
    conn = g.link._next + 1

    def forge(e):
        if isinstance(e, Response) and type(e.result) is dict and "proof" in e.result:
            return [Response(e.msgid, None, {**e.result, "proof": bytes(64)})]
        return [e]

    tamper(g, conn, forge)
    g.link.add(w, address="10.0.7.1")
    g.link.pump()
    assert w.state == "failed" and "did not prove its key" in str(w.error)


def test_attack_a_host_that_lists_a_flood_of_watchers_is_shown_eight_names_at_most():
    from tui.screens.lobby import lobby_text

    lobby = {"players": 3, "seats": [], "watchers": ["W" * 500] * 1000}
    assert len(lobby_line(lobby)) < 400
    assert len(lobby_text(lobby).plain) < 400
    assert lobby_line({"players": 3, "seats": [], "watchers": 7}) == "lobby 0/3: no seat taken yet"
    assert lobby_line({"players": 3, "seats": 5}) == "lobby 0/3: no seat taken yet"
    assert lobby_line({"players": 3, "seats": [1, {"name": "Ada"}]}).startswith("lobby 1/3: Ada")


def test_a_watcher_does_not_talk_at_the_table(make_game):
    g = make_game(3)
    w, _ = _watcher(g)
    with pytest.raises(LocalProtocolError, match="does not talk"):
        w.say("I see your cards")


def test_a_broadcast_reaches_seats_and_watchers_but_not_strangers(make_game):
    """Everything the host tells every seat goes through one helper, and so to every watcher
    too (a stranger, who has said no hello, hears none of it)."""
    g = make_game(3)
    seat = g.add_bot(0, bot=None)
    g.link.pump()
    raw, conn, _, _ = _raw_watcher(g)
    stranger = RawPeer()
    g.link.add(stranger, address="10.0.7.77")
    g.host._broadcast("lobby", {"game": "medici", "players": 3, "seats": [], "note": "to all"})
    g.link.deliver(g.host.take_output())
    assert _notes(raw, "lobby")[-1].get("note") == "to all"
    assert seat.lobby.get("note") == "to all"
    assert _notes(stranger, "lobby") == []
    g.host._broadcast("lobby", {"game": "medici", "players": 3, "seats": [], "note": "not you"},
                      but=conn)  # an author's own message need not come back to it
    g.link.deliver(g.host.take_output())
    assert _notes(raw, "lobby")[-1].get("note") == "to all"
    assert seat.lobby.get("note") == "not you"


def test_a_watcher_hears_the_table_talk_and_the_presence_that_names_it(make_game):
    """What the host tells every seat about the table (who is here, who talks) reaches the
    watchers too: the talk as its author signed it, and the presence with the watcher named."""
    g = make_game(3)
    w, _ = _watcher(g)
    talker = g.add_bot(0, bot=None)
    for i in (1, 2):
        g.add_bot(i, bot=None)
    g.link.pump()
    assert g.host.table.phase != "lobby"
    talker.say("watch this")
    g.link.send(g.conns[0], talker.data_to_send())
    g.link.pump()
    heard = [data for kind, data, _ in w.chat.lines if kind == "said"]
    assert heard and "watch this" in str(heard[-1])
    assert w.presence is not None and w.presence.watchers == ("Wat",)
    assert [s.state for s in w.presence.seats] == ["here"] * 3
