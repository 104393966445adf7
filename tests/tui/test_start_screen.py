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
        await ui.until(pilot, lambda: isinstance(app.screen, CondottiereTable)
                       and app.screen.view is not None, what="the table and its first view")
        table = app.screen
        assert table.view.names == ("Red", "Blue (Ada)", "Green")
        assert table.client.bot_kinds == {0: default_bot("condottiere"), 2: "easy"}
        assert table.client._local.config.hidden_cards
        assert table.client._local.config.players == 3


async def test_the_levels_offered_are_easy_normal_hard_and_expert(ui):
    app = PalazzoApp(GameSetup(pace=0))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for select in app.screen.query(".bot"):
            assert [v for _, v in select._options] == ["easy", "normal", "hard", "expert"]
        assert "ismcts" not in ui.text(app)
        app.screen.query_one("#game").focus()
        await pilot.press("down", "enter")  # Condottiere
        await ui.until(pilot, lambda: "Hidden cards" in ui.text(app), what="Condottiere's form")
        selects = list(app.screen.query(".bot"))
        assert selects
        for select in selects:
            assert [v for _, v in select._options] == ["easy", "normal", "hard", "expert"]


async def _saved_games() -> None:
    """One unfinished local game and one finished, saved: Continue and Replay are offered."""
    from tui import saves
    from tui.setup import make_client

    for setup, to_end in ((GameSetup(game="medici", players=3, bots=("", "easy", "easy"), seed=5,
                                     pace=0), True),
                          (GameSetup(seed=6, pace=0), False)):
        client = make_client(setup)
        saves.attach(setup, client)
        async for snap in client.updates():
            if snap.over or (snap.my_turn and not to_end):
                break
            if snap.my_turn:
                client.submit(snap.legal[snap.steps % len(snap.legal)])
        client.close()


async def test_at_80x24_the_footer_and_the_hint_fit_beside_five_buttons(ui):
    await _saved_games()
    app = PalazzoApp(GameSetup(pace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await ui.until(pilot, lambda: app.screen.query("#replay") and app.screen.query("#continue"),
                       what="Continue and Replay")
        await pilot.pause()
        lines = ui.text(app).splitlines()
        footer = lines[-1]
        for key in ("^q Quit", "f3 Host", "f4 Join", "f5 Continue", "f6 Replay", "f7 Guide",
                    "? Help", "f2 Rules"):
            assert key in footer, footer
        assert footer.endswith(" "), footer  # nothing runs off the edge
        text = ui.text(app)
        assert "press Enter to start" in text and "(Tab moves on)" in text  # the whole hint
        for button in ("Continue", "Play", "Host a game", "Join a game", "Replay", "Guide"):
            assert f" {button} " in text
        # the footer's short words: the help still says them in full
        await pilot.press("f1")
        assert "Host a game on the network" in ui.text(app)


def _styles(app, widget) -> set[str]:
    """The text attributes (bold, reverse, underline) shown on ``widget``'s first line."""
    region = widget.region
    strip = list(app.screen._compositor.render_strips())[region.y]
    shown = set()
    for seg in strip.crop(region.x, region.right):
        if seg.style is not None and seg.text.strip():
            shown |= {a for a in ("bold", "reverse", "underline") if getattr(seg.style, a)}
    return shown


async def test_the_focused_field_shows_without_colour(ui, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = PalazzoApp(GameSetup(pace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        start = app.screen
        fields = [start.query_one("#name"), start.query_one("#players"), start.query_one("#seat")]
        unfocused = {id(w): _styles(app, w) for w in fields}
        for field in fields:
            field.focus()
            await pilot.pause()
            focused = _styles(app, field)
            assert "reverse" in focused and "reverse" not in unfocused[id(field)], field
            # and the other fields do not look focused
            for other in fields:
                if other is not field:
                    assert "reverse" not in _styles(app, other), other


async def test_the_medici_game_length_is_offered_with_a_line_of_explanation_and_ctrl_q_shows(ui):
    app = PalazzoApp(GameSetup(seed=1, pace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = ui.text(app)
        assert "Short game: ends when one house has no shadow alliance" in text
        assert "^q Quit" in text
        await pilot.click("#opt-short_game")
        await pilot.press("ctrl+s")
        await ui.until(pilot, lambda: ui.asking(app), what="the table")
        assert app.screen.view.state.config.short_game
        assert "short game" in ui.text(app)  # the header names the reading played


def test_the_start_screen_loads_neither_the_network_nor_the_search():
    """The start screen's first frame waits for neither the network's code (msgpack, the
    signatures) nor the bots' search: they load when a game needs them. Its form, the saved
    games and the records are all there without them."""
    import subprocess
    import sys

    code = (
        "import asyncio, sys\n"
        "from tui.app import PalazzoApp\n"
        "from tui.setup import GameSetup\n"
        "async def main():\n"
        "    app = PalazzoApp(GameSetup(seed=1, pace=0))\n"
        "    async with app.run_test(size=(80, 24)) as pilot:\n"
        "        for _ in range(500):\n"
        "            await pilot.pause(0.01)\n"
        "            if getattr(app.screen, '_filled', False) and app.screen.query('#opt-short_game'):\n"
        "                break\n"
        "        assert app.screen.query('#opt-short_game'), 'the form was not filled'\n"
        "asyncio.run(main())\n"
        "mods = ('net.wire.transcript', 'msgpack', 'cryptography', 'engine.search.bot')\n"
        "print('loaded:', sorted(m for m in mods if m in sys.modules), file=sys.stderr)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert "loaded: []" in run.stderr, run.stderr


async def test_the_form_is_filled_once_and_its_selects_are_never_taken_away_while_they_mount(ui):
    """The players select posts its first value at its mount, and that message may be handled
    once the form is filled: it must not fill the seats and opponents again, which took away
    selects still mounting (a crash of the app under load). A count chosen later still does."""
    app = PalazzoApp(GameSetup(seed=1, pace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await ui.until(pilot, lambda: app.screen.query("#bot-1"), what="the form")
        start = app.screen
        seat, opponent = start.query_one("#seat"), start.query_one("#bot-1")
        for _ in range(5):
            await pilot.pause()
        assert start.query_one("#seat") is seat and start.query_one("#bot-1") is opponent
        start.query_one("#players").value = 3
        await ui.until(pilot, lambda: not start.query("#bot-3"), what="three players")
        assert start.query_one("#seat") is not seat and len(start.query(".bot")) == 2
