"""The fair deck in whole sessions: a shuffle that slips in a card that is no card stops the
game at the first deal of it, and the audit names the shuffler."""

from net.deck import cipher as dc
from net.deck import group as g
from net.deck.fair_deck import FairDeck


def _joker_on_top(monkeypatch, cheat_seat):
    """``cheat_seat``'s shuffles put a point that is no card of the game on top of the pile."""
    honest = FairDeck.make_shuffle

    def make_shuffle(self, seed=None):
        msg = honest(self, seed)
        if self.seat == cheat_seat:
            joker = dc.mask(g.base_mul(987654321), 4242, self.keys.joint)
            msg = dict(msg, cards=joker.to_bytes() + msg["cards"][64:])
        return msg

    monkeypatch.setattr(FairDeck, "make_shuffle", make_shuffle)


def test_a_card_that_is_no_card_stops_the_game_and_the_audit_names_the_shuffler(
        make_game, monkeypatch):
    _joker_on_top(monkeypatch, cheat_seat=1)  # seat 1 shuffles last of two
    g_ = make_game(2, game="condottiere")
    for i in range(2):
        g_.add_bot(i)
    g_.link.pump()
    assert [p.state for p in g_.peers] == ["over", "over"], [str(p.error) for p in g_.peers]
    assert len(g_.transcripts()) == 1
    kinds = [e.kind for e in g_.host.table.transcript.entries]
    assert "abort" in kinds  # the receiver showed its card that is no card
    for t in [g_.host.table] + [p.table for p in g_.peers]:
        assert t.aborted is not None and "no card" in t.aborted
        assert t.verdict is not None and t.verdict.seat == 1 and t.verdict.step == "shuffle"
        assert t.result()["end"] == "aborted"


def test_a_stopped_game_ends_with_no_winner_and_the_audit_naming_the_shuffler(
        make_game, monkeypatch):
    from tui.client import TableView
    from tui.netclient import NetClient
    from tui.screens.end import audit_line, result_text

    _joker_on_top(monkeypatch, cheat_seat=1)
    g_ = make_game(2, game="condottiere")
    for i in range(2):
        g_.add_bot(i)
    g_.link.pump()
    peer = g_.peers[0]
    client = NetClient(peer, lambda data: None, ("Ada", "Bob"), None)
    snap = client.snapshot()
    assert isinstance(snap, TableView) and snap.over
    assert snap.outcome.end == "aborted" and snap.outcome.winners == ()
    text = result_text(snap).plain
    assert text.startswith("The game was stopped.") and "Nobody wins" in text
    assert "no card" in text
    line = audit_line(snap.audit).plain
    assert line.startswith("Audit: CHEAT") and "seat 1" in line and "shuffle" in line
