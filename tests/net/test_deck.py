"""The fair deck as a protocol: keys, shuffles, deals, opens, moves, and every message checked."""

import copy
import hashlib
import json
import random
import time
from pathlib import Path

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from net.deck import cipher as dc
from net.deck import group as g
from net.deck import shuffle_proof as sp
from net.deck.checks import ShareCheck, Worker, check_beside
from net.deck.deck_log import replay
from net.deck.fair_deck import (
    SHUFFLE_CONTEXT_TAG,
    CardKnown,
    CardOpened,
    FairDeck,
    pack_handles,
    unpack,
    unpack_handles,
)
from net.deck.keys import PublicKeys, key_message, read_key_message
from net.deck.memory_table import LocalTable
from net.wire.errors import CheatDetected

VECTORS = json.loads((Path(__file__).resolve().parent / "data" / "deck_vectors.json").read_text())
TABLE = dc.CardTable("condottiere", 110)
#: encodings ``decode_point`` refuses, one of each kind: the identity, a negative (odd) and an
#: out-of-range (non-canonical) encoding, and an even number below p that encodes no element
NOT_A_POINT = (2).to_bytes(32, "little")
BAD_POINTS = [bytes(32), (1).to_bytes(32, "little"), (2**255 - 18).to_bytes(32, "little"),
              NOT_A_POINT]


def table(seats=3, cards=12, seed=1, tamper=None, deck="d"):
    t = LocalTable(seats, rng=random.Random(seed), tamper=tamper)
    t.new_deck(deck, TABLE, range(cards))
    t.shuffle(deck)
    return t


def known(t, seat):
    return {e.handle: e.card for _, e in t.peers[seat].events if isinstance(e, CardKnown)}


def opened(t, seat):
    return {e.handle: e.card for _, e in t.peers[seat].events if isinstance(e, CardOpened)}


def every_card_once(t, deck="d"):
    """With every seat's secret (a test's privilege: no seat ever publishes its own), the pile
    and the cards out of it unmask to the deck's cards, each once."""
    x = sum(p.secret for p in t.peers) % g.L
    d = t.peers[0].decks[deck]
    masked = [*d.pile, *(d.ciphertext(h) for h in range(d.handles) if d.in_play(h))]
    assert sorted(d.table.index(dc.decrypt(ct, x)) for ct in masked) == sorted(d.log[0]["cards"])


# -- keys --------------------------------------------------------------------------------


def test_key_messages_join_into_one_key():
    xs = [11, 22, 33]
    keys = PublicKeys.from_messages(b"g", [key_message(b"g", s, x) for s, x in enumerate(xs)])
    assert keys.joint == g.base_mul(66)
    assert keys.seats == 3


def test_a_key_proof_is_bound_to_game_and_seat():
    msg = key_message(b"g", 1, 1234)
    assert read_key_message(b"g", 1, msg) == g.base_mul(1234)
    for game, seat in ((b"g", 2), (b"other game", 1)):
        with pytest.raises(CheatDetected) as e:
            read_key_message(game, seat, msg)
        assert (e.value.seat, e.value.step) == (seat, "key")


@pytest.mark.parametrize("index", range(len(BAD_POINTS)))
def test_a_key_share_that_is_no_point_is_refused(index):
    msg = dict(key_message(b"g", 0, 5), key=BAD_POINTS[index])
    with pytest.raises(CheatDetected, match="invalid key share"):
        read_key_message(b"g", 0, msg)


def test_a_copied_key_share_is_refused():
    msg = key_message(b"g", 0, 5)
    with pytest.raises(CheatDetected):
        PublicKeys.from_messages(b"g", [msg, msg])
    with pytest.raises(ValueError, match="same key share"):
        PublicKeys(b"g", (g.base_mul(5), g.base_mul(5)))


def test_a_deck_refuses_a_secret_that_is_not_its_seats():
    t = LocalTable(2, rng=random.Random(0))
    with pytest.raises(ValueError):
        FairDeck(t.keys, "d", TABLE, range(5), 0, t.peers[1].secret)
    with pytest.raises(ValueError):
        FairDeck(t.keys, "d", TABLE, [1, 1])


# -- dealing -----------------------------------------------------------------------------


def test_each_seat_learns_its_cards_and_nobody_elses():
    t = table(seats=3, cards=12)
    dealt = t.deal_round("d", 3)
    all_cards = []
    for seat in range(3):
        mine = known(t, seat)
        assert sorted(mine) == dealt[seat]
        all_cards += mine.values()
        for other in range(3):
            for h in dealt[other]:
                card = t.peers[seat].decks["d"].card(h)
                assert (card is not None) == (other == seat)
    assert len(set(all_cards)) == 9 and set(all_cards) <= set(range(12))
    assert t.peers[0].decks["d"].ciphertext(0) == t.peers[2].decks["d"].ciphertext(0)


def test_an_observer_learns_only_opened_cards():
    t = table(seats=2, cards=6)
    watcher = FairDeck(t.keys, "d", TABLE, range(6))
    for entry in t.peers[0].decks["d"].log[1:]:
        replay(watcher, entry)
    handles = t.deal("d", 1, 2)
    for entry in t.peers[0].decks["d"].log[-3:]:
        replay(watcher, entry)
    assert [watcher.card(h) for h in handles] == [None, None]
    t.open("d", handles[0])
    events = replay(watcher, t.peers[0].decks["d"].log[-1])
    assert events == [CardOpened(handles[0], known(t, 1)[handles[0]], 1)]


def test_a_relay_sees_no_card_before_it_is_opened():
    # everything a relaying host receives: no card point appears in it, and replaying it all
    # tells an observer no hidden card
    sent = []

    def spy(author, msg):
        sent.append(msg)
        return msg

    t = table(seats=3, cards=12, tamper=spy)
    dealt = t.deal_round("d", 3)
    points = {TABLE.point(c) for c in range(12)}

    def chunks(value):
        if isinstance(value, bytes):
            yield from (value[i:i + 32] for i in range(0, len(value), 32))
        elif isinstance(value, (list, tuple)):
            for v in value:
                yield from chunks(v)
        elif isinstance(value, dict):
            for v in value.values():
                yield from chunks(v)

    assert not any(c in points for msg in sent for c in chunks(msg))
    watcher = FairDeck(t.keys, "d", TABLE, range(12))
    for entry in t.peers[0].decks["d"].log[1:]:
        replay(watcher, entry)
    assert all(watcher.card(h) is None for hs in dealt.values() for h in hs)


def test_an_opened_card_is_the_card_its_holder_was_dealt():
    t = table(seats=4, cards=10)
    handles = t.deal("d", 2, 3)
    t.open("d", handles[1])
    card = known(t, 2)[handles[1]]
    for seat in range(4):
        assert opened(t, seat) == {handles[1]: card}
        assert t.peers[seat].decks["d"].is_open(handles[1])


