"""A networked game at the table: the host's own seat played by keyboard through the lobby and
the same table screen as local play, with two bots on the host; and a join from another client."""

import asyncio
import random
from dataclasses import replace

import pytest
from textual.app import App
from textual.widgets import Static

from net.session.commands.hosting import HostSettings
from net.session.records.resume import unfinished
from tests.net.test_adapters import serve_on_loopback
from tests.tui.conftest import asking, until
from tests.tui.conftest import screen_text as text
from tui.netapp import host_app, join_app
from tui.netclient import NetClient
from tui.screens.end import EndScreen, audit_line
from tui.screens.lobby import LobbyScreen


async def play_to_the_end(app, pilot):
    for _ in range(800):
        await until(pilot, lambda: asking(app) or isinstance(app.screen, EndScreen), "a turn")
        if isinstance(app.screen, EndScreen):
            return
        await pilot.press(app.screen._question.keys()[0])  # the first answer, by its own key
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game, options", [
    ("medici", {}),
    pytest.param("condottiere", {"hidden_cards": True}, marks=pytest.mark.long),
])
async def test_the_host_plays_its_seat_at_the_table(profile, game, options):
    settings = HostSettings(game=game, players=3, options=options, port=0, bind="127.0.0.1",
                            bots=2, open=True, name="Ada")
    app = host_app(settings)
    async with app.run_test(size=(110, 34)) as pilot:
        await until(pilot, lambda: "palazzo join 127.0.0.1:" in text(app), "the join line")
        assert isinstance(app.screen, LobbyScreen)
        await until(pilot, lambda: "bot-2 (greedy)" in text(app), "the bots in the lobby")
        screen = text(app)
        assert "Press r when you are ready" in screen and app.session.identity.fingerprint in screen
        await pilot.press("r")
        await until(pilot, lambda: asking(app), "the first question at the table")
        assert "(Ada)" in text(app)  # the seat names carry the players' names
        await play_to_the_end(app, pilot)
        view = app.client.snapshot()
        assert view.over and app.session.table.result()["verdict"] == "verified"
        assert view.audit.startswith("verified; record: agreed by all ")
        # the end screen says so once it is drawn (it may be up and still empty a moment)
        await until(pilot, lambda: "Audit: verified: every signature, proof and move checks out"
                    in text(app), "the audit line on the end screen")
        # where its signed record went, said on the end screen itself (no note over its buttons)
        await until(pilot, lambda: "The signed record is saved:" in text(app), "the record's line")
        (saved,) = (profile / "data" / "palazzo" / "games").iterdir()
        shown = app.screen.query_one("#record")
        assert shown.display and str(shown.content) == f"The signed record is saved: {saved}"
        await pilot.press("q")
    assert app.exit_status() == 0
    host_table = app.host_session.table
    assert host_table.transcript.to_bytes() == app.session.table.transcript.to_bytes()
    # the host kept its record of the game as it went, and it is marked over: never resumed
    (folder,) = (profile / "data" / "palazzo" / "hosting").iterdir()  # made with the lobby
    assert (folder / "game").read_bytes() == host_table.game_id
    assert (folder / "finished").exists()
    assert unfinished(app.host_session.identity.public_key) == []


@pytest.mark.long
async def test_a_table_host_that_crashed_resumes_its_game_with_its_bots(profile):
    """The table's host keeps the same record as ``palazzo host``: started again after a crash,
    it resumes the unfinished game, says so, and its bots come back with their keys."""
    from engine.registry import get_game
    from net.session.commands.hosting import hosted
    from net.session.machines.peer_session import PeerSession
    from net.session.records.journal import Journal
    from net.session.runners.link import MemoryLink
    from net.wire.identity import Identity

    settings = HostSettings(game="medici", players=3, options={}, port=0, bind="127.0.0.1",
                            bots=2, open=True, name="Ada")
    # the first run: the host's seat and its two bots play a while, then the program dies
    session, code, seeds, _ = hosted(settings, lambda line: None)
    link = MemoryLink(session)
    entry = get_game("medici")
    me = PeerSession(session.identity, "Ada", code,
                     journal=Journal.for_identity(session.identity.public_key))
    link.add(me, entry.make_bot("greedy", random.Random(0)))
    for i, seed in enumerate(seeds):
        key = Identity(seed)
        link.add(PeerSession(key, f"bot-{i + 1} (greedy)", code,
                             journal=Journal.for_identity(key.public_key)),
                 entry.make_bot("greedy", random.Random(i + 1)))
    while len(session.table.transcript) < 30:
        try:
            link.pump(limit=1)  # one round at a time
        except RuntimeError:
            pass
    held = len(session.table.transcript)
    # the second run, from the table: the same game, at the entry it had reached
    app = host_app(settings)
    assert app.host_session.table.game_id == session.table.game_id
    assert len(app.host_session.table.transcript) >= held
    (notice,) = app.net.notices
    assert notice.startswith(f"resuming game {session.table.game_id.hex()} at entry "
                             f"{len(app.host_session.table.transcript)} ") and "--new" in notice
    async with app.run_test(size=(110, 34)) as pilot:
        await until(pilot, lambda: asking(app), "the table again")
        await play_to_the_end(app, pilot)
        assert app.session.table.result()["verdict"] == "verified"
        await pilot.press("q")
    assert app.exit_status() == 0


