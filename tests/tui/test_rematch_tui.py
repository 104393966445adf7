"""The end screen's "Play again" at 80x24 (``tui.screens.end``, ``tui.netgame``): the answers
so far, a seat that leaves ("Jo left: no rematch"), and a host at the table whose bots agree at
once playing the rematch at a new table, both records verified."""

import random

import pytest
from textual.app import App

from engine.registry import get_game
from net.session.commands.hosting import HostSettings
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.records.journal import Journal
from net.session.records.resume import unfinished
from net.session.runners.link import MemoryLink
from net.wire.identity import Identity
from tests.tui.conftest import asking, medici_host_of_bots, until
from tests.tui.conftest import screen_text as text
from tests.tui.test_net_tui import play_to_the_end
from tui.netapp import host_app
from tui.netclient import NetClient
from tui.screens.end import EndScreen


def _ended_game():
    """A finished 3-player game on an in-memory link that offers a rematch: Ada (this screen's
    seat), Bo (a bot: it agrees at once) and Jo (who has not answered)."""
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    host.rematch.offer()
    link = MemoryLink(host)
    peers, conns = [], []
    for i, name in enumerate(("Ada", "Bo", "Jo")):
        p = PeerSession(Identity.generate(), name, journal=Journal())
        p.rematch.wanted, p.rematch.auto = True, name == "Bo"
        conns.append(link.add(p, entry.make_bot("greedy", random.Random(i))))
        peers.append(p)
    link.pump()
    return link, peers, conns


class RematchEndApp(App):
    """The end screen of Ada's seat, its rematch asked through the in-memory link."""

    def __init__(self, link, peers):
        super().__init__()
        self.link, self.peers = link, peers
        self.view = NetClient(peers[0], lambda action: None).snapshot()

    def on_mount(self):
        self.push_screen(EndScreen(self.view, choices={"again": "Play again", "quit": "Leave"},
                                   rematch=self))

    def again(self):
        self.peers[0].again()
        self.link.pump()
        self.show()

    def rematch_status(self):
        r = self.peers[0].rematch
        return r.status(["Ada", "Bo", "Jo"]), not r.off and not r.asked

    def show(self):
        self.screen.show_rematch(*self.rematch_status())


@pytest.mark.long
async def test_the_end_screen_counts_the_answers_and_says_who_left_at_80x24():
    link, peers, conns = _ended_game()
    app = RematchEndApp(link, peers)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Play again: 1 of 3 agreed; waiting for Ada and Jo"
                    in text(app), "Bo's answer")
        assert "Play again (a)" in text(app) and "Leave (q)" in text(app)
        await pilot.press("a")
        await until(pilot, lambda: "Play again: 2 of 3 agreed; waiting for Jo" in text(app),
                    "Ada's answer")
        link.drop(conns[2])  # Jo leaves
        app.show()
        await until(pilot, lambda: "Jo left: no rematch" in text(app), "Jo's leaving")
        assert app.screen.query_one("#again").disabled
        assert peers[0].state == "over"  # the game that ended stands


@pytest.mark.long
async def test_a_host_at_the_table_plays_the_rematch_its_bots_agreed_to(profile):
    # two whole games by keyboard: the short game (the rematch is the same for every game)
    settings = HostSettings(game="medici", players=3, options={"short_game": True}, port=0,
                            bind="127.0.0.1", bots=2, open=True, name="Ada")
    app = host_app(settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "palazzo join 127.0.0.1:" in text(app), "the join line")
        await pilot.press("r")
        await play_to_the_end(app, pilot)
        first = app.session
        first_record = first.table.transcript.to_bytes()
        await until(pilot, lambda: "Play again: 2 of 3 agreed; waiting for Ada" in text(app),
                    "the bots' answers")
        await pilot.press("a")
        await until(pilot, lambda: asking(app) and app.session is not first, "the rematch's table")
        assert [s.key for s in app.session.table.seats] == [s.key for s in first.table.seats]
        await play_to_the_end(app, pilot)
        second = app.session.table
        assert second.result()["verdict"] == "verified"
        await until(pilot, lambda: "Audit: verified" in text(app), "the second end screen")
        await pilot.press("q")
    assert app.exit_status() == 0
    assert second.transcript.to_bytes() != first_record
    assert app.host_session.table.transcript.to_bytes() == second.transcript.to_bytes()
    games = sorted((profile / "data" / "palazzo" / "games").iterdir())
    assert {g.read_bytes() for g in games} == {first_record, second.transcript.to_bytes()}
    # the host kept a record of each game, both finished: neither is ever resumed
    records = sorted((profile / "data" / "palazzo" / "hosting").iterdir())
    assert len(records) == 2 and all((r / "finished").exists() for r in records)
    assert unfinished(app.host_session.identity.public_key) == []


@pytest.mark.long
async def test_a_join_at_the_table_plays_the_rematch_on_a_new_connection(profile):
    import asyncio

    from tui.netapp import join_app

    said = []
    # two whole games by keyboard: the short game (the rematch is the same for every game)
    hosting, serving, port = await medici_host_of_bots({"short_game": True}, said.append)
    app = join_app("127.0.0.1", port, None, "Bea", Identity.generate())
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Press r when you are ready" in text(app), "the lobby")
        await pilot.press("r")
        await play_to_the_end(app, pilot)
        first = app.session
        await until(pilot, lambda: "waiting for Bea" in text(app), "the bots' answers")
        await pilot.press("a")
        await until(pilot, lambda: asking(app) and app.session is not first, "the rematch's table")
        assert app.session.expect is not None and app.session.table.game_id != first.table.game_id
        await play_to_the_end(app, pilot)
        assert app.session.table.result()["verdict"] == "verified"
        await pilot.press("q")  # Leave: no third game
    await asyncio.wait_for(serving, 600)  # a hang guard only: the host ends once Bea left
    assert app.exit_status() == 0
    assert hosting.games == 2 and "every seat agreed to a rematch: game 2 starts" in said
