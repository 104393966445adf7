"""The path of an acknowledgement (``net.session.machines.echo``, ``net.session.machines.relay``):
a seat acknowledges what the host confirmed at once, before its own check of it ends; a reader
checks an acknowledgement's signature when it counts it, so a
forged one never releases a disclosure. Real sessions on the in-memory link, real keys and the
fair deck."""

import threading

import pytest

from net.session.machines import relay
from net.session.machines.host_session import HostSession
from net.wire.rpc import Notification
from tests.net.test_agreement import PLAYERS, cheats_named, table

BLOCKED = 6  # entries whose check by seat 1 waits for its acknowledgement to go out first


@pytest.mark.long
def test_a_seat_acknowledges_a_confirmed_entry_before_its_own_check_of_it_ends(monkeypatch):
    """Seat 1's check of another seat's entry (beside the game, in its worker thread) is held
    until seat 1 has sent its acknowledgement of the head after it: were the acknowledgement to
    wait for the check, this game would not go on (the wait times out and the test fails)."""
    release = threading.Event()
    order: list[tuple[str, int]] = []
    real = relay._content

    def held_check(t, entry):
        blocked = t.me == 1 and entry.author not in (1, -1) and entry.kind != "end" \
            and len([o for o in order if o[0] == "checked"]) < BLOCKED
        if blocked:
            assert release.wait(30), f"seat 1 did not acknowledge entry {entry.seq} first"
            release.clear()
            order.append(("checked", entry.seq))
        return real(t, entry)

    monkeypatch.setattr(relay, "_content", held_check)
    host, link, peers, _ = table(HostSession, game="medici")
    seat1 = peers[1]

    def flush():
        pending = seat1._pending_in
        assert pending is not None  # the entry is not applied yet
        assert len(seat1.table.transcript) == pending[0].seq
        assert b"ack" in bytes(seat1._out)  # the acknowledgement waits to go out
        order.append(("acknowledged", pending[0].seq))
        release.set()

    seat1.flush = flush
    link.pump()
    assert host.finished and [p.state for p in peers] == ["over"] * PLAYERS
    checked = [seq for kind, seq in order if kind == "checked"]
    assert len(checked) == BLOCKED
    for seq in checked:
        assert order.index(("acknowledged", seq)) < order.index(("checked", seq))
    assert all(not cheats_named(p) for p in peers)


class Forging(HostSession):
    """Relays seat 2's acknowledgements to seat 0 with a signature of its own making."""

    def _send(self, conn, event):
        if isinstance(event, Notification) and event.method == "ack" \
                and self.conns[conn].seat == 0 and event.params[0].get("seat") == 2:
            event = Notification("ack", ({**event.params[0], "sig": bytes(64)},))
        super()._send(conn, event)

    def _broadcast(self, method, payload, but=None, first=()):
        if method == "ack":  # through _send, one connection at a time
            for conn, c in list(self.conns.items()):
                if (c.seat is not None or c.watcher is not None) and not c.closed and conn != but:
                    self._send(conn, Notification(method, (payload,)))
            return
        super()._broadcast(method, payload, but, first)


def test_attack_a_forged_acknowledgement_releases_no_disclosure():
    """The host shows seat 0 acknowledgements by seat 2 that seat 2 never signed: seat 0 counts
    none of them, so its first disclosure waits for seat 2 and never goes out; nobody is named
    (nothing signed shows who forged them)."""
    host, link, peers, _ = table(Forging, game="medici")
    link.pump()
    assert not host.finished
    seat0 = peers[0]
    assert seat0._gated is not None and seat0.waiting_for() == [2]
    assert 2 not in seat0.agreement.acked or seat0.agreement.acked[2] < seat0._gated.seq
    assert all(not cheats_named(p) for p in peers)
