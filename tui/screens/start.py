"""The start screen: choose the game, the players, the computer opponents, the options and your
name (and, beside it, whether the bots make their canned remarks, ``tui.remarks``), then play. It returns a ``StartChoice``: a ``GameSetup`` to play; F3 and F4 (or their
buttons) a ``ToNetwork``, for the forms that host or join a game on the network instead
(``tui.screens.network``), with the start screen's settings to come back to.

The defaults are a game of Court of the Medici against three computer opponents, and the Play
button has the focus, so Enter alone starts a game. When a local game was left unfinished,
Continue (F5) opens it where it stopped (it returns the ``SavedGame``); Replay (F6) steps
through a finished local game or a networked game's saved record (``tui.replay``). Everything offered comes from the game
registry: the games that are installed, their player counts, their bots and their options.

The first frame comes quickly: the screen shows the title, the settings Enter plays (one line)
and the buttons at once; the form's fields are mounted, the installed games read and the saved
games listed (Continue and Replay appear when there are any) just after it has been written to
the terminal. A key typed before that plays the setup given.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import (
    Button,
    Footer,
    Input,
    Label,
    RadioSet,
    Select,
    Static,
)

from engine.core import GameRules
from engine.registry import game_names, get_game
from tui.options import option_widgets, read_options
from tui.saves import SavedGame, saved_games
from tui.screens.saved import SavedPicker
from tui.setup import GameSetup, default_bot, player_levels
from tui.widgets import Pick, Tick


@dataclass(frozen=True)
class ToNetwork:
    """The way to the host form (``form="host"``) or the join form, with the start screen's
    settings (``setup``: the game and the name are the forms' defaults)."""

    form: Literal["host", "join"]
    setup: GameSetup


@dataclass(frozen=True)
class ToGuide:
    """A guided first game of ``game`` (``tui.guide``)."""

    game: str


#: what the start screen returns: a game to play, a saved game to continue, a network form, or
#: a guided first game
StartChoice = GameSetup | SavedGame | ToNetwork | ToGuide


def _players(rules: GameRules[Any, Any, Any]) -> range:
    return range(rules.min_players, rules.max_players + 1)


def _chosen(value: object) -> int:
    """The number held by a select that has no blank (its options' values are numbers)."""
    if not isinstance(value, int):
        raise TypeError(f"a select of numbers holds {value!r}")
    return value


class KeysFooter(Footer):
    """Textual's footer, drawn with the first frame and rebuilt only when the keys it shows
    change: Textual's own composes nothing until the screen's bindings are announced, then
    rebuilds itself for every announcement (the screen's mount, the focus given to Play, the
    buttons that appear), each rebuild styling every key anew."""

    def __init__(self) -> None:
        # Ctrl+P opens the command palette, said on the help screen: the keys take the line
        super().__init__(show_command_palette=False)
        self._bindings_ready = True  # the screen's bindings are known when it composes
        self._shown: tuple[object, ...] | None = None
        self._pending = False

    def _keys(self) -> tuple[object, ...]:
        return tuple((b.key, b.description, enabled, tooltip)
                     for _, b, enabled, tooltip in self.screen.active_bindings.values() if b.show)

    def compose(self) -> ComposeResult:
        self._shown = self._keys()
        yield from super().compose()

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if screen.app.app_focus and self.is_attached and screen is self.screen and not self._pending:
            self._pending = True  # one rebuild for announcements made together
            self.call_after_refresh(self._rebuild)

    async def _rebuild(self) -> None:
        self._pending = False
        if self.is_attached and self.screen.is_current and self._keys() != self._shown:
            await self.recompose()


class StartScreen(Screen[StartChoice]):
    CSS_PATH = "start.tcss"
    AUTO_FOCUS = "#play"
    HELP_TITLE = "On the start screen"
    HELP_KEYS = (
        ("enter", "On Play or in your name: start the game; on a list: open or choose"),
        ("tab, shift+tab", "Move between the fields"),
        ("up, down", "Move in a list or among the games"),
        ("space", "Tick an option, or choose the highlighted game"),
        ("f3", "Host a game on the network"),
        ("f4", "Join a game on the network"),
        ("f7", "A first game, guided: each kind of move explained as it comes"),
    )
    BINDINGS = [
        Binding("ctrl+q", "app.quit", "Quit", priority=True),
        Binding("ctrl+s", "play", "Play", show=False),  # Enter on Play, which has the focus
        Binding("f3", "host", "Host"),
        Binding("f4", "join", "Join"),
        Binding("f5", "continue", "Continue"),
        Binding("f6", "replay", "Replay"),
        Binding("f7", "guide", "Guide"),
        Binding("question_mark,f1", "app.help", "Help", key_display="?"),
        Binding("f2", "app.rules", "Rules"),
    ]

    #: the opponents' and options' fields are mounted (after the first frame)
    _filled = False

    def __init__(self, setup: GameSetup | None = None) -> None:
        super().__init__()
        self.setup = setup or GameSetup()
        self.games: list[str] = []  # the games installed: read after the first frame
        # read after the first frame (``_load_saved``): Continue and Replay appear then
        self.unfinished: list[Any] = []
        self.finished: list[Any] = []  # finished local games and networked records

    @property
    def game_name(self) -> str:
        return self._game()

    def compose(self) -> ComposeResult:
        yield Static("palazzo: card games of Renaissance Italy", id="title")
        yield Static(
            "Play against computer opponents: press Enter to start with the settings below, "
            "or change them first (Tab moves on). New to the games? Guide (F7) plays a first "
            "game with you. ? shows every key, F2 the rules.",
            id="intro",
        )
        yield Static("", id="record")  # the record of games played, after the first frame
        with VerticalScroll(id="form", can_focus=False):
            # the fields are mounted just after the first frame (``_after_first_frame``); until
            # then, the settings Enter plays
            yield Static(self._summary(), id="summary", classes="row")
        with Horizontal(id="actions"):
            yield Button("Play", id="play", variant="primary")
            yield Button("Host a game", id="host")
            yield Button("Join a game", id="join")
            yield Button("Guide", id="guide")
        yield KeysFooter()

    def on_mount(self) -> None:
        self._shown = self.setup.game
        self._seat = self.setup.seat
        self._players = self.setup.players

    #: the first frame was handed to the terminal (``_compositor_refresh``)
    _painted = False

    def _compositor_refresh(self) -> None:
        """A frame drawn: after the first, the rest of the form is filled. (Textual's
        ``call_after_refresh`` may run before the first frame is written, when the screen is not
        yet sized, and would keep the screen blank while the rest loads.)"""
        super()._compositor_refresh()
        # a refresh inside a batch of updates writes nothing to the terminal
        if not self._painted and self.is_current and not getattr(self.app, "_batch_count", 0):
            self._painted = True
            self.call_next(self._after_first_frame)

    def _summary(self) -> str:
        """The settings Enter plays, in one line: the first frame's stand-in for the fields."""
        s = self.setup
        title = get_game(s.game).rules.title
        return f"{title}, {s.players} players: press Enter to play, or wait for the choices."

    def _rows(self) -> list[Widget]:
        """The form's fields, in order: each a row with its label."""
        s = self.setup

        def row(label: str, *widgets: Widget) -> Horizontal:
            return Horizontal(Label(label, classes="label"), *widgets, classes="row")

        picks = []
        for g in self.games:
            rules = get_game(g).rules
            r = _players(rules)
            picks.append(Pick(f"{rules.title} ({r.start}-{r.stop - 1} players)",
                              value=g == s.game, name=g))
        return [
            row("Game", RadioSet(*picks, id="game", compact=True)),
            row("Players", Select(self._player_choices(s.game), value=s.players, id="players",
                                  allow_blank=False, compact=True)),
            row("You play", Select(self._seat_choices(s.game, s.players), value=s.seat,
                                   id="seat", allow_blank=False, compact=True)),
            row("Opponents", Vertical(*self._opponent_rows(s.game, s.players, s.seat, s),
                                      id="opponents")),
            row("Options", Vertical(*self._option_widgets(s.game, s), id="options")),
            # the bots' remarks beside the name, so that the form still fits in 24 rows
            row("Your name",
                Input(s.name, placeholder="(optional)", id="name", compact=True, max_length=20),
                Tick("the bots' remarks in the log", value=s.remarks, compact=True,
                     id="remarks")),
        ]

    async def _after_first_frame(self) -> None:
        """Once the screen is up: the form's fields, then the saved games (Continue and Replay
        are offered if there are any)."""
        from tui.records import replay_records

        self.games = game_names()
        form = self.query_one("#form", VerticalScroll)
        with self.app.batch_update():
            await self.query_one("#summary").remove()
            await form.mount_all(self._rows())
        self._filled = True

        self.unfinished = saved_games(finished=False)
        self.finished = replay_records()
        from tui import history
        line = history.start_line(history.games())
        record = self.query_one("#record", Static)
        record.update(line)
        record.display = bool(line)
        if self.unfinished:
            await self.query_one("#actions").mount(Button("Continue", id="continue"),
                                                   before="#play")
        if self.finished:
            await self.query_one("#actions").mount(Button("Replay", id="replay"), after="#join")
        if self.unfinished or self.finished:
            self.refresh_bindings()

    # -- the form follows the game ---------------------------------------------------------------

    def _player_choices(self, game: str) -> list[tuple[str, int]]:
        return [(f"{n} players", n) for n in _players(get_game(game).rules)]

    def _seat_choices(self, game: str, players: int) -> list[tuple[str, int]]:
        return [(n, i) for i, n in enumerate(list(get_game(game).rules.seat_names)[:players])]

    def _game(self) -> str:
        if not self._filled:  # a key typed ahead of the fields: the game given
            return self.setup.game
        rs = self.query_one("#game", RadioSet)
        button = rs.pressed_button
        return button.name if button is not None and button.name else self.setup.game

    async def _fill(self, keep: bool = True) -> None:
        game = self._game()
        rules = get_game(game).rules
        s = self.setup if keep and self.setup.game == game else GameSetup(game=game)
        counts = list(_players(rules))
        players = s.players if s.players in counts else (4 if 4 in counts else counts[0])
        sel = self.query_one("#players", Select)
        with sel.prevent(Select.Changed):
            sel.set_options(self._player_choices(game))
            sel.value = players
        await self._fill_seats(game, players, s)
        await self._fill_options(game, s)

    async def _fill_seats(self, game: str, players: int, s: GameSetup) -> None:
        # a new select: one whose options change under an unchanged value keeps its old label
        self._players = players
        old = self.query_one("#seat", Select)
        seat = s.seat if s.seat < players else 0
        row = old.parent
        assert isinstance(row, Widget)
        await old.remove()
        new = Select(self._seat_choices(game, players), value=seat, id="seat",
                     allow_blank=False, compact=True)
        self._seat = seat
        await row.mount(new)
        await self._fill_opponents(game, players, seat, s)

    async def _fill_opponents(self, game: str, players: int, seat: int, s: GameSetup) -> None:
        box = self.query_one("#opponents", Vertical)
        await box.remove_children()
        await box.mount_all(self._opponent_rows(game, players, seat, s))

    def _opponent_rows(self, game: str, players: int, seat: int, s: GameSetup) -> list[Any]:
        entry = get_game(game)
        names = list(entry.rules.seat_names)[:players]
        levels = player_levels(game)
        default = default_bot(game)
        given = list(s.bots) if s.game == game else []
        rows = []
        for i, n in enumerate(names):
            if i == seat:
                continue
            level = given[i] if len(given) == players else (given[0] if len(given) == 1 else default)
            if level not in levels:
                level = default
            row = Horizontal(
                Label(n, classes="seat-name"),
                Select([(lv, lv) for lv in levels], value=level, allow_blank=False,
                       compact=True, id=f"bot-{i}", classes="bot"),
                classes="opponent",
            )
            rows.append(row)
        return rows

    async def _fill_options(self, game: str, s: GameSetup) -> None:
        box = self.query_one("#options", Vertical)
        await box.remove_children()
        await box.mount_all(self._option_widgets(game, s))

    def _option_widgets(self, game: str, s: GameSetup) -> list[Any]:
        return option_widgets(game, dict(s.options) if s.game == game else {})

    @on(RadioSet.Changed, "#game")
    async def _game_changed(self) -> None:
        if self._game() != self._shown:
            self._shown = self._game()
            await self._fill(keep=False)

    @on(Select.Changed, "#players")
    async def _players_changed(self, event: Select.Changed) -> None:
        # the select's first value, posted at its mount (it may come once the form is filled:
        # filling it again then would take away the selects still mounting), or the count shown
        if not self._filled or _chosen(event.value) == self._players:
            return
        game = self._game()
        await self._fill_seats(game, _chosen(event.value), self._current(partial=True))

    @on(Select.Changed, "#seat")
    async def _seat_changed(self, event: Select.Changed) -> None:
        if event.value == self._seat or not self._filled:
            return
        self._seat = _chosen(event.value)
        game = self._game()
        players = _chosen(self.query_one("#players", Select).value)
        await self._fill_opponents(game, players, self._seat, self._current(partial=True))

    # -- the result ------------------------------------------------------------------------------

    def _current(self, partial: bool = False) -> GameSetup:
        if not self._filled:  # a key typed ahead of the fields: the setup as given
            return self.setup
        game = self._game()
        players = _chosen(self.query_one("#players", Select).value)
        seat = _chosen(self.query_one("#seat", Select).value)
        bots = []
        for i in range(players):
            if i == seat:
                bots.append("")
                continue
            found = self.query(f"#bot-{i}")
            bots.append(str(found.first(Select).value) if found else default_bot(game))
        options = read_options(self, game)
        name = self.query_one("#name", Input).value.strip()
        return GameSetup(
            game=game, players=players, seat=seat, bots=tuple(bots), options=tuple(options),
            name=name, seed=self.setup.seed, pace=self.setup.pace,
            remarks=self.query_one("#remarks", Tick).value,
        )

    @on(Button.Pressed, "#host")
    def action_host(self) -> None:
        self.dismiss(ToNetwork("host", self._current()))

    @on(Button.Pressed, "#join")
    def action_join(self) -> None:
        self.dismiss(ToNetwork("join", self._current()))

    @on(Button.Pressed, "#guide")
    def action_guide(self) -> None:
        """A guided first game of the game chosen."""
        self.dismiss(ToGuide(self._game()))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "continue":
            return bool(self.unfinished)
        if action == "replay":
            return bool(self.finished)
        return True

    @on(Button.Pressed, "#continue")
    def action_continue(self) -> None:
        def picked(saved: SavedGame | None) -> None:
            if saved is not None:
                self.dismiss(saved)

        self.app.push_screen(SavedPicker(self.unfinished, "Continue which game?", deletable=True,
                                         on_delete=self._deleted), picked)

    def _deleted(self, saved: Any) -> None:
        """An unfinished game deleted in the list: Continue goes with the last of them."""
        self.unfinished = [g for g in self.unfinished if g is not saved]
        if not self.unfinished:
            for button in self.query("#continue").results(Button):
                button.remove()
            self.refresh_bindings()

    @on(Button.Pressed, "#replay")
    def action_replay(self) -> None:
        from tui.replay import ReplayError, open_replay, replay_screen  # see _after_first_frame

        def picked(saved: Any) -> None:
            if saved is None:
                return
            try:
                replay = open_replay(saved.path)
            except ReplayError as e:
                self.notify(str(e), title="Cannot replay this game", severity="error")
                return
            self.app.push_screen(replay_screen(replay))

        self.app.push_screen(SavedPicker(self.finished, "Replay which game?"), picked)

    @on(Button.Pressed, "#play")
    @on(Input.Submitted, "#name")
    def action_play(self) -> None:
        self.dismiss(self._current())
