"""A networked game in the terminal: the lobby, then the same table as local play, then the end.

``NetGame`` is one networked game inside a palazzo app: it shows the ``LobbyScreen`` while the
seats fill, and once the host's start entry arrives it opens the game's table with a
``NetClient``. ``NetApp`` is the palazzo app (help, rules and the game's table screen) that opens
on such a game; the start screen's host and join forms start one in the ordinary app. The
network runs as a worker in the app's own event loop: a ``PeerRunner`` for ``palazzo join``, or the ``HostRunner`` for ``palazzo host``,
whose own seat is an in-process peer on the host's link. Either calls ``changed()`` when the
session moves.

``join_tui`` and ``host_tui`` are what the command line runs without ``--headless``; they return
the exit status (0: the game ended; 1: it could not go on; 3: a cheat was detected) and save the
transcript like the headless commands.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

from textual import events

from net.session.play import EXIT_GAVE_UP
from net.session.sessions import PeerEvent, PeerSession
from net.wire.errors import CheatDetected
from net.wire.identity import Identity
from tui.app import PalazzoApp
from tui.netclient import NetClient
from tui.screens.lobby import LobbyScreen
from tui.setup import GameSetup, adapter


class NetGame:
    """One networked game inside a palazzo app: the lobby, then the game's table.

    ``start(app)`` shows the ``LobbyScreen`` and runs ``network`` as a worker; ``changed()``
    redraws the lobby, opens the table once the game has started, and tells the table's client.
    ``on_failed(reason)``, if given, is called instead of a note when the game fails before its
    table opened (a form that started it shows the reason and stays).
    """

    def __init__(
        self,
        session: PeerSession,
        network: Callable[[], Awaitable[None]],
        send: Callable[[Any], None],
        flush: Callable[[], None],
        title: str,
        join_line: str = "",
    ) -> None:
        self.session = session
        self.network = network
        self.send = send
        self.flush = flush
        self.title = title
        self.join_line = join_line
        self.client: NetClient | None = None
        self.failure: str = ""
        self.gave_up = False  # the join ran out of retries (exit status 5)
        self.saved = False
        self.host_session: Any = None
        self.on_failed: Callable[[str], None] | None = None
        self.app: PalazzoApp | None = None
        #: lines to show once the lobby is up (a host resuming its game says so)
        self.notices: list[str] = []
        #: a host that takes no seat: the lobby stays, saying how the relayed game goes
        self.relay = isinstance(session, RelayView)

    def start(self, app: PalazzoApp) -> None:
        self.app = app
        self.lobby = LobbyScreen(self.session, self.title, self.join_line)
        app.push_screen(self.lobby)
        for line in self.notices:
            app.notify(line, timeout=15)
        app.run_worker(self._run_network(), exclusive=True, group="network")

    async def _run_network(self) -> None:
        try:
            await self.network()
        except Exception as e:  # the host could not be reached: say so on the screen
            self.failure = str(e)
            self.gave_up = getattr(e, "gave_up", False)
        self.changed()

    def show_invite(self, line: str) -> None:
        self.join_line = line
        self.lobby.show_invite(line)

    def changed(self) -> None:
        """The session may have moved: redraw the lobby, open the table, tell the client."""
        app, s = self.app, self.session
        if app is None:
            return
        if s.state == "failed" and not self.failure:
            self.failure = str(s.error)
        if self.failure and self.client is None and self.on_failed is not None:
            on_failed, self.on_failed = self.on_failed, None
            on_failed(self.failure)
            return
        if self.failure:
            app.notify(self.failure, title="The game cannot go on", severity="error", timeout=30)
        if (self.client is None and not self.relay and s.table is not None
                and s.table.phase not in ("lobby",)):
            self._open_table()
        elif self.client is None and app.screen is self.lobby:
            self.lobby.refresh_lobby()
        if self.client is not None:
            self.client.changed()
        if s.state == "over" and not self.saved:
            self._save()

    def _save(self) -> None:
        """Save the transcript the moment the game ends, and show where it went."""
        from net.session.play import save_transcript

        self.saved = True
        app = self.app
        if app is not None:
            save_transcript(self.session.table, lambda line: app.notify(
                line, title="The game's signed record is saved", timeout=60))

    def _open_table(self) -> None:
        assert self.app is not None
        table = self.session.table
        assert table is not None
        game = adapter(table.game)
        names = tuple(f"{n} ({s.name})" for n, s in zip(table.rules.seat_names, table.seats,
                                                             strict=False))
        self.client = NetClient(self.session, self.send, names, getattr(game, "narrate", None),
                                marker=getattr(game, "marks", None))
        self.app.setup = GameSetup(game=table.game, players=len(table.seats),
                                   seat=max(table.me, 0))
        self.app.push_screen(game.TABLE(self.client, self.app.setup))

    def exit_status(self) -> int:
        table = self.session.table
        if self.session.state == "over" and table is not None:
            # every entry was checked as it arrived, and the record read again at the end
            return 3 if self.client is not None and self.client.record_fails else 0
        if isinstance(self.session.error, CheatDetected):
            return 3
        return EXIT_GAVE_UP if self.gave_up else 1


class RelayView:
    """The host's session as the lobby screen reads a peer's, for a host that takes no seat: the
    seats as the host sees them, and a state (lobby, playing, over) that follows its table."""

    relay = True

    def __init__(self, host: Any) -> None:
        self.host = host
        self.identity = host.identity
        self.error: Exception | None = None

    @property
    def table(self) -> Any:
        return self.host.table

    @property
    def lobby(self) -> dict[str, Any]:
        return dict(self.host.lobby())

    @property
    def state(self) -> str:
        if self.host.finished:
            return "over"
        return "lobby" if self.host.table.phase == "lobby" else "playing"

    def status(self) -> str:
        """One line on the relayed game."""
        from net.session.play import result_line

        table = self.host.table
        if self.state == "lobby":
            return ("This machine takes no seat: it relays the game. "
                    "The game starts when every seat is taken and ready.")
        if self.state == "playing":
            return f"The game is on; this machine relays it ({len(table.log)} lines so far)."
        return result_line(table) + ". Press q to leave."

    def ready(self) -> None:
        """A relay has no seat to be ready in."""


class NetApp(PalazzoApp):
    """The palazzo app that opens on a networked game's lobby (``palazzo host`` / ``join``)."""

    def __init__(self, net: NetGame) -> None:
        super().__init__(GameSetup())
        self.net = net

    session = property(lambda self: self.net.session)
    client = property(lambda self: self.net.client)
    failure = property(lambda self: self.net.failure)
    host_session = property(lambda self: self.net.host_session)

    def on_mount(self, event: events.Mount | None = None) -> None:
        # Textual passes the event; the default keeps the signature compatible with the base
        if event is not None:
            event.prevent_default()  # not the start screen of a local game
        # the network's log lines become notes on the screen, never stray text over it
        add_note_handler(self)
        self.net.start(self)

    def end_choices(self) -> dict[str, str]:
        """Every way out of this app's end screen closes it: the game was its whole run."""
        return {"quit": "Quit palazzo"}

    def leave_question(self) -> str:
        return "Leave this networked game and quit palazzo?"

    def after_game(self, setup: Any, choice: str | None) -> None:
        if choice is None:
            return
        self.exit()

    def leave_network(self) -> None:
        self.exit()

    def exit_status(self) -> int:
        return self.net.exit_status()


