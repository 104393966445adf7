"""A table screen that is gone takes no harm from news that arrives late: a view, a timer's
tick, a redraw or the end of the game delivered after the screen was popped draw nothing, ask
nothing and raise nothing (a removed widget is never looked up)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import Outcome
from tui.app import PalazzoApp
from tui.screens.end import EndScreen
from tui.setup import GameSetup
from tui.table import TableScreen


@pytest.mark.parametrize("game", ["medici", "condottiere"])
async def test_a_view_delivered_after_the_table_was_popped_raises_nothing(ui, game):
    app = PalazzoApp(GameSetup(bots=("greedy",), game=game, seed=8, pace=0), play=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the seat's first question")
        table = app.screen
        assert isinstance(table, TableScreen)
        view = table.view
        assert view is not None and not table.gone
        table.dismiss("new")
        await ui.until(pilot, lambda: app.screen is not table and not table.is_attached, what="the table to close")
        shown = app.screen
        assert table.gone

        # a step of the game, then its end, delivered to the closed table
        table.view = replace(view, log=(*view.log, "a late line"))
        table._redraw()
        table._tick()
        table.on_presence_line_reshaped()
        seats = len(view.names)
        table.view = replace(view, log=(*view.log, "a later line"), legal=(),
                             outcome=Outcome((0,) * seats, tuple(range(seats)), "late", 1))
        table.action_results()
        await pilot.pause()

        assert app.screen is shown  # nothing pushed by the gone table (no end screen)
        assert not isinstance(app.screen, EndScreen)
        assert app.is_running and app._exception is None
