"""A seat checks the entry it has just posted on its own table while the host checks it
(``PeerSession.check_ahead``, which the asyncio peer calls once the post is on its way); when
the host relays those very bytes for that place, the table only applies them. Anything else
for that place is checked as ever, and refused as ever."""

import pytest

from net.session.machines import table as table_module
from net.wire.errors import HOST, Fault, RemoteProtocolError
from net.wire.transcript import Entry

from .test_session import _steps_until


def _pump_checking_ahead(g):
    """``MemoryLink.pump``, but each seat checks its post ahead before the host has it."""
    link = g.link
    while True:
        moved = False
        for conn, peer in list(link.peers.items()):
            data = peer.data_to_send()
            if data:
                moved = True
                peer.check_ahead()
                link.send(conn, data)
            bot = link.bots.get(conn)
            if bot is not None and peer.decision_due():
                peer.act(bot.choose(peer.view, peer.table.me))
                moved = True
        if not moved:
            return


@pytest.mark.long
@pytest.mark.parametrize("game", ["medici", "condottiere"])
def test_a_game_checked_ahead_ends_verified_each_entry_checked_once_per_table(make_game, game,
                                                                              monkeypatch):
    checked = {}
    check = table_module.Table.check_content  # a pending entry's frame is checked on its own

    def counting(self, entry):
        key = (id(self), entry.seq)
        checked[key] = checked.get(key, 0) + 1
        return check(self, entry)

    monkeypatch.setattr(table_module.Table, "check_content", counting)
    g = make_game(3, game=game)
    for i in range(3):
        g.add_bot(i)
    _pump_checking_ahead(g)
    assert g.host.finished and [p.state for p in g.peers] == ["over"] * 3
    assert all(p.table.result()["verdict"] == "verified" for p in g.peers)
    assert len(g.transcripts()) == 1
    tables = [id(p.table) for p in g.peers]
    own = sum(1 for p in g.peers for e in p.table.transcript.entries if e.author == p.table.me)
    assert own > 60
    assert all(n == 1 for (t, _), n in checked.items() if t in tables)  # none checked twice
    assert sum(1 for t, _ in checked if t in tables) == 3 * len(g.host.table.transcript)


def _a_seat_with_a_post_on_its_way(make_game):
    g = make_game(3)
    for i in range(3):
        g.add_bot(i)
    _steps_until(g, 40)
    while True:
        for peer in g.link.peers.values():
            if peer._posted is not None and peer._posted.seq == len(g.host.table.transcript):
                return g, peer, peer._posted
        _steps_until(g, len(g.host.table.transcript) + 1)


def test_a_forfeit_for_the_place_of_a_post_checked_ahead_is_taken_as_ever(make_game):
    g, peer, posted = _a_seat_with_a_post_on_its_way(make_game)
    t = peer.table
    t.check_ahead(posted)
    forfeit = Entry.sign(g.host.identity, {
        "game": t.game_id, "seq": posted.seq, "prev": t.transcript.head, "author": HOST,
        "kind": "forfeit", "seat": t.me, "reason": "no move within 10 seconds"})
    t.accept(forfeit)  # the host's timeout came first
    assert t.me in t.forfeited and t.transcript.entries[-1] == forfeit
    with pytest.raises(RemoteProtocolError, match="replayed"):
        t.accept(posted)  # the post came too late: nothing of its check stays


def test_the_same_body_under_another_signature_is_checked_and_refused(make_game):
    g, peer, posted = _a_seat_with_a_post_on_its_way(make_game)
    t = peer.table
    t.check_ahead(posted)
    forged = Entry(posted.body, bytes(64), posted.fields)
    with pytest.raises(RemoteProtocolError, match="bad signature"):
        t.accept(forged)
    t.accept(posted)  # its check was dropped with the forged one: it is checked again, and taken
    assert t.transcript.entries[-1] == posted


def test_an_entry_in_the_seats_name_it_did_not_post_is_refused_though_checked_ahead(make_game):
    """Signed by its key for the place its journal holds another entry: another program with
    the key wrote it (the host cannot sign for the seat), a fault that names nobody."""
    g, peer, posted = _a_seat_with_a_post_on_its_way(make_game)
    t = peer.table
    header = {k: posted.fields[k] for k in ("game", "seq", "prev", "author")}
    other = Entry.sign(peer.identity, {**header, "kind": "end"})  # signed, not in its journal
    t.check_ahead(other)
    assert t._ahead is None  # it fails its checks: nothing is kept of it
    with pytest.raises(Fault) as e:
        t.accept(other)
    assert "journal check" in e.value.reason and len(t.transcript) == posted.seq


def test_a_check_ahead_for_another_place_is_ignored(make_game):
    g, peer, posted = _a_seat_with_a_post_on_its_way(make_game)
    t = peer.table
    stale = t.transcript.entries[-1]
    t.check_ahead(stale)
    assert t._ahead is None
    t.check_ahead(posted)
    assert t._ahead is not None
    t.accept(posted)
    assert t._ahead is None and len(t.transcript) == posted.seq + 1