def add_note_handler(app: PalazzoApp) -> None:
    """The network's log lines (warnings and worse) become notes on ``app``'s screen."""
    if app.note_handler is None:
        app.note_handler = _NoteHandler(app)
        logging.getLogger("palazzo.net").addHandler(app.note_handler)


class _NoteHandler(logging.Handler):
    def __init__(self, app: PalazzoApp) -> None:
        super().__init__(logging.WARNING)
        self.app = app

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.app.notify(record.getMessage(), severity="warning", timeout=8)
        except Exception:
            pass


class _FallbackBot:
    """The game's default bot, made once the game is known: it plays this seat when the host
    chose ``--on-timeout bot`` and the player lets the turn timeout pass."""

    def __init__(self, session: PeerSession) -> None:
        self.session = session
        self.bot: Any = None

    def choose(self, view: Any, seat: int) -> Any:
        from engine.registry import get_game

        if self.bot is None:
            assert self.session.table is not None
            entry = get_game(self.session.table.game)
            self.bot = entry.make_bot(entry.default_bot, random.Random())
        return self.bot.choose(view, seat)


def join_net(host: str, port: int, code: str | None, name: str,
             identity: Identity | None = None) -> NetGame:
    """The networked game that joins ``host:port`` as ``name``."""
    from net.session.journal import Journal
    from net.session.peer import PeerRunner

    identity = identity or Identity.load_or_create()
    session = PeerSession(identity, name, code, auto_ready=False,
                          journal=Journal.for_identity(identity.public_key))
    net: NetGame | None = None

    def changed(event: PeerEvent) -> None:
        if net is not None:
            net.changed()

    runner = PeerRunner(session, host, port, on_event=changed, fallback=_FallbackBot(session))
    net = NetGame(session, runner.run, runner.act, runner.flush, f"Joining {host}:{port} as {name}")
    return net


