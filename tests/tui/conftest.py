"""Helpers for driving the palazzo app with Textual's Pilot: read what the screen shows, wait
for the table to settle, answer the table's questions by keyboard. The networked screens' tests
(lobby, forms, a networked table, talk, presence, watchers, endings) use the network tests'
games too: ``make_game``, ``clock``, ``finished`` and ``played`` (``tests/net/conftest.py``)."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from tests.net.conftest import clock, finished, make_game, played  # noqa: F401 (fixtures)
from tui.client import GameClient


def screen_text(app) -> str:
    """The characters of the topmost screen, line by line, as a terminal would show them."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def until(pilot, condition, what: str = "", timeout: float = 30.0) -> None:
    """Let the app run until ``condition()`` holds. A hang fails it after ``timeout`` seconds of
    this process's processor time (a loaded machine does not count against it), or ten times
    that on the wall clock; never a timed assertion."""
    cpu, wall = time.process_time() + timeout, time.monotonic() + 10 * timeout
    while not condition():
        if time.process_time() > cpu or time.monotonic() > wall:
            raise AssertionError(f"timed out waiting for {what or condition}:\n{screen_text(pilot.app)}")
        await pilot.pause(0.01)


@pytest.fixture
def profile(tmp_path, monkeypatch):
    """An empty profile of this test's own (config and data folders under ``tmp_path``, which
    it gives): no saved name, key or games of the machine's user."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


def asking(app) -> bool:
    """The table is waiting for an answer from the keyboard."""
    screen = app.screen
    return getattr(screen, "_question", None) is not None and screen.view is not None and screen.view.my_turn


#: the login name the pictures were drawn under (the network forms offer it as the player's name)
PICTURE_USER = "root"


#: what a user's environment could change in a picture's colours, theme or motion (Textual reads
#: them): never set while a picture is taken
PICTURE_UNSET = ("NO_COLOR", "COLORTERM", "TEXTUAL", "TEXTUAL_THEME", "TEXTUAL_ANIMATIONS",
                 "TEXTUAL_COLOR_SYSTEM", "COLUMNS", "ROWS", "LINES")


@pytest.fixture
def pinned(monkeypatch):
    """Everything a picture could take from the machine, fixed: the login name (every variable
    ``getpass.getuser`` reads), the time zone, and no colour, theme or motion setting of the
    user's (``PICTURE_UNSET``). The terminal size and the seed are given by each picture, the
    config and data folders are each test's own (empty) ones."""
    for var in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        monkeypatch.setenv(var, PICTURE_USER)
    for var in PICTURE_UNSET:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


async def settled(pilot, rounds: int = 200) -> None:
    """Let the app finish what it was doing before a picture is taken: no animation scheduled
    and the same characters on the screen over two pauses in a row (a form filled in by its
    own handlers, a table redrawn after its layout). A text field's cursor stops blinking and
    stays shown: a blink is the clock's, not the screen's. Fails if it never settles."""
    before = None
    for _ in range(rounds):
        for widget in pilot.app.screen.query("*"):
            if getattr(widget, "cursor_blink", False):
                widget.cursor_blink = False
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        now = screen_text(pilot.app)
        if now == before:
            return
        before = now
    raise AssertionError(f"the screen never settled:\n{screen_text(pilot.app)}")


@pytest.fixture
def ui():
    return SimpleNamespace(text=screen_text, until=until, asking=asking)


class StillClient(GameClient):
    """A table to look at: the seat's view after one step (``action`` from ``before``), with
    the log and the marks the game's own narrator and marker give that step; the table never
    moves on and it is never the seat's turn."""

    def __init__(self, game, before, action, seat, names=None):
        from engine.registry import get_game
        from tui.setup import adapter

        rules = get_game(game).rules
        words = adapter(game)
        after = rules.apply(before, action)
        self.game, self.seat, self.rules = rules.name, seat, rules
        self.names = tuple(names or rules.seat_names)
        vb, va = rules.view(before, seat), rules.view(after, seat)
        self.log = tuple(words.narrate(vb, action, va, seat, self.names))
        self.marks = words.marks(vb, action, va, seat) or frozenset()
        self.state = va
        self.actor = rules.current_player(after)

    def snapshot(self):
        from tui.client import TableView

        return TableView(game=self.game, seat=self.seat, names=self.names, state=self.state,
                         actor=self.actor, legal=(), log=self.log, marks=self.marks)

    def submit(self, action):
        from tui.client import NotYourTurn

        raise NotYourTurn("a still table")

    async def updates(self):
        yield self.snapshot()

    def close(self):
        pass


def table_app(client):
    """An app showing ``client``'s table and nothing else."""
    from textual.app import App

    from tui.setup import adapter

    class TableApp(App):
        def on_mount(self):
            self.push_screen(adapter(client.game).TABLE(client))

    return TableApp()


@pytest.fixture
def still():
    return SimpleNamespace(client=StillClient, app=table_app)
@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path, monkeypatch):
    """Every test saves its games (and reads saved ones) in a folder of its own."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


async def medici_host_of_bots(options, say):
    """A relay-only Medici host on a free port of 127.0.0.1 with two of its own bots and one
    open seat: its ``Hosting``, the task serving it, and the port."""
    import asyncio

    from net.session.commands.hosting import Hosting, HostSettings

    hosting = Hosting(HostSettings(game="medici", players=3, options=options, port=0,
                                   bind="127.0.0.1", seat=False, bots=2, open=True), say)
    line = asyncio.get_running_loop().create_future()
    serving = asyncio.create_task(hosting.serve(None, listening=line.set_result))
    return hosting, serving, int((await line).rsplit(":", 1)[1])
