"""A networked game inside a palazzo app: the lobby while the seats fill, then the game's table.

``host_net(settings)`` and ``join_net(host, port, code, name)`` build a ``NetGame``; the hosting
and joining themselves (the session, the seats and bots, the join line, the saved transcript,
the exit status) are ``net.session.commands.hosting``'s, shared with the headless commands. The network
runs as a worker in the app's own event loop: a ``PeerRunner`` for a join, or the
``HostRunner``, whose own seat is an in-process peer on the host's link. Either calls
``changed()`` when the session moves.

The app shows the screens and decides what follows them: ``NetGame.start(app)`` runs the
network and gives the ``LobbyScreen``; once the host's start entry arrives, the game's table
(with a ``NetClient``) goes to ``on_table``; a game that fails before its table opened goes to
``on_failed`` with the reason (a form that started it shows the reason and stays). A host that
takes no seat only relays: its lobby (``RelayView``) stays, saying how the relayed game goes.

Leaving is clean. A host that leaves (``close``, from the table or the lobby) tells every peer
"the host closed the game" (``HostRunner.stop``), its network ending by itself once the
goodbyes are out (``wait_closed``), and exits 0. A joiner whose host went away without a
goodbye (it gave up reconnecting) says so in one line, "The host at 127.0.0.1:7342 went away;
the record so far is saved in ...", on the table's move box, its header and a note: nothing
under it still says "Waiting for ...".

At the end the end screen's "Play again" asks for a rematch (``again``;
``net.session.features.rematch``) and shows the answers; when every seat agreed, ``next_game`` gives the
seat's session of the new game (a join connects afresh; a host's ``Hosting`` has already started
it on its port), the old table closes and the lobby, then the new table, follow.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.screen import Screen

from net.session.commands.hosting import (
    EXIT_OK,
    Hosting,
    HostSettings,
    LateBot,
    exit_status,
    host_gone_line,
    result_line,
    save_transcript,
    seat_session,
)
from net.session.features.liveness import GIVE_UP
from net.session.features.rematch import Expected
from net.session.machines.conversation import printable_line
from net.session.machines.entries import Phase
from net.session.machines.peer_session import PeerEvent, PeerSession, PeerState
from net.session.records.adopt import save_so_far, so_far_line
from net.session.records.disk import check_writable
from net.session.runners.peer import LEAVE_TRY, PeerGone, PeerRunner
from net.wire.errors import LocalProtocolError
from net.wire.identity import Identity
from tui.netclient import NetClient
from tui.presence import watcher_news
from tui.screens.end import EndScreen
from tui.screens.lobby import LobbyScreen
from tui.setup import GameSetup, adapter

if TYPE_CHECKING:
    from net.session.machines.host_session import HostSession


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
    def state(self) -> PeerState:
        """The relayed game's state, in a seat's words (``PeerState``)."""
        if self.host.finished:
            return PeerState.OVER
        return PeerState.LOBBY if self.host.table.phase is Phase.LOBBY else PeerState.PLAYING

    def status(self) -> str:
        """One line on the relayed game."""
        table = self.host.table
        if self.state is PeerState.LOBBY:
            return ("This machine takes no seat: it relays the game. "
                    "The game starts when every seat is taken and ready.")
        if self.state is PeerState.PLAYING:
            seats, presence = self.host.seats, self.host.presence
            quiet = [s.name for i, s in enumerate(seats)
                     if presence.started and presence.state(i) == "silent"]
            gone = [s.name for i, s in enumerate(seats)
                    if presence.started and presence.state(i) in ("reconnecting", "left")]
            also = "".join(f" {n} is not responding." for n in quiet) + \
                "".join(f" {n} is not connected." for n in gone)
            return f"The game is on; this machine relays it ({len(table.log)} lines so far).{also}"
        return result_line(table) + ". Press q to leave."

    def ready(self) -> None:
        """A relay has no seat to be ready in."""


@dataclass
class Link:
    """How a ``NetGame`` reaches its network: the worker that runs it, the seat's moves out, the
    flush after a change, and, for presence, telling the host the player is away and leaving
    on purpose (a joiner's ``leave``). A joiner's rematch connects afresh: a new ``Link``."""

    run: Callable[[], Awaitable[None]]
    send: Callable[[Any], None]
    flush: Callable[[], None]
    away: Callable[[bool], None] | None = None
    leave: Callable[[], None] | None = None


class NetGame:
    """One networked game inside a palazzo app: the lobby, then the game's table.

    ``start(app)`` runs the link's network as the app's worker and gives the lobby;
    ``changed()`` redraws the lobby, builds the table once the game has started (``on_table``),
    and tells the table's client. Everything it is made of comes in its constructor:
    ``host_session`` (a host's), ``stop`` (a host's way to quit: every peer hears "the host
    closed the game", ``HostRunner.stop``), ``next_game`` (the seat's session of the agreed
    rematch, given this game), ``notices`` (lines to show once the lobby is up: a host resuming
    its game says so), ``rejoin_line`` (shown while a seat is gone; the host's is
    ``join_line``) and ``address`` (where a join goes, "127.0.0.1:7342", for the line saying
    its host went away).
    """

    def __init__(
        self,
        session: PeerSession | RelayView,
        link: Link,
        title: str,
        *,
        join_line: str = "",
        rejoin_line: str = "",
        address: str = "",
        host_session: HostSession | None = None,
        stop: Callable[[], None] | None = None,
        next_game: Callable[[NetGame], PeerSession] | None = None,
        notices: list[str] | None = None,
    ) -> None:
        self.session = session
        self.link = link
        self.title = title
        self.join_line = join_line
        self.client: NetClient | None = None
        self.failure: str = ""
        self.gave_up = False  # the join ran out of retries (exit status 5)
        self.saved = False
        self.host_session = host_session
        #: the game failed before its table opened (the reason); ``None``: a note says it
        self.on_failed: Callable[[str], None] | None = None
        #: the game's table is ready to be shown, with the setup it plays
        self.on_table: Callable[[Screen[Any], GameSetup], None] | None = None
        self.app: App[Any] | None = None
        self.lobby: LobbyScreen | None = None
        self.notices = notices if notices is not None else []
        #: a host that takes no seat: the lobby stays, saying how the relayed game goes
        self.relay = isinstance(session, RelayView)
        self._watchers: list[str] = []  # the watchers last told (``tui.presence.watcher_news``)
        #: a watcher's own name: it is not told that it came itself
        self._me_watching = (printable_line(str(getattr(session, "name", "")))[:32]
                             if getattr(session, "WATCH", False) else None)
        self.rejoin_line = rejoin_line
        self.address = address
        self.stop = stop
        #: this program left the game on purpose (``close``): what the network does next is moot
        self.left = False
        self._told = ""  # the failure last shown in a note (each is shown once)
        self.trouble = ""  # "cannot save: <reason>" while this game's records cannot be written
        self._done: asyncio.Event | None = None
        self.next_game = next_game
        self._left_game = False  # ``leave_game`` was called

    @property
    def send(self) -> Callable[[Any], None]:
        return self.link.send

    @property
    def flush(self) -> Callable[[], None]:
        return self.link.flush

    @property
    def away(self) -> Callable[[bool], None] | None:
        return self.link.away

    @property
    def leave(self) -> Callable[[], None] | None:
        return self.link.leave

    def start(self, app: App[Any]) -> LobbyScreen:
        """Run the network in ``app``; the lobby to show."""
        self.app = app
        self._done = asyncio.Event()
        self.lobby = LobbyScreen(self.session, self.title, self.join_line, self.flush)
        for line in self.notices:
            app.notify(line, timeout=15)
        app.run_worker(self._run_network(), exclusive=True, group="network")
        return self.lobby

    async def _run_network(self) -> None:
        try:
            await self.link.run()
        except PeerGone as e:  # the host could not be reached (any more): one plain line
            self.gave_up = e.gave_up
            table = self.session.table
            if getattr(self.session, "seat", None) is not None and self.address:
                # the host had taken it in, then went away
                path = save_transcript(table, None)
                self.saved = path is not None
                self.failure = host_gone_line(self.address, path)
            else:
                self.failure = str(e)
        except Exception as e:  # say so on the screen
            self.failure = str(e)
        finally:
            if self._done is not None:
                self._done.set()
        s = self.session
        if isinstance(s, PeerSession) and s.state is PeerState.OVER and s.rematch.waiting():
            # the connection ended with the rematch unsettled: nobody will answer it any more
            s.rematch.stop("the host closed the connection")
        self.changed()

    def close(self) -> None:
        """This program leaves the game: a host tells every peer "the host closed the game"
        (its network then ends by itself, once the goodbyes are out); nothing that follows is
        a failure to show."""
        self.left = True
        self.on_failed = None
        if self.stop is not None and not self.finished:
            self.stop()

    @property
    def finished(self) -> bool:
        host = self.host_session
        return host is not None and bool(host.finished or host.closed)

    @property
    def ends_by_itself(self) -> bool:
        """Whether the network stops by itself after ``close`` (a host's does; so does a
        joiner's that reconnects just to say it leaves)."""
        return (self.stop is not None or self.telling) and self._done is not None \
            and not self._done.is_set()

    @property
    def telling(self) -> bool:
        """A joiner left while its connection was down: its network tries to say so
        (``PeerRunner.leave``, at most ``LEAVE_TRY`` seconds)."""
        return bool(getattr(self.session, "leaving", False)) and self._left_game

    async def wait_closed(self, timeout: float = 5.0) -> None:
        """Until the network has stopped (a host: its goodbyes sent; a joiner: its leave said),
        at most ``timeout`` (for a leave still to be said, ``LEAVE_TRY`` and a second)."""
        if self.telling:
            timeout = max(timeout, LEAVE_TRY + 1)
        if self._done is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._done.wait(), timeout)

    def show_invite(self, line: str) -> None:
        self.join_line = line
        if self.lobby is not None:
            self.lobby.show_invite(line)

    def changed(self) -> None:
        """The session may have moved: redraw the lobby, open the table, tell the client."""
        app, s = self.app, self.session
        if app is None or self.left:
            return
        if s.state is PeerState.FAILED and not self.failure:
            self.failure = str(s.error)
        if self.failure and self.client is None and self.on_failed is not None:
            on_failed, self.on_failed = self.on_failed, None
            on_failed(self.failure)
            return
        if self.failure and self.failure != self._told:
            self._told = self.failure
            app.notify(self.failure, title="The game cannot go on", severity="error", timeout=30)
        self._tell_watchers(app)
        self._tell_trouble(app)
        if (self.client is None and not self.relay and s.table is not None
                and s.table.phase not in ("lobby",)):
            self._open_table()
        elif self.client is None and self.lobby is not None and app.screen is self.lobby:
            self.lobby.refresh_lobby(self.failure)
        if self.client is not None:
            if self.failure:
                self.client.halt(self.failure)
            self.client.changed()
        if s.state is PeerState.OVER and not self.saved:
            self._save()
        if isinstance(s, PeerSession) and s.state is PeerState.OVER:
            self._rematch(s)

    def again(self) -> None:
        """The end screen's "Play again": ask the others for a rematch."""
        s = self.session
        if isinstance(s, PeerSession) and s.state is PeerState.OVER and not s.rematch.asked \
                and not s.rematch.off:
            s.again()
            self.flush()

    def _rematch(self, s: PeerSession) -> None:
        """Show the rematch's answers on the end screen; once every seat agreed, go to the
        new game's lobby."""
        app = self.app
        assert app is not None
        if s.rematch.go and self.next_game is not None:
            new = self.next_game(self)
            if new is s:  # the host has not started it yet
                return
            self.session = new
            self.client, self.saved, self.failure = None, False, ""
            if self.lobby is not None and self.lobby in app.screen_stack:
                while app.screen is not self.lobby:
                    app.pop_screen()
                self.lobby.session = self.session
                self.lobby.refresh_lobby()
            return
        status = self.rematch_status()
        if isinstance(app.screen, EndScreen) and status is not None:
            app.screen.show_rematch(*status)

    def rematch_status(self) -> tuple[str, bool, bool] | None:
        """The rematch's answers in one line, whether "Play again" may still be pressed, and
        whether there will be none (``None``: nothing heard yet)."""
        s = self.session
        if not isinstance(s, PeerSession) or s.table is None or s.state is not PeerState.OVER:
            return None
        r = s.rematch
        if not (r.asked or r.agreed or r.off):
            return None
        return r.status([x.name for x in s.table.seats]), not r.off and not r.asked, bool(r.off)

    def _tell_trouble(self, app: App[Any]) -> None:
        """A disk that cannot be written (this program's, or the host's): a warning on the
        screen while it lasts, and a note when it is over; the game goes on."""
        s, host = self.session, self.host_session
        said = str(getattr(s, "host_trouble", ""))
        trouble = (getattr(host, "trouble", "") or getattr(s, "own_trouble", "")
                   or (f"the host {said}" if said else ""))
        if trouble == self.trouble:
            return
        self.trouble = trouble
        if trouble:
            app.notify(f"{trouble}; the game goes on, and what is not saved is kept until it "
                       "can be", title="Cannot save", severity="warning", timeout=60)
        else:
            app.notify("Saving again: everything is written", timeout=8)

    def _tell_watchers(self, app: App[Any]) -> None:
        """A note on the screen when a watcher comes or goes (the lobby lists them too)."""
        watchers = (self.session.lobby or {}).get("watchers")
        now = [printable_line(str(w))[:32] for w in watchers[:8]] if type(watchers) is list else []
        if self._me_watching in now:
            now.remove(self._me_watching)  # one of that name is this watcher
        for line in watcher_news(self._watchers, now):
            app.notify(line, timeout=8, markup=False)  # names come from the host
        self._watchers = now

    def _save(self) -> None:
        """Save the transcript the moment the game ends, and show where it went (or why it
        could not be saved): on the end screen, since a note would cover its buttons at 80x24;
        a note only while no end screen is up, the end screen saying it when it opens."""
        self.saved = True
        app = self.app
        if app is None:
            return
        said: list[str] = []
        path = save_transcript(self.session.table, said.append)
        if path is None and not said:
            return  # no game started: nothing to keep
        note = f"The signed record is saved: {path}" if path is not None else said[-1]
        if self.client is not None:
            self.client.saved_note = note
        if isinstance(app.screen, EndScreen):
            app.screen.show_record(note)
        else:
            app.notify(said[-1], title="The game's signed record is saved", timeout=12)

    def save_again(self, say: Callable[[str], None]) -> None:
        """Save the transcript (again after a failure; the same file at the end) and say where."""
        save_transcript(self.session.table, say)

    def _open_table(self) -> None:
        session = self.session
        assert isinstance(session, PeerSession) and session.table is not None
        table = session.table
        game = adapter(table.game)
        names = table_names(table)
        self.client = NetClient(session, self.send, names, getattr(game, "narrate", None),
                                marker=getattr(game, "marks", None), away=self.away,
                                rejoin_line=self.rejoin_line or self.join_line, flush=self.flush)
        setup = GameSetup(game=table.game, players=len(table.seats), seat=max(table.me, 0))
        if self.on_table is not None:
            self.on_table(game.TABLE(self.client, setup), setup)

    def leave_game(self) -> None:
        """The player quits on purpose: tell the host first (a joiner's ``leave``; with its
        connection down, as soon as a host answers again: ``telling``). Once only."""
        if self._left_game or self.leave is None:
            return
        if self.session.state in (PeerState.LOBBY, PeerState.PLAYING, PeerState.CONNECTING,
                                  PeerState.DISCONNECTED):
            self._left_game = True
            self.leave()

    def stop_telling(self) -> None:
        """Give up saying the leave to a host that does not answer (a second ``leave``)."""
        if self.telling and self.leave is not None:
            self.leave()

    def exit_status(self) -> int:
        """``net.session.commands.hosting.exit_status``: the record read again at the end is the
        client's audit."""
        fails = self.client is not None and self.client.record_fails
        host = self.host_session
        if host is not None and host.closed and not host.finished:
            return EXIT_OK  # the host quit: every peer was told, the record is saved
        return exit_status(self.session, gave_up=self.gave_up, record_ok=not fails)


def table_names(table: Any) -> tuple[str, ...]:
    """Each seat of a networked game as its tables name it: "Orsini (Jo)"."""
    return tuple(f"{n} ({s.name})" for n, s in zip(table.rules.seat_names, table.seats,
                                                   strict=False))


def add_note_handler(app: App[Any]) -> logging.Handler:
    """The network's log lines (warnings and worse) become notes on ``app``'s screen."""
    handler = _NoteHandler(app)
    logging.getLogger("palazzo.net").addHandler(handler)
    return handler


def remove_note_handler(handler: logging.Handler | None) -> None:
    if handler is not None:
        logging.getLogger("palazzo.net").removeHandler(handler)


class _NoteHandler(logging.Handler):
    def __init__(self, app: App[Any]) -> None:
        super().__init__(logging.WARNING)
        self.app = app

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.app.notify(record.getMessage(), severity="warning", timeout=8)
        except Exception:
            pass


def join_net(host: str, port: int, code: str | None, name: str,
             identity: Identity | None = None, host_fingerprint: str | None = None,
             talk: Sequence[str] = (), retries: int = 5, retry_delay: float = 1.0,
             give_up: float = GIVE_UP) -> NetGame:
    """The networked game that joins ``host:port`` as ``name`` (a host found on the LAN: only
    if its key has ``host_fingerprint``); ``talk``: lines to say once seated (``palazzo join
    --say``; ``ValueError`` for one that cannot be said); ``retries``, ``retry_delay`` and
    ``give_up``: ``PeerRunner``'s, for a host that cannot be reached."""
    check_writable()  # the journal and the record go there: refused before the lobby
    identity = identity or Identity.load_or_create()
    session = seat_session(identity, name, code, auto_ready=False,
                           host_fingerprint=host_fingerprint)
    for text in talk:
        try:
            session.say(text)
        except LocalProtocolError as e:
            raise ValueError(f"--say {text!r}: {e}") from None
    net: NetGame | None = None

    def changed(event: PeerEvent) -> None:
        if net is not None:
            if event.kind == "host-gone":  # a host that lost its own record takes this one
                path = save_so_far(net.session.table)
                if path is not None and net.app is not None:
                    net.app.notify(so_far_line(path), timeout=20, markup=False)
            net.changed()

    session.rematch.wanted = True  # the end screen offers a rematch

    def link(session: PeerSession) -> Link:
        runner = PeerRunner(session, host, port, on_event=changed, fallback=LateBot(session),
                            retries=retries, retry_delay=retry_delay, give_up=give_up)
        return Link(runner.run, runner.act, runner.flush, runner.away, runner.leave)

    def next_game(net: NetGame) -> PeerSession:
        """The rematch: a fresh session on a new connection, expecting the agreed start."""
        assert net.app is not None
        old = net.session
        assert isinstance(old, PeerSession) and old.table is not None
        new = seat_session(identity, name, code, host_fingerprint=host_fingerprint)
        new.expect = Expected.of(old.table)
        new.rematch.wanted = True
        net.link = link(new)
        net.app.run_worker(net._run_network(), group="network")
        return new

    net = NetGame(session, link(session), f"Joining {host}:{port} as {name}",
                  rejoin_line=f"palazzo join {host}:{port}" + (f" --code {code}" if code else ""),
                  address=f"{host}:{port}", next_game=next_game)
    return net


def host_net(settings: HostSettings) -> NetGame:
    """The networked game that hosts ``settings`` and plays the host's own seat (with
    ``settings.seat``; without, it only relays, the lobby saying how the game goes) and the
    computer seats; ``ValueError`` for settings that cannot make a game. A game this host left
    unfinished (it crashed) is resumed from its record, as ``palazzo host`` does."""
    said: list[str] = []
    net: NetGame | None = None

    def changed() -> None:
        if net is not None:
            net.changed()

    hosting = Hosting(settings, said.append, changed)
    me = hosting.own_seat(auto_ready=False)
    fallback = hosting.make_bot() if me is not None else None
    view: PeerSession | RelayView = me if me is not None else RelayView(hosting.session)
    seats: list[PeerSession | None] = [me]  # the host's own seat of the game under way

    async def network() -> None:
        assert net is not None
        await hosting.serve(me, fallback=fallback, listening=net.show_invite)

    def send(action: Any) -> None:
        seat = seats[-1]
        assert seat is not None
        seat.act(action)
        hosting.runner.pump()

    def rematch_seat(seat: PeerSession | None) -> None:  # the rematch's seat, once it started
        seats.append(seat)
        if isinstance(view, RelayView):  # a relay follows the new game
            view.host = hosting.session

    def next_game(net: NetGame) -> PeerSession:
        seat = seats[-1]
        assert seat is not None
        net.host_session = hosting.session
        return seat

    hosting.on_rematch = rematch_seat

    def away(flag: bool) -> None:
        assert me is not None
        me.set_away(flag)
        hosting.runner.pump()

    title = f"Hosting {hosting.title}"
    if me is None:
        title += " (relay only: no seat on this machine)"
    net = NetGame(view, Link(network, send, hosting.runner.pump, away if me is not None else None),
                  title, join_line="...", host_session=hosting.session, stop=hosting.runner.stop,
                  next_game=next_game if me is not None else None,
                  notices=said)  # "resuming game ... at entry N"
    return net
