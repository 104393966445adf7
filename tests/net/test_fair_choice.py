"""Which of two copies of a card a seat names: a card placed face down or kept hidden is taken
from the copies no one has seen (naming a shown copy would tell every peer the hidden card), and a
card played face up from the shown copies (it needs no open, and the hidden copy stays hidden)."""

from engine.condottiere.state import mk as cmk
from engine.medici.state import mk as mmk
from engine.registry import get_game
from net.games.condottiere import PILE, CondottiereDealer
from net.games.medici import MediciDealer


class _Deck:
    def __init__(self, shown):
        self.shown = shown

    def is_open(self, h):
        return h in self.shown


def _dealer(cls, game, deck_id, kinds, shown, hand, options=None):
    config = get_game(game).rules.make_config(3, options or {})
    d = cls(bytes(16), config, bytes(32), 0, 5)
    d.decks = {deck_id: _Deck(shown)}
    d.kind = lambda deck, h: kinds[h]
    d.hands[0] = list(hand)
    return d


def test_condottiere_a_face_down_play_and_a_keep_name_the_unseen_copy():
    # handle 3 is a mercenary a Scarecrow took back (shown), handle 7 the same kind, unseen
    d = _dealer(CondottiereDealer, "condottiere", PILE, {3: 2, 7: 2, 8: 12}, {3}, [3, 7, 8],
                {"hidden_cards": True})
    assert d.choose(None, cmk("play", 0, card=2)) == ([7], [])
    assert d.choose(None, cmk("keep", 0, cards=(2,)))[0] == [7]


def test_condottiere_a_face_up_play_names_the_shown_copy():
    d = _dealer(CondottiereDealer, "condottiere", PILE, {3: 2, 7: 2}, {7}, [3, 7])
    assert d.choose(None, cmk("play", 0, card=2)) == ([7], [])


def test_medici_a_face_down_move_names_the_unseen_copy_and_a_face_up_one_the_shown():
    d = _dealer(MediciDealer, "medici", "house0", {1: 4, 2: 4}, {1}, [1, 2])
    assert d.choose(None, mmk("hide", 0, card=4, before=1)) == ([2], [])
    assert d.choose(None, mmk("plan", 0, card=4)) == ([2], [])
    assert d.choose(None, mmk("court", 0, card=4)) == ([1], [])
