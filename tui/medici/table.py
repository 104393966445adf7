"""The Court of the Medici table: the court, the houses with their shadow alliances, your hand,
your move and the log, all drawn from one seat's view (see ``tui.table``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from engine.medici import setup
from engine.medici.cards import HOUSES, LADY, MINISTER, RANKS, short_name
from engine.medici.state import NO_LIMIT
from engine.medici.text import stack_label
from engine.words import plural
from tui import status
from tui.choices import Question
from tui.client import TableView
from tui.medici import choices, preview, render, warning
from tui.panels import Panel, PaneScroll, clickable
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


def clickable_court(court: Table | Text, s: Any) -> Table | Text:
    """The court with each stack's row answering a click (as ``("stack", id)``)."""
    if isinstance(court, Table) and len(court.rows) == len(s.middle):
        for row, st in zip(court.rows, s.middle, strict=True):
            meta = Style(meta={"answer": ("stack", st[0])})
            row.style = meta if row.style is None else Style.parse(str(row.style)) + meta
    return court


def court_rows(s: Any, width: int) -> int:
    """At most how many rows the court takes at ``width``: a stack's cards wrap in the column
    after its letter and total (a word wrap may take a row more)."""
    if not s.middle:
        return 1
    room = max(width - 8, 8)
    return sum(len(render.stack_inline(st)) // room + 2 for st in s.middle)


class MediciTable(TableScreen):
    CSS_PATH = ["../table.tcss", "table.tcss"]
    PANES = (("court-box", "Court"), ("hand", "Hand"), ("houses-box", "Houses"), ("log", "Log"))

    def compose_left(self) -> ComposeResult:
        with PaneScroll(id="court-box", classes="pane") as court:
            court.border_title = "Court: stack, total, cards; *: last move"
            yield Panel(id="court", classes="fill")
        hand = Panel(id="hand", classes="pane")
        hand.border_title = "Your hand"
        yield hand

    def compose_right(self) -> ComposeResult:
        with PaneScroll(id="houses-box", classes="pane") as houses:
            houses.border_title = "Houses"
            yield Panel(id="houses")
            yield Panel(id="legend")
        yield from self.compose_log()

    def draw(self, view: TableView) -> None:
        """Redraw the panels whose part of the view changed; a layout only where a panel's
        height may change (the hand, the houses)."""
        s = view.state
        width = self.pane_width("houses-box", self.size.width // 2)
        seat = view.seat
        marks = view.marks
        # the click marks cost drawing time: only while the seat has a question to answer
        mine = view.my_turn
        if self._changed("court", (s.middle, marks, self.pane_width("court", 0), mine)):
            width = self.pane_width("court", self.size.width // 2) or 40
            court = render.court_table(s, marks)
            court = self.as_text(clickable_court(court, s) if mine else court, width)
            self.put("court", court, court_rows(s, width))
        houses = (s.alliances, s.pending, s.middle, tuple(map(len, s.hands)), s.pools, s.bottoms,
                  s.limits, view.actor, width, marks)
        if self._changed("houses", houses):
            self.put("houses",
                render.houses_text(s, seat, view.names, view.actor, width, marks)
            )
        if self._changed("legend", width < 46):
            other = (seat + 1) % s.players
            self.put("legend", render.houses_legend(width, other))
        if self._changed("hand", (s.hands[seat], s.limits[seat], mine)):
            hand = self.query_one("#hand", Static)
            held = plural(len(s.hands[seat]), "card")
            hand.border_title = f"Your hand ({HOUSES[seat]}, {held})"
            words = [(render.card_name(c), ("card", c)) for c in s.hands[seat]]
            self.put(hand, clickable(render.hand_text(s, seat), words if mine else ()))

    def title_words(self) -> str:
        return "Court of the Medici"

    def final_words(self, view: TableView, action: Any) -> str:
        if action.kind == "strike":
            return (f"Strike with {short_name(action.card)} from your shadow alliance {action.slot + 1}: "
                    "its hidden card is turned up and a stack of the same total is eliminated.")
        if action.kind == "conspire":
            return (f"Conspire: {short_name(action.card)} on stack {stack_label(action.stack)} "
                    f"eliminates stack {stack_label(action.elim)}.")
        if action.kind == "stuck":
            return "You hold no card you may play: the game ends."
        card = short_name(action.card) if action.card >= 0 else ""
        if action.kind == "build" and action.card % RANKS in (MINISTER, LADY):
            st = view.state.stack(action.stack)
            what = f"{stack_label(action.stack)} ({render.stack_inline(st)})" if st else stack_label(action.stack)
            return f"{card} on stack {what} {preview.result(view.state, action)}."
        if action.kind == "plan":
            return f"Plan: {card} goes under your deck, and you draw."
        return ""

    def forced_quietly(self, view: TableView, action: Any) -> bool:
        # a strike that can only fizzle: its prompt says so, and nothing is decided
        return bool(action.kind == "resolve")

    def status_text(self, view: TableView) -> str:
        s = view.state
        phase = PHASE_WORDS.get(s.phase, s.phase)
        who = status.who(view)
        limit = s.limits[view.seat]
        extra = f" | your limit {limit}" if limit != NO_LIMIT else ""
        turn = s.turns + (0 if view.over else 1)
        return f"{who} | turn {turn}, {phase}{extra}"

    def warning_text(self, view: TableView) -> str:
        return warning.warning(view.state, view.seat, view.names)

    def note_text(self, view: TableView) -> str:
        """In the set-up's hide and top phases, who has placed (``tui.status.placed``)."""
        return status.placed(view, self.client.rules)

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
        if view.queued and not view.my_turn:  # asked ahead: as the seat will find it then
            state = setup.after(view.state, view.seat, view.queued)
            view = replace(view, state=state)
        return choices.question(view, actions, asked)
