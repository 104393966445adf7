"""The end-of-game audit names every cheat the game itself could not see; honest shuffles are
uniform."""

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


def test_the_reveal_carries_every_seed_of_its_seat():
    t = honest_game()
    reveal = t.reveals()[1]
    numbers = {d: [int.from_bytes(c[:4], "big") for c in unpack(p, 36)] for d, p in reveal["seeds"].items()}
    assert numbers == {"main": [1, 4], "house 1": [1]}
    assert g.decode_scalar(reveal["secret"]) == t.peers[1].secret


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
    reveals = t.reveals()
    reveals[0] = dict(reveals[0], seeds={"main": bytes(35)})
    with pytest.raises(CheatDetected, match="a 4-byte number and a 32-byte seed") as e:
        t.audit(reveals)
    assert e.value.seat == 0


def test_a_seed_that_does_not_open_its_commitment_is_caught():
    t = honest_game()
    reveals = t.reveals()
    seeds = reveals[2]["seeds"]["main"]  # shuffles 2 and 5, 36 bytes each
    forged = seeds[:4] + bytes(32) + seeds[36:]
    reveals[2] = dict(reveals[2], seeds={**reveals[2]["seeds"], "main": forged})
    with pytest.raises(CheatDetected, match="does not open the commitment of shuffle 2") as e:
        t.audit(reveals)
    assert (e.value.seat, e.value.step) == (2, "shuffle")


def test_a_withheld_seed_is_caught():
    t = honest_game()
    reveals = t.reveals()
    reveals[0] = dict(reveals[0], seeds={"main": reveals[0]["seeds"]["main"]})
    with pytest.raises(CheatDetected, match="no seed revealed for shuffle 0") as e:
        t.audit(reveals)
    assert (e.value.seat, e.value.step) == (0, "reveal")


def cheating_shuffle(seat, number, change):
    """A tamper hook: ``seat``'s shuffle ``number`` of deck "main" goes out changed."""

    def tamper(author, msg):
        if author == seat and msg["type"] == "deck/shuffle" and msg["deck"] == "main" \
                and msg["number"] == number:
            cards = [dc.Ciphertext.decode(c) for c in unpack(msg["cards"], 64)]
            msg = dict(msg, cards=b"".join(c.to_bytes() for c in change(cards)))
        return msg

    return tamper


def test_a_card_duplicated_in_a_shuffle_is_caught_at_the_audit():
    def duplicate(cards):
        key = holder[0].keys.joint
        return [dc.remask(cards[1], 12345, key), *cards[1:]]

    holder = []
    t = LocalTable(3, rng=random.Random(4), tamper=cheating_shuffle(1, 1, duplicate))
    t.new_deck("main", TABLE, range(12))
    holder.append(t)
    t.shuffle("main")
    t.deal_round("main", 2)  # nobody can tell during play
    with pytest.raises(CheatDetected, match="shuffle 1: duplicates card .*; drops card") as e:
        t.audit()
    assert (e.value.seat, e.value.step) == (1, "shuffle")


def test_a_card_dropped_for_a_card_of_another_deck_is_caught_at_the_audit():
    def swap(cards):
        key = holder[0].keys.joint
        return [dc.public_mask(TABLE.point(50), key), *cards[1:]]

    holder = []
    t = LocalTable(3, rng=random.Random(6), tamper=cheating_shuffle(0, 0, swap))
    t.new_deck("main", TABLE, range(12))
    holder.append(t)
    t.shuffle("main")
    with pytest.raises(CheatDetected, match="duplicates card 50; drops card") as e:
        t.audit()
    assert e.value.seat == 0


def test_a_stacked_deck_is_caught_at_the_audit():
    # seat 2 shuffles last: it orders the masked cards as it likes (here: reversed) and re-masks
    # them properly, but its committed seed does not make that order
    def stack(cards):
        key = holder[0].keys.joint
        return [dc.remask(c, 1000 + i, key) for i, c in enumerate(reversed(cards))]

    holder = []
    t = LocalTable(3, rng=random.Random(8), tamper=cheating_shuffle(2, 2, stack))
    t.new_deck("main", TABLE, range(12))
    holder.append(t)
    t.shuffle("main")
    t.deal_round("main", 4)
    with pytest.raises(CheatDetected, match="a stacked deck") as e:
        t.audit()
    assert (e.value.seat, e.value.step) == (2, "shuffle")


