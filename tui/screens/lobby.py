"""The lobby of a networked game: who has taken a seat (with their key's fingerprint), who is
ready, every setting of the table (``settings_line``: the turn limit and what follows it, the
grace, hints, the options), and for the host the line to give to friends. ``r`` says this player is ready (and
``flush`` sends it); ``t`` opens the talk pane (``tui.chat``; the latest talk shows under the
seats); ``q`` leaves, returning ``None`` (the app decides where to).

The screen holds no lobby facts of its own: ``refresh_lobby()`` redraws from the session
(``PeerSession.lobby``, as the host last sent it); the game calls it whenever the session moved.
The session is a seat's or a watcher's ``PeerSession`` (a watcher's has ``WATCH`` set: it takes
no seat and does not talk), or a ``Relay`` (a host that takes no seat: no seat to be ready in,
no talk, its own status line); the screen asks which by type, never by probing attributes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Static

from net.session.features.liveness import gone_line
from net.session.machines.conversation import printable_line
from net.session.machines.peer_session import PeerSession, PeerState
from net.wire.errors import LocalProtocolError
from net.wire.identity import Identity
from tui.chat import SHOWN, TalkScreen, phrases, talk_line


def _span(seconds: int) -> str:
    """``15 s``, ``1 min``, ``2:30``."""
    if seconds < 60:
        return f"{seconds} s"
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds // 60}:{seconds % 60:02d}"


def settings_line(lobby: dict[str, Any]) -> str:
    """Every setting of the table, as the host's lobby gives them (``table``): the turn limit
    and what follows it, the grace for a player who drops, hints, and the game's options ("" if
    the host gave none, or none that can be read)."""
    table, game = lobby.get("table"), lobby.get("game")
    if type(table) is not dict:
        return ""
    timeout, grace = table.get("timeout"), table.get("grace")
    if type(timeout) is not int or type(grace) is not int or timeout < 0 or grace < 0:
        return ""
    parts = []
    if timeout:
        after = ("its own program plays" if table.get("on_timeout") == "bot"
                 else "the seat forfeits")
        parts.append(f"turn limit {_span(timeout)}, then {after}")
    else:
        parts.append("no turn limit")
    parts.append(f"grace {_span(grace)} for a player who drops" if grace
                 else "no grace limit for a player who drops")
    parts.append("hints allowed" if table.get("hints") is True else "no hints")
    try:
        from engine.registry import get_game
        from tui.names import options_words

        rules = get_game(str(game)).rules
        words = options_words(rules, rules.Config.from_data(table.get("config")))
        parts.append("options: " + ", ".join(words) if words else "no options")
    except Exception:  # an unknown game or a configuration that does not read: not shown
        pass
    return printable_line("Table: " + "; ".join(parts))[:300]


def lobby_text(lobby: dict[str, Any], me: bytes | None = None, my_fp: str = "") -> Text:
    seats = lobby.get("seats", [])
    t = Text()
    for s in seats:
        mark = "ready" if s.get("ready") else "not ready"
        away = "" if s.get("online", True) else "  (away)"
        if s.get("silent"):
            away += "  (not responding)"
        mine = "  <- you" if s.get("fp") == my_fp else ""
        t.append(f" {s.get('seat', 0) + 1}. {s.get('name', '?'):<20} {s.get('fp', '')}  ")
        t.append(mark, style="bold green" if s.get("ready") else "yellow")
        t.append(away + mine + "\n")
    for k in range(len(seats), lobby.get("players", len(seats))):
        t.append(f" {k + 1}. (free)\n", style="dim")
    watchers = lobby.get("watchers")
    if type(watchers) is list and watchers:  # they take no seat (``net.session.features.watch``)
        t.append(f" Watching: {', '.join(str(w)[:32] for w in watchers[:8])}\n")
    settings = settings_line(lobby)
    if settings:
        t.append(f" {settings}\n", style="dim")
    return t


class Relay(Protocol):
    """What the lobby reads of a host that takes no seat (``tui.netgame.RelayView``): the seats
    as the host sees them, a state in a seat's words, and one line on the relayed game."""

    relay: bool
    identity: Identity
    error: Exception | None

    @property
    def lobby(self) -> dict[str, Any]: ...

    @property
    def state(self) -> PeerState: ...

    def status(self) -> str: ...

    def ready(self) -> None: ...


#: what a lobby screen shows: a seat's or a watcher's session, or a relay's view of the host
LobbySource = PeerSession | Relay


