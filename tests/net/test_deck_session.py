"""The fair deck in whole sessions: a shuffle that slips in a card that is no card is refused by
the host at once, its author named; nothing of it reaches the other seats' transcripts, and the
host's turn timeout settles the seat that cannot go on."""

from net.deck import cipher as dc
from net.deck import group as g
from net.deck.fair_deck import FairDeck
from net.wire.errors import HOST


def _joker_on_top(monkeypatch, cheat_seat):
    """``cheat_seat``'s shuffles put a point that is no card of the game on top of the pile."""
    honest = FairDeck.make_shuffle

    def make_shuffle(self, context, seed=None):
        msg = honest(self, context, seed)
        if self.seat == cheat_seat:
            joker = dc.mask(g.base_mul(987654321), 4242, self.keys.joint)
            msg = dict(msg, cards=joker.to_bytes() + msg["cards"][64:])
        return msg

    monkeypatch.setattr(FairDeck, "make_shuffle", make_shuffle)


def test_a_shuffle_with_a_card_that_is_no_card_is_refused_at_once(make_game, clock, monkeypatch):
    _joker_on_top(monkeypatch, cheat_seat=1)  # seat 1 shuffles last of two
    g_ = make_game(2, game="condottiere", turn_timeout=30, clock=clock)
    for i in range(2):
        g_.add_bot(i)
    g_.link.pump()
    honest, cheat = g_.peers
    assert cheat.state == "failed"
    assert "the host refused post" in str(cheat.error) and "seat 1" in str(cheat.error)
    assert "shuffle: t1: permutation commitment product" in str(cheat.error)
    entries = g_.host.table.transcript.entries
    assert not any(e.kind == "deck" and e.author == 1
                   and e.fields["msgs"][0]["type"] == "deck/shuffle" for e in entries)
    assert honest.table.transcript.to_bytes() == g_.host.table.transcript.to_bytes()
    assert honest.state != "failed" and not g_.host.finished
    clock.now += 31  # the seat that cannot shuffle honestly is forfeited
    g_.link.pump()
    assert g_.host.finished
    kinds = [(e.kind, e.author) for e in g_.host.table.transcript.entries]
    assert ("forfeit", HOST) in kinds
    assert honest.state == "over"
    result = honest.table.result()
    assert result["end"] == "forfeit" and result["forfeited"] == [1]
