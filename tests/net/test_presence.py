"""Presence, drops and returns, the grace period (sans-IO, on the in-memory link)."""

import logging
import random

from engine.registry import get_game
from net.session.features.presence import (
    PRESENCE_EVERY,
    STATUS_BURST,
    HostPresence,
    notes,
    read_presence,
)
from net.session.machines.peer_session import PeerSession
from net.wire.rpc import Codec, Notification
from tests.net.conftest import waiting_game


def _table(make_game, clock, **kw):
    """A 3-seat game whose seat 2 never decides by itself: the game waits on it."""
    return waiting_game(make_game, clock, **kw)


def _later(g, clock, seconds=PRESENCE_EVERY):
    clock.now += seconds
    g.link.pump()


def _notes(peer):
    return [e.data for e in peer.events if e.kind == "note"]


def _states(peer):
    return [s.state for s in peer.presence.seats]


def _send(g, conn, method, payload):
    g.link.send(conn, Codec().send(Notification(method, (payload,))))


def test_every_seat_is_told_who_is_here_and_whose_turn_it_is(make_game, clock):
    g, _ = _table(make_game, clock)
    _later(g, clock)
    for p in g.peers:
        assert _states(p) == ["here"] * 3
        assert p.presence.due == 2 and p.presence.wait(clock()) is None
    assert _notes(g.peers[0]) == []


def test_a_drop_and_a_return_are_told_to_every_other_seat(make_game, clock):
    g, ids = _table(make_game, clock)
    _later(g, clock)
    journal = g.peers[2].journal
    g.link.drop(g.conns[2])
    _later(g, clock)
    for p in g.peers[:2]:
        assert _states(p) == ["here", "here", "reconnecting"]
        assert _notes(p) == ["p2 lost the connection"]
        assert p.presence.wait(clock()) == 180  # the default grace period
    back = PeerSession(ids[2], "p2", clock=clock, journal=journal)
    g.link.add(back)
    _later(g, clock)
    for p in g.peers[:2]:
        assert _notes(p) == ["p2 lost the connection", "p2 is back"]
        assert _states(p) == ["here"] * 3 and p.presence.wait(clock()) is None
    assert back.presence is not None and _states(back) == ["here"] * 3 and _notes(back) == []


def test_away_and_here_again(make_game, clock):
    g, _ = _table(make_game, clock)
    _later(g, clock)
    g.peers[2].set_away(True)
    _later(g, clock)
    assert _states(g.peers[0])[2] == "away" and _notes(g.peers[1]) == ["p2 is away"]
    assert g.peers[0].presence.wait(clock()) is None  # away is not gone: no grace runs
    g.peers[2].set_away(False)
    _later(g, clock)
    assert _notes(g.peers[0]) == ["p2 is away", "p2 is here again"]
    assert _notes(g.peers[2]) == []  # nothing about itself


def test_a_seat_that_leaves_is_left_at_once_and_its_connection_closed(make_game, clock):
    g, _ = _table(make_game, clock)
    _later(g, clock)
    g.peers[2].leave()
    _later(g, clock)
    assert g.conns[2] not in g.link.peers and g.host.seats[2].conn is None
    assert _states(g.peers[0]) == ["here", "here", "left"]
    assert _notes(g.peers[0]) == ["p2 left"]


def test_after_the_grace_period_the_seat_due_forfeits_and_the_record_verifies(make_game, clock):
    g, _ = _table(make_game, clock, grace=60)
    _later(g, clock)
    g.link.drop(g.conns[2])
    _later(g, clock)
    assert g.peers[0].presence.wait(clock()) == 60
    _later(g, clock, 58)
    assert not g.host.finished
    assert g.peers[0].presence.wait(clock()) == 2  # counted down on the peer's own clock
    _later(g, clock, 2)
    assert g.host.finished
    reason = "p2 did not come back within 60 seconds"
    assert g.host.table.forfeits == [(2, reason)]
    for p in g.peers[:2]:
        assert p.state == "over"
        assert p.table.result()["verdict"] == f"verified as far as it went: p2 forfeited ({reason})"
    assert len({p.table.transcript.to_bytes() for p in g.peers[:2]}) == 1


def test_a_seat_that_left_forfeits_after_the_grace_too(make_game, clock):
    g, _ = _table(make_game, clock, grace=30)
    g.peers[2].leave()
    g.link.pump()
    _later(g, clock, 29)
    assert not g.host.finished
    _later(g, clock, 1)
    assert g.host.finished and g.host.table.forfeits[0][0] == 2


