"""Leaving is clean at the table (``tui.netgame``, ``tui.app``): a host that quits from its lobby
or its table tells every peer "the host closed the game", saves its record and exits 0 (or goes
back to the start screen), with no asyncio traceback; a joiner whose host went away without a
goodbye says so in one plain line, naming its saved record, and nothing under it still says
"Waiting for ...". Shown at 80x24."""

import asyncio
import logging
import random

import pytest

from engine.registry import get_game
from net.session.commands.hosting import HostSettings
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.session.runners.host import HostRunner
from net.session.runners.peer import PeerRunner
from net.wire.identity import Identity
from tests.net.test_adapters import serve_on_loopback
from tests.tui.conftest import asking, until
from tests.tui.conftest import screen_text as text
from tui.app import PalazzoApp
from tui.netapp import NetApp, host_app
from tui.netgame import host_net, join_net
from tui.screens.start import StartScreen


@pytest.fixture
def no_asyncio_errors(caplog):
    caplog.set_level(logging.WARNING, logger="asyncio")
    yield
    assert not [r for r in caplog.records if r.name == "asyncio"], caplog.text


def settings():
    return HostSettings(game="medici", players=3, options={}, port=0, bind="127.0.0.1", bots=1,
                        open=True, name="Ada")


async def joined(app, pilot):
    """A joiner (a bot, ready at once) at the table ``app`` hosts; its session and task."""
    await until(pilot, lambda: "palazzo join 127.0.0.1:" in text(app), "the join line")
    port = int(app.game.join_line.split("127.0.0.1:")[1].split()[0])
    bea = PeerSession(Identity.generate(), "Bea")
    runner = PeerRunner(bea, "127.0.0.1", port, get_game("medici").make_bot("greedy",
                                                                           random.Random(1)))
    task = asyncio.create_task(runner.run())
    await until(pilot, lambda: bea.state == "lobby", "Bea in the lobby")
    return bea, task


def told(bea):
    return bea.state == "failed" and "the host closed the game" in str(bea.error)


async def test_a_host_that_quits_from_its_lobby_tells_every_peer_and_exits_0(
        profile, no_asyncio_errors):
    app = host_app(settings())
    async with app.run_test(size=(80, 24)) as pilot:
        bea, task = await joined(app, pilot)
        await pilot.press("q")
        await until(pilot, lambda: told(bea), "Bea told")
    await asyncio.wait_for(task, 30)  # a hang guard only
    assert app.exit_status() == 0


@pytest.mark.long
async def test_a_host_that_quits_from_its_table_tells_every_peer_and_saves_its_record(
        profile, no_asyncio_errors):
    app = host_app(settings())
    async with app.run_test(size=(80, 24)) as pilot:
        bea, task = await joined(app, pilot)
        await pilot.press("r")
        await until(pilot, lambda: asking(app), "the host's first question")
        await pilot.press("q")
        await until(pilot, lambda: "Leave this networked game" in text(app), "the question")
        await pilot.press("y")
        await until(pilot, lambda: told(bea), "Bea told")
    await asyncio.wait_for(task, 30)
    assert app.exit_status() == 0
    games = profile / "data" / "palazzo" / "games"
    assert [p.read_bytes() for p in games.iterdir()] == [app.session.table.transcript.to_bytes()]
    assert "the host closed the game" in str(bea.error)


@pytest.mark.long
async def test_a_host_leaving_its_table_in_the_app_tells_every_peer_and_shows_the_start_screen(
        profile, no_asyncio_errors):
    app = PalazzoApp(net=host_net(settings()))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.net is not None and "palazzo join" in text(app),
                    "the join line")
        port = int(app.net.join_line.split("127.0.0.1:")[1].split()[0])
        bea = PeerSession(Identity.generate(), "Bea")
        task = asyncio.create_task(PeerRunner(bea, "127.0.0.1", port, get_game(
            "medici").make_bot("greedy", random.Random(1))).run())
        await until(pilot, lambda: bea.state == "lobby", "Bea in the lobby")
        await pilot.press("r")
        await until(pilot, lambda: asking(app), "the host's first question")
        await pilot.press("q")
        await until(pilot, lambda: "Leave this networked game" in text(app), "the question")
        await pilot.press("y")
        await until(pilot, lambda: told(bea), "Bea told")
        await until(pilot, lambda: isinstance(app.screen, StartScreen), "the start screen")
        await pilot.pause(0.5)  # the host's goodbyes drain: nothing fails after them
        assert isinstance(app.screen, StartScreen)
    await asyncio.wait_for(task, 30)


