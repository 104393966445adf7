"""The start screen: its defaults start Court of the Medici against three bots with Enter, and
every choice (game, players, seat, opponents, options, name) reaches the table."""

from __future__ import annotations

from tui.app import PalazzoApp
from tui.condottiere.table import CondottiereTable
from tui.medici.table import MediciTable
from tui.screens.start import StartScreen
from tui.setup import GameSetup, default_bot


async def test_enter_starts_medici_against_three_bots(ui):
    app = PalazzoApp(GameSetup(seed=1, pace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        text = ui.text(app)
        assert "Court of the Medici" in text and "4 players" in text
        from tui.setup import default_bot

        assert text.count(default_bot("medici")) == 3  # one strength per opponent
        await pilot.press("enter")
        await ui.until(pilot, lambda: ui.asking(app), what="the table")
        table = app.screen
        assert isinstance(table, MediciTable)
        assert table.view.names == ("Orsini (you)", "Colonna", "Delle Rovere", "Gonzaga")
        assert sorted(table.client.bot_kinds) == [1, 2, 3]


async def test_every_choice_reaches_the_table(ui):
    app = PalazzoApp(GameSetup(seed=1, pace=0))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        start = app.screen
        # the game: Condottiere, by keyboard on the radio set
        start.query_one("#game").focus()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert "Hidden cards" in ui.text(app)
        # three players, and you take Blue; an easy bot on one seat; an option; a name
        players = start.query_one("#players")
        players.value = 3
        await pilot.pause()
        start.query_one("#seat").value = 1
        await pilot.pause()
        start.query_one("#bot-2").value = "easy"
        start.query_one("#opt-hidden_cards").value = True
        start.query_one("#name").value = "Ada"
        await pilot.pause()
        await pilot.click("#play")
        await ui.until(pilot, lambda: isinstance(app.screen, CondottiereTable), what="the table")
        table = app.screen
        assert table.view.names == ("Red", "Blue (Ada)", "Green")
        assert table.client.bot_kinds == {0: default_bot("condottiere"), 2: "easy"}
        assert table.client._local.config.hidden_cards
        assert table.client._local.config.players == 3


async def test_the_levels_offered_are_easy_normal_hard(ui):
    app = PalazzoApp(GameSetup(pace=0))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for select in app.screen.query(".bot"):
            assert [v for _, v in select._options] == ["easy", "normal", "hard"]
        assert "ismcts" not in ui.text(app)
