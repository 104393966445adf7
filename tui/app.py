"""The palazzo Textual application: the start screen, a game's table, the end, help and rules.

``PalazzoApp(setup, play=False)`` opens on the start screen (with ``setup`` as its defaults);
with ``play=True`` it goes straight to a table for ``setup``. The screens flow:

    start --GameSetup--> table --(game over)--> end --again--> a new table
                                                    --new----> start
                                                    --quit---> exit
    start --F3/F4--> host or join form --> lobby --> table --> end --> start
                                 ^--(cannot connect, wrong code)--'

A networked game started from a form is a ``tui.netapp.NetGame`` held in ``net``.

Every local game is saved after each move (``tui.saves``). The start screen's Continue (or
``palazzo resume``) opens a saved game where it stopped; its Replay (or ``palazzo replay``) steps
through a finished one (``tui.replay``). ``PalazzoApp(resume=saved)`` opens a saved game at once,
``resume="pick"`` the list of saved games first; ``PalazzoApp(replay=r)`` only shows the replay
``r`` and exits when it is closed.
"""

from __future__ import annotations

import logging
from typing import Any

from textual.app import App
from textual.binding import Binding

from tui.setup import GameSetup, table_for


class PalazzoApp(App[None]):
    #: shows the network's log lines as notes while a networked game runs
    note_handler: logging.Handler | None = None
    TITLE = "palazzo"
    CSS_PATH = "app.tcss"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True)]
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, setup: GameSetup | None = None, play: bool = False,
                 resume: Any = None, replay: Any = None) -> None:
        super().__init__()
        self.setup = setup or GameSetup()
        self.play_now = play
        self.resume_now = resume  # a SavedGame, or "pick"
        self.replay = replay
        self.replay_only = replay is not None
        self.net: Any = None  # a networked game started from the host or join form

    def on_mount(self) -> None:
        if self.replay is not None:
            from tui.replay import replay_screen

            self.push_screen(replay_screen(self.replay))
        elif self.resume_now == "pick":
            from tui.saves import saved_games
            from tui.screens.saved import SavedPicker

            def picked(saved: Any) -> None:
                if saved is None:
                    self.exit()
                else:
                    self.resume_game(saved)

            self.push_screen(SavedPicker(saved_games(), "Continue which game?"), picked)
        elif self.resume_now is not None:
            self.resume_game(self.resume_now)
        elif self.play_now:
            self.start_game(self.setup)
        else:
            self.show_start(self.setup)

    def show_start(self, setup: GameSetup) -> None:
        from tui.screens.start import StartScreen

        self.push_screen(StartScreen(setup), self._chosen)

    def _chosen(self, setup: Any) -> None:
        from tui.saves import SavedGame

        if isinstance(setup, SavedGame):
            self.resume_game(setup)
        elif setup is not None:
            self.start_game(setup)

    def start_game(self, setup: GameSetup) -> None:
        from tui.saves import attach

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
        self.push_screen(table)
        rules = table.client.rules
        config = rules.make_config(setup.players, dict(setup.options))
        for note in rules.config_warnings(config):
            self.notify(note, title="Note", timeout=8)

    def resume_game(self, saved: Any) -> None:
        """Open the saved game ``saved`` where it stopped (back to the start screen, saying
        why, if it does not play back)."""
        from tui.saves import SaveError, resume
        from tui.setup import adapter

        try:
            client = resume(saved)
        except SaveError as e:
            self.notify(str(e), title="Cannot continue this game", severity="error")
            self.show_start(self.setup)
            return
        self.setup = saved.setup
        self.push_screen(adapter(saved.setup.game).TABLE(client, saved.setup))

    # -- a networked game from the host or join form ----------------------------------------------

    def start_network(self, net: Any, form: Any) -> None:
        """Open the lobby of ``net`` over ``form``; if the game fails before its table opens,
        come back to the form with the reason."""
        from tui.netapp import add_note_handler

        self.net = net
        net.on_failed = lambda reason: self._network_failed(form, reason)
        add_note_handler(self)
        net.start(self)

    def _network_failed(self, form: Any, reason: str) -> None:
        self.leave_network()
        form.show_error(reason)

    def leave_network(self) -> None:
        """Stop the networked game and go back to the screen that started it."""
        from net.session.play import save_transcript

        self.workers.cancel_group(self, "network")
        net, self.net = self.net, None
        if net is not None:
            save_transcript(net.session.table, lambda line: self.notify(line, timeout=15))
        handler = self.note_handler
        if handler is not None and not hasattr(self, "exit_status"):  # not a NetApp
            logging.getLogger("palazzo.net").removeHandler(handler)
            self.note_handler = None
        if net is not None and net.lobby in self.screen_stack:
            while self.screen is not net.lobby:
                self.pop_screen()
            self.pop_screen()

    def flush_network(self) -> None:
        if self.net is not None:
            self.net.flush()

    def end_choices(self) -> dict[str, str]:
        """The end screen's ways out (``after_game``'s choices), each named for what it does
        here: a networked game cannot be dealt again, only left for the start screen."""
        if self.net is not None:
            return {"new": "Start screen", "quit": "Quit palazzo"}
        return {"again": "Play again", "new": "New game", "quit": "Quit palazzo"}

    def leave_question(self) -> str:
        """What leaving a table under way does here, asked before it is done."""
        if self.net is not None:
            return "Leave this networked game and go back to the start screen?"
        return "Leave this game and go back to the start screen?"

    def after_game(self, setup: GameSetup, choice: str | None) -> None:
        """What the end screen (or leaving a table) asked for."""
        if choice is None:
            return
        if choice == "quit":
            self.exit()
            return
        if self.net is not None:  # a networked game: back to the start screen
            self.leave_network()
            self.pop_screen()  # the form
            return
        self.pop_screen()
        if choice == "again":
            self.start_game(setup.again())
        else:
            self.show_start(setup)

    # -- help and rules, from any screen ---------------------------------------------------------

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        screen = self.screen
        title = getattr(screen, "HELP_TITLE", "On this screen")
        keys = getattr(screen, "HELP_KEYS", ())
        sections = [(title, list(getattr(type(screen), "BINDINGS", [])), keys)]
        sections.append(("Everywhere", [Binding("ctrl+q", "quit", "Quit palazzo at once")], ()))
        notes = getattr(screen, "HELP", "")
        self.push_screen(HelpScreen(sections, notes))

    def action_rules(self) -> None:
        from tui.screens.rules import RulesScreen

        game = getattr(self.screen, "game_name", None) or self.setup.game
        self.push_screen(RulesScreen(game))
