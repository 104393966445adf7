"""Small dialogs that return a typed result: ``Confirm`` answers yes or no; ``ResumeOrNew``
asks a host with an unfinished game of its own whether to resume it or host a new one."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


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
    resumed here."""

    CSS_PATH = "modals.tcss"
    BINDINGS = [
        Binding("r", "answer('resume')", "Resume it"),
        Binding("n", "answer('new')", "Host a new game"),
        Binding("escape", "answer(None)", "Back"),
    ]

    def __init__(self, text: str, served: bool = False) -> None:
        super().__init__()
        self.text = text
        self.served = served

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.text, id="question")
            with Horizontal(id="buttons"):
                if not self.served:
                    yield Button("Resume it (r)", id="resume", variant="primary")
                yield Button("Host a new game (n)", id="new", variant="warning")
                yield Button("Back (Esc)", id="back")

    def on_mount(self) -> None:
        self.query_one("#new" if self.served else "#resume", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.action_answer(None if event.button.id == "back" else event.button.id)

    def action_answer(self, choice: str | None) -> None:
        if choice == "resume" and self.served:
            return
        self.dismiss(choice)
