"""The coach at the table: ``h`` shows the hard bot's suggestion for the seat's move, with its
chance to win and the runner-up, in a dialog; nothing is played until the player chooses."""

from __future__ import annotations

from tui.app import PalazzoApp
from tui.screens.hint import HintScreen
from tui.setup import GameSetup


async def test_h_shows_a_hint_and_plays_nothing(ui):
    app = PalazzoApp(GameSetup(bots=("greedy",), seed=11, pace=0))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await ui.until(pilot, lambda: ui.asking(app), what="the first question")
        table = app.screen
        assert "h Hint" in ui.text(app)
        steps = table.view.steps
        await pilot.press("h")
        await ui.until(pilot, lambda: isinstance(app.screen, HintScreen), what="the hint")
        await ui.until(pilot, lambda: "Suggested: " in ui.text(app), what="the hint drawn")
        text = ui.text(app)
        assert "Suggested: " in text and "chance to win about" in text and "Runner-up: " in text
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is table and table.view.steps == steps and ui.asking(app)


async def test_no_hint_where_the_game_does_not_allow_them(ui):
    app = PalazzoApp(GameSetup(bots=("greedy",), seed=11, pace=0))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await ui.until(pilot, lambda: ui.asking(app), what="the first question")
        table = app.screen
        table.client.hints_allowed = False
        table.refresh_bindings()
        await pilot.pause()
        assert "h Hint" not in ui.text(app)
        await pilot.press("h")
        await pilot.pause()
        assert not isinstance(app.screen, HintScreen)
