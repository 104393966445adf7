"""Watching a networked game at the table: ``palazzo watch HOST:PORT`` in a terminal.

The watcher's session is a ``net.session.machines.watch_session.WatchSession``: an observer's table (seat -1),
which knows only what the rules show everyone. The game runs in a ``NetApp`` as a join does
(``WatchGame``: the lobby while the seats fill, then the table, then the end screen, the record
checked again and saved); what differs is drawn here, as ``palazzo replay`` draws a networked
record (``tui.replay``): the game's own table screen with nobody's hand shown, the log in the
public words (the narrator told the seat after the last, as an observer), no question ever
asked. ``WatchClient`` is the ``GameClient`` of that table; ``watch_screen`` wraps the game's
table screen with the watcher's keys and words.

A watcher hears the table talk and the notes on who is here in its log, as a seat does, and
follows the table into a rematch every seat agreed to: its app goes back to the lobby of the new
game, then its table.

The lines a table shows a seated player when watchers come and go are
``tui.presence.watcher_news``'s (the lobby notification carries their names,
``net.session.features.watch``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from textual.binding import Binding

from engine.core import TERMINAL
from net.session.commands.hosting import parse_address
from net.session.features.rematch import Expected
from net.session.machines.peer_session import PeerEvent
from net.session.machines.watch_session import WatchSession
from net.session.runners.peer import PeerRunner
from net.wire.identity import Identity
from tui.client import NotYourTurn, TableView
from tui.netclient import NetClient
from tui.netgame import Link, NetGame, table_names
from tui.screens.end import EndScreen
from tui.setup import GameSetup, adapter
from tui.table import TableScreen


class WatchClient(NetClient):
    """A watcher's table as a ``GameClient``: the observer's view, drawn as seat 0's place (no
    hand shown), the log as an observer hears it, with the table talk and the notes on who is
    here ("Jo lost the connection") in their places, as a seat's; nothing can be submitted."""

    #: a watcher does not talk at the table (the host refuses it): no ``t``
    can_talk = False

    def __init__(self, session: WatchSession, names: Sequence[str] | None = None,
                 narrator: Any = None, marker: Any = None) -> None:
        super().__init__(session, lambda action: None, names, narrator, marker=marker)
        assert session.table is not None
        #: the seat the narrator and the marker are told: the one after the last, an observer
        self.hear = len(session.table.seats)
        self.seat = -1  # the header says "watching"

    def snapshot(self) -> TableView:
        return replace(super().snapshot(), seat=0)

    def submit(self, action: Any) -> None:
        raise NotYourTurn("a watcher makes no move")

    def _words(self, before: Any, action: Any, after: Any) -> list[str]:
        """A step in the public words (as ``tui.replay`` words a public replay)."""
        if self._narrate is not None:
            try:
                return list(self._narrate(before, action, after, self.hear, self.names))
            except Exception:  # a narrator that speaks only to a seat at the table
                pass
        try:
            return [self.rules.action_text(before, action, self.hear)]
        except Exception:
            return []


class WatchKeys(TableScreen):
    """The watcher's keys and words, mixed into the game's table screen (``watch_screen``)."""

    BINDINGS = [
        Binding("l", "whole_log", "Log", key_display="l"),
        Binding("e", "results", "Results", key_display="e"),
        Binding("question_mark,f1", "app.help", "Help", key_display="?"),
        Binding("r,f2", "app.rules", "Rules", key_display="r"),
        Binding("q,escape", "leave", "Leave", priority=True),
        Binding("tab", "pane(1)", "Pane", show=False, priority=True),
        Binding("shift+tab", "pane(-1)", show=False, priority=True),
    ]
    PANE_KEYS = "tab"
    HELP_TITLE = "Watching a game"
    HELP_KEYS = (  # type: ignore[assignment]
        ("l", "The whole log"),
        ("e", "The results, once the game is over"),
        ("tab, shift+tab", "The other panes, on a small screen"),
        ("q, escape", "Stop watching"),
    )
    HELP = ("You are watching a networked game: you see what every player at the table sees, "
            "nobody's hand, and the moves as they are made. You take no seat and make no move; "
            "the host lists you as a watcher. At the end the record is checked and saved.")

    client: WatchClient  # type: ignore[assignment]

    def draw(self, view: TableView) -> None:
        super().draw(view)
        for box in self.query("#move-box"):
            box.border_title = "Watching"
        for hand in self.query("#hand"):  # the public view: nobody's hand is shown
            hand.display = False

    def status_text(self, view: TableView) -> str:
        if view.outcome is not None:
            who = " and ".join(view.names[w] for w in view.outcome.winners) + " won"
        elif 0 <= view.actor < len(view.names):
            who = f"{view.names[view.actor]} to play"
        else:
            who = "..."
        return f"Watching | {who} | the public view"

    def warning_text(self, view: TableView) -> str:
        return super().warning_text(replace(view, seat=self.client.hear))

    def waiting_text(self, view: TableView) -> str:
        if view.over:
            return "The game is over. e the results, q leaves."
        who = view.names[view.actor] if 0 <= view.actor < len(view.names) else ""
        nxt = f"{who} is to move. " if who and view.actor != TERMINAL else ""
        return f"{nxt}You are watching: you see what every player sees. l the log, q leaves."

    def action_results(self) -> None:
        view = self.view
        if view is None or view.outcome is None:
            return
        # told as nobody's end (seat -1): no "you win" for the seat whose place is drawn
        self.app.push_screen(EndScreen(replace(view, seat=-1), self.end_words(view),
                                       self.end_choices), self._after_end)

    def action_leave(self) -> None:
        # the game goes on without this watcher: nothing more of it is drawn on the way out
        self.workers.cancel_group(self, "client")
        self.client.close()
        self.dismiss("quit")  # a watcher loses nothing by leaving: no question asked