async def _vanishing_proxy(upstream):
    """A proxy to the host on ``upstream``; ``vanish()`` closes it and every connection at
    once, without a word, as a host killed with SIGKILL does."""
    links = []

    async def handle(reader, writer):
        up_r, up_w = await asyncio.open_connection("127.0.0.1", upstream)
        links.extend([writer, up_w])

        async def pipe(src, dst):
            try:
                while data := await src.read(65536):
                    dst.write(data)
            except (ConnectionError, OSError):
                pass
            dst.close()

        await asyncio.gather(pipe(reader, up_w), pipe(up_r, writer))

    server = await asyncio.start_server(handle, "127.0.0.1", 0)

    def vanish():
        server.close()
        for w in links:
            w.transport.abort()

    return server.sockets[0].getsockname()[1], vanish


@pytest.mark.long
async def test_a_joiner_whose_host_vanished_says_so_in_one_line_with_its_record(profile):
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)
    port, vanish = await _vanishing_proxy(port)
    for i in range(2):
        runner.add(PeerSession(Identity.generate(), f"b{i}"), entry.make_bot("greedy",
                                                                          random.Random(i)))
    runner.pump()
    app = NetApp(join_net("127.0.0.1", port, None, "Bea", Identity.generate(), retries=2,
                          retry_delay=0.01, give_up=0.5))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Press r when you are ready" in text(app), "the lobby")
            await pilot.press("r")
            await until(pilot, lambda: asking(app), "Bea's first question")
            vanish()
            await until(pilot, lambda: "went away" in text(app), "the line")
            shown = text(app)
            games = profile / "data" / "palazzo" / "games"
            saved = [p for p in games.iterdir() if "-so-far" not in p.name]
            assert len(saved) == 1
            # saved too as soon as the host was gone, for a host that lost its own record
            (so_far,) = [p for p in games.iterdir() if "-so-far" in p.name]
            assert any(f"the record so far is saved in {so_far}" in str(n.message)
                       for n in app._notifications)
            line = f"The host at 127.0.0.1:{port} went away; the record so far is saved in"
            assert line in app.failure and str(saved[0]) in app.failure
            assert line in " ".join(shown.replace("│", " ").split())  # on the move box
            assert "Waiting for" not in shown and "could not reach" not in shown
            assert shown.splitlines()[0].lstrip().startswith("The game stopped")
            notes = [str(n.message) for n in app._notifications]
            assert notes.count(app.failure) == 1  # one line, said once
    finally:
        runner.stop()
        await asyncio.wait_for(serving, 30)
    assert app.exit_status() == 5  # gave up reaching the host (palazzo join --help)


async def test_a_joiner_in_the_lobby_whose_host_vanished_says_so_and_waits_no_more(profile):
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)
    port, vanish = await _vanishing_proxy(port)
    app = NetApp(join_net("127.0.0.1", port, None, "Bea", Identity.generate(), retries=2,
                          retry_delay=0.01, give_up=0.5))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Press r when you are ready" in text(app), "the lobby")
            await pilot.press("r")
            await until(pilot, lambda: "Waiting for the others" in text(app), "ready")
            vanish()
            await until(pilot, lambda: "went away" in text(app), "the line")
            shown = " ".join(text(app).split())
            assert f"The host at 127.0.0.1:{port} went away. Press q to leave." in shown
            assert "Waiting for" not in shown and "could not reach" not in shown
    finally:
        runner.stop()
        await asyncio.wait_for(serving, 30)
    assert app.exit_status() == 5


