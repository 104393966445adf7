"""Shuffle proofs checked beside the game, in real sessions (host and peers on the in-memory link,
the real fair deck): a seat takes a shuffled pile once its points are checked and shuffles on at
once, its worker thread checking the earlier proofs; no card is dealt and no share made until
every proof of the chain holds. The host still checks every proof before it relays the entry, so
a bad proof reaches the seats only through a host that lets it pass (a colluding host)."""

import threading
import time

import pytest

from net.deck import checks
from net.deck import group as dgroup
from net.deck import proofs as dp
from net.deck import shuffle_proof as sp
from net.deck.fair_deck import FairDeck, unpack_handles
from net.session.records.verify import verify_bytes
from net.wire.errors import E_CHEAT, CheatDetected
from net.wire.transcript import Entry
from tests.net.test_cheats import _deck_due, cheat_game, drive  # noqa: F401 (a fixture)


def _shares_in(table):
    return [m for e in table.transcript.entries if e.kind == "deck"
            for m in e.fields["msgs"] if m["type"] == "deck/shares"]


def _post_past_a_colluding_host(g, cheat, conn, bad, monkeypatch, module, check, passes, memo):
    """Post ``bad`` through a host that lets this one entry pass: on the host's own thread (its
    check beside the relay) ``module.check`` answers ``passes``, and nothing is remembered as
    checked (``memo``); every other table checks as ever."""
    real_check, real = g.host.table._check, getattr(module, check)
    host_thread = []

    def colluding_check(entry):
        if entry.body != bad.body:
            return real_check(entry)
        host_thread.append(threading.current_thread())
        with monkeypatch.context() as m:
            m.setattr(module, check, lambda *a, **kw: passes
                      if threading.current_thread() is host_thread[0] else real(*a, **kw))
            m.setattr(memo, "size", 0)
            return real_check(entry)

    monkeypatch.setattr(g.host.table, "_check", colluding_check)
    assert cheat.post_now(g.link, conn, bad) is None
    g.link.pump()


@pytest.mark.long
def test_a_seat_shuffles_before_the_earlier_proofs_are_checked_and_deals_after(make_game,
                                                                               monkeypatch):
    pending_at_shuffle = []
    real_make = FairDeck.make_shuffle

    def make_shuffle(deck, *a, **kw):
        pending_at_shuffle.append((deck.seat, deck.shuffles, len(deck.unchecked)))
        return real_make(deck, *a, **kw)

    monkeypatch.setattr(FairDeck, "make_shuffle", make_shuffle)
    g = make_game(4, game="condottiere")
    for i in range(4):
        g.add_bot(i)
    g.link.pump()
    # the first round of shuffles: seat k shuffles with the k proofs before it still pending
    first = [(seat, n) for seat, n, _ in pending_at_shuffle[:4]]
    assert first == [(0, 0), (1, 1), (2, 2), (3, 3)]
    assert [pending for _, _, pending in pending_at_shuffle[:4]] == [0, 1, 2, 3]
    # every game ends, verified, on one transcript; no share was made on an unchecked pile
    assert [p.state for p in g.peers] == ["over"] * 4
    assert len(g.transcripts()) == 1
    for table in [g.host.table, *(p.table for p in g.peers)]:
        assert table.result()["verdict"] == "verified"


@pytest.mark.long
def test_attack_a_bad_proof_early_in_the_chain_is_caught_before_any_card_opens(cheat_game,  # noqa: F811
                                                                                monkeypatch):
    """Seat 1 sends a shuffle whose proof fails, and a colluding host relays it unchecked: every
    honest seat shuffles on at once, yet none deals a card or makes a share; each names seat 1 at
    that entry, from the signed entry it holds, and the record names it to anyone."""
    g, cheat, conn = cheat_game(players=4, game="condottiere", seat=1)
    t = drive(g, cheat, conn, _deck_due("shuffle"))
    honest = t.auto_entry()
    msgs = [dict(m) for m in honest.fields["msgs"]]
    proof = bytearray(msgs[0]["proof"])
    proof[-32] ^= 1  # a response scalar changed: every point valid, the proof false
    msgs[0]["proof"] = bytes(proof)
    bad = Entry.sign(cheat.identity, {**honest.fields, "msgs": msgs})

    _post_past_a_colluding_host(g, cheat, conn, bad, monkeypatch, sp, "verify", None,
                                checks.SHUFFLES_CHECKED)

    honest_peers = [p for p in g.peers if p is not cheat]
    after = [e.author for e in g.host.table.transcript.entries[bad.seq + 1:]]
    assert after == [2, 3]  # the seats after it shuffled on the bad pile at once
    for p in honest_peers:
        assert p.state == "failed"
        err = p.error
        assert isinstance(err, CheatDetected) and err.code == E_CHEAT
        assert (err.seat, err.step) == (1, bad.seq), err
        assert err.reason.startswith("shuffle: ")
        assert all(d.handles == 0 for d in p.table.dealer.decks.values())  # no card dealt
        assert p.table.transcript.entries[bad.seq].body == bad.body  # the evidence, signed
    assert not _shares_in(g.host.table)  # no share made, so no card opened
    v = verify_bytes(g.host.table.transcript.to_bytes())
    assert not v.ok and v.seat == 1 and f"entry {bad.seq}" in v.text




