"""Choosing a saved game: the start screen's Continue and Replay, ``palazzo resume``.

``SavedPicker(games, title)`` lists the games (anything with ``describe()``: a local
``SavedGame`` or a networked ``RecordFile``; newest first, one line each) and returns the one
chosen with Enter or a click, or ``None`` on Escape. With ``deletable`` (the unfinished games),
``d`` deletes the highlighted game's file after a yes (``on_delete`` hears of it); the list
closes when the last one is gone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option


class SavedPicker(ModalScreen[Any]):
    CSS_PATH = "modals.tcss"
    BINDINGS = [Binding("escape", "cancel", "Back"), Binding("enter", "open", "Open", show=True),
                Binding("d,delete", "delete", "Delete", key_display="d")]

    def __init__(self, games: Sequence[Any], title: str, deletable: bool = False,
                 on_delete: Callable[[Any], None] | None = None) -> None:
        super().__init__()
        self.games = list(games)
        self.title_text = title
        self.deletable = deletable
        self.on_delete = on_delete

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "delete":
            return self.deletable
        return True

    def action_delete(self) -> None:
        """Delete the highlighted game's file, after a yes."""
        from tui.screens.modals import Confirm

        options = self.query_one("#saved", OptionList)
        index = options.highlighted
        if not self.deletable or index is None:
            return
        game = self.games[index]

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                game.path.unlink()
            except FileNotFoundError:
                pass
            except OSError as e:
                self.notify(f"{game.path}: {e.strerror or e}", title="Not deleted", severity="error")
                return
            del self.games[index]
            options.remove_option_at_index(index)
            if self.on_delete is not None:
                self.on_delete(game)
            if not self.games:
                self.dismiss(None)

        self.app.push_screen(Confirm(f"Delete this unfinished game? It cannot be continued "
                                     f"afterwards.\n\n{game.describe()}"), answered)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, id="question")
            yield OptionList(*[Option(g.describe()) for g in self.games], id="saved")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#saved", OptionList).focus()

    @on(OptionList.OptionSelected, "#saved")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.games[event.option_index])

    def action_open(self) -> None:
        index = self.query_one("#saved", OptionList).highlighted
        if index is not None:
            self.dismiss(self.games[index])

    def action_cancel(self) -> None:
        self.dismiss(None)