def test_a_non_card_stops_play_and_the_audit_names_the_shuffler():
    def joker(cards):
        key = holder[0].keys.joint
        return [dc.mask(g.hash_to_point(b"joker", b""), 5, key), *cards[1:]]

    holder = []
    t = LocalTable(3, rng=random.Random(2), tamper=cheating_shuffle(0, 0, joker))
    t.new_deck("main", TABLE, range(6))
    holder.append(t)
    t.shuffle("main")
    with pytest.raises(DeckCorrupted):
        t.deal("main", None, 6)
    with pytest.raises(CheatDetected, match="not a card of the deck") as e:
        t.audit()
    assert (e.value.seat, e.value.step) == (0, "shuffle")


def test_the_first_cheat_is_named_when_there_are_two():
    def stack(cards):
        return cards[::-1]

    shuffles = {0: cheating_shuffle(0, 0, stack), 1: cheating_shuffle(1, 1, stack)}

    def tamper(author, msg):
        return shuffles[author](author, msg) if author in shuffles else msg

    t = LocalTable(3, rng=random.Random(3), tamper=tamper)
    t.new_deck("main", TABLE, range(8))
    t.shuffle("main")
    with pytest.raises(CheatDetected) as e:
        t.audit()
    assert e.value.seat == 0


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


def test_uniform_positions_over_many_shuffled_games():
    # 240 games of 3 seats shuffling 4 cards, reproducible: where does each card end up? The
    # chi-square statistic of the 4x4 table of counts (9 degrees of freedom) stays below 27.88,
    # its 0.1% critical value. Here all three seats shuffle honestly.
    rng = random.Random(2024)
    counts = [[0] * 4 for _ in range(4)]
    games = 240
    for _ in range(games):
        t = LocalTable(3, rng=random.Random(rng.getrandbits(64)))
        t.new_deck("d", TABLE, range(4))
        t.shuffle("d")
        x = sum(p.secret for p in t.peers) % g.L
        pile = t.peers[0].decks["d"].pile
        for position, ct in enumerate(pile):
            counts[TABLE.index(dc.decrypt(ct, x))][position] += 1
    expected = games / 4
    stat = sum((c - expected) ** 2 / expected for row in counts for c in row)
    assert stat < 27.88, counts
    # and the same statistic does see a deck nobody shuffled
    unshuffled = sum((games * (card == pos) - expected) ** 2 / expected
                     for card in range(4) for pos in range(4))
    assert unshuffled > 27.88


def test_dealt_cards_are_known_only_to_the_receiver_even_across_decks():
    t = honest_game()
    for seat in range(3):
        for deck_id, e in t.peers[seat].events:
            if isinstance(e, CardKnown):
                assert t.peers[0].decks[deck_id].holder(e.handle) == seat


def test_a_receiver_shows_everyone_a_card_that_is_no_card_by_opening_it():
    def joker(cards):
        key = holder[0].keys.joint
        return [dc.mask(g.hash_to_point(b"joker", b""), 5, key), *cards[1:]]

    holder = []
    t = LocalTable(3, rng=random.Random(2), tamper=cheating_shuffle(1, 1, joker))
    t.new_deck("main", TABLE, range(6))
    holder.append(t)
    t.shuffle("main")
    bad = None
    for _ in range(6):
        try:
            [h] = t.deal("main", 2)
        except DeckCorrupted as e:
            bad = e.handle
            break
    assert bad is not None and t.peers[0].decks["main"].card(bad) is None
    msg = t.peers[2].decks["main"].make_open([bad], t.context)
    for seat in (0, 1):
        with pytest.raises(DeckCorrupted, match="no card"):
            t.peers[seat].decks["main"].receive(2, msg, t.context)


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