@pytest.mark.long
def test_attack_a_false_share_for_another_hand_is_named_by_its_owner_at_once_and_by_the_others_before_a_move(
        cheat_game, monkeypatch):  # noqa: F811
    """Seat 1 sends a false share for a card of seat 2's hand, in the message of seat 2's cards,
    and a colluding host relays it unchecked. Seat 2 checks the shares of its own cards at once
    and refuses the entry: it names the host, which signed it as relayed, with seat 1's false
    shares as the check. Seats 0 and 3 take the shares of a hand not theirs with
    their points checked (they tell them nothing until a card is shown) and hold the check for
    later: before any move or deal each names seat 1 at that entry, from the signed entry it
    holds. The record names seat 1 to anyone."""
    g, cheat, conn = cheat_game(players=4, game="condottiere", seat=1)
    t = drive(g, cheat, conn, _deck_due("shares"))
    honest = t.auto_entry()
    msgs = [dict(m) for m in honest.fields["msgs"]]
    dealer = t.dealer

    def holders(m):
        return {dealer.decks[m["deck"]].holder(h) for h in unpack_handles(m["handles"])}

    i = next(k for k, m in enumerate(msgs) if holders(m) == {2})
    shares = msgs[i]["shares"]
    msgs[i]["shares"] = dgroup.add(shares[:32], dgroup.BASE) + shares[32:]  # a point, the wrong one
    bad = Entry.sign(cheat.identity, {**honest.fields, "msgs": msgs})

    _post_past_a_colluding_host(g, cheat, conn, bad, monkeypatch, dp, "verify_dleq", True,
                                dp.DLEQ_CHECKED)

    owner = g.peers[2]  # at once: the host signed as relayed what it refuses (the rule of
    assert owner.state == "failed"  # relayed evidence), and seat 1's shares are the check named
    assert (owner.error.seat, owner.error.step) == (-1, bad.seq), owner.error
    assert f"seat 1 at step {bad.seq}: deal: the shares" in owner.error.reason
    assert "fail their proof" in owner.error.reason
    for seat in (0, 3):
        p = g.peers[seat]
        assert p.table.transcript.entries[bad.seq].body == bad.body  # taken, the check held
        assert p.state != "failed"
        held = [c for d in p.table.dealer.decks.values() for c in d.unchecked]
        assert held and not any(c.done for c in held)  # the deal is not done: held
        p.table.dealer.raise_found()  # what every entry asks: nothing found yet, no waiting
        if seat == 0:  # once the deal is done its worker checks them; the next entry names
            checks.check_beside(held)
            deadline = time.monotonic() + 60
            while not all(c.done for c in held) and time.monotonic() < deadline:
                time.sleep(0.01)
            ask = p.table.dealer.raise_found
        else:
            ask = p.table.dealer.require_checked  # what a move or a deal asks first
        with pytest.raises(CheatDetected, match="fail their proof") as e:
            ask()
        assert (e.value.seat, e.value.step) == (1, bad.seq)
    v = verify_bytes(g.host.table.transcript.to_bytes())
    assert not v.ok and v.seat == 1 and f"entry {bad.seq}" in v.text


def test_a_seat_proving_while_its_worker_checks_in_a_new_process_uses_the_right_generators(
        monkeypatch):
    """A new process makes the generators ``h_i`` on first use; its seat proves its own shuffle
    while the worker thread checks the one before, both asking for them at once. Each must get
    every ``h_i`` right, and so must every later proof: a wrong one made an honest seat's proof
    fail (``t1``) for everyone."""
    from net.deck import cipher as dc
    from net.deck import group as g

    reference = sp.generators(60)
    key = g.RISTRETTO255.base_mul(12345)
    pile = [dc.Ciphertext(g.RISTRETTO255.BASE, g.RISTRETTO255.base_mul(k + 1)) for k in range(60)]
    for _ in range(20):
        monkeypatch.setattr(sp, "_GENERATORS", {})
        monkeypatch.setattr(sp, "_GENERATOR_SUMS", {})
        start = threading.Barrier(2)
        got: list[list[bytes]] = []

        def first_use(start=start, got=got):
            start.wait()
            got.append(sp.generators(60))

        threads = [threading.Thread(target=first_use) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert got == [reference, reference]
    draw = dc.shuffle_draw(bytes(32), len(pile))
    out = dc.apply_draw(pile, draw, key)
    proof = sp.prove(key, pile, out, draw.order, draw.scalars, b"ctx")
    monkeypatch.setattr(sp, "_GENERATORS", {})  # checked with generators made afresh
    sp.verify(key, pile, out, proof, b"ctx")
