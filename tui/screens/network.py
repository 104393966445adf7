"""The host and join forms: a networked game started from the start screen.

``HostScreen`` asks for the game, the players, whether the host takes a seat (off: it only
relays), the computer seats and their level, the game's rules options, the port and address,
whether the game is open or needs a code, whether it is advertised on the LAN (on unless
unticked: ``--no-advertise``), a turn limit and what happens after it, and the host's
name and identity (empty: the account's key; a key file or a profile name lets a second player
on one account take a seat of its own); it builds the ``HostSettings`` that ``palazzo host`` builds from its flags. ``JoinScreen``
asks for ``HOST:PORT``, the code, the identity and a name (a ``JoinRequest``), as ``palazzo join`` takes them;
its Find games (``ctrl+f``, ``tui.screens.find``) lists the games advertised on the LAN, and the
one chosen fills the host, the join then holding the host to that game's key fingerprint (the
code is still asked).
Going ahead hands the settings to ``start(form, settings)``, given by the app, which runs the
network and opens the lobby; a game that cannot start (a port in use, no host listening, a wrong
code) brings the user back to the form with the reason written on it (``show_error``), and the
focus on the field at fault (``FAULT``). Escape goes back: the host form returns its values
(``values()``), which the app gives it again the next time it opens, for as long as the program
runs; the join form returns ``None``. The join form remembers the name and identity it last
joined with, across runs, in ``join-form.json`` of the configuration folder (``remembered``;
a name typed on the start screen comes first, the login name last).

Enter in a text field moves to the next field; it goes ahead only in the last field (the name)
or on the button. The join form's address field takes the whole line the host gives,
``palazzo join HOST:PORT --code CODE``, pasted or typed, and fills the fields from it.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from engine.registry import game_names, get_game
from net.session.commands.hosting import DEFAULT_PORT, HostSettings, parse_address
from net.session.machines.conversation import printable_line
from net.wire.identity import config_dir, identity_path
from tui.options import option_widgets, read_options
from tui.setup import default_bot, player_levels
from tui.widgets import Tick

if TYPE_CHECKING:  # zeroconf is imported only when the join form looks for games
    from net.session.commands.discovery import Found

CSS = "network.tcss"
INTRO = "The host's line: palazzo join HOST:PORT --code CODE. Or find games: ctrl+f"

#: the turn limits offered, in seconds (0: none), as ``--turn-timeout SECONDS``
TIMEOUTS: list[tuple[str, int]] = [("none", 0), ("15 seconds", 15), ("30 seconds", 30),
                                   ("1 minute", 60), ("2 minutes", 120), ("5 minutes", 300),
                                   ("10 minutes", 600)]
#: how long the others wait for a player who dropped out, as ``--grace SECONDS``
GRACES: list[tuple[str, int]] = [("1 minute", 60), ("3 minutes", 180), ("5 minutes", 300),
                                 ("10 minutes", 600), ("30 minutes", 1800)]
#: what happens to a seat whose turn runs out, as ``--on-timeout``
#: (``--on-timeout end-game`` and ``program-plays``; the values are the wire's names)
ON_TIMEOUT: list[tuple[str, str]] = [("end the game: the seat forfeits", "forfeit"),
                                     ("its own program plays for it", "bot")]


def _number(select: Select[Any]) -> int:
    """The number a select of numbers holds (it has no blank)."""
    value = select.value
    if not isinstance(value, int):
        raise TypeError(f"a select of numbers holds {value!r}")
    return value


JOIN_FORM = "join-form.json"  # the join form's name and identity, in the configuration folder


def remembered() -> dict[str, str]:
    """The name and identity the join form last joined with (``{}``: none, or unreadable)."""
    try:
        data = json.loads((config_dir() / JOIN_FORM).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if type(data) is not dict:
        return {}
    return {k: printable_line(v)[:200] for k, v in data.items()
            if k in ("name", "identity") and type(v) is str}


def remember(name: str, identity: str | None) -> None:
    """Keep the name and identity of a join for the form's next opening (a folder that cannot
    be written: not kept, nothing said)."""
    path = config_dir() / JOIN_FORM
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"name": name, "identity": identity or ""}), encoding="utf-8")


def _user() -> str:
    try:
        return getpass.getuser()[:20]
    except Exception:
        return "player"


#: words of a reason and the field they put the focus on, first match wins
FAULT: tuple[tuple[str, str], ...] = (
    ("identity", "#identity"), ("port", "#port"), ("computer seat", "#bots"), ("listen", "#bind"), ("bind", "#bind"),
    ("code", "#code"), ("address", "#address"), ("reach", "#address"), ("host:port", "#address"),
    ("name", "#name"),
)


def _identity(form: Screen[Any]) -> str | None:
    """The form's Identity field: ``None`` (the account's key) when empty; ``ValueError`` for
    one that is neither a key file nor a profile name."""
    spec = form.query_one("#identity", Input).value.strip() or None
    identity_path(spec)
    return spec


def parse_join_line(text: str) -> tuple[str, str | None] | None:
    """``palazzo join HOST:PORT --code CODE`` (or the same without ``palazzo``, or with
    ``--code=CODE``) as ``(HOST:PORT, CODE or None)``; ``None`` for anything else."""
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    if "join" not in words:
        return None
    rest = words[words.index("join") + 1:]
    address, code = "", None
    i = 0
    while i < len(rest):
        w = rest[i]
        if w == "--code" and i + 1 < len(rest):
            code, i = rest[i + 1], i + 2
            continue
        if w.startswith("--code="):
            code = w.partition("=")[2]
        elif w.startswith("--") and i + 1 < len(rest) and not rest[i + 1].startswith("--"):
            i += 1  # another flag's value
        elif not w.startswith("-") and not address:
            address = w
        i += 1
    return (address, code) if address else None


@dataclass(frozen=True)
class JoinRequest:
    """What the join form asks for: the host, its port, the game code and the player's name."""

    host: str
    port: int
    code: str | None
    name: str
    #: the player's identity (``net.wire.identity.identity_path``): ``None`` the account's key
    identity: str | None = None
    #: the host key's fingerprint, for a game chosen from those found on the LAN: the join
    #: refuses a host with another key
    fingerprint: str | None = None