def watch_screen(client: WatchClient, setup: GameSetup) -> Any:
    """The game's own table screen, drawing the watcher's view, with the watcher's keys."""
    table = adapter(client.game).TABLE
    css = getattr(table, "CSS_PATH", None)
    attrs: dict[str, Any] = {}
    if css is not None:  # the table's style sheets, found beside its module, not this one's
        here = Path(inspect.getfile(table)).parent
        attrs["CSS_PATH"] = [str(here / c) for c in ([css] if isinstance(css, (str, Path)) else css)]
    attrs["PANES"] = tuple(p for p in table.PANES if p[0] != "hand")  # nobody's hand is shown
    cls = type(f"Watch{table.__name__}", (WatchKeys, table), attrs)
    return cls(client, setup)


class WatchGame(NetGame):
    """A networked game followed by a watcher: the lobby, then the watcher's table."""

    def _open_table(self) -> None:
        session = self.session
        assert isinstance(session, WatchSession) and session.table is not None
        table = session.table
        game = adapter(table.game)
        names = table_names(table)
        self.client = WatchClient(session, names, getattr(game, "narrate", None),
                                  getattr(game, "marks", None))
        setup = GameSetup(game=table.game, players=len(table.seats), seat=0)
        if self.on_table is not None:
            self.on_table(watch_screen(self.client, setup), setup)


def watch_net(host: str, port: int, code: str | None, name: str,
              identity: Identity | None = None) -> WatchGame:
    """The networked game at ``host:port``, followed as the watcher ``name``."""
    identity = identity or Identity.load_or_create()
    session = WatchSession(identity, name, code)
    session.rematch.wanted = True  # it follows the table into a rematch
    net: WatchGame | None = None

    def changed(event: PeerEvent) -> None:
        if net is not None:
            net.changed()

    def link(session: WatchSession) -> Link:
        runner = PeerRunner(session, host, port, on_event=changed)
        return Link(runner.run, lambda action: None, runner.flush)

    def next_game(net: NetGame) -> WatchSession:
        """The rematch every seat agreed to: watched afresh on a new connection, its start
        checked to be the agreed one (``net.session.features.rematch.Expected``)."""
        assert net.app is not None
        old = net.session
        assert isinstance(old, WatchSession) and old.table is not None
        new = WatchSession(identity, name, code)
        new.expect = Expected.of(old.table)
        new.rematch.wanted = True
        net.link = link(new)
        net.app.run_worker(net._run_network(), group="network")
        return new

    net = WatchGame(session, link(session), f"Watching {host}:{port} as {name}",
                    next_game=next_game)
    return net


def watch_tui(address: str, code: str | None, name: str, say: Callable[[str], None],
              identity_spec: str | None = None) -> int:
    """``palazzo watch HOST:PORT`` in a terminal; the exit status (a joiner's)."""
    from tui.netapp import NetApp, finish

    host, port = parse_address(address)
    app = NetApp(watch_net(host, port, code, name, Identity.load_or_create(spec=identity_spec)))
    app.run()
    return finish(app, say)