def test_a_card_dealt_face_up_opens_once_every_seat_has_shared():
    t = table(seats=3, cards=5)
    [h] = t.deal("d", None)
    cards = {opened(t, s)[h] for s in range(3)}
    assert len(cards) == 1
    assert t.peers[0].decks["d"].missing_shares(h) == []


def test_dealing_the_whole_deck_gives_every_card_once():
    t = table(seats=3, cards=9)
    t.deal_round("d", 3)
    cards = [c for s in range(3) for c in known(t, s).values()]
    assert sorted(cards) == list(range(9))


def test_a_clone_takes_shares_and_returns_without_touching_the_deck_it_was_made_from():
    t = table(seats=3, cards=6)
    [h] = t.deal("d", 1)
    t.return_to_bottom("d", h)
    decks = [p.decks["d"] for p in t.peers]
    for d in decks:
        d.deal(2)
    share = decks[0].make_shares([1], t.context)
    before = [(d.missing_shares(1), d.card(1), d.in_play(h), len(d.log)) for d in decks]
    clones = [d.clone() for d in decks]
    for c in clones:
        c.receive(0, share, t.context)
    assert [c.missing_shares(1) for c in clones] == [[1], [1], [1]]
    assert [(d.missing_shares(1), d.card(1), d.in_play(h), len(d.log)) for d in decks] == before
    again = clones[0].clone()  # a clone of a clone: the card back under the pile is its own too
    again.deal(1)
    assert clones[0].handles == 2 and again.handles == 3 and decks[0].handles == 2
    # and the other way: the deck cloned from goes on, its clones do not see it
    second = decks[1].make_shares([1], t.context)
    for d in decks:
        d.receive(0, share, t.context)
        d.receive(1, second, t.context)
    assert decks[2].card(1) is not None and [d.card(1) for d in decks[:2]] == [None, None]
    assert [c.card(1) for c in clones] == [None, None, None]
    assert [c.missing_shares(1) for c in clones] == [[1], [1], [1]]
    decks[2].return_to_bottom(1)
    assert not decks[2].in_play(1) and clones[2].in_play(1)


def test_a_card_returned_to_the_bottom_comes_back_to_its_holder_unopened():
    t = table(seats=3, cards=5)
    [h] = t.deal("d", 1)
    card = known(t, 1)[h]
    t.return_to_bottom("d", h)
    deck = t.peers[0].decks["d"]
    assert len(deck.pile) == 5 and deck.pile[-1] == deck.ciphertext(h)
    assert opened(t, 0) == {}
    t.deal("d", 0, 4)
    with pytest.raises(ValueError, match="shown to all"):
        deck.deal(2)  # the others' shares of it are public: only its holder may get it back
    sent = len(deck.log)
    [again] = t.deal("d", 1)
    assert len(deck.log) == sent + 1  # the deal alone: its shares still serve, none are sent
    assert t.peers[1].decks["d"].card(again) == card
    assert [t.peers[s].decks["d"].card(again) for s in (0, 2)] == [None, None]
    assert deck.missing_shares(again) == []
    t.open("d", again)
    assert opened(t, 2) == {again: card}
    with pytest.raises(ValueError):
        deck.return_to_bottom(h)  # that handle is done with
    every_card_once(t)


def test_a_returned_card_may_be_turned_face_up_with_its_holders_share():
    t = table(seats=3, cards=3)
    [h] = t.deal("d", 2)
    card = known(t, 2)[h]
    t.return_to_bottom("d", h)
    t.deal("d", 0, 2)
    [up] = t.deal("d", None)
    assert opened(t, 0)[up] == card
    every_card_once(t)


def test_a_reshuffle_brings_opened_cards_back_and_everyone_shuffles_again():
    t = table(seats=3, cards=8)
    hands = t.deal_round("d", 2)
    for h in hands[0]:
        t.open("d", h)
    shown = sorted(opened(t, 0).values())
    deck = t.peers[1].decks["d"]
    with pytest.raises(ValueError, match="not an opened card"):
        deck.reshuffle([known(t, 1)[hands[1][0]]])
    t.reshuffle("d", shown)
    assert deck.shuffles == 6 and len(deck.pile) == 4
    t.deal("d", 2, 4)
    back = [c for h, c in known(t, 2).items() if h not in hands[2]]
    kept = [known(t, s)[h] for s in (1, 2) for h in hands[s]]
    assert sorted(back + kept) == list(range(8))


def test_lockstep_moves_are_refused_out_of_place():
    t = LocalTable(2, rng=random.Random(3))
    t.new_deck("d", TABLE, range(4))
    deck = t.peers[1].decks["d"]
    with pytest.raises(ValueError, match="being shuffled"):
        deck.deal(0)
    with pytest.raises(ValueError, match="turn to shuffle"):
        deck.make_shuffle(t.context)
    t.shuffle("d")
    [h] = t.deal("d", 1)
    with pytest.raises(ValueError, match="make_open"):
        deck.make_shares([h], b"")
    with pytest.raises(ValueError, match="not held"):
        t.peers[0].decks["d"].make_open([h], b"")
    with pytest.raises(ValueError, match="no seat"):
        deck.deal(5)
    with pytest.raises(ValueError, match="no card"):
        deck.card(7)


# -- every message is checked, and its author named ------------------------------------------


def tamper_shuffle(seat, change):
    """``change`` gets the shuffle's masked cards as a list of 64-byte items and returns a list
    (packed again) or any value to send as it is."""

    def tamper(author, msg):
        if author == seat and msg["type"] == "deck/shuffle":
            cards = change(unpack(msg["cards"], 64))
            if isinstance(cards, list) and all(isinstance(c, bytes) for c in cards):
                cards = b"".join(cards)
            msg = dict(msg, cards=cards)
        return msg

    return tamper


@pytest.mark.parametrize("index", range(len(BAD_POINTS)))
def test_a_point_that_is_no_element_in_a_shuffle_is_caught_at_once(index):
    def change(cards):
        cards[3] = BAD_POINTS[index] + cards[3][32:]
        return cards

    with pytest.raises(CheatDetected, match="masked card 3: .*(identity|non-canonical|not the)") as e:
        table(tamper=tamper_shuffle(1, change))
    assert (e.value.seat, e.value.step) == (1, "shuffle")


def test_a_card_in_the_old_groups_encoding_is_caught_at_once():
    from net.deck.edwards import EDWARDS25519 as ed

    def change(cards):
        cards[0] = cards[0][:32] + ed.hash_to_point(b"t", b"p")
        return cards

    with pytest.raises(CheatDetected, match="masked card 0: .*(non-canonical|not the)") as e:
        table(tamper=tamper_shuffle(2, change))
    assert e.value.seat == 2


