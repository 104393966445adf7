"""Pictures of the screens a player meets, at 80x24 and 120x40: the start screen, the Court of
the Medici and the Condottiere tables in the middle of a game, and the end of a game. Regenerate with
``pytest tests/tui/test_snapshots.py --snapshot-update`` and look at the SVG files before
committing them."""

from __future__ import annotations

import pytest

from tui.app import PalazzoApp
from tui.screens.end import EndScreen
from tui.setup import GameSetup

SIZES = [(80, 24), (120, 40)]


async def _settle(pilot, condition) -> None:
    for _ in range(2000):
        if condition():
            await pilot.pause()
            return
        await pilot.pause(0.01)
    raise AssertionError("the app did not settle")


def _asking(app) -> bool:
    s = app.screen
    return getattr(s, "_question", None) is not None and s.view is not None and s.view.my_turn


async def _play_turns(pilot, turns: int) -> None:
    """Answer the first choice of every question until ``turns`` turns of play have passed."""
    app = pilot.app
    while True:
        await _settle(pilot, lambda: _asking(app) or isinstance(app.screen, EndScreen))
        if isinstance(app.screen, EndScreen):
            return
        if app.screen.view.state.phase == "play" and app.screen.view.state.turns >= turns:
            return
        await pilot.press("1")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_start_screen(snap_compare, size):
    assert snap_compare(PalazzoApp(GameSetup(seed=1, pace=0)), terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_medici_table_mid_game(snap_compare, size):
    async def run_before(pilot):
        await _play_turns(pilot, 9)
        await pilot.press("1")  # a card picked: the table asks what to do with it
        await pilot.pause()

    app = PalazzoApp(GameSetup(bots=("greedy",), seed=21, pace=0), play=True)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_medici_end_screen(snap_compare, size):
    async def run_before(pilot):
        await _play_turns(pilot, 10_000)

    app = PalazzoApp(GameSetup(bots=("greedy",), seed=21, pace=0), play=True)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_condottiere_table_mid_game(snap_compare, size):

    async def run_before(pilot):
        app = pilot.app
        while True:
            await _settle(pilot, lambda: _asking(app))
            s = app.screen.view.state
            if s.phase == "play" and s.battles >= 2:
                return
            q = app.screen._question
            await pilot.press("2" if q.choices[0].label.startswith("Pass") else "1")

    setup = GameSetup(bots=("greedy",), game="condottiere", players=4, seed=8, pace=0)
    assert snap_compare(PalazzoApp(setup, play=True), terminal_size=size, run_before=run_before)
