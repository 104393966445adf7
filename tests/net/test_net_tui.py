"""A networked game at the table: the host's own seat played by keyboard through the lobby and
the same table screen as local play, with two bots on the host; and a join from another client."""

import asyncio

import pytest

pytest.importorskip("tui.app", reason="the table is not here yet")

from net.play import HostSettings  # noqa: E402
from tui.netapp import host_app, join_app  # noqa: E402
from tui.screens.end import EndScreen  # noqa: E402
from tui.screens.lobby import LobbyScreen  # noqa: E402


def text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def until(pilot, condition, what, timeout=30.0):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}:\n{text(pilot.app)}")
        await pilot.pause(0.01)


def asking(app) -> bool:
    s = app.screen
    return getattr(s, "_question", None) is not None and s.view is not None and s.view.my_turn


async def play_to_the_end(app, pilot):
    for _ in range(800):
        await until(pilot, lambda: asking(app) or isinstance(app.screen, EndScreen), "a turn")
        if isinstance(app.screen, EndScreen):
            return
        await pilot.press("1")
    raise AssertionError("the game did not end")


@pytest.fixture
def profile(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


@pytest.mark.parametrize("game, options", [("medici", {}), ("condottiere", {"hidden_cards": True})])
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
        await pilot.press("q")
    assert app.exit_status() == 0
    host_table = app.host_session.table
    assert host_table.transcript.to_bytes() == app.session.table.transcript.to_bytes()


async def test_a_join_at_the_table_and_a_wrong_code(profile):
    from engine.registry import get_game
    from net.host import HostRunner
    from net.identity import Identity
    from net.session import HostSession, PeerSession

    entry = get_game("medici")
    host = HostSession(Identity.generate(), "medici", entry.rules.make_config(3, {}),
                       code="ROOK-1234")
    runner = HostRunner(host)
    started = asyncio.get_running_loop().create_future()
    serving = asyncio.create_task(runner.run("127.0.0.1", 0, started))
    port = (await started)[0][1]
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
        await pilot.press("q")
    await asyncio.wait_for(serving, 10)
    assert app.exit_status() == 0
