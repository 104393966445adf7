"""Choosing a saved game: the start screen's Continue and Replay, ``palazzo resume``.

``SavedPicker(games, title)`` lists the games (anything with ``describe()``: a local
``SavedGame`` or a networked ``RecordFile``; newest first, one line each) and returns the one
chosen with Enter or a click, or ``None`` on Escape.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    BINDINGS = [Binding("escape", "cancel", "Back"), Binding("enter", "open", "Open", show=True)]

    def __init__(self, games: Sequence[Any], title: str) -> None:
        super().__init__()
        self.games = list(games)
        self.title_text = title

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
