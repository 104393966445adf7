"""The whole log of the game so far, to scroll back through (the table shows only its tail)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static


class LogScreen(ModalScreen[None]):
    CSS_PATH = "help.tcss"
    BINDINGS = [Binding("escape,q,l,w", "close", "Close")]

    def __init__(self, lines: tuple[str, ...], title: str = "The whole log") -> None:
        super().__init__()
        self.lines = lines
        self.title_words = title

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="whole-log") as box:
            box.border_title = f"{self.title_words} (Escape closes; arrows and PgUp/PgDn scroll)"
            yield Static("\n".join(self.lines) or "Nothing has happened yet.", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        box = self.query_one("#whole-log", VerticalScroll)
        box.focus()
        self.call_after_refresh(box.scroll_end, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
