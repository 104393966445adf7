"""Endings that say what happened: a game a forfeit cut short shows every seat's score as the game
stood, the places (the seat that forfeited last), and why it ended."""

import asyncio
import random
from pathlib import Path

import pytest
from textual.widgets import Input, Select, Static

import tui.app
from engine.registry import get_game
from net.session.commands.hosting import Hosting, HostSettings
from net.session.features.rematch import Expected
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.machines.watch_session import WatchSession
from net.session.records.journal import Journal
from net.session.runners.peer import PeerRunner
from net.wire.identity import Identity
from tests.net.test_adapters import serve_on_loopback
from tests.tui.conftest import asking, until
from tests.tui.conftest import screen_text as text
from tests.tui.test_net_tui import EndApp
from tests.tui.test_rematch_tui import RematchEndApp, _ended_game
from tui.app import PalazzoApp
from tui.chat import TalkScreen, phrases
from tui.netapp import NetApp
from tui.netclient import NetClient
from tui.netgame import host_net
from tui.screens.end import EndScreen, result_text
from tui.screens.lobby import settings_line
from tui.screens.network import HostScreen, JoinScreen
from tui.screens.start import StartScreen
from tui.setup import GameSetup
from tui.watch import WatchKeys, watch_net


def forfeited_mid_game(make_game, clock):
    """A 3-seat Medici game whose seat 2 (Cy) plays until someone has scored, then walks away at
    its turn and forfeits at the turn limit: the scores stand as they were when it walked away
    (a move of its own could take every card out of the middle again)."""
    g = make_game(3, turn_timeout=30, clock=clock)
    for i in range(3):
        g.add_bot(i, name=("Ada", "Bea", "Cy")[i])
    cy, rules = g.peers[2], get_game("medici").rules
    bot = g.link.bots.pop(g.conns[2])  # Cy plays by hand below
    while True:
        g.link.pump()
        assert not g.host.finished and cy.decision_due(), "the game waits on Cy alone"
        if any(rules.scores(cy.table.view)):
            break
        cy.act(bot.choose(cy.table.view, cy.table.me))
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


