"""The end-of-game audit: every reveal checked, every share recomputed."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.deck import cipher as dc
from net.deck import group as g
from net.deck import proofs as dp
from net.deck.fair_deck import CardKnown, DeckCorrupted, unpack
from net.deck.memory_table import LocalTable
from net.wire.errors import CheatDetected

TABLE = dc.CardTable("condottiere", 110)
MEDICI = dc.CardTable("medici", 100)


def honest_game(seed=1, tamper=None):
    """Two decks, three seats: deal, open, return to the bottom, reshuffle, deal again."""
    t = LocalTable(3, rng=random.Random(seed), tamper=tamper)
    t.new_deck("main", TABLE, range(12))
    t.new_deck("house 1", MEDICI, range(25, 31))
    t.shuffle("main")
    t.shuffle("house 1")
    hands = t.deal_round("main", 3)
    for h in hands[0][:2]:
        t.open("main", h)
    shown = [t.peers[0].decks["main"].card(h) for h in hands[0][:2]]
    [mine] = t.deal("house 1", 1)
    t.return_to_bottom("house 1", mine)
    t.deal("house 1", 1, 2)
    t.reshuffle("main", shown)
    t.deal("main", 2, 2)
    t.deal("main", None)
    return t


def test_an_honest_game_passes_the_audit_from_every_seat():
    t = honest_game()
    for seat in range(3):
        t.audit(seat=seat)


def test_a_missing_or_false_reveal_names_its_seat():
    t = honest_game()
    reveals = t.reveals()
    del reveals[2]
    with pytest.raises(CheatDetected, match="no end-of-game reveal") as e:
        t.audit(reveals)
    assert (e.value.seat, e.value.step) == (2, "reveal")
    reveals = t.reveals()
    reveals[1] = dict(reveals[1], secret=g.scalar_bytes(t.peers[0].secret))
    with pytest.raises(CheatDetected, match="not its key share") as e:
        t.audit(reveals)
    assert e.value.seat == 1


def test_the_audit_recomputes_shares_even_if_a_proof_were_forged(monkeypatch):
    # were the proof system broken, the audit would still catch a wrong share with the secrets
    def wrong_share(author, msg):
        if author == 1 and msg["type"] == "deck/shares":
            shares = [g.add(d, g.BASE) for d in unpack(msg["shares"], 32)]
            msg = dict(msg, shares=b"".join(shares))
        return msg

    monkeypatch.setattr(dp, "verify_dleq", lambda *args: True)
    t = LocalTable(2, rng=random.Random(1), tamper=wrong_share)
    t.new_deck("main", TABLE, range(4))
    t.shuffle("main")
    with pytest.raises(DeckCorrupted):  # the receiver cannot unmask its card
        t.deal("main", 0)
    with pytest.raises(CheatDetected, match="is not x\\*C1") as e:
        t.audit()
    assert (e.value.seat, e.value.step) == (1, "deal")


def test_the_audit_checks_every_proof_too(monkeypatch):
    # a proof that fails, let through in play, is named at the audit even though its shares
    # are right
    def bad_proof(author, msg):
        if author == 0 and msg["type"] == "deck/shares":
            msg = dict(msg, proof=bytes(64))
        return msg

    live = dp.verify_dleq
    monkeypatch.setattr(dp, "verify_dleq", lambda *args: True)
    t = LocalTable(3, rng=random.Random(7), tamper=bad_proof)
    t.new_deck("main", TABLE, range(6))
    t.shuffle("main")
    t.deal_round("main", 1)
    monkeypatch.setattr(dp, "verify_dleq", live)
    with pytest.raises(CheatDetected, match="fail their proof") as e:
        t.audit()
    assert (e.value.seat, e.value.step) == (0, "deal")


def test_dealt_cards_are_known_only_to_the_receiver_even_across_decks():
    t = honest_game()
    for seat in range(3):
        for deck_id, e in t.peers[seat].events:
            if isinstance(e, CardKnown):
                assert t.peers[0].decks[deck_id].holder(e.handle) == seat


# -- any honest sequence of moves keeps every card where it belongs, and passes the audit -------

moves = st.lists(
    st.one_of(
        st.tuples(st.just("deal"), st.sampled_from([0, 1, 2, None])),
        st.tuples(st.just("open"), st.integers(0, 20)),
        st.tuples(st.just("bottom"), st.integers(0, 20)),
        st.tuples(st.just("reshuffle"), st.integers(1, 3)),
    ),
    max_size=14,
)


@settings(max_examples=15, deadline=None)
@given(moves=moves, seed=st.integers(0, 2**32))
def test_honest_play_keeps_cards_private_distinct_and_audited(moves, seed):
    t = LocalTable(3, rng=random.Random(seed))
    t.new_deck("d", TABLE, range(4))
    t.shuffle("d")
    deck = t.peers[0].decks["d"]
    held = {0: [], 1: [], 2: []}  # hidden cards in hands, by handle
    shown = []  # opened handles still in play
    returned = {}  # ciphertext under the pile -> its holder
    for kind, arg in moves:
        if kind == "deal" and deck.pile:
            back = returned.get(deck.pile[0])
            if back is not None and arg is not None and arg != back:
                with pytest.raises(ValueError):
                    deck.deal(arg)
                continue
            returned.pop(deck.pile[0], None)
            [h] = t.deal("d", arg)
            (shown if arg is None else held[arg]).append(h)
        elif kind in ("open", "bottom"):
            cards = [(s, h) for s in range(3) for h in held[s]]
            if not cards:
                continue
            seat, h = cards[arg % len(cards)]
            held[seat].remove(h)
            if kind == "open":
                t.open("d", h)
                shown.append(h)
            else:
                t.return_to_bottom("d", h)
                returned[deck.ciphertext(h)] = seat
        elif kind == "reshuffle" and shown:
            back_in = shown[:arg]
            del shown[:arg]
            t.reshuffle("d", [deck.card(h) for h in back_in])
            returned.clear()
    for seat in range(3):
        view = t.peers[seat].decks["d"]
        for s in range(3):
            for h in held[s]:
                assert (view.card(h) is not None) == (s == seat)
        assert all(view.card(h) is not None for h in shown)
    x = sum(p.secret for p in t.peers) % g.L
    everywhere = [TABLE.index(dc.decrypt(c, x)) for c in deck.pile]
    everywhere += [TABLE.index(dc.decrypt(deck.ciphertext(h), x)) for h in shown]
    everywhere += [TABLE.index(dc.decrypt(deck.ciphertext(h), x)) for hs in held.values() for h in hs]
    assert sorted(everywhere) == list(range(4))
    t.audit()
