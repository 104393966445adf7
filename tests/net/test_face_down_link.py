"""Unlinkable hands (Condottiere, Hidden Cards): a mercenary a Scarecrow takes back face up comes
back to a hand masked anew with the whole hand (``net.deck.rehand``), so no public handle links a
card played or kept face down later to a card shown before. Measured over real bot games; the
proof of a new masking is refused when it is not one, its author named."""

import logging

import msgpack
import pytest

from engine.condottiere.cards import SCARECROW
from engine.core import UNKNOWN
from net.deck.fair_deck import unpack_handles
from net.deck.rehand import make_rehand
from net.session.records.verify import verify_bytes
from net.wire.errors import CheatDetected
from net.wire.transcript import Entry
from tests.net.conftest import new_game
from tests.net.test_attacks import readable
from tests.net.test_cheats import cheat_game, drive_anew, finish  # noqa: F401

HIDDEN = {"hidden_cards": True}


@pytest.fixture(autouse=True)
def no_internal_errors(caplog):
    caplog.set_level(logging.INFO, logger="palazzo.net")
    yield
    assert "internal error" not in caplog.text


def _watch(host):
    """Count, on the host's own table, every card played or kept face down and every such card
    whose handle had been opened before (a link to a card shown), and the cards taken back."""
    seen = {"down": 0, "linked": 0, "taken": 0}
    accept = host.table.accept

    def watching(entry):
        t = host.table
        if entry.kind == "act" and t.dealer is not None and "pile" in t.dealer.decks:
            a = entry.fields["action"]
            named = unpack_handles(entry.fields.get("handles", b""))
            deck = t.dealer.decks["pile"]
            down = (a["kind"] == "play" and a.get("card") == UNKNOWN) or a["kind"] == "keep"
            if down:
                seen["down"] += len(named)
                seen["linked"] += sum(1 for h in named if deck.is_open(h))
        accept(entry)
        if entry.kind == "act" and t.dealer is not None and "pile" in t.dealer.decks:
            a = entry.fields["action"]
            if a["kind"] == "play" and a.get("card") == SCARECROW and a.get("target", -1) >= 0:
                seen["taken"] += 1  # the hand holds the card shown, under handles never opened
                deck = t.dealer.decks["pile"]
                assert not any(deck.is_open(h) for h in t.dealer.hands[entry.author])

    host.table.accept = watching
    return seen


@pytest.mark.long
def test_attack_face_down_link():
    total = {"down": 0, "linked": 0, "taken": 0}
    for seed in range(2):
        g = new_game(3, game="condottiere", options=HIDDEN)
        seen = _watch(g.host)
        for i in range(3):
            g.add_bot(10 * seed + i, bot="greedy")
        g.link.pump()
        assert g.host.finished and [p.state for p in g.peers] == ["over"] * 3
        assert all(p.table.result()["verdict"] == "verified" for p in g.peers)
        assert verify_bytes(g.host.table.transcript.to_bytes()).ok
        assert readable(g.host.table.transcript.entries, g.host.table) == []
        for k in total:
            total[k] += seen[k]
    assert total["taken"] > 0 and total["down"] > 100, total  # the case came, often
    assert total["linked"] == 0, total


def _take_back_due(g, t):
    return t.view.phase == "play" and t.decision_due() and any(
        a.kind == "play" and a.card == SCARECROW and a.taken >= 0
        for a in t.rules.legal_actions(t.view))