@pytest.mark.long
async def test_a_join_at_the_table_and_a_wrong_code(profile):
    from engine.registry import get_game
    from net.session.machines.host_session import HostSession
    from net.session.machines.peer_session import PeerSession
    from net.wire.identity import Identity

    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}),
                       code="ROOK-1234")
    runner, serving, port = await serve_on_loopback(host)
    import random

    for i in range(2):
        runner.add(PeerSession(Identity.generate(), f"b{i}", "ROOK-1234"),
                   entry.make_bot("random", random.Random(i)))
    runner.pump()

    wrong = join_app("127.0.0.1", port, "ROOK-9999", "Eve", Identity.generate())
    async with wrong.run_test(size=(110, 34)) as pilot:
        await until(pilot, lambda: "wrong game code" in text(wrong), "the refusal")
    assert wrong.exit_status() == 1

    app = join_app("127.0.0.1", port, "rook-1234", "Bea", Identity.generate())
    async with app.run_test(size=(110, 34)) as pilot:
        await until(pilot, lambda: "Press r when you are ready" in text(app), "the lobby")
        await pilot.press("r")
        await play_to_the_end(app, pilot)
        games = profile / "data" / "palazzo" / "games"
        await until(pilot, lambda: games.is_dir() and any(games.iterdir()), "the saved transcript")
        saved = list(games.iterdir())
        assert any("transcript:" in str(n.message) for n in app._notifications)
        assert len(saved) == 1 and saved[0].read_bytes() == app.session.table.transcript.to_bytes()
        await pilot.press("q")
    await asyncio.wait_for(serving, 600)  # a hang guard only
    assert app.exit_status() == 0


class EndApp(App):
    def __init__(self, view):
        super().__init__()
        self.view = view

    def on_mount(self):
        self.push_screen(EndScreen(self.view))


def finished_view(make_game, **kw):
    g = make_game(3, **kw)
    for i in range(3):
        g.add_bot(i)
    g.link.pump()
    peer = g.peers[0]
    return NetClient(peer, lambda action: None).snapshot()


async def test_the_end_screen_says_verified(make_game):
    view = finished_view(make_game)
    assert view.audit == "verified; record: agreed by all 3 seats"
    app = EndApp(view)
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        line = app.screen.query_one("#audit", Static)
        assert line.has_class("verified") and not line.has_class("cheat")
        assert "Audit: verified: every signature, proof and move checks out" in text(app)


async def test_the_end_screen_of_a_local_game_has_no_audit(make_game):
    view = replace(finished_view(make_game), audit="")
    app = EndApp(view)
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        assert "Game over" in text(app) and "Audit" not in text(app)
        assert not app.screen.query("#audit")


def test_a_forfeited_game_is_verified_as_far_as_it_went(make_game, clock):
    g = make_game(3, turn_timeout=30, clock=clock)
    g.add_bot(0)
    g.add_bot(1)
    g.add_bot(2, bot=None)
    g.link.pump()
    clock.now += 31
    g.link.pump()
    view = NetClient(g.peers[0], lambda action: None).snapshot()
    assert view.over
    assert view.audit == ("verified as far as it went: bot2 forfeited (no move within 30 seconds); "
                          "record: one side's record: seats bot2 did not sign (bot2 forfeited: "
                          "no move within 30 seconds)")
    assert audit_line(view.audit).plain == (
        "Audit: verified as far as it went: bot2 forfeited (no move within 30 seconds); every "
        "signature, proof and move up to there checks out\nRecord: one side's record: seats bot2 "
        "did not sign (bot2 forfeited: no move within 30 seconds)")