@pytest.mark.long
async def test_leaving_a_game_joined_through_the_join_form_tells_the_host_at_once(
        tmp_path, monkeypatch):
    """``q``, ``y`` at the table of a game joined with F4: the host hears ``leave`` and marks the
    seat "left" at once (not "reconnecting" for the grace period), as Ctrl-C on ``palazzo join``
    does; the app goes back to the start screen."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)
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


@pytest.mark.long
async def test_a_watcher_hears_the_talk_and_who_drops_and_follows_the_table_into_the_rematch(
        tmp_path, monkeypatch):
    """A watcher at the table hears what every seat hears of the table: the talk ("Bea says:
    ...") and who is here ("Bea lost the connection", "Bea is back"); when every seat agrees to
    play again, it follows the table into the rematch on a new connection (the new start checked
    to be the agreed one)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    entry = get_game("medici")
    said = []
    hosting = Hosting(HostSettings(game="medici", players=3, options={}, port=0,
                                   bind="127.0.0.1", seat=False, bots=2, open=True,
                                   advertise=False), said.append)
    line = asyncio.get_running_loop().create_future()
    serving = asyncio.create_task(hosting.serve(None, listening=line.set_result))
    port = int((await line).rsplit(":", 1)[1])
    app = NetApp(watch_net("127.0.0.1", port, None, "Wanda", Identity.generate()))
    bea_key, journal = Identity.generate(), Journal()
    bea = PeerSession(bea_key, "Bea", journal=journal)
    bea.rematch.wanted = bea.rematch.auto = True
    bea.say("hello, watchers")
    runner = PeerRunner(bea, "127.0.0.1", port, retry_delay=1.0)  # no bot yet: the game waits
    tasks = []

    def log():
        client = app.client
        return client.snapshot().log if client is not None else ()

    try:
        async with app.run_test(size=(110, 34)) as pilot:
            await until(pilot, lambda: "You are watching" in text(app), "the watcher's lobby")
            tasks.append(asyncio.create_task(runner.run()))
            await until(pilot, lambda: isinstance(app.screen, WatchKeys), "the watcher's table")
            first = app.session
            await until(pilot, lambda: any('Bea says: "hello, watchers"' in x for x in log()),
                        "the talk in the watcher's log")
            await until(pilot, lambda: bea.decision_due(), "Bea's turn")
            runner._writer.transport.abort()  # Bea's connection drops; her program comes back
            await until(pilot, lambda: any("Bea lost the connection" in x for x in log()),
                        "the drop in the watcher's log")
            await until(pilot, lambda: any("Bea is back" in x for x in log()), "Bea back")
            assert any("Bea lost the connection" in x for x in first.notes.since(0)[0])
            runner.bot = entry.make_bot("greedy", random.Random(3))  # Bea plays on, to the end
            runner.flush()
            await until(pilot, lambda: first.state == "over", "the end of the first game",
                        timeout=120)
            await asyncio.wait_for(tasks[0], 60)
            assert bea.rematch.go
            again = PeerSession(bea_key, "Bea", journal=journal)
            again.expect = Expected.of(bea.table)
            tasks.append(asyncio.create_task(PeerRunner(
                again, "127.0.0.1", port, entry.make_bot("greedy", random.Random(4))).run()))
            await until(pilot, lambda: app.session is not first
                        and app.session.table is not None
                        and app.session.table.phase not in ("lobby",), "the rematch watched",
                        timeout=120)
            watched = app.session
            assert isinstance(watched, WatchSession) and watched.expect is not None
            assert watched.table.game_id == again.table.game_id != first.table.game_id
            await until(pilot, lambda: isinstance(app.screen, WatchKeys)
                        and app.client.session is watched, "the rematch's table")
            await pilot.press("q")
    finally:
        hosting.runner.stop()
        for t in tasks:
            t.cancel()
        await asyncio.wait_for(serving, 60)


class SettledEndApp(RematchEndApp):
    """Ada's end screen, told as ``NetGame.rematch_status`` tells it: whether there will be none."""

    def rematch_status(self):
        r = self.peers[0].rematch
        return r.status(["Ada", "Bo", "Jo"]), not r.off and not r.asked, bool(r.off)


@pytest.mark.long
async def test_play_again_is_no_longer_offered_once_there_is_no_rematch_at_80x24():
    link, peers, conns = _ended_game()
    app = SettledEndApp(link, peers)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "waiting for Ada and Jo" in text(app), "Bo's answer")
        assert "Play again (a)" in text(app)
        link.drop(conns[2])  # Jo leaves
        app.show()
        await until(pilot, lambda: "Jo left: no rematch" in text(app), "Jo's leaving")
        await until(pilot, lambda: "Play again (a)" not in text(app), "the button gone")
        assert "Press a" not in text(app)
        assert not app.screen.query_one("#again").display
        await pilot.press("a")  # nothing: there is no rematch to ask for
        await pilot.pause()
        assert isinstance(app.screen, EndScreen) and not peers[0].rematch.asked
        assert "Leave (q)" in text(app)