@pytest.mark.long
def test_a_false_new_masking_of_a_hand_is_refused_naming_its_author(cheat_game):  # noqa: F811
    g, cheat, conn, t = drive_anew(cheat_game, _take_back_due, players=3, game="condottiere",
                                   options=HIDDEN)
    take = next(a for a in t.rules.legal_actions(t.view)
                if a.kind == "play" and a.card == SCARECROW and a.taken >= 0)
    honest = t._act_entry(take)
    cheat.journal.forget(t.game_id, honest.seq)
    rehand = honest.fields["rehand"]
    d = t.dealer
    deck = d.decks["pile"]
    hand = unpack_handles(rehand["handles"])
    cards = rehand["cards"]
    flipped = bytes([rehand["proof"][5] ^ 1]) + rehand["proof"][1:]
    swapped = cards[64:128] + cards[64:]  # one masked card twice, one gone

    def entry(**changes):
        fields = {k: v for k, v in honest.fields.items() if k != "v"}
        fields.update(changes)
        return Entry.sign(cheat.identity, {k: v for k, v in fields.items() if v is not None})

    cases = [
        (entry(rehand={**rehand, "proof": flipped}), "rehand: the proof fails"),
        (entry(rehand={**rehand, "cards": swapped}), "rehand: the proof fails"),
        (entry(rehand=None), "rehand: a shown card back in a hand comes with the hand masked"),
        (entry(rehand=make_rehand(deck, hand[:-1], t.transcript.head)),
         "rehand: the hand masked anew is not the author's whole hand"),
    ]
    passing = next((a for a in t.rules.legal_actions(t.view) if a.kind == "pass"), None)
    if passing is not None:
        other = t._act_entry(passing)
        cheat.journal.forget(t.game_id, other.seq)
        cases.append((Entry.sign(cheat.identity, {**{k: v for k, v in other.fields.items()
                                                     if k != "v"}, "rehand": rehand}),
                      "a hand is masked anew only when a shown card comes back to it"))
    for bad, why in cases:
        for p in g.peers:
            if p is cheat:
                continue
            with pytest.raises(CheatDetected) as info:
                p.table.accept(bad)
            assert info.value.seat == t.me and why in info.value.reason, info.value.reason
        v = verify_bytes(g.host.table.transcript.to_bytes()
                         + msgpack.packb([bad.body, bad.sig], use_bin_type=True))
        assert v.kind == "cheat" and v.seat == t.me and why in v.text
        err = cheat.post_now(g.link, conn, bad)
        assert err is not None and why in err.message
    finish(g, cheat, conn)


# -- Court of the Medici: a card once shown never goes face down again -----------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_a_medici_card_shown_at_its_decks_last_draw_is_never_played_face_down(players):
    """In Court of the Medici a card in a hand is shown only when it is the last card drawn from
    its seat's deck (the empty-deck rule). From then on that deck is empty for good (a plan,
    the only move that puts a card back in a deck, needs a card in it), and the other face-down
    placements (hide, top) are made in the setup, before any draw. So no card once shown ever
    goes face down, and no handle can link one. This plays random games through the rules and
    fails if a face-down move is ever legal for a seat whose deck has shown a card."""
    import random

    from engine.core import CHANCE, TERMINAL, sample_chance
    from engine.medici.view import FACE_DOWN, draw_shown
    from engine.registry import get_game

    rules = get_game("medici").rules
    shown_at_all = face_down_at_all = 0
    for g in range(12):
        rng = random.Random(f"medici-shown/{players}/{g}")
        s = rules.new_game(rules.make_config(players, {}))
        shown: set[int] = set()  # seats whose deck has shown a card to all
        for _ in range(100_000):
            who = rules.current_player(s)
            if who == TERMINAL:
                break
            if who == CHANCE:
                a = sample_chance(rules.chance_outcomes(s), rng)
            else:
                legal = rules.legal_actions(s)
                down = [b for b in legal if b.kind in FACE_DOWN]
                assert not [b for b in down if b.seat in shown], (g, down)
                face_down_at_all += len(down)
                a = rng.choice(legal)
            if a.kind == "draw" and draw_shown(s, a.seat):
                shown.add(a.seat)
                shown_at_all += 1
            s = rules.apply(s, a)
        else:
            raise AssertionError("the game did not end")
    assert shown_at_all and face_down_at_all  # both happened: the check above was made
