"""The end of a game: how it ended, every seat's score, the winners, and what next.

A networked game adds one line, its audit: "verified" (every signature, proof and move of the
signed transcript checked as it arrived), or "verified as far as it went" after a forfeit. A
cheat never reaches this screen: it is refused when it is made. A local game has no audit line.

Returns ``"again"`` (same table, fresh shuffle), ``"new"`` (the start screen), ``"quit"``, or
``None`` to look at the final table again.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui.client import TableView

ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth")


def result_text(view: TableView, how: str = "", length: str = "", unit: str = "") -> Text:
    """Who won, how and when the game ended, every seat's score (``unit``: what it counts)."""
    o = view.outcome
    assert o is not None
    how = how or o.detail.get("text", o.end)
    length = length or f"after {o.turns} turns"
    t = Text()
    winners = " and ".join(view.names[w] for w in o.winners)
    verb = "wins" if len(o.winners) == 1 else "share the win"
    t.append(f"{winners} {verb}!\n", style="bold")
    t.append(f"The game ended {length}: {how}.\n\n")
    order = sorted(range(len(o.scores)), key=lambda i: (-o.scores[i], i))
    width = max(len(n) for n in view.names)
    for i in order:
        mark = "*" if i in o.winners else " "
        word = unit[:-1] if unit.endswith("s") and o.scores[i] == 1 else unit
        t.append(f" {mark} {view.names[i]:<{width}}  {o.scores[i]:>4} {word}",
                 style="bold" if mark == "*" else "")
        if i in o.winners:
            t.append("  winner")
        t.append("\n")
    place = 1 + sum(1 for x in o.scores if x > o.scores[view.seat])
    if view.seat in o.winners:
        t.append("\nYou win.", style="bold")
    else:
        t.append(f"\nYou finish {ORDINAL[place - 1]} of {len(o.scores)}.")
    return t


def audit_line(audit: str) -> Text | None:
    """A networked game's audit as one line (``None`` for a local game, which has none)."""
    if not audit:
        return None
    if audit == "verified":
        return Text("Audit: verified: every signature, proof and move checks out",
                    style="bold green")
    if audit.startswith("verified"):
        return Text(f"Audit: {audit}; every signature, proof and move up to there checks out",
                    style="bold green")
    return Text(f"Audit: {audit}", style="bold yellow on red")


class EndScreen(ModalScreen[str | None]):
    CSS_PATH = "end.tcss"
    BINDINGS = [
        Binding("a,enter", "finish('again')", "Play again"),
        Binding("n", "finish('new')", "New game"),
        Binding("escape,t", "finish(None)", "See the table"),
        Binding("q", "finish('quit')", "Quit"),
    ]

    def __init__(self, view: TableView, words: tuple[str, str, str] = ("", "", "")) -> None:
        super().__init__()
        self.view = view
        self.words = words

    def compose(self) -> ComposeResult:
        with Vertical(id="end"):
            yield Static("Game over", id="end-title")
            yield Static(result_text(self.view, *self.words), id="result")
            audit = audit_line(self.view.audit)
            if audit is not None:
                ok = self.view.audit.startswith("verified")
                yield Static(audit, id="audit", classes="verified" if ok else "cheat")
            with Horizontal(id="end-buttons"):
                yield Button("Play again (a)", id="again", variant="primary")
                yield Button("New game (n)", id="new")
                yield Button("Table (t)", id="table")
                yield Button("Quit (q)", id="quit", variant="error")

    def on_mount(self) -> None:
        self.query_one("#again", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        choice = event.button.id
        self.action_finish(None if choice == "table" else choice)

    def action_finish(self, choice: str | None) -> None:
        self.dismiss(choice)