def join_app(host: str, port: int, code: str | None, name: str,
             identity: Identity | None = None) -> NetApp:
    """The app that joins ``host:port`` as ``name``."""
    return NetApp(join_net(host, port, code, name, identity))


def host_net(settings: Any) -> NetGame:
    """The networked game that hosts ``settings`` and plays the host's own seat (with
    ``settings.seat``; without, it only relays, the lobby saying how the game goes) and the
    computer seats; ``ValueError`` for settings that cannot make a game."""
    from engine.registry import get_game
    from net.session.host import HostRunner
    from net.session.journal import Journal
    from net.session.play import hosted, join_line

    said: list[str] = []
    # a game this host left unfinished (it crashed) is resumed from its record, as
    # ``palazzo host`` does; otherwise a new game that keeps its record
    session, code, bot_seeds, settings = hosted(settings, said.append)
    entry = get_game(settings.game)

    journal = Journal.for_identity(session.identity.public_key)
    me: Any = (PeerSession(session.identity, settings.name, code, auto_ready=False,
                           journal=journal) if settings.seat else RelayView(session))
    net: NetGame | None = None

    def changed() -> None:
        if net is not None:
            net.changed()

    runner = HostRunner(session, changed)

    async def network() -> None:
        started: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(runner.run(settings.bind, settings.port, started))
        await asyncio.wait({task, started}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            try:
                task.result()
            except OSError as e:
                raise ValueError(f"cannot listen on port {settings.port}: "
                                 f"{e.strerror or e}") from None
        assert net is not None
        net.show_invite(join_line(settings, started.result()[0][1], code))
        if settings.seat:
            runner.add(me, fallback=entry.make_bot(entry.default_bot, random.Random()))
        for i, seed in enumerate(bot_seeds):
            key = Identity(seed)  # kept in the host's record: a resumed game has its bots back
            bot = PeerSession(key, f"bot-{i + 1} ({settings.bot})", code,
                              journal=Journal.for_identity(key.public_key))
            runner.add(bot, entry.make_bot(settings.bot, random.Random()))
        runner.pump()
        await task

    def send(action: Any) -> None:
        me.act(action)
        runner.pump()

    title = f"Hosting {entry.rules.title} for {settings.players}"
    if not settings.seat:
        title += " (relay only: no seat on this machine)"
    net = NetGame(me, network, send, runner.pump, title, join_line="...")
    net.host_session = session
    net.notices = said  # "resuming game ... at entry N"
    return net


def host_app(settings: Any) -> NetApp:
    """The app that hosts a game for ``settings`` and plays the host's own seat."""
    return NetApp(host_net(settings))


def finish(app: NetApp, say: Callable[[str], None]) -> int:
    """After the app: save the transcript, say what went wrong, give the exit status."""
    from net.session.play import save_transcript

    if app.note_handler is not None:
        logging.getLogger("palazzo.net").removeHandler(app.note_handler)
    save_transcript(app.session.table, say)  # again after a failure; the same file at the end
    if app.failure:
        say(f"error: {app.failure}")
    return app.exit_status()


def join_tui(host: str, port: int, code: str | None, name: str, say: Callable[[str], None]) -> int:
    app = join_app(host, port, code, name)
    app.run()
    return finish(app, say)


def host_tui(settings: Any, say: Callable[[str], None]) -> int:
    app = host_app(settings)
    app.run()
    return finish(app, say)
