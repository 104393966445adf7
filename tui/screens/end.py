"""The end of a game: how it ended, every seat's score, the winners, and what next.

A networked game adds one line, its audit: "verified" (every signature, proof and move of the
signed transcript checked as it arrived), or "verified as far as it went" after a forfeit. A
cheat never reaches this screen: it is refused when it is made. A local game has no audit line.

Returns ``"again"`` (same table, fresh shuffle), ``"new"`` (the start screen), ``"quit"``, or
``None`` to look at the final table again; only the choices the app offers, each labelled for
what it does in that app. A networked game's "Play again" (``rematch``) does not close the
screen: it asks the other players (``net.session.features.rematch``), and the screen shows their answers
(``show_rematch``: "Play again: 2 of 3 agreed; waiting for Jo") until the app opens the new game.
"""

from __future__ import annotations

from typing import Protocol

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from engine.words import noun, plural
from tui.client import TableView

ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth")


class Rematch(Protocol):
    """A networked game's rematch, as the end screen asks for it (``tui.netgame.NetGame``)."""

    def again(self) -> None:
        """Ask the others to play again."""

    def rematch_status(self) -> tuple[str, bool] | tuple[str, bool, bool] | None:
        """The answers so far in one line, whether "Play again" may still be pressed, and
        (optionally) whether there will be no rematch at all (``None``: nothing heard yet)."""


def result_text(view: TableView, how: str = "", length: str = "", unit: str = "") -> Text:
    """Who won, how and when the game ended, every seat's score (``unit``: what it counts, a
    singular noun: "point"), and this seat's place. A game a forfeit cut short (``end``
    ``forfeit``, ``tui.netclient.forfeit_outcome``) says who forfeited and why, gives the scores
    as the game stood, and places the seats that forfeited after the others."""
    o = view.outcome
    assert o is not None
    forfeited = tuple(o.detail.get("forfeited", ())) if o.end == "forfeit" else ()
    if o.end == "forfeit":  # the game's own words for its end do not apply: it did not end
        how = o.detail.get("text", "") or "a player forfeited"
    how = how or o.detail.get("text", o.end)
    length = length or f"after {plural(o.turns, 'turn')}"
    t = Text()
    if o.winners:
        winners = " and ".join(view.names[w] for w in o.winners)
        verb = "wins" if len(o.winners) == 1 else "share the win"
        t.append(f"{winners} {verb}!\n", style="bold")
    t.append(f"The game ended {length}: {how}.\n")
    if forfeited:
        t.append("The scores as the game stood when it stopped:\n")
    t.append("\n")
    order = sorted(range(len(o.scores)), key=lambda i: (i in forfeited, -o.scores[i], i))
    width = max(len(n) for n in view.names)
    for i in order:
        mark = "*" if i in o.winners else " "
        word = noun(o.scores[i], unit) if unit else ""
        t.append(f" {mark} {view.names[i]:<{width}}  {o.scores[i]:>4} {word}",
                 style="bold" if mark == "*" else "")
        if i in o.winners:
            t.append("  winner")
        elif i in forfeited:
            t.append("  forfeited")
        t.append("\n")
    if not 0 <= view.seat < len(o.scores):  # a watcher's end: nobody here played
        return t
    me = view.seat
    place = 1 + sum(1 for i in range(len(o.scores))
                    if (i in forfeited, -o.scores[i]) < (me in forfeited, -o.scores[me]))
    if me in o.winners:
        t.append("\nYou win.", style="bold")
    elif me in forfeited:
        t.append(f"\nYou forfeited: you finish {ORDINAL[place - 1]} of {len(o.scores)}.")
    else:
        t.append(f"\nYou finish {ORDINAL[place - 1]} of {len(o.scores)}.")
    return t


def audit_line(audit: str) -> Text | None:
    """A networked game's audit as one line (``None`` for a local game, which has none)."""
    if not audit:
        return None
    audit, _, record = audit.partition("; record: ")  # agreed by all N seats, or one side's
    if audit == "verified":
        line = Text("Audit: verified: every signature, proof and move checks out",
                    style="bold green")
    elif audit.startswith("verified"):
        line = Text(f"Audit: {audit}; every signature, proof and move up to there checks out",
                    style="bold green")
    else:
        return Text(f"Audit: {audit}", style="bold yellow on red")
    if record:
        line.append(f"\nRecord: {record}", style="bold green" if record.startswith("agreed")
                    else "bold yellow")
    return line


