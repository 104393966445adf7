"""Whose turn it is, always (``tui.status``): every networked table names the seat due and what
it is doing or what the deal waits for, and with a turn limit counts the seat due's time down
on every screen; shown at 80x24 on the game's own table screen."""

import random

import pytest
from textual.app import App

from engine.registry import get_game
from net.session.machines.peer_session import PeerSession
from net.wire.identity import Identity
from tests.tui.conftest import screen_text as text
from tui import status
from tui.netclient import NetClient
from tui.setup import adapter

NAMES = ("Ada", "Bo", "Jo")


def client_of(peer):
    table = peer.table
    names = tuple(f"{n} ({s.name})" for n, s in zip(table.rules.seat_names, table.seats,
                                                     strict=False))
    game = adapter(table.game)
    return NetClient(peer, peer.act, names, game.narrate, marker=game.marks)


def table_app(client):
    class TableApp(App):
        def on_mount(self):
            self.push_screen(adapter(client.game).TABLE(client))

    return TableApp()


def seated(make_game, clock, game="medici", **kw):
    """Ada and Bo (bots) and Jo (the person, who never decides by itself), on the link."""
    g = make_game(3, game=game, clock=clock, **kw)
    peers = []
    for i, name in enumerate(NAMES):
        peer = PeerSession(Identity.generate(), name, code=g.host.code, clock=clock)
        bot = get_game(game).make_bot("greedy", random.Random(i)) if name != "Jo" else None
        g.link.add(peer, bot)
        peers.append(peer)
    g.peers = peers
    return g


def hold_back(peer, when):
    """``peer`` sends nothing while ``when(peer.table)`` holds (its bytes wait)."""
    send = peer.data_to_send

    def held():
        t = peer.table
        return b"" if t is not None and when(t) else send()

    peer.data_to_send = held


async def test_at_the_start_the_joiners_see_what_the_deal_waits_for(make_game, clock):
    g = seated(make_game, clock)
    ada = g.peers[0]
    hold_back(g.peers[1], lambda t: t.dealer is not None and t.dealer.step() == ("shuffle", 2, 3))
    g.link.pump()
    assert ada.table.writer() == 1
    app = table_app(client_of(ada))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = text(app)
        assert "waiting for Bo's shuffle (dealing, 2 of 3)" in shown
        assert "Waiting for Bo's shuffle (dealing, 2 of 3)." in shown  # the move box says it too
        assert "| ..." not in shown and "\n..." not in shown


@pytest.mark.parametrize("game", ["medici", "condottiere"])
async def test_every_screen_names_the_seat_due_and_what_it_is_deciding(make_game, clock, game):
    g = seated(make_game, clock, game=game)
    jo = g.peers[2]
    g.link.pump()  # until Jo must decide: nobody decides for Jo
    assert jo.decision_due()
    words = status.DOING[game][jo.table.view.phase]
    client = client_of(g.peers[0])
    app = table_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        header = text(app).splitlines()[0]
        seat = client.names[2]  # "Orsini (Jo)", as short as the table makes it
        assert seat.endswith("(Jo)") or "(J" in seat
        assert f"{seat} is {words}" in header
        assert f"Waiting for {seat}: {words}." in text(app)


async def test_the_turn_limit_counts_down_on_every_screen_once_a_second(make_game, clock):
    g = seated(make_game, clock, turn_timeout=60, on_timeout="bot")
    jo = g.peers[2]
    g.link.pump()  # until Jo must decide: nobody decides for Jo
    assert jo.decision_due()
    ada_app, jo_app = table_app(client_of(g.peers[0])), table_app(client_of(jo))
    async with ada_app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "| Jo: 1:00 left" in text(ada_app).splitlines()[0]
        clock.now += 18
        ada_app.screen._tick()  # what the screen's one-second timer calls
        await pilot.pause()
        header = text(ada_app).splitlines()[0]
        assert "| Jo: 0:42 left" in header and len(header.rstrip()) <= 80
    clock.now -= 18
    async with jo_app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "you: 1:00 left" in text(jo_app).splitlines()[0]
        clock.now += 50
        jo_app.screen._tick()
        await pilot.pause()
        assert ("your time runs out in 0:10: the program will play for you"
                in text(jo_app).splitlines()[0])


def test_the_countdown_words_for_each_on_timeout(make_game, clock):
    g = seated(make_game, clock, turn_timeout=30)
    jo = g.peers[2]
    g.link.pump()  # until Jo must decide: nobody decides for Jo
    assert jo.decision_due()
    mine, theirs = client_of(jo).snapshot(), client_of(g.peers[1]).snapshot()
    now = clock.now + 25
    assert status.countdown(mine, now) == "your time runs out in 0:05: you forfeit"
    assert status.countdown(theirs, now) == "Jo: 0:05 left"


def test_the_header_keeps_the_countdown_whole_on_a_narrow_screen():
    line = status.header("Colonna (Jo-with-a-long-name) is choosing a card to play | turn 4, play",
                         "your time runs out in 0:10: the program will play for you", 78)
    assert len(line) <= 78 and line.endswith("the program will play for you")
    assert line.startswith("Colonna")


def test_a_local_game_without_a_limit_has_no_countdown():
    from tui.client import TableView

    view = TableView(game="medici", seat=0, names=("You", "Blue"), state=None, actor=1,
                     legal=(), log=())
    assert status.countdown(view, 1e9) == ""


async def test_the_seat_due_is_warned_it_forfeits_at_the_end_of_its_time(make_game, clock):
    g = seated(make_game, clock, turn_timeout=60)
    jo = g.peers[2]
    g.link.pump()
    app = table_app(client_of(jo))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        clock.now += 45
        app.screen._tick()
        await pilot.pause()
        header = text(app).splitlines()[0]
        assert "your time runs out in 0:15: you forfeit" in header and len(header.rstrip()) <= 80
