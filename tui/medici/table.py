"""The Court of the Medici table: the court, the houses with their shadow alliances, your hand,
your move and the log, all drawn from one seat's view (see ``tui.table``)."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Static

from engine.medici.cards import HOUSES
from engine.medici.state import NO_LIMIT
from engine.words import plural
from tui.choices import Question
from tui.client import TableView
from tui.medici import choices, render, warning
from tui.table import TableScreen

PHASE_WORDS = {
    "hide": "set-up: hidden cards",
    "top": "set-up: crowning the alliances",
    "flip": "set-up: turning up",
    "first": "set-up: first player",
    "play": "play",
    "reveal": "a strike",
    "resolve": "a strike",
    "draw": "play",
    "over": "game over",
}


class MediciTable(TableScreen):
    CSS_PATH = "table.tcss"

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="board"):
            with Vertical(id="left"):
                with VerticalScroll(id="court-box") as court:
                    court.border_title = "Court: stack, total, cards; *: last move"
                    yield Static(id="court")
                hand = Static(id="hand")
                hand.border_title = "Your hand"
                yield hand
                with Vertical(id="move-box") as box:
                    box.border_title = "Your move"
                    yield from self.compose_moves()
            with Vertical(id="right"):
                with VerticalScroll(id="houses-box") as houses:
                    houses.border_title = "Houses"
                    yield Static(id="houses")
                    yield Static(id="legend")
                yield from self.compose_log()
        yield Footer()

    def draw(self, view: TableView) -> None:
        """Redraw the panels whose part of the view changed (each redraw costs a layout)."""
        s = view.state
        width = self.query_one("#houses-box").content_size.width or self.size.width // 2
        seat = view.seat
        marks = view.marks
        if self._changed("court", (s.middle, marks)):
            self.query_one("#court", Static).update(render.court_table(s, marks))
        houses = (s.alliances, s.pending, s.middle, tuple(map(len, s.hands)), s.pools, s.bottoms,
                  s.limits, view.actor, width, marks)
        if self._changed("houses", houses):
            self.query_one("#houses", Static).update(
                render.houses_text(s, seat, view.names, view.actor, width, marks)
            )
        if self._changed("legend", width < 46):
            other = (seat + 1) % s.players
            self.query_one("#legend", Static).update(render.houses_legend(width, other))
        if self._changed("hand", (s.hands[seat], s.limits[seat])):
            hand = self.query_one("#hand", Static)
            held = plural(len(s.hands[seat]), "card")
            hand.border_title = f"Your hand ({HOUSES[seat]}, {held})"
            hand.update(render.hand_text(s, seat))

    def status_text(self, view: TableView) -> str:
        s = view.state
        phase = PHASE_WORDS.get(s.phase, s.phase)
        if view.outcome is not None:
            who = " and ".join(view.names[w] for w in view.outcome.winners) + " won"
        elif view.my_turn:
            who = "Your turn"
        elif view.actor >= 0:
            who = f"{view.names[view.actor]} to play"
        else:
            who = "..."
        limit = s.limits[view.seat]
        extra = f" | your limit {limit}" if limit != NO_LIMIT else ""
        turn = s.turns + (0 if view.over else 1)
        return f"{who} | turn {turn}, {phase}{extra} | Court of the Medici, you are {HOUSES[view.seat]}"

    def warning_text(self, view: TableView) -> str:
        return warning.warning(view.state, view.seat, view.names)

    def end_words(self, view: TableView) -> tuple[str, str, str]:
        s = view.state
        how = ""
        if s.end == "alliances-gone":
            gone = [view.names[h] for h in range(s.players) if all(a is None for a in s.alliances[h])]
            how = f"{' and '.join(gone)} had no shadow alliance left"
        elif s.end == "all-struck":
            how = "no house had a shadow alliance left"
        elif s.end == "no-playable-card":
            how = f"{view.names[s.turn]} started a turn with no card it could play"
        return (how, "", "point")

    def question(self, view: TableView, actions: tuple[Any, ...], asked: tuple[str, ...]) -> Question | None:
        return choices.question(view, actions, asked)