async def test_a_joiner_quitting_the_app_at_once_tells_its_host_it_left(profile, no_asyncio_errors):
    """Ctrl+Q at the table of a game joined from the app (F4): the host hears ``leave`` at
    once, and the others see "left", not a lost connection and a grace period."""
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)
    for i in range(2):
        runner.add(PeerSession(Identity.generate(), f"b{i}"), entry.make_bot("greedy",
                                                                          random.Random(i)))
    runner.pump()
    app = PalazzoApp(net=join_net("127.0.0.1", port, None, "Bea", Identity.generate()))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Press r when you are ready" in text(app), "the lobby")
            await pilot.press("r")
            await until(pilot, lambda: asking(app), "Bea's first question")
            await pilot.press("ctrl+q")
        for _ in range(500):  # a hang guard: the leave is read as soon as the host runs
            if host.presence.state(2) == "left":
                break
            await asyncio.sleep(0.01)
    finally:
        runner.stop()
        await asyncio.wait_for(serving, 30)
    assert host.presence.state(2) == "left"


@pytest.mark.long
@pytest.mark.parametrize("kind", ["join table", "app"])
async def test_a_joiner_that_quits_while_its_host_is_gone_tells_it_once_it_is_back(
        profile, no_asyncio_errors, kind):
    """Ctrl+Q at the table while the host cannot be reached (the ``palazzo join`` table, or a
    game joined from the app): the app says it is telling the host, stays until a host answers
    again (at most ``LEAVE_TRY`` seconds), says ``leave`` to it, then closes; the host has the
    seat "left", not lost."""
    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}))
    runner = HostRunner(host)
    started = asyncio.get_running_loop().create_future()
    serving = asyncio.create_task(runner.run("127.0.0.1", 0, started))
    upstream = (await started)[0][1]
    port, vanish = await _vanishing_proxy(upstream)
    for i in range(2):
        runner.add(PeerSession(Identity.generate(), f"b{i}"), entry.make_bot("greedy",
                                                                          random.Random(i)))
    runner.pump()
    net = join_net("127.0.0.1", port, None, "Bea", Identity.generate(), retry_delay=0.2)
    app = NetApp(net) if kind == "join table" else PalazzoApp(net=net)
    again = None
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Press r when you are ready" in text(app), "the lobby")
            await pilot.press("r")
            await until(pilot, lambda: asking(app), "Bea's first question")
            vanish()
            await until(pilot, lambda: net.session.state == "disconnected", "the drop")
            proxies = []

            async def back_later():  # the host can be reached again a second after the quit
                await asyncio.sleep(1.0)
                assert host.presence.state(2) == "reconnecting"  # nothing said yet
                proxies.append(await _proxy_on(port, upstream))

            later = asyncio.create_task(back_later())
            await pilot.press("ctrl+q")  # the app waits for the leave to be said, and says so
            await until(pilot, lambda: any("telling the host you leave" in str(n.message)
                                           for n in app._notifications), "the note")
            await asyncio.wait_for(later, 30)
            again = proxies[0][0]
            for _ in range(1000):  # a hang guard
                if host.presence.state(2) == "left":
                    break
                await asyncio.sleep(0.01)
    finally:
        runner.stop()
        await asyncio.wait_for(serving, 30)
        if again is not None:
            again.close()
    assert host.presence.state(2) == "left"


async def _proxy_on(port, upstream):
    """A proxy to the host on ``upstream`` listening on ``port`` (one that vanished before)."""
    async def handle(reader, writer):
        up_r, up_w = await asyncio.open_connection("127.0.0.1", upstream)

        async def pipe(src, dst):
            try:
                while data := await src.read(65536):
                    dst.write(data)
            except (ConnectionError, OSError):
                pass
            dst.close()

        await asyncio.gather(pipe(reader, up_w), pipe(up_r, writer))

    return await asyncio.start_server(handle, "127.0.0.1", port), handle
