"""A Court of the Medici ``stuck`` proves that no card of the hand may be played under the seat's
limit without showing the hand: one one-of proof per card not shown yet, that it is one of the
physical cards of the seat's deck it may not play (``net.games.medici``). An honest stuck opens
nothing; a lying one is refused by every reader, its author named with the check that failed."""

import logging

import msgpack
import pytest

from engine.medici.state import mk as medici_mk
from net.deck.fair_deck import pack_handles
from net.session.records.verify import verify_bytes
from net.wire.errors import E_CHEAT, CheatDetected
from net.wire.transcript import Entry
from tests.net.test_attacks import readable
from tests.net.test_cheats import _stuck_moment, cheat_game, drive_anew, finish  # noqa: F401

SHORT = {"end_when_all_struck": True}


@pytest.fixture(autouse=True)
def no_internal_errors(caplog):
    caplog.set_level(logging.INFO, logger="palazzo.net")
    yield
    assert "internal error" not in caplog.text


def _truly_stuck(g, t):
    return (t.view.phase == "play" and t.decision_due()
            and t.rules.legal_actions(t.view) == [medici_mk("stuck", t.me)])


def _truly_stuck_hiding(g, t):
    """Truly stuck, with a card of the hand not shown yet (what an honest stuck must keep)."""
    if not _truly_stuck(g, t):
        return False
    d = t.dealer
    deck = d.decks[d.deck_of(t.me)]
    return any(not deck.is_open(h) for h in d.hands[t.me])


def _refused_by_everyone(g, cheat, conn, entry, why):
    """Every honest seat's table and ``verify`` name the author with the check; the host
    refuses the post; nothing changes."""
    for p in g.peers:
        if p is cheat:
            continue
        n = len(p.table.transcript)
        with pytest.raises(CheatDetected) as info:
            p.table.accept(entry)
        assert (info.value.seat, info.value.step) == (cheat.table.me, entry.seq)
        assert why in info.value.reason, info.value.reason
        assert len(p.table.transcript) == n
    record = g.host.table.transcript.to_bytes()
    v = verify_bytes(record + msgpack.packb([entry.body, entry.sig], use_bin_type=True))
    assert v.kind == "cheat" and v.seat == cheat.table.me and why in v.text
    err = cheat.post_now(g.link, conn, entry)
    assert err is not None and err.code == E_CHEAT and why in err.message
    assert f"seat {cheat.table.me} at step {entry.seq}" in err.message


@pytest.mark.long
def test_attack_stuck_hand(cheat_game):  # noqa: F811
    # a lying stuck: the seat holds a card it may play, hidden from the others
    g, cheat, conn, t = drive_anew(cheat_game, lambda g, t: _stuck_moment(t, g.peers[1].table),
                                   bot="random", options=SHORT)
    d = t.dealer
    deck = d.decks[d.deck_of(t.me)]
    hand = list(d.hands[t.me])
    hidden = [h for h in hand if not deck.is_open(h)]
    unplayable = d.unplayable(t.view, t.me)
    playable = [h for h in hidden if deck.card(h) not in unplayable]
    assert playable  # the lie is in a card nobody else can see
    stuck = medici_mk("stuck", t.me).to_data()
    head = t.transcript.head

    def entry(**fields):
        return Entry.sign(cheat.identity, {**t._header("act"), "action": stuck,
                                           "handles": pack_handles(hand), **fields})

    # a proof of the right size over another set: one that holds the playable card (however
    # many playable cards the hand holds, each gets a set of its own)
    def another(card):
        return [card] + [c for c in unplayable if c != card][:len(unplayable) - 1]

    forged = b"".join(deck.prove_one_of(h, unplayable if deck.card(h) in unplayable
                                        else another(deck.card(h)), head) for h in hidden)
    _refused_by_everyone(g, cheat, conn, entry(stuck_proof=forged),
                         f"stuck check: card {playable[0]} of the hand is not shown to be one it "
                         "may not play under its limit (its one-of proof fails)")
    size = 64 * len(unplayable)
    for bad in (forged[:-1], b"", forged + bytes(size)):
        _refused_by_everyone(g, cheat, conn, entry(stuck_proof=bad) if bad else entry(),
                             f"stuck check: one proof of {size} bytes for each of the "
                             f"{len(hidden)} cards of the hand not shown")
    shows = entry(open=deck.make_open(hidden, head), stuck_proof=forged)
    _refused_by_everyone(g, cheat, conn, shows, "stuck check: a stuck seat names its whole hand "
                         "and opens none of it")
    finish(g, cheat, conn)
    assert all(p.table.result()["verdict"] == "verified" for p in g.peers)


@pytest.mark.long
def test_an_honest_stuck_reveals_nothing_and_ends_the_game(cheat_game):  # noqa: F811
    g, cheat, conn, t = drive_anew(cheat_game, _truly_stuck_hiding, bot="random", options=SHORT,
                                   attempts=30)
    d = t.dealer
    deck_id = d.deck_of(t.me)
    deck = d.decks[deck_id]
    hidden = [h for h in d.hands[t.me] if not deck.is_open(h)]
    assert hidden
    honest = t.decide(medici_mk("stuck", t.me))
    assert "open" not in honest.fields
    assert len(honest.fields["stuck_proof"]) == 64 * len(d.unplayable(t.view, t.me)) * len(hidden)
    finish(g, cheat, conn)  # the seat posts it (its journal holds it)
    host = g.host.table
    assert host.view.end == "no-playable-card"
    for table in [host] + [p.table for p in g.peers if p is not cheat]:
        assert table.result()["verdict"] == "verified"
        other = table.dealer.decks[deck_id]
        assert not any(other.is_open(h) or other.card(h) is not None for h in hidden)
        assert sum(c == -1 for c in table.view.hands[t.me]) == len(hidden)  # still unseen
    assert readable(host.transcript.entries, host) == []
    assert verify_bytes(host.transcript.to_bytes()).ok
