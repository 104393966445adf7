"""Small dialogs that return a typed result: ``Confirm`` answers yes or no; ``ResumeOrNew``
asks a host with an unfinished game of its own whether to resume it or host a new one."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static


class Confirm(ModalScreen[bool]):
    """A question with Yes (y) and No (n, Escape)."""

    CSS_PATH = "modals.tcss"
    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.question, id="question")
            with Horizontal(id="buttons"):
                yield Button("Yes (y)", id="yes", variant="error")
                yield Button("No (n)", id="no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.action_answer(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class ResumeOrNew(ModalScreen[str | None]):
    """An unfinished game of this host: Resume it (r), Host a new game (n), or Back (Escape):
    ``"resume"``, ``"new"`` or ``None``. ``served``: another program serves it, so it cannot be
    resumed here. ``damaged``: its record is damaged, so it also offers to take the game from a
    player's record (the file a join saved when its host was gone): ``"from:<path>"``."""

    CSS_PATH = "modals.tcss"
    BINDINGS = [
        Binding("r", "answer('resume')", "Resume it"),
        Binding("n", "answer('new')", "Host a new game"),
        Binding("escape", "answer(None)", "Back"),
    ]

    def __init__(self, text: str, served: bool = False, damaged: bool = False) -> None:
        super().__init__()
        self.text = text
        self.served = served
        self.damaged = damaged and not served

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.text, id="question")
            if self.damaged:
                yield Input(placeholder="a player's record of it (the file its join saved)",
                            id="record-file")
            with Horizontal(id="buttons"):
                if not self.served:
                    yield Button("Resume it (r)", id="resume", variant="primary")
                if self.damaged:
                    yield Button("From that record", id="from", variant="primary")
                yield Button("Host a new game (n)", id="new", variant="warning")
                yield Button("Back (Esc)", id="back")

    def on_mount(self) -> None:
        self.query_one("#new" if self.served else "#resume", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "from":
            path = self.query_one("#record-file", Input).value.strip()
            if path:
                self.dismiss(f"from:{path}")
            else:
                self.query_one("#record-file", Input).focus()
            return
        self.action_answer(None if event.button.id == "back" else event.button.id)

    def action_answer(self, choice: str | None) -> None:
        if choice == "resume" and self.served:
            return
        self.dismiss(choice)
