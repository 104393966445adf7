"""A rematch after the end (``net.session.features.rematch``), sans-IO: every seat agrees and the same
seats play a fresh game with the same settings; a seat that leaves, or does not answer in time,
declines and the others are told; and the attacks: a seat asking before the end, twice, or for
another seat; a host that starts another table than the one agreed, replays the old start, or
starts a rematch a seat never asked for."""

import random
from dataclasses import replace

import pytest

from engine.registry import get_game
from net.session.features import rematch
from net.session.features.rematch import REMATCH_WAIT, Expected
from net.session.machines.agreement import sign_ack
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.records.journal import Journal
from net.session.records.verify import verify_bytes
from net.session.runners.link import MemoryLink
from net.wire.errors import E_BAD_PARAMS, E_WRONG_PHASE, Fault
from net.wire.identity import Identity
from net.wire.rpc import Notification
from net.wire.transcript import chain
from tests.net.conftest import FakeClock, Game, TolerantPeer

NAMES = ["Ada", "Bo", "Jo"]


def _lines(peer):
    return [e.data for e in peer.events if e.kind == "rematch"]


def first_game(make_game, asking=(0, 1, 2), **kw):
    """A finished 3-player game on a host that offers a rematch; the seats in ``asking`` ask
    for one at once (their bots agree), the others wait at the end screen."""
    g = make_game(3, **kw)
    g.host.rematch.offer()
    for i in range(3):
        p = g.add_bot(i, name=NAMES[i], identity=Identity.generate(), journal=Journal())
        p.rematch.wanted = True
        p.rematch.auto = i in asking
    g.link.pump()
    assert [p.state for p in g.peers] == ["over"] * 3
    return g


def next_game(g, host=None, expect=True):
    """The rematch of ``g``'s game: ``host`` (by default the honest ``next_host``) and a fresh
    session for every seat with the same key and journal, expecting the agreed start."""
    new = host or rematch.next_host(g.host)
    n = Game(new, MemoryLink(new))
    for i, old in enumerate(g.peers):
        p = n.add_bot(i + 10, name=NAMES[i], identity=old.identity, journal=old.journal)
        if expect:
            p.expect = Expected.of(old.table)
    return n


@pytest.mark.long
def test_every_seat_agrees_and_the_same_seats_play_a_fresh_verified_game(make_game):
    g = first_game(make_game)
    assert g.host.rematch.go
    for p in g.peers:
        assert p.rematch.go and _lines(p)[-1] == "Play again: everyone agreed; the new game starts"
    assert all(g.link.peers.get(c) is None for c in g.conns)  # the host closed every connection
    n = next_game(g)
    n.link.pump()
    assert n.host.finished and [p.state for p in n.peers] == ["over"] * 3
    old, new = g.host.table, n.host.table
    assert [s.key for s in new.seats] == [s.key for s in old.seats]
    assert [s.name for s in new.seats] == NAMES
    assert new.config == old.config and new.game == old.game
    assert new.game_id != old.game_id
    assert new.transcript.to_bytes() != old.transcript.to_bytes()
    assert verify_bytes(old.transcript.to_bytes()).ok and verify_bytes(new.transcript.to_bytes()).ok
    for p in g.peers:  # the old game stays finished for every seat
        assert p.journal.finished(old.game_id)


def test_a_stranger_connected_during_the_wait_is_closed_when_the_rematch_starts(make_game):
    g = first_game(make_game, asking=(0, 1))
    raw, _ = g.add_raw()  # it never says hello: the old session would read it no more
    assert not raw.closed
    g.peers[2].again()
    g.link.pump()
    assert g.host.rematch.go and raw.closed


def test_the_end_screen_line_counts_the_answers_and_a_seat_that_leaves_declines(make_game):
    g = first_game(make_game, asking=(0, 1))
    assert g.host.rematch.waiting
    assert _lines(g.peers[0])[-1] == "Play again: 2 of 3 agreed; waiting for Jo"
    assert _lines(g.peers[2])[-1] == "Play again: 2 of 3 agreed; waiting for Jo"
    g.link.drop(g.conns[2])  # Jo leaves
    assert g.host.rematch.state == "off"
    for p in g.peers[:2]:
        assert _lines(p)[-1] == "Jo left: no rematch" and not p.lingers()
        assert p.state == "over"  # the game that ended is not touched
    with pytest.raises(Exception, match="once, after the end"):
        g.peers[0].again()


def test_a_seat_without_a_connection_at_the_end_has_declined_at_once(clock):
    r = rematch.HostRematch(clock)
    r.offer()
    keys = [Identity.generate().public_key for _ in range(3)]
    assert r.begin(keys, [True, True, False])
    assert r.state == "off" and r.message() == {"agreed": [], "declined": [2]}