def test_the_turn_limit_and_the_grace_whichever_is_sooner(make_game, clock):
    g, _ = _table(make_game, clock, grace=60, turn_timeout=20)
    _later(g, clock)
    assert g.peers[0].presence.wait(clock()) == 20
    g.link.drop(g.conns[2])
    _later(g, clock)
    assert g.peers[0].presence.wait(clock()) == 20  # the turn limit comes first
    _later(g, clock, 20)
    assert g.host.table.forfeits == [(2, "no move within 20 seconds")]


def test_a_seat_that_went_before_it_is_due_gets_the_grace_from_when_it_is_due(clock):
    p = HostPresence(clock, grace=60)
    p.begin([True, True])
    p.lost(1)
    clock.now += 500
    when, why = p.deadline(1, clock(), None, "Jo")
    assert when == clock() + 60 and why == "Jo did not come back within 60 seconds"
    assert p.deadline(0, clock(), None, "Ann") is None
    assert HostPresence(clock, grace=None).deadline(1, clock(), None, "Jo") is None


def test_presence_is_throttled_and_sent_only_on_a_change(make_game, clock):
    g, _ = _table(make_game, clock)
    _later(g, clock)
    count = sum(e.kind == "presence" for e in g.peers[0].events)
    for _ in range(5):
        _later(g, clock, 10)  # nothing changes
    assert sum(e.kind == "presence" for e in g.peers[0].events) == count
    def seen():
        return sum(e.kind == "presence" for e in g.peers[0].events)

    g.peers[2].set_away(True)
    g.link.pump()
    assert seen() == count + 1  # the first change goes out at once
    g.peers[2].set_away(False)
    g.link.pump()
    g.peers[2].set_away(True)
    g.link.pump()
    assert seen() == count + 1  # within PRESENCE_EVERY of it: held
    _later(g, clock)
    # held changes that come back to what was sent send nothing; one more change goes out
    assert seen() == count + 1 and _states(g.peers[0])[2] == "away"
    g.peers[2].set_away(False)
    _later(g, clock)
    assert seen() == count + 2 and _states(g.peers[0])[2] == "here"


def test_notes_of_a_first_presence_name_only_who_is_not_here(clock):
    m = {"seats": [{"state": "here", "for": 3}, {"state": "left", "for": 9},
                   {"state": "away", "for": 1}], "due": 1, "wait": 40, "watchers": []}
    p = read_presence(m, 3, clock())
    assert notes(None, p, ["Ann", "Jo", "Cy"], 0) == ["Jo left", "Cy is away"]
    assert p.wait(clock()) == 40 and p.seconds(1, clock()) == 9
    assert notes(None, p, ["Ann", "Jo", "Cy"], 1) == ["Cy is away"]


# -- attacks --------------------------------------------------------------------------------


def test_attack_a_seat_speaks_only_for_itself(make_game, clock):
    """``status`` and ``leave`` naming another seat change only the sender's own seat."""
    g, _ = _table(make_game, clock)
    _send(g, g.conns[0], "status", {"away": True, "seat": 1})
    _later(g, clock)
    assert [g.host.presence.state(i) for i in range(3)] == ["away", "here", "here"]
    _send(g, g.conns[0], "leave", {"seat": 2})
    _later(g, clock)
    assert [g.host.presence.state(i) for i in range(3)] == ["left", "here", "here"]
    assert g.host.seats[2].conn == g.conns[2] and g.conns[2] in g.link.peers


def test_attack_a_flood_of_status_toggles_is_bounded_and_the_game_goes_on(make_game, clock):
    g = make_game(3, clock=clock)
    for i in range(3):
        g.add_seat(clock, i, bot=i != 0, address=f"10.0.0.{i}")
    g.link.pump()
    flooder, others = g.peers[0], g.peers[1:]
    changes = []
    before = [sum(e.kind == "presence" for e in p.events) for p in others]
    for n in range(300):
        _send(g, g.conns[0], "status", {"away": n % 2 == 0})
        changes.append(g.host.presence.state(0))
    flips = sum(a != b for a, b in zip(changes, changes[1:], strict=False))
    assert flips <= STATUS_BURST  # the rest were dropped
    g.link.pump()
    after = [sum(e.kind == "presence" for e in p.events) for p in others]
    assert all(a - b <= 2 for a, b in zip(after, before, strict=True))  # coalesced: no storm
    assert g.conns[0] in g.link.peers  # within the request budget: only the toggles dropped
    # the game goes on: the flooder's seat plays and the game ends for everyone
    bot = get_game("medici").make_bot("greedy", random.Random(5))
    g.link.bots[g.conns[0]] = bot
    g.link.pump()
    assert g.host.finished and all(p.state == "over" for p in g.peers)
    assert len(g.transcripts()) == 1 and flooder.table.result()["verdict"] == "verified"