@pytest.mark.parametrize(
    "change, reason",
    [
        (lambda cards: cards[:-1], "the pile has 12 cards of 64 bytes"),
        (lambda cards: [cards[0], *cards[:-1]], "the same masked card twice"),
        (lambda cards: [NOT_A_POINT * 2, *cards[1:]], "not the encoding of a ristretto255 point"),
        (lambda cards: [cards[0][:40], *cards[1:]], "64 bytes"),
        (lambda cards: [*cards, None], "64 bytes"),  # a list, not packed bytes
        (lambda cards: None, "64 bytes"),
        (lambda cards: cards[1:] + cards[:1], "t1: permutation commitment product"),
    ],
)
def test_a_malformed_shuffle_names_its_author(change, reason):
    with pytest.raises(CheatDetected, match=reason) as e:
        table(tamper=tamper_shuffle(0, change))
    assert (e.value.seat, e.value.step) == (0, "shuffle")


def test_a_shuffle_out_of_turn_or_misnumbered_is_caught():
    t = LocalTable(3, rng=random.Random(5))
    t.new_deck("d", TABLE, range(4))
    first = t.peers[0].decks["d"].make_shuffle(b"")
    with pytest.raises(CheatDetected, match="out of turn"):
        t.peers[2].decks["d"].receive(1, first, b"")
    for number in (1, True, "0", None):
        with pytest.raises(CheatDetected, match="wrong shuffle number"):
            t.peers[2].decks["d"].receive(0, dict(first, number=number), b"")
    for proof, words in ((None, "a shuffle proof is bytes"), (first["proof"][:-1], "bytes, not"),
                         (first["proof"] + b"\0", "bytes, not")):
        with pytest.raises(CheatDetected, match=f"format: .*{words}"):
            t.peers[2].decks["d"].receive(0, dict(first, proof=proof), b"")
    msg = dict(first)
    del msg["proof"]
    with pytest.raises(CheatDetected, match="format: a shuffle proof is bytes"):
        t.peers[2].decks["d"].receive(0, msg, b"")
    t.peers[2].decks["d"].receive(0, first, b"")  # the real one still goes through


# -- a false shuffle is refused at once, its author named; the honest decks are unchanged -------


def proved_shuffle(t, change=None, deck_id="d", bound=None):
    """The message of the seat due to shuffle ``deck_id``: its output changed by
    ``change(pile, output)`` (a list of ``Ciphertext``), proved by that seat as if it were its
    own honest shuffle, its proof bound to ``bound`` (default: the right context)."""
    seat = t.peers[0].decks[deck_id].next_shuffler
    deck = t.peers[seat].decks[deck_id]
    key = t.keys.joint
    draw = dc.shuffle_draw(bytes([7]) * 32, len(deck.pile))
    out = dc.apply_draw(deck.pile, draw, key)
    if change is not None:
        out = change(deck.pile, out)
    context = deck.shuffle_context(seat, deck.shuffles, t.context) if bound is None else bound
    proof = sp.prove(key, deck.pile, out, draw.order, draw.scalars, context, bytes(32))
    return seat, {"type": "deck/shuffle", "deck": deck_id, "number": deck.shuffles,
                  "cards": b"".join(ct.to_bytes() for ct in out), "proof": proof}


def refused_by_every_peer(t, seat, msg, check):
    """Every other peer refuses ``msg`` at once, naming ``seat`` and ``check``, and its deck is
    exactly as it was."""
    for p in t.peers:
        if p.seat == seat:
            continue
        deck = p.decks[msg["deck"]]
        before = (list(deck.pile), deck.shuffles, deck.next_shuffler, len(deck.log))
        with pytest.raises(CheatDetected) as e:
            deck.receive(seat, msg, t.context)
        assert (e.value.seat, e.value.step) == (seat, "shuffle")
        assert e.value.reason.startswith(check), e.value.reason
        assert (list(deck.pile), deck.shuffles, deck.next_shuffler, len(deck.log)) == before


def then_play_goes_on(t, deck_id="d"):
    t.shuffle(deck_id)
    cards = t.deal_round(deck_id, 1)
    seen = [known(t, s)[h] for s, hs in cards.items() for h in hs]
    assert len(set(seen)) == len(seen)


CHEATS = {
    # the output is a permutation of the pile, but not the one the proof commits to
    "a stacked deck": lambda pile, out: out[1:] + out[:1],
    "a card dropped for a fresh masking of another": lambda pile, out: [
        dc.remask(pile[3], 99, KEY_OF[0]), *out[1:]],
    "a card duplicated, freshly masked": lambda pile, out: [
        out[0], dc.remask(out[0], 7, KEY_OF[0]), *out[2:]],
    "a card replaced by one of another deck": lambda pile, out: [
        dc.mask(TABLE.point(60), 5, KEY_OF[0]), *out[1:]],
    "a point that is no card": lambda pile, out: [
        dc.mask(g.hash_to_point(b"joker", b""), 5, KEY_OF[0]), *out[1:]],
}
KEY_OF = []


@pytest.mark.parametrize("cheat", sorted(CHEATS))
@pytest.mark.parametrize("shuffler", [0, 2])
def test_a_false_shuffle_is_refused_at_once(cheat, shuffler):
    t = LocalTable(3, rng=random.Random(21))
    KEY_OF[:] = [t.keys.joint]
    t.new_deck("d", TABLE, range(8))
    while t.peers[0].decks["d"].next_shuffler != shuffler:
        seat = t.peers[0].decks["d"].next_shuffler
        t.broadcast(seat, t.peers[seat].decks["d"].make_shuffle(t.context))
    seat, msg = proved_shuffle(t, CHEATS[cheat])
    refused_by_every_peer(t, seat, msg, "t4: re-encryption")
    then_play_goes_on(t)


def test_a_stacked_deck_sent_with_the_honest_proof_is_refused():
    t = LocalTable(3, rng=random.Random(22))
    t.new_deck("d", TABLE, range(8))
    honest = t.peers[0].decks["d"].make_shuffle(t.context)
    cards = unpack(honest["cards"], 64)
    for stacked in (cards[::-1], cards[1:] + cards[:1]):
        msg = dict(honest, cards=b"".join(stacked))
        refused_by_every_peer(t, 0, msg, "t1: permutation commitment product")
    t.broadcast(0, honest)
    then_play_goes_on(t)