@pytest.mark.long
def test_seats_that_do_not_answer_in_time_decline(make_game, clock):
    g = first_game(make_game, asking=(0,), clock=clock)
    clock.now += REMATCH_WAIT - 1
    g.link.deliver(g.host.tick())
    assert g.host.rematch.waiting
    clock.now += 1
    g.link.deliver(g.host.tick())
    assert g.host.rematch.state == "off" and g.host.rematch.declined == {1, 2}
    assert _lines(g.peers[0])[-1] == "Bo and Jo did not answer in time: no rematch"


@pytest.mark.long
def test_when_nobody_answers_the_rematch_the_peers_are_told_so_not_that_anyone_left(
        make_game, clock):
    g = first_game(make_game, asking=(), clock=clock)
    clock.now += REMATCH_WAIT
    g.link.deliver(g.host.tick())
    assert g.host.rematch.state == "off"
    for p in g.peers:
        assert _lines(p)[-1] == "Nobody answered in time: no rematch"
        assert "left" not in p.rematch.status(["Ada", "Bo", "Jo"])


def test_a_seat_that_left_and_one_that_did_not_answer_are_told_apart(make_game, clock):
    r = rematch.PeerRematch()
    r.wanted = True
    names = ["Ada", "Bo", "Jo"]
    assert r.update({"agreed": [0], "declined": [1, 2], "unanswered": [2]}, names) == [
        "Bo left and Jo did not answer in time: no rematch"]


def test_attack_a_rematch_message_whose_unanswered_seats_did_not_decline_is_not_followed():
    r = rematch.PeerRematch()
    r.wanted = True
    lines = r.update({"agreed": [0], "declined": [1], "unanswered": [2]}, ["Ada", "Bo", "Jo"])
    assert lines == ["no rematch: the host sent a malformed rematch message"]


def test_a_host_whose_seats_are_all_its_own_bots_offers_no_endless_rematch(make_game):
    g = make_game(3)
    peers = [g.add_bot(i, name=NAMES[i]) for i in range(3)]
    g.host.rematch.offer([p.identity.public_key for p in peers])
    for p in peers:
        p.rematch.auto = True
    g.link.pump()
    assert g.host.finished and g.host.rematch.state == "off"


def test_a_host_that_offers_none_refuses_the_ask_and_the_game_stays_over(make_game):
    g = make_game(3)
    for i in range(3):
        g.add_bot(i, name=NAMES[i]).rematch.auto = True
    g.link.pump()
    p = g.peers[0]
    assert p.state == "over" and "offers no rematch" in p.rematch.off
    assert g.host.rematch.state == "idle"


# -- attacks by a seat ---------------------------------------------------------------------------


def _tolerant_game(make_game):
    """A 3-player game offering a rematch whose seat 0 is a ``TolerantPeer`` played by a bot."""
    g = make_game(3)
    g.host.rematch.offer()
    cheat = TolerantPeer(Identity.generate(), "Ada")
    cheat.rematch.wanted = True
    conn = g.link.add(cheat, get_game("medici").make_bot("greedy", random.Random(0)))
    g.peers.append(cheat)
    g.conns.append(conn)
    for i in (1, 2):
        g.add_bot(i, name=NAMES[i]).rematch.wanted = True
    return g, cheat, conn


@pytest.mark.long
def test_attack_a_seat_asking_again_before_the_end_is_refused(make_game):
    g, cheat, conn = _tolerant_game(make_game)
    cheat.hold = True
    g.link.pump()  # the game is under way, waiting on Ada
    assert cheat.table is not None and cheat.state == "playing"
    cheat._call("again", ({},))
    g.link.send(conn, cheat.data_to_send())
    assert cheat.refusals[-1].code == E_WRONG_PHASE and "not over" in cheat.refusals[-1].message
    cheat.hold = False
    cheat._maybe_write()
    g.link.pump()
    assert g.host.finished and g.host.rematch.agreed == set()  # the game went on, none agreed
    assert [p.state for p in g.peers] == ["over"] * 3


def test_attack_a_seat_asking_twice_or_for_another_seat_is_refused(make_game):
    g, cheat, conn = _tolerant_game(make_game)
    g.link.pump()
    assert cheat.state == "over"
    cheat._call("again", ({"seat": 2},))  # for Jo
    g.link.send(conn, cheat.data_to_send())
    assert cheat.refusals[-1].code == E_BAD_PARAMS and g.host.rematch.agreed == set()
    cheat.again()
    cheat._call("again", ({},))
    g.link.send(conn, cheat.data_to_send())
    assert cheat.refusals[-1].code == E_WRONG_PHASE and "already agreed" in cheat.refusals[-1].message
    assert g.host.rematch.agreed == {0} and g.host.rematch.waiting
    assert _lines(g.peers[2])[-1] == "Play again: 1 of 3 agreed; waiting for Bo and Jo"