class Form(Screen[dict[str, Any] | None]):
    CSS_PATH = CSS
    HELP_KEYS: tuple[tuple[str, str], ...] = (
        ("enter", "In a text field: the next field; in the last one or on the button: go ahead"),
        ("tab, shift+tab", "Move between the fields"),
    )

    def show_error(self, reason: str) -> None:
        """What went wrong, on the form (the user stays on it to try again), and the focus on
        the field at fault (on the button when no field is)."""
        error = self.query_one("#error", Static)
        error.update(f"Cannot go on: {reason}")
        error.display = True
        low = reason.lower()
        field = next((f for words, f in FAULT if words in low and self.query(f)), "#go")
        self.query_one(field).focus()

    def go(self) -> None:
        raise NotImplementedError

    @on(Input.Submitted)
    def _enter(self, event: Input.Submitted) -> None:
        """Enter in a text field: the next field, or go ahead from the last one."""
        event.stop()
        fields = list(self.query(Input))
        if fields and event.input is fields[-1]:
            self.go()
        else:
            self.focus_next()

    def _clear_error(self) -> None:
        self.query_one("#error", Static).display = False

    def _error_line(self) -> Static:
        error = Static(id="error")
        error.display = False
        return error

    def action_back(self) -> None:
        self.dismiss(None)