def test_a_dealt_card_copied_into_a_reshuffle_is_refused():
    # seat 0 reshuffles the discards back and slips in the masked card dealt to seat 1, whose
    # other shares are public: dealt to seat 0 later, seat 0 would read seat 1's card
    t = LocalTable(3, rng=random.Random(23))
    t.new_deck("d", TABLE, range(9))
    t.shuffle("d")
    hands = t.deal_round("d", 2)
    t.open("d", hands[2][0])
    for p in t.peers:
        p.decks["d"].reshuffle([opened(t, 0)[hands[2][0]]])
    victim = t.peers[0].decks["d"].ciphertext(hands[1][0])
    key = t.keys.joint
    for copy_in in (lambda pile, out: [victim, *out[1:]],
                    lambda pile, out: [dc.remask(victim, 31337, key), *out[1:]]):
        seat, msg = proved_shuffle(t, copy_in)
        assert seat == 0
        refused_by_every_peer(t, 0, msg, "t4: re-encryption")
    then_play_goes_on(t)


@pytest.mark.parametrize("moved", ["deck", "seat", "game", "number", "transcript"])
def test_a_proof_moved_to_another_deck_seat_game_number_or_moment_is_refused(moved):
    t = LocalTable(3, rng=random.Random(24))
    t.new_deck("d", TABLE, range(8))
    t.new_deck("e", TABLE, range(8))  # the same cards: the same pile before any shuffle
    t.broadcast(0, t.peers[0].decks["d"].make_shuffle(t.context))
    deck = t.peers[1].decks["d"]
    assert deck.next_shuffler == 1
    right = dict(game=t.game_id, deck="d", seat=1, number=1, transcript=t.context)
    wrong = dict(right, **{moved: {"deck": "e", "seat": 2, "game": b"another game", "number": 0,
                                   "transcript": b"an earlier transcript hash"}[moved]})
    bound = g.encode(SHUFFLE_CONTEXT_TAG, wrong["game"], wrong["deck"].encode(),
                     wrong["seat"].to_bytes(2, "big"), wrong["number"].to_bytes(4, "big"),
                     wrong["transcript"])
    assert g.encode(SHUFFLE_CONTEXT_TAG, right["game"], b"d", (1).to_bytes(2, "big"),
                    (1).to_bytes(4, "big"), t.context) == deck.shuffle_context(1, 1, t.context)
    seat, msg = proved_shuffle(t, bound=bound)
    refused_by_every_peer(t, 1, msg, "t1: permutation commitment product")
    then_play_goes_on(t)


def test_a_shuffle_of_one_deck_replayed_on_another_is_refused():
    t = LocalTable(2, rng=random.Random(25))
    t.new_deck("d", TABLE, range(6))
    t.new_deck("e", TABLE, range(6))
    msg = t.peers[0].decks["d"].make_shuffle(t.context)
    refused_by_every_peer(t, 0, dict(msg, deck="e"), "t1: permutation commitment product")
    later = hashlib.sha256(b"a later transcript hash").digest()
    deck = t.peers[1].decks["d"]
    with pytest.raises(CheatDetected, match="t1: "):
        deck.receive(0, msg, later)  # the same message, at another place in the transcript
    assert deck.receive(0, msg, t.context)[0].seat == 0


def test_a_shuffle_checked_once_in_a_process_is_taken_nowhere_else(monkeypatch):
    # a host and its bots share a process: each proof is checked once there, and what is
    # remembered is the whole statement, so the same bytes elsewhere are checked afresh
    from net.deck import checks as deck_checks

    checks = []
    real = sp.verify
    monkeypatch.setattr(sp, "verify",
                        lambda *args, **kw: (checks.append(args[-1]), real(*args, **kw))[1])
    monkeypatch.setattr(deck_checks, "SHUFFLES_CHECKED", deck_checks.ProofMemo())
    t = LocalTable(3, rng=random.Random(27))
    t.new_deck("d", TABLE, range(6))
    t.new_deck("e", TABLE, range(6))
    msg = t.peers[0].decks["d"].make_shuffle(t.context)
    t.peers[1].decks["d"].receive(0, msg, t.context)
    assert len(checks) == 1
    with pytest.raises(CheatDetected, match="t1: "):
        t.peers[2].decks["d"].receive(0, msg, b"another moment")
    with pytest.raises(CheatDetected, match="t1: "):
        t.peers[2].decks["e"].receive(0, dict(msg, deck="e"), t.context)
    forged = dict(msg, proof=msg["proof"][:-1] + bytes([msg["proof"][-1] ^ 1]))
    with pytest.raises(CheatDetected):
        t.peers[2].decks["d"].receive(0, forged, t.context)
    assert len(checks) == 4
    t.peers[2].decks["d"].receive(0, msg, t.context)
    assert len(checks) == 4  # the very same statement: not checked again
    deck_checks.SHUFFLES_CHECKED.size = 0  # off: every peer checks everything itself
    t.peers[0].decks["e"].receive(0, t.peers[0].decks["e"].make_shuffle(t.context), t.context)
    t.peers[1].decks["e"].receive(0, t.peers[0].decks["e"].log[-1]["msg"], t.context)
    t.peers[2].decks["e"].receive(0, t.peers[0].decks["e"].log[-1]["msg"], t.context)
    assert len(checks) == 6


def test_the_in_memory_table_stops_at_a_false_shuffle_and_names_its_author():
    def swap(author, msg):
        if author == 1 and msg["type"] == "deck/shuffle":
            cards = unpack(msg["cards"], 64)
            msg = dict(msg, cards=b"".join([cards[1], cards[0], *cards[2:]]))
        return msg

    t = LocalTable(3, rng=random.Random(26), tamper=swap)
    t.new_deck("d", TABLE, range(10))
    with pytest.raises(CheatDetected) as e:
        t.shuffle("d")
    assert (e.value.seat, e.value.step) == (1, "shuffle")
    assert e.value.reason == "t1: permutation commitment product"
    for p in t.peers:  # seat 0's shuffle taken, seat 1's not, by anyone
        assert p.decks["d"].shuffles == 1 and p.decks["d"].next_shuffler == 1
    t.tamper = None
    then_play_goes_on(t)


def tamper_shares(seat, change):
    def tamper(author, msg):
        if author == seat and msg["type"] == "deck/shares":
            msg = change(dict(msg))
        return msg

    return tamper


def entries(msg):
    return [list(e) for e in zip(unpack_handles(msg["handles"]), unpack(msg["shares"], 32), strict=True)]


def with_entries(msg, items):
    return dict(msg, handles=pack_handles([h for h, _ in items]), shares=b"".join(d for _, d in items))


def test_a_wrong_decryption_share_is_caught_at_once_with_its_author():
    def change(msg):
        items = entries(msg)
        items[1][1] = g.add(items[1][1], g.BASE)
        return with_entries(msg, items)

    t = table(seats=3, cards=9, tamper=tamper_shares(2, change))
    with pytest.raises(CheatDetected, match="fail their proof") as e:
        t.deal_round("d", 2)
    assert (e.value.seat, e.value.step) == (2, "deal")


