"""Since your last turn: every move made since the seat's own last move is marked at the table,
bold in the log, and listed with ``w``."""

from __future__ import annotations

from tui.app import PalazzoApp
from tui.medici.narrate import marks
from tui.screens.log import LogScreen
from tui.setup import GameSetup


async def _second_turn(ui, pilot, app):
    """Answer until the seat has moved once in play and its turn has come again."""
    moved_at = None
    for _ in range(200):
        await ui.until(pilot, lambda: ui.asking(app), what="a question")
        table = app.screen
        if table.view.state.phase == "play" and table._question.field == "card":
            if moved_at is not None:
                return table, moved_at
            moved_at = len(table.client._local.history)
        await pilot.press(table._question.keys()[0])
    raise AssertionError("no second turn came")


async def test_every_move_since_your_last_turn_is_marked_listed_and_bold(ui):
    app = PalazzoApp(GameSetup(bots=("greedy",), seed=5, pace=0), play=True)
    async with app.run_test(size=(80, 24)) as pilot:
        table, moved_at = await _second_turn(ui, pilot, app)
        client = table.client
        history = client._local.history
        rules = client.rules
        # what each move of another seat since ours touched, from the game's own marker
        wanted: set = set()
        for i in range(moved_at, len(history)):
            step = history[i]
            after = history[i + 1].before if i + 1 < len(history) else client._local.state
            if step.actor in (1, 2, 3):
                got = marks(rules.view(step.before, 0), step.action, rules.view(after, 0), 0)
                wanted |= got or set()
        assert wanted and wanted <= table.since_view(table.view).marks
        lines = table.since_lines(table.view)
        assert len(lines) >= 3 and "since your last turn" in ui.text(app)
        await pilot.press("w")
        await ui.until(pilot, lambda: isinstance(app.screen, LogScreen), what="the list")
        assert app.screen.lines == lines and "Since your last turn" in ui.text(app)
        await pilot.press("escape")
