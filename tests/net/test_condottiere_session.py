"""Condottiere through the sans-IO host and peers: whole games, and the fair deck's handles for
the Hidden Cards variant's face-down cards and the cards kept at a round's end."""

import pytest

from engine.core import UNKNOWN


def _play(make_game, players, options, bot="greedy"):
    g = make_game(players, game="condottiere", options=options)
    for i in range(players):
        g.add_bot(i, bot=bot)
    g.link.pump()
    return _ended(g, players)


def _ended(g, players):
    assert [p.state for p in g.peers] == ["over"] * players, [str(p.error) for p in g.peers]
    assert len(g.transcripts()) == 1
    assert all(p.table.result() == g.host.table.result() for p in g.peers)
    return g


@pytest.mark.long
def test_a_six_player_game_ends_with_identical_transcripts(make_game):
    g = _play(make_game, 6, {})
    assert g.host.table.result()["winners"]


@pytest.mark.long
def test_face_down_cards_travel_as_handles_and_each_is_opened_by_its_reveal(make_game):
    from net.deck.fair_deck import unpack_handles

    g = _play(make_game, 4, {"hidden_cards": True, "draw_after_battle": True}, bot="random")
    t = g.host.table
    acts = [e for e in t.transcript.entries if e.kind == "act"]
    downs = [e for e in acts if e.fields["action"]["kind"] == "play"
             and e.fields["action"]["card"] == UNKNOWN]
    assert downs, "no card was played face down"
    assert all("open" not in e.fields and len(e.fields["handles"]) == 4 for e in downs)
    placed = {(e.author, unpack_handles(e.fields["handles"])[0]) for e in downs}
    reveals = [e for e in acts if e.fields["action"]["kind"] == "reveal"]
    shown = {(e.author, h) for e in reveals if "open" in e.fields
             for h in unpack_handles(e.fields["open"]["handles"])}
    # every face-down card is turned up by its own seat, opened unless everyone saw it before
    assert len(reveals) == len(downs) and shown <= placed and len(shown) >= len(placed) - 2
    # a card played face up is opened in the same entry, by its holder
    ups = [e for e in acts if e.fields["action"]["kind"] == "play"
           and e.fields["action"]["card"] != UNKNOWN]
    assert ups and all("open" in e.fields or _was_open(t, e) for e in ups)


def _was_open(t, e):
    from net.deck.fair_deck import unpack_handles

    (h,) = unpack_handles(e.fields["handles"])
    return t.dealer.decks["pile"].is_open(h)


@pytest.mark.long
def test_no_view_holds_another_seat_hand(finished):
    g = _ended(finished("condottiere", 3, {"hidden_cards": True}), 3)
    for p in g.peers:
        for seat, hand in enumerate(p.table.view.hands):
            if seat != p.table.me:
                assert all(c == UNKNOWN for c in hand) or p.table.view.phase == "over"


@pytest.mark.long
def test_kept_cards_never_travel_in_the_transcript(make_game):
    for _ in range(6):  # the deck's order is the seats' secret: play until a round ends in a keep
        g = _play(make_game, 2, {}, bot="random")
        keeps = [e for e in g.host.table.transcript.entries
                 if e.kind == "act" and e.fields["action"]["kind"] == "keep"]
        if keeps:
            break
    assert keeps
    for e in keeps:
        cards = e.fields["action"].get("cards", [])
        assert all(c == UNKNOWN for c in cards)
        assert "kept" not in e.fields and "open" not in e.fields
        assert len(e.fields.get("handles", b"")) == 4 * len(cards)


@pytest.mark.parametrize("options", [
    {"playing_for_points": 5},
    pytest.param({"capturing_regions": True, "bigger_kingdoms": True}, marks=pytest.mark.long),
])
def test_variants_play_to_the_end(make_game, options):
    _play(make_game, 3, options, bot="random")
