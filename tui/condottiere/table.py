"""The Condottiere table: the map (drawn when the screen is large enough, a compact map on a
small screen, a list of regions with their neighbours when neither fits), every seat's battle line and strength, your hand, your
move and the log, all drawn from one seat's view (see ``tui.table``)."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import Static

from engine.condottiere.cards import KINDS, NAMES, SURRENDER
from engine.condottiere.text import SEAT_NAMES
from engine.words import plural
from tui import status
from tui.choices import Question
from tui.client import TableView
from tui.condottiere import choices, narrate, regions, render, warning
from tui.panels import Panel, PaneScroll, clickable
from tui.table import TableScreen


class CondottiereTable(TableScreen):
    CSS_PATH = ["../table.tcss", "table.tcss"]
    PANES = (("map-box", "Map"), ("players-box", "Battle"), ("hand", "Hand"), ("log", "Log"))

    def compose_left(self) -> ComposeResult:
        with PaneScroll(id="map-box", classes="pane") as box:
            box.border_title = "Map"
            yield Panel(id="map")
            yield Panel(regions.legend(), id="map-legend")
        hand = Panel(id="hand", classes="pane")
        hand.border_title = "Your hand"
        yield hand

    def compose_right(self) -> ComposeResult:
        with PaneScroll(id="players-box", classes="pane") as players:
            players.border_title = "Battle"
            yield Panel(id="players")
            yield Panel(id="goal")
        yield from self.compose_log()

    def _map_kind(self) -> str:
        """``map``, ``compact``, ``list`` or, on a small screen, ``summary``: what the map's
        box has room for."""
        if self._narrow and not self.TABBED:
            return "summary"
        box = self.query_one("#map-box")
        # the box less its border and padding: a scrollbar left over from the list does not count
        width, height = box.outer_size.width - 4, box.outer_size.height - 2
        if width >= regions.MAP_WIDTH and height >= regions.MAP_HEIGHT + 1:
            return "map"
        if width >= regions.MAP_WIDTH and height >= regions.COMPACT_HEIGHT:
            return "compact"
        return "list"

    def draw(self, view: TableView) -> None:
        s = view.state
        seat = view.seat
        kind = self._map_kind()
        marked = regions.marked_regions(view.marks)
        if self._changed("map", (s.owner, s.battle, s.favor, kind, marked)):
            box = self.query_one("#map-box")
            box.border_title = {"list": "Regions and their neighbours",
                                "summary": "Regions (R: Red's)"}.get(kind, "Map")
            drawn = {"map": regions.map_text, "compact": regions.compact_map_text,
                     "list": regions.regions_text,
                     "summary": regions.regions_summary}[kind](s, marked)
            self.put("map", drawn)
        players = (self.size, s.lines, s.passed, s.holder, s.defender, s.owner, tuple(len(h) for h in s.hands),
                   s.points, view.actor, s.battle, s.fighters, view.marks)
        if self._changed("players", players):
            self.query_one("#players-box").border_title = render.battle_title(s)
            width = self.pane_width("players-box", 40)
            self.put("players",
                render.players_text(s, seat, view.names, view.actor, width, view.marks)
            )
            self.put("goal", render.goal_text(s, view.marks))
        mine = view.my_turn  # the click marks cost drawing time: only while there is a question
        if self._changed("hand", (s.hands[seat], mine)):
            hand = self.query_one("#hand", Static)
            held = plural(len(s.hands[seat]), "card")
            hand.border_title = f"Your hand ({SEAT_NAMES[seat]}, {held})"
            words = [(NAMES[c], ("card", c)) for c in sorted(set(s.hands[seat])) if 0 <= c < KINDS]
            self.put(hand, clickable(render.hand_text(s, seat), words if mine else (), in_order=False))

    def title_words(self) -> str:
        return "Condottiere"

    def final_words(self, view: TableView, action: Any) -> str:
        s = view.state
        if action.kind == "pass":
            if view.seat == s.defender and s.free:
                return ""  # a defender who has played nothing passes and may still play later
            return "Pass: you play no more cards in this battle."
        if action.kind == "play" and action.card == SURRENDER:
            return "Surrender: the battle ends now, before anyone else plays."
        if action.kind == "discard":
            return "Discard your whole hand."
        return ""

    def status_text(self, view: TableView) -> str:
        s = view.state
        who = status.who(view)
        return f"{who} | {render.battle_words(s)}"

    def warning_text(self, view: TableView) -> str:
        return warning.warning(view.state, view.seat, view.names)

    def end_words(self, view: TableView) -> tuple[str, str, str]:
        s = view.state
        battles = view.outcome.detail.get("battles", s.battles) if view.outcome else s.battles
        length = f"after {plural(battles, 'battle')}"
        if s.config.playing_for_points:
            length += f" in game {s.games} of the match"
            return ("", length, "point")
        return (narrate.victory_words(view.state, view.names), length, "region")

    def question(self, view: TableView, actions: tuple[Any, ...], asked: tuple[str, ...]) -> Question | None:
        return choices.question(view, actions, asked)

