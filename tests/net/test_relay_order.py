"""The host relays each entry first to its author (whose post it answers), then to the seat
that writes next, then to the others: the seats the game waits for hear it first. Every seat
gets the same bytes, encoded once. A seat's entry goes out pending first to its author (the
host does not know who writes next before its check), and its confirmation first to its author,
then to the seat that writes next (``net.session.machines.relay``)."""

import pytest

from net.session.machines.conversation import Send
from net.wire.rpc import Codec, Notification


@pytest.mark.long
def test_an_entry_goes_first_to_its_author_then_to_the_seat_due_next(make_game):
    g = make_game(players=4)
    bursts = []
    receive = g.host.receive_data

    def recording(conn, data):
        out = receive(conn, data)
        bursts.append((conn, out))
        return out

    g.host.receive_data = recording
    settle = g.host.settle

    def settling(wait=False):
        out = settle(wait)
        bursts.append((None, out))
        return out

    g.host.settle = settling
    for i in range(4):
        g.add_bot(i)
    g.link.pump()
    assert g.host.finished
    seat_of = {conn: i for i, conn in enumerate(g.conns)}
    entries = g.host.table.transcript.entries
    pending = confirmed = 0
    for conn, out in bursts:
        for method in ("entry", "confirm"):
            relayed = [o for o in out if isinstance(o, Send) and _has(o.data, method)]
            if not relayed:
                continue
            seq = _seq(relayed[0].data, method)
            author = entries[seq].author
            order = [seat_of[o.conn] for o in relayed]
            assert sorted(order) == [0, 1, 2, 3]
            assert len({o.data for o in relayed}) == 1  # the same bytes for every seat
            nxt = entries[seq + 1].author if seq + 1 < len(entries) else None
            if author == -1:  # the host's own (the start): to the seat due first
                assert method == "entry" and order[0] == nxt
                continue
            assert order[0] == author
            if method == "entry":  # a seat's post, relayed at once, pending
                assert seat_of[conn] == author
                pending += 1
            elif nxt not in (author, -1, None):
                assert order[1] == nxt
                confirmed += 1
    assert pending > 100 and confirmed > 50  # most entries are followed by another seat's


def _events(data):
    return Codec().receive_data(data)


def _has(data, method):
    return any(isinstance(e, Notification) and e.method == method for e in _events(data))


def _seq(data, method):
    from net.wire.transcript import Entry

    (e,) = [e for e in _events(data) if isinstance(e, Notification) and e.method == method]
    if method == "confirm":
        return e.params[0]["n"] - 1
    return Entry.parse(e.params[0]["body"], e.params[0]["sig"]).seq
