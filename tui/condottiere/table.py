"""The Condottiere table: the map (drawn when the screen is large enough, a list of regions
with their neighbours when it is not), every seat's battle line and strength, your hand, your
move and the log, all drawn from one seat's view (see ``tui.table``)."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Static

from engine.condottiere.text import SEAT_NAMES
from engine.words import plural
from tui.choices import Question
from tui.client import TableView
from tui.condottiere import choices, regions, render, warning
from tui.table import TableScreen


class CondottiereTable(TableScreen):
    CSS_PATH = "table.tcss"

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="board"):
            with Vertical(id="left"):
                with VerticalScroll(id="map-box") as box:
                    box.border_title = "Map"
                    yield Static(id="map")
                    yield Static(regions.legend(), id="map-legend")
                hand = Static(id="hand")
                hand.border_title = "Your hand"
                yield hand
                with Vertical(id="move-box") as moves:
                    moves.border_title = "Your move"
                    yield from self.compose_moves()
            with Vertical(id="right"):
                with VerticalScroll(id="players-box") as players:
                    players.border_title = "Battle"
                    yield Static(id="players")
                    yield Static(id="goal")
                yield from self.compose_log()
        yield Footer()

    def draw(self, view: TableView) -> None:
        s = view.state
        seat = view.seat
        box = self.query_one("#map-box")
        # the box less its border and padding: a scrollbar left over from the list does not count
        drawn = (box.outer_size.width - 4 >= regions.MAP_WIDTH
                 and box.outer_size.height - 2 >= regions.MAP_HEIGHT + 1)
        if self._changed("map", (s.owner, s.battle, s.favor, drawn)):
            box.border_title = "Map" if drawn else "Regions and their neighbours"
            self.query_one("#map", Static).update(regions.map_text(s) if drawn else regions.regions_text(s))
        players = (self.size, s.lines, s.passed, s.holder, s.defender, s.owner, tuple(len(h) for h in s.hands),
                   s.points, view.actor, s.battle, s.fighters, view.marks)
        if self._changed("players", players):
            self.query_one("#players-box").border_title = render.battle_title(s)
            width = self.query_one("#players-box").content_size.width or 40
            self.query_one("#players", Static).update(
                render.players_text(s, seat, view.names, view.actor, width, view.marks)
            )
            self.query_one("#goal", Static).update(render.goal_text(s, view.marks))
        if self._changed("hand", s.hands[seat]):
            hand = self.query_one("#hand", Static)
            held = plural(len(s.hands[seat]), "card")
            hand.border_title = f"Your hand ({SEAT_NAMES[seat]}, {held})"
            hand.update(render.hand_text(s, seat))

    def status_text(self, view: TableView) -> str:
        s = view.state
        if view.outcome is not None:
            who = " and ".join(view.names[w] for w in view.outcome.winners) + " won"
        elif view.my_turn:
            who = "Your turn"
        elif view.actor >= 0:
            who = f"{view.names[view.actor]} to play"
        else:
            who = "..."
        return f"{who} | {render.battle_words(s)} | Condottiere, you are {SEAT_NAMES[view.seat]}"

    def warning_text(self, view: TableView) -> str:
        return warning.warning(view.state, view.seat, view.names)

    def end_words(self, view: TableView) -> tuple[str, str, str]:
        s = view.state
        battles = view.outcome.detail.get("battles", s.battles) if view.outcome else s.battles
        length = f"after {plural(battles, 'battle')}"
        if s.config.playing_for_points:
            length += f" in game {s.games} of the match"
            return ("", length, "point")
        return ("", length, "region")

    def question(self, view: TableView, actions: tuple[Any, ...], asked: tuple[str, ...]) -> Question | None:
        return choices.question(view, actions, asked)
