"""The palazzo Textual application: the start screen, a game's table, the end, help and rules.

``PalazzoApp(setup, play=False)`` opens on the start screen (with ``setup`` as its defaults);
with ``play=True`` it goes straight to a table for ``setup``. The screens flow:

    start --GameSetup--> table --(game over)--> end --again--> a new table
                                                    --new----> start
                                                    --quit---> exit
    start --F3/F4--> host or join form --> lobby --> table --> end --> start
                                 ^--(cannot connect, wrong code, q in the lobby)--'

Every screen returns what it asks for with ``dismiss`` (the start screen a ``StartChoice``, a
table the end screen's choice, a form its values when it is left), and the app alone decides
what follows: ``after_game`` after a table, ``network_over`` after a networked one. A form's
"go" is handed to the app (``start``), which starts the networked game (``tui.netgame``, held in
``net``) and, if it cannot, writes the reason on the form. ``tui.netapp.NetApp`` is the same app
opened on one networked game (``PalazzoApp(net=...)``), whose every way out closes it.

Every local game is saved after each move (``tui.saves``). The start screen's Continue (or
``palazzo resume``) opens a saved game where it stopped; its Replay (or ``palazzo replay``) steps
through a finished one (``tui.replay``). ``PalazzoApp(resume=saved)`` opens a saved game at once,
``resume="pick"`` the list of saved games first; ``PalazzoApp(replay=r)`` only shows the replay
``r`` and exits when it is closed.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from tui import palette, settings
from tui.saves import SavedGame, SaveError, attach, resume, saved_games
from tui.screens.help import HelpScreen
from tui.screens.rules import RulesScreen
from tui.screens.saved import SavedPicker
from tui.screens.start import StartChoice, StartScreen, ToGuide, ToNetwork
from tui.setup import GameSetup, adapter, table_for

if TYPE_CHECKING:  # the network and replay code loads when first used, not at start-up
    from net.session.commands.hosting import HostSettings
    from tui.netgame import NetGame
    from tui.replay import Replay
    from tui.screens.network import Form, JoinRequest


class PalazzoApp(App[None]):
    TITLE = "palazzo"
    CSS_PATH = "app.tcss"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]
    #: Ctrl+P: Textual's command palette (themes, keys, screenshots), from any screen
    ENABLE_COMMAND_PALETTE = True
    #: ring the terminal's bell when it becomes the seat's turn (``settings``: off at first)
    bell_on_turn: bool = False

    def __init__(self, setup: GameSetup | None = None, play: bool = False,
                 resume: SavedGame | Literal["pick"] | None = None,
                 replay: Replay | None = None, net: NetGame | None = None,
                 guide: bool = False) -> None:
        super().__init__()
        #: a guided first game (``tui.guide``): each kind of move explained as it comes
        self.guide: Any = None
        if guide:
            from tui.guide import Guide
            self.guide = Guide(self.setup_game(setup))
        self.setup = setup or GameSetup()
        self.play_now = play
        self.resume_now = resume
        self.replay = replay
        #: the networked game under way (given: the one this app opens on, ``NetApp``)
        self.net: NetGame | None = net
        self._quitting = False  # Ctrl+Q waits for a network to end by itself (once)
        #: shows the network's log lines as notes while a networked game runs
        self.note_handler: logging.Handler | None = None
        #: the host form's values when it was last left: it opens with them again
        self.host_form: dict[str, Any] | None = None

    @property
    def available_themes(self) -> dict[str, Any]:
        """Only the themes the players' colours can be read on (``tui.palette``)."""
        return palette.offered_themes(super().available_themes)

    def get_theme(self, theme_name: str) -> Any:
        """The first of the comma-separated ``theme_name`` that is offered; only the themes
        named are judged (judging every theme, as ``available_themes`` does, takes a good part
        of the first frame's time)."""
        themes = super().available_themes
        for name in (n.strip() for n in theme_name.split(",")):
            theme = themes.get(name)
            if theme is not None and palette.offered(theme):
                return theme
        return None

    def watch_theme(self, theme: str) -> None:
        """A theme chosen (in the command palette) is kept for the next time."""
        if self._is_mounted and theme != settings.get("theme"):
            settings.save(theme=theme)

    def get_system_commands(self, screen: Screen[Any]) -> Any:
        """The command palette (Ctrl+P): Textual's commands, and the bell on the seat's turn."""
        from textual.app import SystemCommand

        yield from super().get_system_commands(screen)
        state = "on" if self.bell_on_turn else "off"
        yield SystemCommand(f"Bell on your turn: turn {'off' if self.bell_on_turn else 'on'}",
                            f"Ring the terminal's bell when it is your turn (now {state})",
                            self.toggle_bell)

    def toggle_bell(self) -> None:
        self.bell_on_turn = not self.bell_on_turn
        settings.save(bell=self.bell_on_turn)
        self.notify(f"The bell on your turn is {'on' if self.bell_on_turn else 'off'}.",
                    title="Settings", timeout=5)

    def on_mount(self) -> None:
        palette.use(self.console.color_system)
        self.bell_on_turn = bool(settings.get("bell"))
        if self.guide is not None:
            self.set_interval(0.3, self._guide_tick)
        theme = settings.get("theme")
        if theme != self.theme and theme in self.available_themes:
            self.theme = theme
        if self.replay is not None:
            from tui.replay import replay_screen  # with the network code: only for a replay
            self.push_screen(replay_screen(self.replay), self._replay_closed)
        elif self.resume_now == "pick":
            self.push_screen(SavedPicker(saved_games(), "Continue which game?", deletable=True),
                             self._picked)
        elif self.resume_now is not None:
            self.resume_game(self.resume_now)
        elif self.net is not None:
            self.start_network(self.net)
        elif self.play_now:
            self.start_game(self.setup)
        else:
            self.show_start(self.setup)

    @staticmethod
    def setup_game(setup: GameSetup | None) -> str:
        return (setup or GameSetup()).game

    def _guide_tick(self) -> None:
        """A guided game: when the seat is asked something, the welcome the first time, then
        the kinds of move it may make for the first time, in a note it closes to answer."""
        from tui.guide import GuideNote
        from tui.table import TableScreen

        if self.guide is None or not self.screen_stack:  # a tick while the app closes
            return
        screen = self.screen
        if not isinstance(screen, TableScreen) or screen.view is None:
            return
        if screen.client.game != self.guide.game or screen._question is None:
            return
        notes = self.guide.notes(screen.view.legal, screen.view.my_turn)
        if notes:
            self.push_screen(GuideNote(notes))

    def start_guide(self, game: str) -> None:
        """The start screen's Guide: a guided first game of ``game``."""
        from tui.guide import Guide, guide_setup

        self.guide = Guide(game)
        self.set_interval(0.3, self._guide_tick)
        self.start_game(guide_setup(game))

    def _replay_closed(self, _: object) -> None:
        self.exit()

    def _picked(self, saved: SavedGame | None) -> None:
        if saved is None:
            self.exit()
        else:
            self.resume_game(saved)

    # -- the start screen and local games ---------------------------------------------------------

    def show_start(self, setup: GameSetup) -> None:
        self.push_screen(StartScreen(setup), self._chosen)

    def _chosen(self, choice: StartChoice | None) -> None:
        if isinstance(choice, SavedGame):
            self.resume_game(choice)
        elif isinstance(choice, ToNetwork):
            self.setup = choice.setup
            self.show_form(choice.form)
        elif isinstance(choice, ToGuide):
            self.start_guide(choice.game)
        elif choice is not None:
            self.start_game(choice)

    def start_game(self, setup: GameSetup) -> None:
        self.setup = setup
        try:
            table = table_for(setup)
        except ValueError as e:
            self.notify(str(e), title="Cannot start this game", severity="error")
            self.show_start(setup)
            return
        saver = attach(setup, table.client)
        if saver.error:
            self.notify(saver.error, title="Not saved", severity="warning")
        self.show_table(table, setup)
        rules = table.client.rules
        config = rules.make_config(setup.players, dict(setup.options))
        for note in rules.config_warnings(config):
            self.notify(note, title="Note", timeout=8)

    def resume_game(self, saved: SavedGame) -> None:
        """Open the saved game ``saved`` where it stopped (back to the start screen, saying
        why, if it does not play back)."""
        try:
            client = resume(saved)
        except SaveError as e:
            self.notify(str(e), title="Cannot continue this game", severity="error")
            self.show_start(self.setup)
            return
        self.setup = saved.setup
        self.show_table(adapter(saved.setup.game).TABLE(client, saved.setup), saved.setup)

    def show_table(self, table: Any, setup: GameSetup) -> None:
        """Show a game's table (a ``tui.table.TableScreen``), its ways out named for what they
        do here; what its end screen or leaving asks for goes to ``after_game``."""
        table.end_choices = self.end_choices()
        table.end_rematch = self.net if self.net is not None and not self.net.relay else None
        table.leave_question = self.leave_question()
        self.push_screen(table, partial(self.after_game, setup))

    def end_choices(self) -> dict[str, str]:
        """The end screen's ways out (``after_game``'s choices), each named for what it does
        here: a networked game's "Play again" asks the others for a rematch."""
        if self.net is not None:
            return {"again": "Play again", "new": "Start screen", "quit": "Quit palazzo"}
        return {"again": "Play again", "new": "New game", "quit": "Quit palazzo"}

    def leave_question(self) -> str:
        """What leaving a table under way does here, asked before it is done."""
        if self.net is not None:
            return "Leave this networked game and go back to the start screen?"
        return ("Leave this game and go back to the start screen? It is saved: Continue on the "
                "start screen takes it up again.")

    def after_game(self, setup: GameSetup, choice: str | None) -> None:
        """What the table asked for when it closed (its end screen's choice, or leaving)."""
        if choice is None:
            return
        if choice == "quit":
            self.exit()
        elif self.net is not None:
            self.network_over()
        elif choice == "again":
            self.start_game(setup.again())
        else:
            self.guide = None  # a guided game is over: the next one is not
            self.show_start(setup)

    # -- a networked game from the host or join form ----------------------------------------------

    def show_form(self, form: Literal["host", "join"]) -> None:
        from tui.screens.network import HostScreen, JoinScreen
        if form == "host":
            self.push_screen(HostScreen(self.setup.game, self.setup.name, self.host_form,
                                        start=self._host), self._host_form_left)
        else:
            self.push_screen(JoinScreen(self.setup.name, start=self._join), self._form_left)

    def _host_form_left(self, values: dict[str, Any] | None) -> None:
        if values is not None:
            self.host_form = values
        self.show_start(self.setup)

    def _form_left(self, _: object) -> None:
        self.show_start(self.setup)

    def _host(self, form: Form, settings: HostSettings) -> None:
        """Host ``settings``; an unfinished game of this host that they would resume is asked
        about first (resume it, or host a new one), never entered silently."""
        from net.session.commands import hosting
        from tui.screens.modals import ResumeOrNew
        from tui.screens.network import HostScreen
        if isinstance(form, HostScreen):
            self.host_form = form.values()
        if settings.resume is None and not settings.new:
            try:
                record = hosting.pending(settings)
            except ValueError as e:
                form.show_error(str(e))
                return
            if record is not None:
                def chosen(choice: str | None) -> None:
                    if choice == "resume":
                        self._host_now(form, replace(settings, resume=record.folder.name))
                    elif choice == "new":
                        self._host_now(form, replace(settings, new=True))
                    elif choice is not None and choice.startswith("from:"):
                        self._host_now(form, replace(settings, resume_from=choice[5:]))

                self.push_screen(ResumeOrNew(hosting.pending_text(record), record.served(),
                                             damaged=bool(record.damage) and (
                                                 not record.lobby or record.lost_game is not None)),
                                 chosen)
                return
        self._host_now(form, settings)

    def _host_now(self, form: Form, settings: HostSettings) -> None:
        from tui import netgame
        try:
            net = netgame.host_net(settings)
        except ValueError as e:
            form.show_error(str(e))
            return
        self.start_network(net, form)

    def _join(self, form: Form, request: JoinRequest) -> None:
        from net.wire.identity import Identity
        from tui import netgame

        try:
            net = netgame.join_net(request.host, request.port, request.code, request.name,
                                   Identity.load_or_create(spec=request.identity),
                                   host_fingerprint=request.fingerprint)
        except ValueError as e:
            form.show_error(str(e))
            return
        self.start_network(net, form)

    def start_network(self, net: NetGame, form: Form | None = None) -> None:
        """Open the lobby of ``net``; if the game fails before its table opens, come back to
        ``form`` with the reason."""
        from tui.netgame import add_note_handler
        self.net = net
        if form is not None:
            net.on_failed = partial(self._network_failed, form)
        net.on_table = self.show_table
        if self.note_handler is None:  # the network's log lines become notes on the screen
            self.note_handler = add_note_handler(self)
        lobby: Screen[None] = net.start(self)
        self.push_screen(lobby, self._lobby_left)

    def _lobby_left(self, _: object) -> None:
        self.leave_lobby()

    def _network_failed(self, form: Form, reason: str) -> None:
        self.leave_network()
        form.show_error(reason)

    def leave_lobby(self) -> None:
        """``q`` in the lobby: back to the form that started the game."""
        self.leave_network()

    def leave_network(self) -> None:
        """Stop the networked game and go back to the screen that started it. A joiner tells
        its host it leaves first (``NetGame.leave_game``: the others see "left" at once, not
        after the grace period); a host tells every peer "the host closed the game"
        (``NetGame.close``), its network then ending by itself, once the goodbyes are out."""
        from tui.netgame import remove_note_handler
        net, self.net = self.net, None
        if net is not None:
            net.leave_game()
            net.close()
        if net is None or not net.ends_by_itself:
            self.workers.cancel_group(self, "network")
        if net is not None:
            net.save_again(lambda line: self.notify(line, timeout=15))
        remove_note_handler(self.note_handler)
        self.note_handler = None
        if net is not None and net.lobby in self.screen_stack:
            while self.screen is not net.lobby:
                self.pop_screen()
            self.pop_screen()

    def network_over(self) -> None:
        """A networked game's table was left: its form closes too, for the start screen."""
        from tui.screens.network import Form
        self.leave_network()
        if isinstance(self.screen, Form):
            self.pop_screen()
        self.show_start(self.setup)

    async def action_quit(self) -> None:
        """Ctrl+Q: quit at once; a host of a networked game tells every peer first, a joiner
        tells its host it leaves."""
        net = self.net
        if net is not None and not self._quitting:
            net.leave_game()
            net.close()
            if net.ends_by_itself:  # the screen stays alive meanwhile; Ctrl+Q again quits at once
                self._quitting = True
                if net.telling:
                    self.notify("telling the host you leave (its connection is down) ... "
                                "Ctrl+Q again quits at once", timeout=20)
                self.run_worker(self._quit_when_closed(net), group="closing")
                return
        self.exit()

    async def _quit_when_closed(self, net: NetGame) -> None:
        await net.wait_closed()
        self.exit()

    # -- help and rules, from any screen ---------------------------------------------------------

    def action_help(self) -> None:
        screen = self.screen
        title = getattr(screen, "HELP_TITLE", "On this screen")
        keys = getattr(screen, "HELP_KEYS", ())
        hides = getattr(screen, "help_hides", lambda binding: False)
        bindings = [b for b in getattr(type(screen), "BINDINGS", []) if not hides(b)]
        sections = [(title, bindings, keys)]
        sections.append(("Everywhere", [
            Binding("ctrl+q", "quit", "Quit palazzo at once"),
            Binding("ctrl+p", "command_palette",
                    "Commands: the theme, the bell on your turn, the keys"),
        ], ()))
        notes = getattr(screen, "HELP", "")
        self.push_screen(HelpScreen(sections, notes))

    def action_rules(self) -> None:
        game = getattr(self.screen, "game_name", None) or self.setup.game
        self.push_screen(RulesScreen(game))