#: the end screen's ways out of a local game, by choice: its label (the key is its first letter)
LOCAL_CHOICES = {"again": "Play again", "new": "New game", "quit": "Quit palazzo"}
KEYS = {"again": "a", "new": "n", "quit": "q"}


class EndScreen(ModalScreen[str | None]):
    """``choices`` names the ways out that lead somewhere from this app, each for what it does
    there (``PalazzoApp.end_choices``); "Table" (look at the final table) is always offered."""

    CSS_PATH = "end.tcss"
    BINDINGS = [
        Binding("a", "finish('again')", "Play again"),
        Binding("n", "finish('new')", "New game"),
        Binding("escape,t", "finish(None)", "See the table"),
        Binding("q", "finish('quit')", "Quit palazzo"),
    ]

    def __init__(
        self, view: TableView, words: tuple[str, str, str] = ("", "", ""),
        choices: dict[str, str] | None = None,
        rematch: Rematch | None = None, record: str = "",
    ) -> None:
        super().__init__()
        self.view = view
        #: the player's record at this game, player count and level (a local game's)
        self.record = record
        self.words = words
        self.choices = dict(LOCAL_CHOICES if choices is None else choices)
        self.rematch = rematch
        if rematch is None and view.audit:  # a networked game that offers no rematch here
            self.choices.pop("again", None)
        self.rematch_line = "Play again with the same players and settings? Press a."

    def compose(self) -> ComposeResult:
        with Vertical(id="end"):
            yield Static("Game over", id="end-title")
            yield Static(result_text(self.view, *self.words), id="result")
            record = Static(self.record, id="record")
            record.display = bool(self.record)
            yield record
            audit = audit_line(self.view.audit)
            if audit is not None:
                ok = self.view.audit.startswith("verified")
                yield Static(audit, id="audit", classes="verified" if ok else "cheat")
            if self.rematch is not None and "again" in self.choices:
                yield Static(self.rematch_line, id="rematch")
            with Horizontal(id="end-buttons"):
                for choice, label in self.choices.items():
                    if choice == "quit":
                        continue
                    yield Button(f"{label} ({KEYS[choice]})", id=choice,
                                 variant="primary" if choice == "again" else "default")
                yield Button("Table (t)", id="table")
                if "quit" in self.choices:
                    yield Button(f"{self.choices['quit']} (q)", id="quit", variant="error")

    def on_mount(self) -> None:
        # none when the screen was taken away as it came (a watcher's table gone to a rematch)
        for button in self.query(Button).results(Button):
            button.focus()
            break
        status = self.rematch.rematch_status() if self.rematch is not None else None
        if status is not None:
            self.show_rematch(*status)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        choice = event.button.id
        self.action_finish(None if choice == "table" else choice)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "finish" and parameters and parameters[0] is not None:
            return parameters[0] in self.choices
        return True

    def action_finish(self, choice: str | None) -> None:
        if choice is not None and choice not in self.choices:
            return
        if choice == "again" and self.rematch is not None:
            button = self.query_one("#again", Button)
            if not button.disabled:  # asked once
                button.disabled = True
                self.rematch.again()
            return
        self.dismiss(choice)

    def show_record(self, line: str) -> None:
        """Where the game's signed record was saved (it came after the screen opened)."""
        self.record = line
        for shown in self.query("#record").results(Static):
            shown.update(line)
            shown.display = bool(line)

    def show_rematch(self, line: str, open_: bool = True, off: bool = False) -> None:
        """The rematch's answers so far (``open_``: "Play again" may still be pressed; ``off``:
        there will be none, and "Play again" is no longer offered at all)."""
        self.rematch_line = line
        for shown in self.query("#rematch").results(Static):
            shown.update(line)
        if not open_ or off:
            for button in self.query("#again").results(Button):
                button.disabled = True
        if off and "again" in self.choices:
            del self.choices["again"]  # no key nor button offers what cannot be
            for button in self.query("#again").results(Button):
                if button.has_focus:
                    self.focus_next()
                button.display = False
            self.refresh_bindings()