@pytest.mark.parametrize("index", range(len(BAD_POINTS)))
def test_a_share_that_is_no_point_is_caught(index):
    def change(msg):
        items = entries(msg)
        items[0][1] = BAD_POINTS[index]
        return with_entries(msg, items)

    t = table(seats=2, cards=4, tamper=tamper_shares(0, change))
    with pytest.raises(CheatDetected, match="identity|non-canonical|not the") as e:
        t.deal("d", 1)
    assert e.value.seat == 0


def test_a_proof_does_not_survive_a_change_of_context():
    t = table(seats=2, cards=4)
    for p in t.peers:
        p.decks["d"].deal(1)
    msg = t.peers[0].decks["d"].make_shares([0], b"transcript A")
    with pytest.raises(CheatDetected, match="fail their proof"):
        t.peers[1].decks["d"].receive(0, msg, b"transcript B")
    assert t.peers[1].decks["d"].receive(0, msg, b"transcript A") != []


@pytest.mark.parametrize(
    "change, reason",
    [
        (lambda m: dict(m, handles=b"", shares=b""), "4-byte handles and 32-byte points"),
        (lambda m: dict(m, shares=m["shares"] + b"\0"), "4-byte handles and 32-byte points"),
        (lambda m: dict(m, handles=m["handles"][:3]), "4-byte handles and 32-byte points"),
        (lambda m: dict(m, handles=[0]), "4-byte handles and 32-byte points"),
        (lambda m: with_entries(m, [[99, entries(m)[0][1]]]), "no card with handle 99"),
        (lambda m: with_entries(m, entries(m) * 2), "twice in one message"),
        (lambda m: dict(m, proof=b"\0" * 64), "fail their proof"),
        (lambda m: dict(m, proof=None), "fail their proof"),
        (lambda m: dict(m, type="deck/other"), "unknown deck message"),
    ],
)
def test_malformed_shares_name_their_author(change, reason):
    t = table(seats=2, cards=4, tamper=tamper_shares(0, change))
    with pytest.raises(CheatDetected, match=reason) as e:
        t.deal("d", 1)
    assert e.value.seat == 0


def test_a_second_share_or_a_share_for_a_card_back_in_the_pile_is_caught():
    t = table(seats=2, cards=4)
    [h] = t.deal("d", 1)
    msg = t.peers[0].decks["d"].make_shares([h], b"")
    with pytest.raises(CheatDetected, match="a second share"):
        t.peers[1].decks["d"].receive(0, msg, b"")
    t.return_to_bottom("d", h)
    with pytest.raises(CheatDetected, match="back in the pile"):
        t.peers[0].decks["d"].receive(0, msg, b"")


def test_a_false_open_is_caught_at_once():
    # the holder of card h claims it is another card: its share would have to be
    # C2 - (others' shares) - M_claimed, which it cannot prove equal to x*C1
    t = table(seats=3, cards=6)
    [h] = t.deal("d", 1)
    real = known(t, 1)[h]
    claimed = (real + 1) % 6
    deck = t.peers[1].decks["d"]
    ct = deck.ciphertext(h)
    others = [deck._dealt[h].shares[s] for s in (0, 2)]
    forged = g.sub(g.sub(ct.c2, g.add_all(others)), TABLE.point(claimed))
    honest = deck.make_open([h], t.context)
    msg = dict(honest, shares=forged)
    with pytest.raises(CheatDetected, match="fail their proof") as e:
        t.peers[0].decks["d"].receive(1, msg, t.context)
    assert (e.value.seat, e.value.step) == (1, "open")


def test_one_message_may_not_both_deal_and_open():
    t = table(seats=2, cards=4)
    [a] = t.deal("d", 0)
    [b] = t.deal("d", 1)
    deck = t.peers[0].decks["d"]
    mixed = with_entries(
        deck.make_open([a], b""), entries(deck.make_open([a], b"")) + entries(deck.make_shares([b], b""))
    )
    with pytest.raises(CheatDetected, match="both deals and opens"):
        t.peers[1].decks["d"].receive(0, mixed, b"")


def test_a_card_that_is_no_card_slipped_into_a_shuffle_is_refused_before_any_deal():
    joker = g.hash_to_point(b"not a card", b"")

    def tamper(author, msg):
        if author == 1 and msg["type"] == "deck/shuffle":
            key = t_keys[0]
            msg = dict(msg, cards=dc.mask(joker, 77, key).to_bytes() + msg["cards"][64:])
        return msg

    t_keys = []
    t = LocalTable(3, rng=random.Random(9), tamper=tamper)
    t_keys.append(t.keys.joint)
    t.new_deck("d", TABLE, range(5))
    with pytest.raises(CheatDetected, match="t1: ") as e:
        t.shuffle("d")
    assert (e.value.seat, e.value.step) == (1, "shuffle")


# -- hostile input: any message gets a clear answer, never a crash ------------------------------

values = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2**70) | st.binary(max_size=70) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
HOSTILE_TABLE = table(seats=2, cards=4, seed=11)
HOSTILE_TABLE.deal("d", 1)


@given(
    kind=st.sampled_from(["deck/shuffle", "deck/shares", "deck/key", None, 3]),
    fields=st.dictionaries(
        st.sampled_from(["number", "commitment", "cards", "shares", "proof", "x"]), values, max_size=5
    ),
    author=st.integers(0, 1),
)
def test_hostile_messages_are_refused_cleanly(kind, fields, author):
    deck = copy.deepcopy(HOSTILE_TABLE.peers[0].decks["d"])
    msg = {**fields, "type": kind, "deck": "d"}
    try:
        deck.receive(author, msg, b"context")
    except CheatDetected as e:
        assert str(e)


VALID_SHARES = HOSTILE_TABLE.peers[0].decks["d"].make_shares([0], b"context")


@given(
    handles=values | st.binary(max_size=12),
    shares=values | st.binary(max_size=96),
    proof=values,
    keep=st.sampled_from(["handles", "shares", "proof", "none"]),
)
def test_hostile_shares_are_refused_cleanly(handles, shares, proof, keep):
    deck = copy.deepcopy(HOSTILE_TABLE.peers[1].decks["d"])
    msg = {**VALID_SHARES, "handles": handles, "shares": shares, "proof": proof}
    if keep != "none":
        msg[keep] = VALID_SHARES[keep]
    with pytest.raises(CheatDetected):
        deck.receive(0, msg, b"context")


