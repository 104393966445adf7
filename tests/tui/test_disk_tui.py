"""A player's screen says when the host cannot save, and again when it can (the disk side is
``tests/net/test_disk.py``)."""

import asyncio

from net.session.commands.hosting import Hosting, HostSettings
from net.wire.identity import Identity
from tests.tui.conftest import screen_text as text
from tests.tui.conftest import until
from tui.netapp import join_app


async def test_a_players_screen_says_when_the_host_cannot_save(profile):
    hosting = Hosting(HostSettings(game="medici", players=3, options={}, port=0,
                                   bind="127.0.0.1", seat=False, bots=2, open=True), print)
    line = asyncio.get_running_loop().create_future()
    serving = asyncio.create_task(hosting.serve(None, listening=line.set_result))
    port = int((await line).rsplit(":", 1)[1])
    app = join_app("127.0.0.1", port, None, "Bea", Identity.generate())
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Press r when you are ready" in text(app), "the lobby")
        hosting.session.disk_trouble("cannot save: no space left on device")
        hosting.runner.deliver(hosting.session.take_output())
        await until(pilot, lambda: app.game.trouble == "the host cannot save: no space left "
                    "on device", "the warning")
        assert any("the host cannot save: no space left on device" in n.message
                   for n in app._notifications)
        hosting.session.disk_trouble("")
        hosting.runner.deliver(hosting.session.take_output())
        await until(pilot, lambda: app.game.trouble == "", "the all-clear")
        await pilot.press("q")
    hosting.runner.stop()
    await serving