class HostScreen(Form):
    AUTO_FOCUS = "#go"
    HELP_TITLE = "On the host form"
    BINDINGS = [
        Binding("ctrl+s", "host", "Host"),
        Binding("escape", "back", "Back"),
        Binding("question_mark,f1", "app.help", "Help", key_display="?"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    def __init__(self, game: str = "medici", name: str = "", kept: dict[str, Any] | None = None,
                 start: Callable[[Form, HostSettings], None] | None = None) -> None:
        super().__init__()
        self.start = start
        self.kept = dict(kept or {})  # the values the form had when it was last left
        game = self.kept.get("game", game)
        self.game = game if game in game_names() else game_names()[0]
        self.name_given = name

    def on_mount(self) -> None:
        k = self.kept
        if not k:
            return
        for wid in ("players", "bots", "bot", "timeout", "on-timeout", "grace"):
            if wid in k:
                sel = self.query_one(f"#{wid}", Select)
                with sel.prevent(Select.Changed):
                    sel.value = k[wid]
        self.query_one("#on-timeout-row").display = bool(k.get("timeout"))
        for wid in ("seat", "open", "hints", "advertise"):
            if wid in k:
                tick = self.query_one(f"#{wid}", Tick)
                with tick.prevent(Checkbox.Changed):
                    tick.value = k[wid]
        for wid in ("port", "bind", "name", "identity"):
            if wid in k:
                self.query_one(f"#{wid}", Input).value = k[wid]

    def values(self) -> dict[str, Any]:
        """What the form holds now, to fill it again next time."""
        out: dict[str, Any] = {"game": self.game_name,
                               "options": dict(read_options(self, self.game_name))}
        for wid in ("players", "bots", "bot", "timeout", "on-timeout", "grace"):
            out[wid] = self.query_one(f"#{wid}", Select).value
        for wid in ("seat", "open", "hints", "advertise"):
            out[wid] = self.query_one(f"#{wid}", Tick).value
        for wid in ("port", "bind", "name", "identity"):
            out[wid] = self.query_one(f"#{wid}", Input).value
        return out

    def action_back(self) -> None:
        self.dismiss(self.values())

    def go(self) -> None:
        self.action_host()

    @property
    def game_name(self) -> str:
        return str(self.query_one("#game", Select).value)

    def compose(self) -> ComposeResult:
        game, players = self.game, self.kept.get("players", self._default_players(self.game))
        yield Static("Host a game on the network", id="title")
        with VerticalScroll(id="form", can_focus=False):
            with Horizontal(classes="row"):
                yield Label("Game", classes="label")
                yield Select([(get_game(g).rules.title, g) for g in game_names()], value=game,
                             id="game", allow_blank=False, compact=True)
            with Horizontal(classes="row"):
                yield Label("Players", classes="label")
                yield Select(self._players(game), value=players, id="players",
                             allow_blank=False, compact=True)
            with Horizontal(classes="row"):
                yield Label("Your seat", classes="label")
                yield Tick("Take a seat (off: this machine only relays the game)", value=True,
                           id="seat", compact=True)
            with Horizontal(classes="row"):
                yield Label("Computers", classes="label")
                yield Select(self._bots(players, self.kept.get("seat", True)), value=0, id="bots",
                             allow_blank=False, compact=True)
                yield Select(self._levels(game), value=default_bot(game), id="bot",
                             allow_blank=False, compact=True)
            with Horizontal(classes="row"):
                yield Label("Options", classes="label")
                yield Vertical(*option_widgets(game, self.kept.get("options", {})), id="options")
            with Horizontal(classes="row"):
                yield Label("Port", classes="label")
                yield Input(str(DEFAULT_PORT), id="port", compact=True, max_length=5,
                            restrict=r"[0-9]*")
            with Horizontal(classes="row"):
                yield Label("Listen on", classes="label")
                yield Input("", placeholder="every address of this machine", id="bind",
                            compact=True, max_length=64)
            with Horizontal(classes="row"):
                yield Label("Code", classes="label")
                yield Tick("Open game (no code): anyone who can reach this machine may join",
                           id="open", compact=True)
            with Horizontal(classes="row"):
                yield Label("LAN", classes="label")
                yield Tick("Advertise the game on the LAN: Find games on the join form lists it",
                           value=True, id="advertise", compact=True)
            with Horizontal(classes="row"):
                yield Label("Turn limit", classes="label")
                yield Select(TIMEOUTS, value=0, id="timeout", allow_blank=False, compact=True)
            on_timeout = Horizontal(classes="row", id="on-timeout-row")
            on_timeout.display = False
            with on_timeout:
                yield Label("After it", classes="label")
                yield Select(ON_TIMEOUT, value="forfeit", id="on-timeout", allow_blank=False,
                             compact=True)
            with Horizontal(classes="row"):
                yield Label("Grace", classes="label")
                yield Select(GRACES, value=180, id="grace", allow_blank=False, compact=True,
                             tooltip="how long the others wait for a player who dropped out")
            with Horizontal(classes="row"):
                yield Label("Coach", classes="label")
                yield Tick("Hints: every player may ask the coach (h) for a suggestion",
                           id="hints", compact=True)
            with Horizontal(classes="row"):
                yield Label("Identity", classes="label")
                yield Input("", placeholder="empty: this account's key",
                            id="identity", compact=True, max_length=200)
            with Horizontal(classes="row"):
                yield Label("Your name", classes="label")
                yield Input(self.name_given or _user(), id="name", compact=True, max_length=20)
        yield self._error_line()
        with Horizontal(id="actions"):
            yield Button("Host", id="go", variant="primary")
            yield Static("Escape goes back. The lobby shows the line to give to your friends.",
                         id="hint")
        yield Footer()

    def _players(self, game: str) -> list[tuple[str, int]]:
        rules = get_game(game).rules
        lo, hi = rules.min_players, rules.max_players
        return [(f"{n} players", n) for n in range(lo, hi + 1)]

    def _default_players(self, game: str) -> int:
        counts = [n for _, n in self._players(game)]
        return 4 if 4 in counts else counts[0]

    def _bots(self, players: int, seat: bool) -> list[tuple[str, int]]:
        """0 to the seats left: all but the host's own, or every seat for a relay."""
        most = players - 1 if seat else players
        return [("none" if k == 0 else f"{k} computer seat{'s' if k > 1 else ''}", k)
                for k in range(most + 1)]

    def _levels(self, game: str) -> list[tuple[str, str]]:
        return [(level, level) for level in player_levels(game)]

    def _seat_taken(self) -> bool:
        return self.query_one("#seat", Tick).value

    def _fill_bots(self) -> None:
        """The computer seats offered follow the players and the host's seat; the count kept is
        the one chosen, or the most that still fits."""
        players = _number(self.query_one("#players", Select))
        choices = self._bots(players, self._seat_taken())
        bots = self.query_one("#bots", Select)
        keep = min(_number(bots), choices[-1][1])
        with bots.prevent(Select.Changed):
            bots.set_options(choices)
            bots.value = keep

    @on(Select.Changed, "#game")
    async def _game_changed(self, event: Select.Changed) -> None:
        game = str(event.value)
        if game == self.game:
            return
        self.game = game
        players = self.query_one("#players", Select)
        with players.prevent(Select.Changed):
            players.set_options(self._players(game))
            players.value = self._default_players(game)
        self._fill_bots()
        level = self.query_one("#bot", Select)
        with level.prevent(Select.Changed):
            level.set_options(self._levels(game))
            level.value = default_bot(game)
        box = self.query_one("#options", Vertical)
        await box.remove_children()
        await box.mount_all(option_widgets(game))

    @on(Select.Changed, "#players")
    def _players_changed(self) -> None:
        self._fill_bots()

    @on(Checkbox.Changed, "#seat")
    def _seat_changed(self) -> None:
        self._fill_bots()

    @on(Select.Changed, "#timeout")
    def _timeout_changed(self, event: Select.Changed) -> None:
        # the select's value now: a change posted while the form opened may arrive late
        self.query_one("#on-timeout-row").display = bool(self.query_one("#timeout", Select).value)

    def settings(self) -> HostSettings:
        """The settings on the form, as ``palazzo host`` builds them from its flags;
        ``ValueError`` says what is wrong with them."""
        game = self.game_name
        port_text = self.query_one("#port", Input).value.strip()
        if not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise ValueError(f"the port must be a number from 1 to 65535, not {port_text!r}")
        players = _number(self.query_one("#players", Select))
        bots = _number(self.query_one("#bots", Select))
        seat = self._seat_taken()
        if bots + seat > players:
            raise ValueError(
                f"{bots} computer seat{'s' if bots > 1 else ''}"
                + (" and yours" if seat else "") + f" are more than the {players} players")
        timeout = _number(self.query_one("#timeout", Select))
        return HostSettings(
            game=game, players=players, options=dict(read_options(self, game)),
            port=int(port_text), bind=self.query_one("#bind", Input).value.strip() or None,
            seat=seat, bots=bots, bot=str(self.query_one("#bot", Select).value),
            open=self.query_one("#open", Tick).value,
            turn_timeout=float(timeout) if timeout else None,
            on_timeout=str(self.query_one("#on-timeout", Select).value) if timeout else "forfeit",
            allow_hints=self.query_one("#hints", Tick).value,
            grace=float(_number(self.query_one("#grace", Select))),
            name=self.query_one("#name", Input).value.strip() or _user(),
            identity=_identity(self), advertise=self.query_one("#advertise", Tick).value,
        )

    @on(Button.Pressed, "#go")
    def action_host(self) -> None:
        self._clear_error()
        try:
            settings = self.settings()
        except ValueError as e:
            self.show_error(str(e))
            return
        if self.start is not None:
            self.start(self, settings)


class JoinScreen(Form):
    AUTO_FOCUS = "#address"
    HELP_TITLE = "On the join form"
    HELP_KEYS = (*Form.HELP_KEYS,
                 ("ctrl+f", "Find the games advertised on the LAN; choosing one fills the host"))
    BINDINGS = [
        Binding("ctrl+s", "join", "Join"),
        Binding("ctrl+f", "find", "Find games"),
        Binding("escape", "back", "Back"),
        Binding("question_mark,f1", "app.help", "Help", key_display="?"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    def __init__(self, name: str = "",
                 start: Callable[[Form, JoinRequest], None] | None = None) -> None:
        super().__init__()
        self.kept = remembered()
        self.name_given = name or self.kept.get("name", "")
        self.start = start
        self.found: Found | None = None  # the game chosen from those found on the LAN

    def compose(self) -> ComposeResult:
        yield Static("Join a game on the network", id="title")
        yield Static(INTRO, id="intro")
        with VerticalScroll(id="form", can_focus=False):
            with Horizontal(classes="row"):
                yield Label("Host", classes="label")
                yield Input("", placeholder=f"HOST:PORT, e.g. 192.168.1.20:{DEFAULT_PORT}",
                            id="address", compact=True, max_length=80)
            with Horizontal(classes="row"):
                yield Label("Code", classes="label")
                yield Input("", placeholder="(none for an open game)", id="code", compact=True,
                            max_length=32)
            with Horizontal(classes="row"):
                yield Label("Identity", classes="label")
                yield Input(self.kept.get("identity", ""), placeholder="empty: this account's key",
                            id="identity", compact=True, max_length=200)
            with Horizontal(classes="row"):
                yield Label("Your name", classes="label")
                yield Input(self.name_given[:20] or _user(), id="name", compact=True,
                            max_length=20)
        yield self._error_line()
        with Horizontal(id="actions"):
            yield Button("Join", id="go", variant="primary")
            yield Button("Find games", id="find")
            yield Static("Escape goes back.", id="hint")
        yield Footer()

    def go(self) -> None:
        self.action_join()

    @on(Button.Pressed, "#find")
    def action_find(self) -> None:
        """The games found on the LAN; the one chosen fills the host (the code is asked)."""
        from tui.screens.find import FindGames

        self._clear_error()
        self.app.push_screen(FindGames(), self._found)

    def _found(self, found: Found | None) -> None:
        if found is None:
            return
        self.query_one("#address", Input).value = found.join_address
        self.found = found
        self.query_one("#intro", Static).update(Text(printable_line(
            f"Found on the LAN: host {found.host} [{found.fingerprint}]; the join checks "
            "that its key has this fingerprint.")))
        self.query_one("#code" if found.code else "#name", Input).focus()

    def _fingerprint(self, address: str) -> str | None:
        """The fingerprint to hold the host to: the found game's, while its address stands."""
        if self.found is None or address != self.found.join_address:
            return None
        return self.found.fingerprint

    @on(Input.Changed, "#address")
    def _pasted(self, event: Input.Changed) -> None:
        """The host's whole line in the address field: fill the address and the code."""
        found = parse_join_line(event.value)
        if found is None:
            return
        address, code = found
        event.input.value = address
        if code is not None:
            self.query_one("#code", Input).value = code
        self.query_one("#name", Input).focus()

    @on(Button.Pressed, "#go")
    def action_join(self) -> None:
        self._clear_error()
        address = self.query_one("#address", Input).value.strip()
        code = self.query_one("#code", Input).value.strip() or None
        name = self.query_one("#name", Input).value.strip() or _user()
        try:
            if not address:
                raise ValueError("type the host's address, as HOST:PORT")
            host, port = parse_address(address)
            identity = _identity(self)
        except ValueError as e:
            self.show_error(str(e))
            return
        remember(name, identity)
        if self.start is not None:
            self.start(self, JoinRequest(host, port, code, name, identity,
                                         self._fingerprint(address)))