def test_protocol_known_answer():
    # a whole small game with every input fixed: the messages' msgpack encoding is frozen
    v = VECTORS["protocol"]
    sent = []

    def spy(author, msg):
        sent.append([author, msg])
        return msg

    t = LocalTable(v["seats"], game_id=v["game_id"].encode(), rng=random.Random(v["rng_seed"]),
                   tamper=spy)
    t.new_deck("d", TABLE, range(v["cards"]))
    t.shuffle("d")
    hands = t.deal_round("d", 1)
    t.open("d", hands[0][0])
    assert [k.hex() for k in t.keys.shares] == v["key_shares"]
    assert len(sent) == v["messages"]
    assert hashlib.sha256(msgpack.packb(sent, use_bin_type=True)).hexdigest() == v["sha256"]
    assert t.peers[1].decks["d"].card(hands[0][0]) == v["opened"]
    every_card_once(t)


def test_a_peer_rebuilds_its_deck_from_the_log_alone():
    # nothing of its own shuffles is needed: they are in the log like everyone else's
    t = table(seats=3, cards=9)
    hands = t.deal_round("d", 2)
    t.open("d", hands[1][0])
    old = t.peers[1].decks["d"]
    new = FairDeck(t.keys, "d", TABLE, range(9), 1, t.peers[1].secret)
    events = [e for entry in old.log[1:] for e in replay(new, entry)]
    assert {e.handle: e.card for e in events if isinstance(e, CardKnown)} == known(t, 1)
    assert new.pile == old.pile and new.shuffles == old.shuffles
    assert [new.card(h) for h in range(6)] == [old.card(h) for h in range(6)]
    t.peers[1].decks["d"] = new
    t.deal("d", 1)  # and play goes on
    every_card_once(t)


# -- a hidden card is one of a set ---------------------------------------------------------------


def test_a_holder_proves_its_hidden_card_is_one_of_a_set_without_saying_which():
    t = LocalTable(3, rng=random.Random(11))
    t.new_deck("d", TABLE, range(12))
    t.shuffle("d")
    [h] = t.deal("d", 0)
    mine = t.peers[0].decks["d"]
    card = mine.card(h)
    others = [c for c in range(12) if c != card]
    low_set = sorted([card, *others[:4]])
    proof = mine.prove_one_of(h, low_set, b"ctx")
    for seat in (1, 2):
        deck = t.peers[seat].decks["d"]
        assert deck.card(h) is None  # still hidden from them
        assert deck.verify_one_of(0, h, low_set, proof, b"ctx")
        # bound to the set, the moment, the card and its holder
        assert not deck.verify_one_of(0, h, others[:5], proof, b"ctx")
        assert not deck.verify_one_of(0, h, low_set, proof, b"other moment")
        assert not deck.verify_one_of(1, h, low_set, proof, b"ctx")
        assert not deck.verify_one_of(0, h, low_set, proof[:-1], b"ctx")
        for i in range(0, len(proof), 64):  # any pair of scalars changed breaks it
            bad = proof[:i] + bytes(64) + proof[i + 64:]
            assert not deck.verify_one_of(0, h, low_set, bad, b"ctx")
    with pytest.raises(ValueError, match="not one of"):
        mine.prove_one_of(h, others, b"ctx")
    with pytest.raises(ValueError):
        t.peers[1].decks["d"].prove_one_of(h, low_set, b"ctx")  # not its card


def test_a_proof_for_a_set_the_card_is_not_in_cannot_be_made_to_verify():
    # the holder of a card outside the set lies about which target is true: the proof fails
    from net.deck import proofs as dp
    t = LocalTable(2, rng=random.Random(12))
    t.new_deck("d", TABLE, range(8))
    t.shuffle("d")
    [h] = t.deal("d", 0)
    mine, theirs = t.peers[0].decks["d"], t.peers[1].decks["d"]
    card = mine.card(h)
    outside = [c for c in range(8) if c != card][:3]
    base, targets = mine._one_of(h, outside)
    forged = dp.prove_dleq_one_of(t.peers[0].secret, base, targets, 1,
                                  mine._one_of_context(h, 0, b"ctx"))
    assert not theirs.verify_one_of(0, h, outside, forged, b"ctx")


# -- proofs checked beside the game ---------------------------------------------------------


def _wrong_proof(seat):
    """Seat ``seat`` sends its shuffle with a proof of another shuffle of the same pile: every
    point valid, the proof false."""

    def tamper(author, msg):
        if author == seat and msg["type"] == "deck/shuffle":
            # the last response scalar changed: the proof no longer holds
            proof = bytearray(msg["proof"])
            proof[-32] ^= 1
            msg = dict(msg, proof=bytes(proof))
        return msg

    return tamper


def test_checked_beside_the_game_every_card_is_dealt_once():
    t = LocalTable(4, rng=random.Random(3), defer=True)
    t.new_deck("d", TABLE, range(16))
    t.shuffle("d")
    assert all(p.decks["d"].unchecked for p in t.peers)  # taken at once, checked later
    t.deal_round("d", 3)
    for p in t.peers:  # only the shares of cards in other hands are left to check
        deck = p.decks["d"]
        assert deck.unchecked and all(isinstance(c, ShareCheck) for c in deck.unchecked)
        assert {deck.holder(h) for c in deck.unchecked for h in c.handles} == {0, 1, 2, 3} - {p.seat}
        deck.require_checked()
        assert not deck.unchecked
    every_card_once(t)
    cards = [c for s in range(4) for c in known(t, s).values()]
    assert len(cards) == len(set(cards)) == 12


def _deal_with_a_bad_share(seats=4, held_back=(0,)):
    """Seats shuffle (proofs taken unchecked) and each is dealt two cards; seat 2's shares for
    seat 0's cards fail their proof (a valid point, the wrong one). Every other message is
    taken by every seat as its table takes it (``defer``), but seat 2's for the seats of
    ``held_back``; seat 2's bad one is given back."""
    t = LocalTable(seats, rng=random.Random(11), defer=True)
    t.new_deck("d", TABLE, range(20))
    t.shuffle("d")
    for s in range(seats):
        for p in t.peers:
            p.decks["d"].deal(s)
            p.decks["d"].deal(s)
    bad = None
    for author in range(seats):
        deck = t.peers[author].decks["d"]
        for to in range(seats):
            if to == author:
                continue
            msg = deck.make_shares([2 * to, 2 * to + 1], t.context)
            if (author, to) == (2, 0):
                items = entries(msg)
                items[1][1] = g.add(items[1][1], g.BASE)
                bad = with_entries(msg, items)
            if author == 2 and to in held_back:
                continue
            for p in t.peers:
                p.decks["d"].receive(author, msg, t.context, defer=True)
    return t, bad


