"""Endings that say what happened: a game a forfeit cut short shows every seat's score as the game
stood, the places (the seat that forfeited last), and why it ended."""

import asyncio
import random

from textual.widgets import Input, Static

from engine.registry import get_game
from net.session.host import HostRunner
from net.session.sessions import HostSession, PeerSession
from net.wire.identity import Identity
from tui.app import PalazzoApp
from tui.netclient import NetClient
from tui.screens.end import result_text
from tui.screens.network import JoinScreen
from tui.screens.start import StartScreen
from tui.setup import GameSetup

from .test_net_tui import EndApp, asking, text, until


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


async def test_leaving_a_game_joined_through_the_join_form_tells_the_host_at_once(
        tmp_path, monkeypatch):
    """``q``, ``y`` at the table of a game joined with F4: the host hears ``leave`` and marks the
    seat "left" at once (not "reconnecting" for the grace period), as Ctrl-C on ``palazzo join``
    does; the app goes back to the start screen."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner = HostRunner(host)
    started = asyncio.get_running_loop().create_future()
    serving = asyncio.create_task(runner.run("127.0.0.1", 0, started))
    port = (await started)[0][1]
    for i in range(2):
        runner.add(PeerSession(Identity.generate(), f"b{i}"),
                   entry.make_bot("greedy", random.Random(i)))
    runner.pump()
    app = PalazzoApp(GameSetup())
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("f4")
            form = app.screen
            assert isinstance(form, JoinScreen)
            form.query_one("#address", Input).value = f"127.0.0.1:{port}"
            form.query_one("#name", Input).value = "Bea"
            await pilot.pause()
            await pilot.click("#go")
            await until(pilot, lambda: "Press r when you are ready" in text(app), "the lobby")
            await pilot.press("r")
            await until(pilot, lambda: asking(app), "Bea's first question")
            bea = next(i for i, s in enumerate(host.seats) if s.name == "Bea")
            assert host.presence.state(bea) == "here"
            await pilot.press("q")
            await until(pilot, lambda: "Leave this networked game" in text(app), "the question")
            await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
            await until(pilot, lambda: host.presence.state(bea) != "here", "the host told")
            assert host.presence.state(bea) == "left"
    finally:
        runner.stop()
        await asyncio.wait_for(serving, 30)
