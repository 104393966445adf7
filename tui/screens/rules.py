"""The rules of the game being played: a summary shipped with the program
(``tui/rules/<game>.md``), followed, when the project's documents are at hand, by the rules as
implemented in full (``docs/rules/<game>.md``)."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Footer, MarkdownViewer

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
DOCS_DIR = Path(__file__).resolve().parent.parent.parent / "docs" / "rules"


def rules_markdown(game: str) -> str:
    try:
        text = (RULES_DIR / f"{game}.md").read_text(encoding="utf-8")
    except OSError:
        text = f"# {game}\n\nNo rules summary is installed for this game."
    try:
        full = (DOCS_DIR / f"{game}.md").read_text(encoding="utf-8")
    except OSError:
        return text
    return text + "\n\n---\n\n" + full


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