def test_shares_of_cards_in_other_hands_are_checked_beside_the_game_and_named_before_a_deal():
    """A seat checks at once the shares of its own cards; those of cards in other hands it takes
    with their points checked and checks beside (they tell it nothing until a card is shown).
    A bad one is still refused at once by the seat whose cards they are, and named by every
    other seat before it deals another card (or shows one, below)."""
    t, bad = _deal_with_a_bad_share()
    owner = t.peers[0].decks["d"]
    with pytest.raises(CheatDetected, match="fail their proof") as e:
        owner.receive(2, bad, t.context, defer=True)
    assert (e.value.seat, e.value.step) == (2, "deal")
    assert known(t, 0) == {} and owner.card(0) is None  # its cards stay unknown: nothing learnt
    for seat in (1, 3):
        deck = t.peers[seat].decks["d"]
        deck.receive(2, bad, t.context, defer=True)  # taken: the points are points
        worker = Worker(f"proofs-{seat}")
        check_beside(deck.unchecked, worker)
        deck.make_shares([0], t.context)  # the others' shares are no input of its own
        with pytest.raises(CheatDetected, match="fail their proof") as e:
            deck.deal(seat)
        assert (e.value.seat, e.value.step) == (2, "deal")
        assert deck.handles == 2 * len(t.peers)  # no card dealt
        with pytest.raises(CheatDetected, match="fail their proof"):  # and asked again
            deck.require_checked()
    observer = t.peers[0].decks["d"].clone()  # an observer (the host, verify) checks at once
    observer.seat = None
    with pytest.raises(CheatDetected, match="fail their proof"):
        observer.receive(2, bad, t.context, defer=True)


def test_attack_a_bad_share_taken_unchecked_is_named_before_the_card_is_shown():
    """Seat 0 and seat 2 together: seat 2's share for seat 0's card is false, seat 0 takes it
    without a word and shows the card. Every other seat checks the shares of a card before it
    unmasks it: seat 2 is named, and no card is learnt from the false share."""
    t, bad = _deal_with_a_bad_share()
    for seat in (1, 3):
        t.peers[seat].decks["d"].receive(2, bad, t.context, defer=True)
    shown = t.peers[0].decks["d"].make_open([1], t.context)
    for seat in (1, 3):
        deck = t.peers[seat].decks["d"]
        with pytest.raises(CheatDetected, match="fail their proof") as e:
            deck.receive(0, shown, t.context, defer=True)
        assert (e.value.seat, e.value.step) == (2, "deal")
        assert not deck.is_open(1) and deck.card(1) is None


def test_a_bad_share_for_a_card_in_another_hand_that_is_no_point_is_refused_at_once():
    t, bad = _deal_with_a_bad_share()
    items = entries(bad)
    items[0][1] = NOT_A_POINT
    worse = with_entries(bad, items)
    deck = t.peers[1].decks["d"]
    before = deck.unchecked
    with pytest.raises(CheatDetected, match="share for card 0") as e:
        deck.receive(2, worse, t.context, defer=True)
    assert (e.value.seat, e.value.step) == (2, "deal")
    assert deck.unchecked == before  # nothing of it taken


def test_attack_a_bad_proof_early_in_the_chain_is_caught_before_any_card_opens():
    t = LocalTable(6, rng=random.Random(4), tamper=_wrong_proof(1), defer=True)
    t.new_deck("d", TABLE, range(20))
    t.shuffle("d")  # every seat shuffled on: the bad proof was not in the way
    assert not t.peers[0].decks["d"].shuffling
    for p in t.peers[:1] + t.peers[2:]:  # seat 1 trusts its own shuffle
        deck = p.decks["d"]
        with pytest.raises(CheatDetected, match="t-hat|t[1-4]") as e:
            deck.deal(p.seat)
        assert (e.value.seat, e.value.step) == (1, "shuffle")
        assert deck.handles == 0  # no card dealt
        with pytest.raises(CheatDetected):  # and asked again, the same answer
            deck.require_checked()
    assert not any(isinstance(e, CardKnown | CardOpened) for p in t.peers for _, e in p.events)


def test_attack_two_bad_proofs_checked_together_name_the_first_of_the_chain(monkeypatch):
    """Seats 3 and 1 of five both send a false proof; a reader that took every shuffle
    unchecked checks them together at the deal: they fail together, and the proofs checked
    one by one in chain order name seat 1, the first, before any card is dealt."""
    bad_1, bad_3 = _wrong_proof(1), _wrong_proof(3)
    t = LocalTable(5, rng=random.Random(9), tamper=lambda a, m: bad_3(a, bad_1(a, m)))
    t.new_deck("d", TABLE, range(15))
    observer = FairDeck(t.keys, "d", TABLE, range(15))
    lead = t.peers[0].decks["d"]
    while lead.shuffling:  # each seat shuffles what it holds, the reader takes it unchecked
        seat = lead.next_shuffler
        msg = t.tamper(seat, t.peers[seat].decks["d"].make_shuffle(t.context))
        for deck in [p.decks["d"] for p in t.peers] + [observer]:
            deck.receive(seat, msg, t.context, defer=True)
        t.context = hashlib.sha256(t.context + repr(msg).encode()).digest()
    assert [c.author for c in observer.unchecked] == [0, 1, 2, 3, 4]
    together = []
    real = sp.verify_all
    monkeypatch.setattr(sp, "verify_all", lambda s, **kw: together.append(
        (len(s), real(s, **kw))) or together[-1][1])
    with pytest.raises(CheatDetected, match="t-hat|t[1-4]") as e:
        observer.deal(None)
    assert together == [(5, False)]
    assert (e.value.seat, e.value.step) == (1, "shuffle")
    assert observer.handles == 0
    with pytest.raises(CheatDetected) as again:  # asked again, the same answer
        observer.require_checked()
    assert again.value.seat == 1


def test_a_proof_checked_in_a_worker_is_not_checked_again_before_the_deal(monkeypatch):
    from net.deck import fair_deck

    fair_deck.SHUFFLES_CHECKED.size, size = 0, fair_deck.SHUFFLES_CHECKED.size
    calls = _reads(monkeypatch)
    try:
        t = LocalTable(3, game_id=b"checked once", rng=random.Random(5), defer=True)
        t.new_deck("d", TABLE, range(9))
        t.shuffle("d")
        t.deal("d", 0)
    finally:
        fair_deck.SHUFFLES_CHECKED.size = size
    # each peer checks the two shuffles not its own, once (other tables' workers may still run)
    assert len([c for c in calls if b"checked once" in c]) == 3 * 2


def test_a_deferred_shuffle_with_a_bad_point_is_refused_at_once():
    def change(cards):
        cards[2] = cards[2][:32] + BAD_POINTS[3]
        return cards

    t = LocalTable(3, rng=random.Random(6), tamper=tamper_shuffle(2, change), defer=True)
    t.new_deck("d", TABLE, range(9))
    with pytest.raises(CheatDetected, match="masked card 2: not the encoding") as e:
        t.shuffle("d")
    assert (e.value.seat, e.value.step) == (2, "shuffle")