# -- attacks by the host -------------------------------------------------------------------------


def _other_host(g, change):
    """A rematch host of ``g``'s host key whose session ``change`` alters."""
    old = g.host
    new = rematch.next_host(old)
    change(new, old)
    return new


@pytest.mark.long
@pytest.mark.parametrize("what, change", [
    ("seats", lambda new, old: new.reserve([(s.name, s.key) for s in reversed(old.table.seats)])),
    ("options", lambda new, old: setattr(new, "config",
                                         replace(old.config, **_other_option(old.config)))),
    ("turn limit", lambda new, old: setattr(new, "turn_timeout", 60)),
    ("hints", lambda new, old: setattr(new, "allow_hints", True)),
])
def test_attack_a_host_that_starts_another_table_than_agreed_is_refused(make_game, what, change):
    g = first_game(make_game)
    n = next_game(g, _other_host(g, change))
    n.link.pump()
    assert not n.host.table.phase == "over"
    refused = [p for p in n.peers if p.state == "failed"]
    assert refused, [p.state for p in n.peers]
    for p in refused:  # nothing signed promised the rematch: a fault that names nobody
        assert isinstance(p.error, Fault) and "nobody is named" in str(p.error)
        assert f"rematch check: the start does not carry the agreed {what}" in str(p.error)


def _other_option(config):
    """Another value of one of the config's options (a field other than ``players``)."""
    from dataclasses import fields

    for f in fields(config):
        v = getattr(config, f.name)
        if f.name != "players" and type(v) is bool:
            return {f.name: not v}
        if f.name != "players" and type(v) is int:
            return {f.name: v + 1}
    raise AssertionError("no option to change")


def test_attack_a_host_that_replays_the_old_start_as_the_rematch_is_refused(make_game, tamper):
    g = first_game(make_game)
    old_start = g.host.table.transcript.entries[0]
    n = next_game(g)
    victim = n.peers[1]
    swapped = []

    def change(event):
        if isinstance(event, Notification) and event.method == "entry" and not swapped:
            swapped.append(event)
            # the old start as the host relays its own entries: with its signature of the head
            ack = sign_ack(n.host.identity, old_start.game_id, 1, chain(old_start.prev, old_start))
            return [Notification("entry", ({**old_start.to_wire(), "ack": ack},))]
        return [event]

    tamper(n, n.conns[1], change)
    n.link.pump()
    assert victim.state == "failed" and isinstance(victim.error, Fault)  # its journal's word
    assert "contribution check" in str(victim.error) and "finished" in str(victim.error)


@pytest.mark.long
def test_attack_a_host_that_starts_a_rematch_a_seat_never_asked_for_is_not_followed(make_game):
    g = first_game(make_game, asking=(0, 1))
    jo, conn = g.peers[2], g.conns[2]
    g.host._notify(conn, "rematch", {"agreed": [0, 1, 2], "declined": [], "go": True})
    g.link.deliver(g.host.take_output())
    assert not jo.rematch.go and jo.state == "over"
    assert _lines(jo)[-1] == "no rematch: the host started a rematch this seat did not ask for"


@pytest.mark.long
@pytest.mark.parametrize("bad", [
    {"agreed": [0, 0], "declined": []}, {"agreed": [3], "declined": []},
    {"agreed": [0], "declined": [0]}, {"agreed": "all", "declined": []},
    {"agreed": [0, 1], "declined": [], "go": "yes"}, {"agreed": [0, 1, 2], "declined": [], "go": 1},
    {"agreed": [0, 1], "declined": [], "go": True}, {"agreed": [True], "declined": []},
])
def test_attack_a_malformed_rematch_message_ends_the_rematch_not_the_game(make_game, bad):
    g = first_game(make_game, asking=(0, 1))
    ada = g.peers[0]
    g.host._notify(g.conns[0], "rematch", bad)
    g.link.deliver(g.host.take_output())
    assert ada.state == "over" and not ada.rematch.go and ada.rematch.off
    assert "no rematch: the host" in _lines(ada)[-1]


@pytest.mark.long
def test_a_reserved_host_seats_no_other_key(make_game):
    g = first_game(make_game)
    n = next_game(g)
    stranger = n.add_bot(99, name="Eve", identity=Identity.generate())
    n.link.pump()
    assert stranger.state == "failed" and "full" in str(stranger.error)
    assert n.host.finished  # the agreed seats played on
    assert isinstance(n.host, HostSession)