class LobbyScreen(Screen[None]):
    CSS_PATH = "lobby.tcss"
    BINDINGS = [
        Binding("r", "ready", "I am ready"),
        Binding("t", "talk", "Talk"),
        Binding("q", "leave", "Leave"),
    ]

    def __init__(self, session: LobbySource, title: str, join_line: str = "",
                 flush: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.session = session
        self.title_text = title
        self.join_line = join_line
        self.flush = flush

    def compose(self) -> ComposeResult:
        yield Static(self.title_text, id="title")
        invite = Static(id="invite")
        invite.display = bool(self.join_line)
        yield invite
        yield Static(id="seats")
        yield Static(id="status")
        talk = Static(id="lobby-talk", markup=False)
        talk.display = False
        yield talk
        yield Footer()

    @property
    def seat_session(self) -> PeerSession | None:
        """The session of a seat or a watcher; ``None`` for a relay."""
        return self.session if isinstance(self.session, PeerSession) else None

    @property
    def watching(self) -> bool:
        """A watcher's lobby: it takes no seat and does not talk."""
        s = self.seat_session
        return s is not None and s.WATCH

    def on_mount(self) -> None:
        self.show_invite(self.join_line)
        self.refresh_lobby()
        self.set_interval(1.0, self._count_down)

    def _count_down(self) -> None:
        """While the host is gone, its line counts down the time this program keeps trying."""
        s = self.seat_session
        if s is not None and s.host_gone is not None:
            self.refresh_lobby()

    def show_invite(self, line: str) -> None:
        """The host's line for its friends (the port is known once the host listens)."""
        self.join_line = line
        if not self.is_attached or self._pruning:  # news for a lobby already closed
            return
        invite = self.query_one("#invite", Static)
        invite.display = bool(line)
        invite.update(f"Give this line to your friends:\n  {line}")

    def refresh_lobby(self, failure: str = "") -> None:
        """Redraw the seats and the status line; ``failure``: why the game cannot go on (said
        instead of any "Waiting for ...")."""
        if not self.is_attached or self._pruning:  # news for a lobby already closed
            return
        s = self.session
        fp = s.identity.fingerprint
        lobby = s.lobby or {}
        self.query_one("#seats", Static).update(lobby_text(lobby, my_fp=fp))
        seated = len(lobby.get("seats", []))
        players = lobby.get("players", "?")
        verb = "watch" if self.watching else "join"
        if not isinstance(s, PeerSession):
            status = s.status()
        elif failure:
            refused = s.state is PeerState.FAILED and failure == str(s.error)
            status = f"{f'Cannot {verb}: ' if refused else ''}{failure}. Press q to leave."
        elif self.watching and s.state is PeerState.LOBBY:
            status = (f"You are watching: you take no seat. The game starts when every seat is "
                      f"taken and ready ({seated} of {players} seats taken).")
        elif s.state is PeerState.FAILED:
            status = f"Cannot {verb}: {s.error}"
        elif s.host_gone is not None:
            status = gone_line(s.host_gone - s.clock()).capitalize() + "."
        elif s.state is PeerState.DISCONNECTED:
            status = "The connection to the host was lost; trying again..."
        elif s.state is PeerState.CONNECTING:
            status = "Connecting..."
        elif any(x.get("fp") == fp and x.get("ready") for x in lobby.get("seats", [])):
            status = f"You are ready. Waiting for the others ({seated} of {players} seats taken)."
        else:
            status = f"Your key: {fp}. Press r when you are ready."
        self.query_one("#status", Static).update(status)
        if isinstance(s, PeerSession):
            lines = [line for k, d, _ in s.chat.lines if (line := talk_line(k, d))][-SHOWN:]
            talk = self.query_one("#lobby-talk", Static)
            talk.display = bool(lines)
            talk.update("\n".join(lines))

    def _say(self, text: str) -> None:
        seat = self.seat_session
        if seat is None:
            raise ValueError("a relay has no seat to talk from")
        try:
            seat.say(text)
        except LocalProtocolError as e:
            raise ValueError(str(e)) from None
        if self.flush is not None:
            self.flush()

    def action_talk(self) -> None:
        seat = self.seat_session
        if seat is not None and not seat.WATCH:
            chat = seat.chat
            game = (self.session.lobby or {}).get("game", "")
            self.app.push_screen(TalkScreen(self._say, lambda: chat.lines, phrases(game)),
                                 lambda _: self.refresh_lobby())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("ready", "talk"):
            # a seat is ready and talks; a relay or a watcher has no seat to do either from
            return self.seat_session is not None and not self.watching
        return True

    def action_leave(self) -> None:
        self.dismiss(None)

    def action_ready(self) -> None:
        if self.session.state is PeerState.LOBBY:
            self.session.ready()
            if self.flush is not None:
                self.flush()