def _wait_done(checks, seconds=60.0):
    import time

    end = time.monotonic() + seconds
    while not all(c.done for c in checks) and time.monotonic() < end:
        time.sleep(0.01)
    return all(c.done for c in checks)


def _round_taken(seats=4, upto=None, tamper=None):
    """A table whose seats take a round of shuffles with every proof left to their worker
    threads (as a seat's table does), up to shuffle ``upto`` (all of them: ``None``)."""
    t = LocalTable(seats, game_id=b"round", rng=random.Random(12), tamper=tamper, defer=True)
    t.new_deck("d", TABLE, range(12))
    lead = t.peers[0].decks["d"]
    while lead.shuffling and (upto is None or lead.shuffles < upto):
        seat = lead.next_shuffler
        t.broadcast(seat, t.peers[seat].decks["d"].make_shuffle(t.context))
    return t


def _reads(monkeypatch):
    """The contexts of the proofs read to be checked: alone, with others, or in a chain."""
    calls = []
    real = sp._read
    monkeypatch.setattr(sp, "_read", lambda *a: (calls.append(a[-1]), real(*a))[1])
    return calls


def test_a_seat_sums_the_proofs_of_a_round_as_they_come_and_each_holds_once_the_round_is_whole(
        monkeypatch):
    """Each proof is summed by the seat's worker as it comes (the seat shuffles meanwhile);
    none is done before the round is whole, every one once it is, without the caller checking
    any again, and the deal goes on."""
    reads = _reads(monkeypatch)
    t = _round_taken(upto=2)  # seats 0 and 1 have shuffled
    deck = t.peers[2].decks["d"]
    held = deck.unchecked
    assert len(held) == 2 and deck.chain is not None
    end = time.monotonic() + 60
    while len(deck.chain._summed) < 2 and time.monotonic() < end:  # summed as they came
        time.sleep(0.01)
    assert deck.chain._summed == held and not any(c.done for c in held)  # the round goes on
    t.shuffle("d")
    assert _wait_done(deck.unchecked)
    for p in t.peers:
        assert _wait_done(p.decks["d"].unchecked)
    reads.clear()
    t.deal("d", 2, count=3)
    assert reads == []  # nothing checked again before the deal
    assert len(known(t, 2)) == 3


def test_attack_a_bad_proof_early_in_a_round_summed_as_it_came_is_named_before_any_card_is_dealt():
    """Seat 0's proof is false: every other seat sums it as it comes and shuffles on; once the
    round is whole the sum fails, the proofs are checked on their own in order, and seat 0 is
    named before any card is dealt, each time the seat is asked."""
    t = _round_taken(tamper=_wrong_proof(0))
    for seat in (1, 2, 3):
        deck = t.peers[seat].decks["d"]
        assert _wait_done(deck.unchecked[:1])  # the worker found it (its error kept)
        with pytest.raises(CheatDetected, match="t-hat|t[1-4]") as e:
            deck.deal(seat)
        assert (e.value.seat, e.value.step) == (0, "shuffle")
        assert deck.handles == 0
        with pytest.raises(CheatDetected) as again:
            deck.require_checked()
        assert (again.value.seat, again.value.step) == (0, "shuffle")


def test_a_round_cut_short_is_given_up_and_its_proofs_checked_on_their_own():
    """The game ends in a round (a seat left): what was taken is checked before the end, each
    proof on its own or together, and a false one among them is named."""
    t = _round_taken(upto=2)
    deck = t.peers[3].decks["d"]
    deck.require_checked()
    assert deck.chain is not None and deck.chain.given_up and deck.unchecked == []
    bad = _round_taken(upto=2, tamper=_wrong_proof(1))
    with pytest.raises(CheatDetected) as e:
        bad.peers[3].decks["d"].require_checked()
    assert (e.value.seat, e.value.step) == (1, "shuffle")


def test_a_proof_another_table_of_the_process_passed_is_not_summed_again(monkeypatch):
    """A host and its bots in one process: a seat's round takes the answer of a proof the
    host's table already checked, and sums only the others."""
    from net.deck import checks

    monkeypatch.setattr(checks.SHUFFLES_CHECKED, "size", 0)  # the round played elsewhere
    t = LocalTable(4, game_id=b"memo", rng=random.Random(3))
    sent, real = [], t.broadcast
    monkeypatch.setattr(t, "broadcast", lambda a, m: (sent.append((a, m, t.context)), real(a, m)))
    t.new_deck("d", TABLE, range(12))
    t.shuffle("d")
    monkeypatch.setattr(checks.SHUFFLES_CHECKED, "size", 256)
    host = FairDeck(t.keys, "d", TABLE, range(12))
    host.receive(*sent[0])  # the host's table checks seat 0's shuffle at once
    reads = _reads(monkeypatch)
    bot = FairDeck(t.keys, "d", TABLE, range(12), 3, t.peers[3].secret)
    for author, msg, context in sent:
        bot.receive(author, msg, context, defer=True)
    assert bot.unchecked[0].done  # its answer was there when the bot's table took it
    check_beside(bot.unchecked, Worker("bot"))
    assert _wait_done(bot.unchecked)  # the round settles without it
    assert len(reads) == 2  # seats 1 and 2: seat 0's answer was the host's


def test_attack_a_false_share_in_one_message_for_several_hands_is_refused_at_once_by_each_holder():
    """A seat may still send the shares of several hands in one message (any grouping is
    valid). Seat 2's one message for the cards of seats 0 and 1 holds a false share for seat
    1's card: each seat with a card in it checks it whole, at once, and names seat 2; only seat
    3, with no card in it, takes it unchecked, and names seat 2 before its next deal."""
    t, _ = _deal_with_a_bad_share(held_back=(0, 1))
    msg = t.peers[2].decks["d"].make_shares([0, 1, 2, 3], t.context)
    items = entries(msg)
    items[3][1] = g.add(items[3][1], g.BASE)  # seat 1's second card
    bad = with_entries(msg, items)
    for seat in (0, 1):
        with pytest.raises(CheatDetected, match="fail their proof") as e:
            t.peers[seat].decks["d"].receive(2, bad, t.context, defer=True)
        assert (e.value.seat, e.value.step) == (2, "deal")
    deck = t.peers[3].decks["d"]
    deck.receive(2, bad, t.context, defer=True)
    with pytest.raises(CheatDetected, match="fail their proof") as e:
        deck.deal(3)
    assert (e.value.seat, e.value.step) == (2, "deal")
