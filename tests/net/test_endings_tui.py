"""Endings that say what happened: a game a forfeit cut short shows every seat's score as the game
stood, the places (the seat that forfeited last), and why it ended."""

from textual.widgets import Static

from engine.registry import get_game
from tui.netclient import NetClient
from tui.screens.end import result_text

from .test_net_tui import EndApp, text


class StopsOnceScored:
    """A seat's bot that plays until someone has scored, then stops answering (its player
    walked away)."""

    def __init__(self, link, conn, bot, rules):
        self.link, self.conn, self.bot, self.rules = link, conn, bot, rules

    def choose(self, view, seat):
        if any(self.rules.scores(view)):
            self.link.bots.pop(self.conn)
        return self.bot.choose(view, seat)


def forfeited_mid_game(make_game, clock):
    """A 3-seat Medici game whose seat 2 (Cy) stops once someone has scored and forfeits at the
    turn limit."""
    g = make_game(3, turn_timeout=30, clock=clock)
    for i in range(3):
        g.add_bot(i, name=("Ada", "Bea", "Cy")[i])
    conn = g.conns[2]
    g.link.bots[conn] = StopsOnceScored(g.link, conn, g.link.bots[conn], get_game("medici").rules)
    g.link.pump()
    assert not g.host.finished
    clock.now += 31
    g.link.pump()
    assert g.host.finished and g.host.table.forfeited == {2}
    return g


def test_a_forfeit_end_shows_the_scores_as_the_game_stood_and_the_forfeiter_last(make_game, clock):
    g = forfeited_mid_game(make_game, clock)
    rules = g.host.table.rules
    stood = rules.scores(g.peers[0].table.view)
    assert any(stood), "the game stopped before anyone scored: no test"
    views = [NetClient(p, lambda action: None).snapshot() for p in g.peers]
    for v in views:
        o = v.outcome
        assert v.over and o.end == "forfeit" and o.scores == stood
        assert 2 not in o.winners
        best = max(stood[0], stood[1])
        assert set(o.winners) == {s for s in (0, 1) if stood[s] == best}
    cy = result_text(views[2]).plain
    assert "You forfeited: you finish third of 3." in cy and "You win" not in cy
    assert "first" not in cy
    assert "Cy forfeited (no move within 30 seconds)" in cy
    assert "as the game stood" in cy
    rows = [line for line in cy.splitlines() if line.startswith((" *", "  "))]
    assert "Cy" in rows[-1] and "forfeited" in rows[-1]  # placed after the others
    for seat in (0, 1):
        said = result_text(views[seat]).plain
        if seat in views[seat].outcome.winners:
            assert "You win." in said
        else:
            assert "You finish second of 3." in said


async def test_the_forfeiter_is_told_at_80x24_its_place_and_why_the_game_ended(make_game, clock):
    g = forfeited_mid_game(make_game, clock)
    view = NetClient(g.peers[2], lambda action: None).snapshot()
    app = EndApp(view)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = " ".join(text(app).replace("█", " ").split())
        assert "You forfeited: you finish third of 3." in shown
        assert "Cy forfeited (no move within 30 seconds)" in shown
        scores = view.outcome.scores
        assert str(max(scores)) in app.screen.query_one("#result", Static).render().plain
