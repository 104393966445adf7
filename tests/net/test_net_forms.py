"""Host and join from the start screen, without the command line: the host form opens the lobby
with the line to give to friends and the computer seats, then the table; the join form says
plainly on the form when no host listens, or when the code is wrong, and stays there."""

import asyncio
import socket

import pytest

from tui.app import PalazzoApp
from tui.screens.lobby import LobbyScreen
from tui.screens.network import HostScreen, JoinScreen
from tui.screens.start import StartScreen
from tui.setup import GameSetup


def text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def until(pilot, condition, what, timeout=30.0):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}:\n{text(pilot.app)}")
        await pilot.pause(0.01)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def asking(app) -> bool:
    s = app.screen
    return getattr(s, "_question", None) is not None and s.view is not None and s.view.my_turn


@pytest.fixture
def profile(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


async def fill(pilot, selector, value):
    field = pilot.app.screen.query_one(selector)
    field.value = value
    await pilot.pause()


async def test_host_from_the_start_screen_with_computer_seats(profile):
    app = PalazzoApp(GameSetup())
    port = free_port()
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert "f3 Host a game on the network" in text(app) and "f4 Join a game" in text(app)
        await pilot.press("f1")
        assert "f3" in text(app) and "Host a game on the network" in text(app)  # help
        await pilot.press("escape", "f3")
        assert isinstance(app.screen, HostScreen)
        assert "7342" in text(app)  # the default port
        await fill(pilot, "#players", 3)
        await fill(pilot, "#bots", 2)
        await fill(pilot, "#port", str(port))
        await fill(pilot, "#bind", "127.0.0.1")
        await fill(pilot, "#name", "Ada")
        await pilot.click("#go")
        await until(pilot, lambda: f"palazzo join 127.0.0.1:{port} --code " in text(app),
                    "the line to give to friends")
        assert isinstance(app.screen, LobbyScreen)
        await until(pilot, lambda: "bot-2" in text(app), "the computer seats in the lobby")
        await pilot.press("r")
        await until(pilot, lambda: asking(app), "the first question at the table")
        assert "(Ada)" in text(app)


async def test_join_form_when_nothing_listens_stays_with_the_reason(profile):
    app = PalazzoApp(GameSetup())
    port = free_port()
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.press("f4")
        assert isinstance(app.screen, JoinScreen)
        await pilot.press(*f"127.0.0.1:{port}", "enter")
        await until(pilot, lambda: "Cannot go on" in text(app), "the reason on the form")
        assert isinstance(app.screen, JoinScreen)
        assert f"could not reach 127.0.0.1:{port}" in text(app)
        assert "Traceback" not in text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, StartScreen)


async def test_join_form_with_a_wrong_code(profile):
    from engine.registry import get_game
    from net.host import HostRunner
    from net.identity import Identity
    from net.session import HostSession

    host = HostSession(Identity.generate(), "medici", get_game("medici").rules.make_config(3, {}),
                       code="ROOK-1234")
    runner = HostRunner(host)
    started = asyncio.get_running_loop().create_future()
    serving = asyncio.create_task(runner.run("127.0.0.1", 0, started))
    port = (await started)[0][1]
    app = PalazzoApp(GameSetup())
    try:
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.press("f4")
            await fill(pilot, "#address", f"127.0.0.1:{port}")
            await fill(pilot, "#code", "ROOK-9999")
            await pilot.click("#go")
            await until(pilot, lambda: "wrong game code" in text(app), "the refusal on the form")
            assert isinstance(app.screen, JoinScreen)
    finally:
        serving.cancel()


async def test_host_form_on_a_port_in_use_stays_with_the_reason(profile):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    app = PalazzoApp(GameSetup())
    try:
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.press("f3")
            await fill(pilot, "#port", str(port))
            await fill(pilot, "#bind", "127.0.0.1")
            await pilot.click("#go")
            await until(pilot, lambda: f"cannot listen on port {port}" in text(app),
                        "the reason on the form")
            assert isinstance(app.screen, HostScreen)
            taken.close()  # the port is free again: the same form now hosts
            await pilot.press("ctrl+s")
            await until(pilot, lambda: f"palazzo join 127.0.0.1:{port}" in text(app), "the lobby")
            await pilot.press("q")  # leave the lobby: back to the form, the port closed
            assert isinstance(app.screen, HostScreen)
            await until(pilot, lambda: can_bind(port), "the port to be free")
    finally:
        taken.close()


def can_bind(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True
