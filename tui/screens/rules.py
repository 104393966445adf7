"""The rules of the game being played, from a summary shipped with the program
(``tui/rules/<game>.md``)."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Footer, MarkdownViewer

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"


def rules_markdown(game: str) -> str:
    path = RULES_DIR / f"{game}.md"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return f"# {game}\n\nNo rules summary is installed for this game."


class RulesScreen(ModalScreen[None]):
    CSS_PATH = "help.tcss"
    BINDINGS = [Binding("escape,q,r,f2", "close", "Close")]

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        viewer = MarkdownViewer(rules_markdown(self.game), show_table_of_contents=False, id="rules")
        viewer.border_title = "Rules (Escape closes; arrows and PgUp/PgDn scroll)"
        yield viewer
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(MarkdownViewer).focus()

    def action_close(self) -> None:
        self.dismiss(None)
