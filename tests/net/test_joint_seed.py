"""The joint seed's one bias, shown on a real game: the last seat to open its contribution knows
the seed, and so every lot, before it opens; it may open, or withhold its opening and let the
host forfeit it, which ends the game before any card is dealt (``docs/security.md``, "Limits").
Nobody else learns the seed before every commitment is in and all but one are open."""

import hashlib
import random

import pytest

from net.session.records.verify import verify_bytes
from net.wire.identity import Identity


@pytest.mark.parametrize("opens", [True, False])
def test_the_last_opener_knows_the_first_lot_before_it_opens_and_may_void_the_game(
        opens, make_game, tolerant_peer, clock):
    g = make_game(3, game="condottiere", turn_timeout=30, clock=clock)
    g.add_bot(0)
    g.add_bot(1)
    last = tolerant_peer(Identity.generate(), "last")
    last.hold = True
    conn = g.link.add(last)
    g.peers.append(last)
    g.conns.append(conn)
    g.link.pump()
    assert last.post_now(g.link, conn, last.table.auto_entry()) is None  # its commitment
    g.link.pump()
    t = last.table
    assert t.phase == "seed-open" and t.writer() == 2 and len(t.seed_values) == 2
    value, _ = t.my_seed
    seed = hashlib.sha256(b"palazzo/seed/v1" + b"".join(t.seed_values) + value).digest()
    lot = hashlib.sha256(b"palazzo/lot/v1" + seed + (0).to_bytes(4, "big")).digest()
    first = random.Random(int.from_bytes(lot, "big")).randrange(3)
    assert all(p.table.seed == b"" for p in g.peers)  # nobody else can know it yet
    if opens:
        assert last.post_now(g.link, conn, last.table.auto_entry()) is None
        g.link.pump()
        _, action, _ = g.host.table.steps[0]
        assert (action.kind, action.seat) == ("start", first)
        assert g.host.table.seed == seed
        return
    clock.now += 31  # it withholds its opening: the host forfeits it at the turn timeout
    g.link.pump()
    assert g.host.finished and g.host.table.dealer is None  # no deck: the game is void
    assert all(p.table.result()["forfeited"] == [2] for p in g.peers)
    v = verify_bytes(g.host.table.transcript.to_bytes())
    assert v.ok and v.text.startswith("verified as far as it went: last forfeited"), v.text