async def test_the_lobby_shows_every_setting_of_the_table_at_80x24(tmp_path, monkeypatch):
    """The lobby of the host and of a joiner says the turn limit and what follows it, the grace,
    the hints and the options, before anyone is ready."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    app = NetApp(host_net(HostSettings(
        game="condottiere", players=3, options={"hidden_cards": True}, port=0,
        bind="127.0.0.1", bots=1, open=True, name="Ada", turn_timeout=15.0, on_timeout="bot",
        grace=60.0, allow_hints=True, advertise=False)))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "palazzo join 127.0.0.1:" in text(app), "the join line")
        await until(pilot, lambda: "Table:" in text(app), "the settings")
        shown = " ".join(text(app).split())
        assert ("Table: turn limit 15 s, then its own program plays; grace 1 min for a player "
                "who drops; hints allowed; options: hidden cards") in shown
        port = int(app.game.join_line.split("127.0.0.1:")[1].split()[0])
        bea = PeerSession(Identity.generate(), "Bea", auto_ready=False)
        task = asyncio.create_task(PeerRunner(bea, "127.0.0.1", port).run())
        await until(pilot, lambda: bool(bea.lobby), "Bea's lobby")
        assert settings_line(bea.lobby) == settings_line(app.session.lobby) != ""
        await pilot.press("q")
    task.cancel()


def test_a_lobby_without_settings_or_with_unreadable_ones_shows_none():
    assert settings_line({"game": "medici", "players": 3}) == ""
    assert settings_line({"game": "medici", "table": {"timeout": "soon", "grace": 60}}) == ""
    plain = settings_line({"game": "medici", "table": {"timeout": 0, "grace": 0, "config": 7}})
    assert plain == ("Table: no turn limit; no grace limit for a player who drops; no hints")


async def test_the_host_form_offers_turn_limits_under_a_minute(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        form = app.screen
        assert isinstance(form, HostScreen)
        limits = form.query_one("#timeout", Select)
        offered = [value for _, value in limits._options if isinstance(value, int)]
        assert 15 in offered and 30 in offered
        limits.value = 15
        await pilot.pause()
        assert form.settings().turn_timeout == 15.0


@pytest.mark.long
async def test_the_join_form_remembers_the_name_across_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    import socket

    with socket.socket() as s:  # a port nobody listens on: the join fails, the name is kept
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        form = app.screen
        assert isinstance(form, JoinScreen)
        form.query_one("#address", Input).value = f"127.0.0.1:{port}"
        form.query_one("#name", Input).value = "Beatrice"
        await pilot.pause()
        await pilot.click("#go")
        await until(pilot, lambda: "Cannot go on" in text(app), "the reason on the form")
    again = PalazzoApp(GameSetup())  # another run of the program
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        assert again.screen.query_one("#name", Input).value == "Beatrice"


class NotedApp(PalazzoApp):
    """The palazzo app (its styles) opened on one screen, to see where its notes stand."""

    CSS_PATH = str(Path(tui.app.__file__).parent / PalazzoApp.CSS_PATH)

    def __init__(self, screen):
        super().__init__(GameSetup())
        self.first = screen

    def on_mount(self):
        self.call_after_refresh(self.push_screen, self.first)  # over the start screen


def _overlaps(a, b):
    return a.x < b.right and b.x < a.right and a.y < b.bottom and b.y < a.bottom


async def _noted(app, pilot):
    for i in range(3):
        app.notify(f"Note {i}: the game's signed record is saved in "
                   "/home/someone/.local/share/palazzo/games/condottiere-2026.palazzo",
                   timeout=30)
    await pilot.pause(0.3)
    toasts = list(app.screen.query("Toast")) or list(app.query("Toast"))
    assert toasts, "no note shown"
    return [t.region for t in toasts]


@pytest.mark.long
async def test_notes_cover_neither_the_end_screens_buttons_nor_the_talk_input_at_80x24(
        make_game, clock):
    g = forfeited_mid_game(make_game, clock)
    app = NotedApp(EndScreen(NetClient(g.peers[0], lambda action: None).snapshot()))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen")
        notes = await _noted(app, pilot)
        buttons = app.screen.query_one("#end-buttons").region
        assert buttons.area and all(not _overlaps(note, buttons) for note in notes)
    talk = NotedApp(TalkScreen(lambda text: None, lambda: [], phrases("medici")))
    async with talk.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: isinstance(talk.screen, TalkScreen), "the talk pane")
        notes = await _noted(talk, pilot)
        field = talk.screen.query_one(Input).region
        assert field.area and all(not _overlaps(note, field) for note in notes)