def test_attack_malformed_status_and_leave_from_a_stranger_change_nothing(make_game, clock):
    g, _ = _table(make_game, clock)
    for bad in ({"away": "yes"}, {"away": 1}, {}):
        _send(g, g.conns[1], "status", bad)
    raw, conn = g.add_raw()
    _send(g, conn, "status", {"away": True})
    _send(g, conn, "leave", {})
    g.link.send(g.conns[1], Codec().send(Notification("status", (1, 2))))
    _later(g, clock)
    assert [g.host.presence.state(i) for i in range(3)] == ["here"] * 3
    assert g.conns[1] in g.link.peers and g.peers[1].state == "playing"


def _lie(event):
    """A malicious host's presence: every seat left, seat 0 due, forfeit now."""
    if isinstance(event, Notification) and event.method == "presence":
        lie = {"seats": [{"state": "left", "for": 0}] * 3, "due": 0, "wait": 0, "watchers": []}
        return [Notification("presence", (lie,))]
    return [event]


def test_attack_a_hosts_presence_lies_change_no_game_state(make_game, clock, tamper):
    g = make_game(3, clock=clock)
    for i in range(3):
        g.add_seat(clock, i)
    tamper(g, g.conns[1], _lie)
    g.link.pump()
    _later(g, clock)
    fooled = g.peers[1]
    assert fooled.presence is not None and _states(fooled) == ["left"] * 3
    assert "p0 left" in _notes(fooled)
    assert g.host.finished and all(p.state == "over" for p in g.peers)
    assert len(g.transcripts()) == 1  # the same game, played to its end
    assert fooled.table.result()["verdict"] == "verified"


def test_attack_a_malformed_presence_is_refused_and_the_game_goes_on(make_game, clock, tamper,
                                                                     caplog):
    bad = [
        {"seats": [{"state": "here", "for": 0}] * 2, "due": 0, "wait": None},  # 2 of 3 seats
        {"seats": [{"state": "gone", "for": 0}] * 3, "due": 0, "wait": None},
        {"seats": [{"state": "here", "for": -1}] * 3, "due": 0, "wait": None},
        {"seats": [{"state": "here", "for": True}] * 3, "due": 0, "wait": None},
        {"seats": [{"state": "here", "for": 0}] * 3, "due": 7, "wait": None},
        {"seats": [{"state": "here", "for": 0}] * 3, "due": 0, "wait": "soon"},
        {"seats": [{"state": "here", "for": 0}] * 3, "due": 0, "wait": None,
         "watchers": ["x" * 33]},
        {"seats": [{"state": "here", "for": 0}] * 3, "due": 0, "wait": None,
         "watchers": ["w"] * 9},
        {"seats": "all here"},
    ]

    def garble(event):
        if isinstance(event, Notification) and event.method == "presence":
            return [Notification("presence", (m,)) for m in bad] + [Notification("presence", (1,))]
        return [event]

    g = make_game(3, clock=clock)
    for i in range(3):
        g.add_seat(clock, i)
    tamper(g, g.conns[2], garble)
    with caplog.at_level(logging.WARNING, logger="palazzo.net"):
        g.link.pump()
    victim = g.peers[2]
    assert victim.presence is None and _notes(victim) == []
    said = [r for r in caplog.records if "malformed presence" in r.getMessage()]
    assert len(said) == 1 and "presence: 'seats' must list the game's 3 seats" in said[0].getMessage()
    assert g.host.finished and all(p.state == "over" for p in g.peers)
    assert len(g.transcripts()) == 1


def test_attack_a_host_that_floods_notes_costs_a_bounded_log():
    from net.session.features.presence import NOTES_KEPT, NoteBook

    book = NoteBook()
    for n in range(5 * NOTES_KEPT):
        book.add(f"Jo left ({n})")
    lines, total = book.since(0)
    assert total == 5 * NOTES_KEPT and len(lines) == NOTES_KEPT
    assert lines[-1] == f"Jo left ({5 * NOTES_KEPT - 1})"
    assert book.since(total - 2) == (lines[-2:], total)  # a reader that kept up gets the new
