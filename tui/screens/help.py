"""Help: every key binding of the screen underneath and of the app, and how the mouse works."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

MOUSE = (
    "The mouse does everything the keys do: click an answer in the move panel to select it and "
    "again to choose it, click a button to press it, scroll a panel with the wheel."
)


def _key_names(binding: Binding) -> str:
    if binding.key_display and binding.key_display != binding.key:
        return binding.key_display
    return ", ".join(k.replace("question_mark", "?").replace("ctrl+", "Ctrl+") for k in binding.key.split(","))


def _same_keys(names: str) -> frozenset[str]:
    """``left/right`` and ``left, right`` as the same keys."""
    return frozenset(k.strip() for k in names.replace("/", ",").split(",") if k.strip())


def bindings_table(title: str, bindings: list[Binding], extra: tuple[tuple[str, str], ...] = ()) -> Table:
    """Every binding with a description, then ``extra`` rows (keys that widgets handle). A
    binding whose keys an ``extra`` row names is told once, by that row (the longer words)."""
    table = Table(title=title, title_justify="left", show_header=False, box=None, padding=(0, 2))
    table.add_column("keys", style="bold", no_wrap=True)
    table.add_column("does")
    told = {_same_keys(keys) for keys, _ in extra}
    for b in bindings:
        if not b.description or _same_keys(_key_names(b)) in told:
            continue
        table.add_row(_key_names(b), b.description)
    for keys, does in extra:
        table.add_row(keys, does)
    return table


class HelpScreen(ModalScreen[None]):
    CSS_PATH = "help.tcss"
    BINDINGS = [Binding("escape,q,question_mark,f1", "close", "Close")]

    def __init__(
        self,
        sections: list[tuple[str, list[Binding], tuple[tuple[str, str], ...]]],
        notes: str = "",
    ) -> None:
        super().__init__()
        self.sections = sections
        self.notes = notes

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help") as box:
            box.border_title = "Help: keys (Escape closes)"
            for title, bindings, extra in self.sections:
                yield Static(bindings_table(title, bindings, extra), classes="keys")
            if self.notes:
                yield Static(self.notes, classes="notes")
            yield Static(MOUSE, classes="notes")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