def test_attack_a_rematch_message_before_the_end_is_not_followed_and_the_game_goes_on(make_game):
    g = make_game(3)
    g.host.rematch.offer()
    for i in range(3):
        g.add_bot(i, name=NAMES[i]).rematch.auto = True
    ada = g.peers[0]
    while not (ada.table is not None and ada.table.phase == "play"):
        try:
            g.link.pump(limit=1)  # one round at a time, to the middle of the game
        except RuntimeError:
            pass
    g.host._notify(g.conns[0], "rematch", {"agreed": [0, 1, 2], "declined": [], "go": True})
    g.link.deliver(g.host.take_output())
    assert not ada.rematch.go and ada.state != "failed"
    g.link.pump()
    assert [p.state for p in g.peers] == ["over"] * 3 and g.host.rematch.go


@pytest.mark.long
def test_a_rematch_a_seat_never_comes_back_to_is_closed_after_the_wait(make_game, clock):
    g = first_game(make_game, clock=clock)
    new = rematch.next_host(g.host)
    n = Game(new, MemoryLink(new))
    for i in (0, 1):  # Jo never comes back
        old = g.peers[i]
        n.add_bot(i + 10, name=NAMES[i], identity=old.identity, journal=old.journal).expect = \
            Expected.of(old.table)
    n.link.pump()
    assert [p.state for p in n.peers] == ["lobby", "lobby"]
    clock.now += REMATCH_WAIT
    n.link.deliver(new.tick())
    why = "the rematch did not start: Jo did not come back within 120 seconds"
    assert new.closed == why
    for p in n.peers:
        assert p.state == "failed" and why in str(p.error)


def test_attack_only_a_seat_of_the_game_counts_in_the_rematch(clock):
    r = rematch.HostRematch(clock)
    r.offer()
    assert r.begin([Identity.generate().public_key for _ in range(3)], [True] * 3)
    for other in (-1, 3):  # a watcher's connection, a seat that is not there
        with pytest.raises(Exception, match="only a seat of the game"):
            r.ask(other)
        assert not r.leave(other)
    assert r.waiting and r.agreed == set() and r.declined == set()


def test_a_line_on_the_rematch_fits_the_end_screen_with_long_names_a_count_instead():
    r = rematch.PeerRematch()
    r.wanted = True
    long = [f"{n} of the noble house of {n}" for n in ("Ada", "Bo", "Jo", "Cy", "Di", "Ed")]
    assert r.update({"agreed": [0], "declined": []}, long) == [
        "Play again: 1 of 6 agreed; waiting for 5 players"]
    assert r.update({"agreed": [0], "declined": [4, 5]}, long) == ["2 players left: no rematch"]
    short = rematch.PeerRematch()
    short.wanted = True
    assert short.update({"agreed": [0], "declined": []}, NAMES) == [
        "Play again: 1 of 3 agreed; waiting for Bo and Jo"]
    assert all(len(line) <= rematch.LINE for line in (r.status(long), short.status(NAMES)))


def test_attack_a_host_that_neither_answers_nor_closes_is_waited_for_a_while_only(make_game):
    seat_clock = FakeClock()
    g = make_game(3)  # a host that offers no rematch and keeps the connection: it says nothing
    ada = PeerSession(Identity.generate(), "Ada", clock=seat_clock)
    ada.rematch.wanted = True
    g.link.add(ada, get_game("medici").make_bot("greedy", random.Random(0)))
    for i in (1, 2):
        g.add_bot(i, name=NAMES[i])
    g.link.pump()
    assert ada.state == "over" and ada.lingers()
    seat_clock.now += rematch.REMATCH_WAIT + rematch.PEER_GRACE
    assert not ada.lingers() and ada.state == "over"
    assert _lines(ada)[-1] == "no rematch: the host did not answer within 150 seconds"


def test_wrong_codes_and_the_budget_of_checks_go_on_into_the_rematch(make_game):
    g = first_game(make_game, code="ROOK-LUTE-OWL-4821")
    for _ in range(8):
        g.host.guard.wrong("10.0.0.66")
    assert g.host.guard.delay("10.0.0.66") > 0
    new = rematch.next_host(g.host)
    assert new.guard.delay("10.0.0.66") > 0 and new.guard.rank("10.0.0.66") == 8


def test_a_watcher_follows_a_go_every_seat_agreed_to_without_asking():
    r = rematch.PeerRematch()
    r.wanted = r.watching = True
    names = ["Ada", "Bo", "Jo"]
    assert r.update({"agreed": [0, 1], "declined": []}, names)[-1].startswith("Play again: 2 of 3")
    r.update({"agreed": [0, 1, 2], "declined": [], "go": True}, names)
    assert r.go and not r.off


def test_attack_a_go_to_a_watcher_that_not_every_seat_agreed_to_is_not_followed():
    r = rematch.PeerRematch()
    r.wanted = r.watching = True
    lines = r.update({"agreed": [0, 1], "declined": [], "go": True}, ["Ada", "Bo", "Jo"])
    assert not r.go and lines == ["no rematch: the host started a rematch not every seat agreed to"]
