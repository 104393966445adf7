"""A player's screen says when the host cannot save, and again when it can (the disk side is
``tests/net/test_disk.py``)."""

from net.wire.identity import Identity
from tests.tui.conftest import medici_host_of_bots, until
from tests.tui.conftest import screen_text as text
from tui.netapp import join_app


async def test_a_players_screen_says_when_the_host_cannot_save(profile):
    hosting, serving, port = await medici_host_of_bots({}, print)
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
