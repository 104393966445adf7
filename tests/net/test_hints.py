"""The coach in a networked game: off unless the host allows it, and then every peer sees that
in the signed start entry (``hints``), so no seat gets help the others do not know about."""

from __future__ import annotations

import pytest

from tui.client import GameClient
from tui.screens.hint import hints_allowed


def _start(g):
    return g.peers[0].table.transcript.entries[0]


@pytest.mark.long
def test_hints_are_off_in_a_networked_game_unless_the_host_allows_them(make_game):
    g = make_game(3)
    for i in range(3):
        g.add_bot(i)
    g.link.pump()
    assert "hints" not in _start(g).fields
    assert [p.table.hints for p in g.peers] == [False, False, False]


@pytest.mark.long
def test_a_host_that_allows_hints_says_so_to_every_peer_in_the_start(make_game):
    g = make_game(3, allow_hints=True)
    for i in range(3):
        g.add_bot(i)
    g.link.pump()
    assert _start(g).fields["hints"] is True
    assert [p.table.hints for p in g.peers] == [True, True, True]
    assert g.host.finished  # the game is played and audited as any other


def test_a_client_gives_hints_unless_its_game_forbids_them():
    class Local(GameClient):
        pass

    forbidden = Local()
    forbidden.hints_allowed = False  # as a networked game's host may
    assert hints_allowed(Local()) and not hints_allowed(forbidden)


def test_attack_host_allows_hints_for_one_peer_only(make_game, tamper):
    """A host that signs a second start, with ``hints``, for one peer: that peer's chain differs
    from the one the other seats sign on, so it refuses their next entry and names the host; the
    coach is never on for one seat while the others believe it is off."""
    from net.session.machines.agreement import sign_ack
    from net.wire.errors import HOST, CheatDetected
    from net.wire.rpc import Notification
    from net.wire.transcript import Entry, chain

    g = make_game(3)

    def change(e):
        if isinstance(e, Notification) and e.method == "entry":
            entry = Entry.parse(e.params[0]["body"], e.params[0]["sig"])
            if entry.kind == "start":
                forged = Entry.sign(g.host.identity, {**entry.fields, "hints": True})
                ack = sign_ack(g.host.identity, forged.game_id, 1, chain(forged.prev, forged))
                return [Notification("entry", ({**forged.to_wire(), "ack": ack},))]
        return [e]

    for i in range(3):
        g.add_bot(i)
    tamper(g, g.conns[1], change)
    g.link.pump()
    victim = g.peers[1]
    assert victim.state == "failed"
    assert isinstance(victim.error, CheatDetected) and victim.error.seat == HOST
    assert not any(p.table.hints for p in (g.peers[0], g.peers[2]))
