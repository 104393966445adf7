"""Condottiere through the sans-IO host and peers: whole games, the Hidden Cards variant's
face-down cards as commitments, and the seed dealer's shadow of the game."""

import pytest

from engine.core import UNKNOWN


def _play(make_game, players, options, bot="greedy"):
    g = make_game(players, game="condottiere", options=options)
    for i in range(players):
        g.add_bot(i, bot=bot)
    g.link.pump()
    assert [p.state for p in g.peers] == ["over"] * players, [str(p.error) for p in g.peers]
    assert len(g.transcripts()) == 1
    assert all(p.table.result() == g.host.table.result() for p in g.peers)
    return g


def test_a_six_player_game_ends_with_identical_transcripts(make_game):
    g = _play(make_game, 6, {})
    assert g.host.table.result()["winners"]


def test_face_down_cards_travel_as_commitments_and_are_all_opened(make_game):
    g = _play(make_game, 4, {"hidden_cards": True, "draw_after_battle": True}, bot="random")
    t = g.host.table
    downs = [e for e in t.transcript.entries
             if e.kind == "act" and e.fields["action"]["kind"] == "play" and "commit" in e.fields]
    assert downs, "no card was played face down"
    assert all(e.fields["action"]["card"] == UNKNOWN for e in downs)
    reveals = [e for e in t.transcript.entries
               if e.kind == "act" and e.fields["action"]["kind"] == "reveal"]
    assert len(reveals) == len(downs) and all("salt" in e.fields for e in reveals)
    assert set(t.commitments) == t.opened


def test_no_view_holds_another_seat_hand(make_game):
    g = _play(make_game, 3, {"hidden_cards": True})
    for p in g.peers:
        for seat, hand in enumerate(p.table.view.hands):
            if seat != p.table.me:
                assert all(c == UNKNOWN for c in hand) or p.table.view.phase == "over"


def test_kept_cards_reach_the_dealers_but_no_view(make_game):
    g = _play(make_game, 2, {}, bot="random")
    keeps = [e for e in g.host.table.transcript.entries
             if e.kind == "act" and e.fields["action"]["kind"] == "keep"]
    for e in keeps:
        assert all(c == UNKNOWN for c in e.fields["action"].get("cards", []))
        assert len(e.fields["kept"]) == len(e.fields["action"].get("cards", []))


@pytest.mark.parametrize("options", [{"playing_for_points": 5}, {"capturing_regions": True,
                                                                   "bigger_kingdoms": True}])
def test_variants_play_to_the_end(make_game, options):
    _play(make_game, 3, options, bot="random")
