"""Finding a game on the LAN from the join form (``ctrl+f``, the Find games button).

``FindGames`` looks for the games advertised on the LAN (``net.session.commands.discovery``, for
``BROWSE_SECONDS``) and lists them, two lines each: the game, the seats taken of those wanted and
whether it needs a code; the host's name, its key's fingerprint and its address. Enter (or a
click) returns the ``Found`` chosen, Escape ``None``, ``r`` looks again. What the list shows comes
from anybody on the LAN: it is shown as plain text, never as markup, and the join that follows
holds the host to the fingerprint shown.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from net.session.commands.discovery import Found, async_browse
from net.session.machines.conversation import printable_line


class FindGames(ModalScreen["Found | None"]):
    CSS_PATH = "find.tcss"
    BINDINGS = [
        Binding("escape", "cancel", "Back"),
        Binding("r", "search", "Look again"),
        Binding("enter", "choose", "Join this one", show=True),
    ]

    def __init__(self, interfaces: Any = None) -> None:
        super().__init__()
        self.interfaces = interfaces
        self.found: list[Found] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("", id="status")
            yield OptionList(id="games")
            yield Static("Enter joins the game chosen (the code is still asked); r looks again; "
                         "Escape goes back.", id="find-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.action_search()

    def action_search(self) -> None:
        self.query_one("#status", Static).update("Looking for games on the LAN ...")
        self.query_one("#games", OptionList).clear_options()
        self.found = []
        self._search()

    @work(exclusive=True, group="find")
    async def _search(self) -> None:
        status = self.query_one("#status", Static)
        try:
            found = await async_browse(interfaces=self.interfaces)
        except OSError as e:
            if self.is_attached and not self._pruning:
                status.update(Text(f"Cannot look for games on the LAN: {e}"))
            return
        if not self.is_attached or self._pruning:  # the list was closed while it looked
            return
        self.found = found
        games = self.query_one("#games", OptionList)
        games.add_options([Option(_prompt(f)) for f in found])
        if found:
            status.update(f"{len(found)} game{'s' if len(found) > 1 else ''} found on the LAN:")
            games.highlighted = 0
            games.focus()
        else:
            status.update("No game found on the LAN. A host advertises unless told not to "
                          "(--no-advertise); r looks again.")

    @on(OptionList.OptionSelected, "#games")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.found[event.option_index])

    def action_choose(self) -> None:
        index = self.query_one("#games", OptionList).highlighted
        if index is not None and index < len(self.found):
            self.dismiss(self.found[index])

    def action_cancel(self) -> None:
        self.dismiss(None)


def _prompt(found: Found) -> Text:
    first, second = (printable_line(x) for x in found.lines())
    return Text(f"{first}\n  {second}")
