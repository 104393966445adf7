"""Pictures of the screens a player meets, at 80x24 and 120x40: the start screen, the Court of
the Medici and the Condottiere tables in the middle of a game, and the end of a game. Regenerate with
``pytest tests/tui/test_snapshots.py --snapshot-update`` and look at the SVG files before
committing them."""

from __future__ import annotations

import pytest

from tests.tui.conftest import settled, until
from tui.app import PalazzoApp
from tui.screens.end import EndScreen
from tui.setup import GameSetup

SIZES = [(80, 24), (120, 40)]

#: the login name, the time zone: a picture is the same on every machine and under every user
pytestmark = pytest.mark.usefixtures("pinned")


async def _settle(pilot, condition) -> None:
    """Let the app run until ``condition()`` holds (a hang guard on processor time, which a
    loaded machine does not eat into), then once more."""
    await until(pilot, condition, what="the table's question or the end")
    await pilot.pause()


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
        await pilot.press(app.screen._question.keys()[0])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_start_screen(snap_compare, size):
    assert snap_compare(PalazzoApp(GameSetup(seed=1, pace=0)), terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_medici_table_mid_game(snap_compare, size):
    async def run_before(pilot):
        await _play_turns(pilot, 9)
        await pilot.press("1")  # a card picked: the table asks what to do with it
        await settled(pilot)

    app = PalazzoApp(GameSetup(bots=("greedy",), seed=21, pace=0), play=True)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_medici_end_screen(snap_compare, size):
    async def run_before(pilot):
        await _play_turns(pilot, 10_000)
        await settled(pilot)

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
                await settled(pilot)
                return
            q = app.screen._question
            await pilot.press(q.keys()[1 if q.choices[0].label.startswith("Pass") else 0])

    setup = GameSetup(bots=("greedy",), game="condottiere", players=4, seed=8, pace=0)
    assert snap_compare(PalazzoApp(setup, play=True), terminal_size=size, run_before=run_before)


# -- the other screens a player meets --------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("key", ["f3", "f4"], ids=["host_form", "join_form"])
def test_network_forms(snap_compare, size, key, profile):
    async def run_before(pilot):
        await pilot.pause()
        await pilot.press(key)
        await settled(pilot)

    assert snap_compare(PalazzoApp(GameSetup(seed=1, pace=0)), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_lobby(snap_compare, size, profile):
    from types import SimpleNamespace

    from net.session.machines.peer_session import PeerSession, PeerState
    from net.wire.identity import Identity
    from tui.screens.lobby import LobbyScreen

    # a host's lobby as the session last heard it (fixed keys, so the picture is the same)
    lobby = {"players": 4, "seats": [
        {"seat": 0, "name": "Ada", "fp": "3f2a 91bc 04de 7710", "ready": True},
        {"seat": 1, "name": "bot-2 (easy)", "fp": "c0ff ee12 3456 789a", "ready": True},
        {"seat": 2, "name": "Grace", "fp": "9e8d 7c6b 5a49 3827", "ready": False, "online": False},
    ]}
    session = PeerSession(Identity(bytes(32)), "Ada")
    session.identity = SimpleNamespace(fingerprint="3f2a 91bc 04de 7710")  # the picture's key
    session.lobby, session.state = lobby, PeerState.LOBBY

    async def run_before(pilot):
        await pilot.pause()
        await pilot.app.push_screen(LobbyScreen(session, "Court of the Medici: 4 players, hosted by Ada",
                                                "palazzo join 192.0.2.7:7342 --code tulip-harbor-42"))
        await settled(pilot)

    assert snap_compare(PalazzoApp(GameSetup(seed=1, pace=0)), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("key", ["question_mark", "r"], ids=["help", "rules"])
def test_help_and_rules_at_the_table(snap_compare, size, key):
    async def run_before(pilot):
        app = pilot.app
        await _settle(pilot, lambda: _asking(app))
        await pilot.press(key)
        await _settle(pilot, lambda: app.screen.__class__.__name__ in ("HelpScreen", "RulesScreen"))
        await settled(pilot)

    app = PalazzoApp(GameSetup(bots=("greedy",), seed=21, pace=0), play=True)
    assert snap_compare(app, terminal_size=size, run_before=run_before)


async def _play_condottiere(pilot, until) -> None:
    """Play the first card rather than pass (and confirm what must be) until ``until()``."""
    app = pilot.app
    while True:
        await _settle(pilot, lambda: _asking(app) or isinstance(app.screen, EndScreen))
        if until():
            return
        q = app.screen._question
        await pilot.press(q.keys()[1 if q.choices[0].label.startswith("Pass") and len(q.choices) > 1 else 0])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_condottiere_end_screen(snap_compare, size):
    async def run_before(pilot):
        await _play_condottiere(pilot, lambda: isinstance(pilot.app.screen, EndScreen))
        await settled(pilot)

    setup = GameSetup(bots=("greedy",), game="condottiere", players=3, seed=8, pace=0)
    assert snap_compare(PalazzoApp(setup, play=True), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_hidden_cards_table(snap_compare, size):
    async def run_before(pilot):
        def face_down_in_play():
            s = pilot.app.screen
            if isinstance(s, EndScreen) or not _asking(pilot.app):
                return isinstance(s, EndScreen)
            st = s.view.state
            return st.phase == "play" and any(not up for line in st.lines for _, up in line)

        await _play_condottiere(pilot, face_down_in_play)
        if pilot.app.screen.has_class("-narrow"):
            await pilot.press("right")  # the battle lines, where the face-down cards lie
        await settled(pilot)

    setup = GameSetup(bots=("greedy",), game="condottiere", players=3, seed=4, pace=0,
                      options=(("hidden_cards", True),))
    assert snap_compare(PalazzoApp(setup, play=True), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_guide_first_note(snap_compare, size, profile):
    """The guided first game's welcome over the table, before the first answer."""
    from dataclasses import replace

    from tui.guide import GuideNote, guide_setup

    async def run_before(pilot):
        await _settle(pilot, lambda: isinstance(pilot.app.screen, GuideNote))
        await settled(pilot)

    app = PalazzoApp(replace(guide_setup("medici"), pace=0), play=True, guide=True)
    assert snap_compare(app, terminal_size=size, run_before=run_before)
