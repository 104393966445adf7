"""What every table screen shares: following a game client, asking the seat's move, the log.

Theory of operation
-------------------
A table screen has one reactive ``view`` (a ``TableView`` from its ``GameClient``), reassigned
after every step by a worker that follows ``client.updates()``; ``watch_view`` redraws. The
screen never sees the game's full state.

When the seat must decide, the screen asks questions built from the legal actions
(``tui.choices``): the current question's answers fill an ``OptionList``. A digit key, Enter on
the highlighted answer and a mouse click all post the same ``Picked`` message; when the answers
narrow the legal actions down to one, it is submitted. Escape takes back the last answer.

A game's table subclasses ``TableScreen``: it composes its board (plus the shared ``moves``
panel and ``log``), draws a view in ``draw(view)`` and gives its ``question(view, actions,
asked)``.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.choices import Choice, Question
from tui.client import GameClient, NotYourTurn, TableView

#: how many of the latest log lines the table shows (the panel scrolls)
LOG_LINES = 200


class MovePanel(OptionList):
    """The answers to the current question. Selecting one posts ``Picked`` to the screen."""


class TableScreen(Screen[None]):
    BINDINGS = [
        Binding("1", "pick(0)", "Choose", key_display="1-9"),
        *[Binding(str(n), f"pick({n - 1})", show=False) for n in range(2, 10)],
        Binding("0", "pick(9)", show=False),
        Binding("escape,backspace", "back", "Back"),
        Binding("question_mark,f1", "app.help", "Help", key_display="?"),
        Binding("r,f2", "app.rules", "Rules"),
        Binding("e", "results", "Results"),
        Binding("q", "leave", "Quit"),
    ]

    view: reactive[TableView | None] = reactive(None, init=False)
    path: reactive[tuple[tuple[Question, Choice], ...]] = reactive((), init=False)

    class Picked(Message):
        """An answer to the current question, by index (from a key, Enter or a click)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, client: GameClient, setup: Any = None) -> None:
        super().__init__()
        self.client = client
        self.setup = setup
        self._logged = 0
        self._question: Question | None = None
        self._ended = False

    HELP = (
        "Your move is asked one question at a time: a card, then what to do with it, then its "
        "target, then a value when one is needed. Only legal answers are offered. Press the "
        "answer's number, or move with the arrows and press Enter, or click it. Escape takes "
        "back the last answer. Computer players move one at a time."
    )

    @property
    def game_name(self) -> str:
        return self.client.game

    # -- to be given by a game ---------------------------------------------------------------

    def draw(self, view: TableView) -> None:
        raise NotImplementedError

    def question(self, view: TableView, actions: tuple[Any, ...], asked: tuple[str, ...]) -> Question | None:
        raise NotImplementedError

    def status_text(self, view: TableView) -> str:
        return ""

    def end_words(self, view: TableView) -> str:
        """How the game ended, in this game's words ("" for the outcome's own words)."""
        return ""

    # -- shared parts --------------------------------------------------------------------------

    def compose_moves(self) -> ComposeResult:
        yield Static(id="prompt")
        yield MovePanel(id="moves")

    def compose_log(self) -> ComposeResult:
        with VerticalScroll(id="log") as log:
            log.border_title = "Log"
            yield Static(id="log-text", markup=False)

    def on_mount(self) -> None:
        self.view = self.client.snapshot()
        self.run_worker(self._follow(), exclusive=True, group="client")

    def on_unmount(self) -> None:
        self.client.close()

    async def _follow(self) -> None:
        async for snapshot in self.client.updates():
            self.view = snapshot

    def watch_view(self, old: TableView | None, view: TableView | None) -> None:
        if view is None:
            return
        if old is None or old.legal != view.legal:
            self.path = ()
        self.draw(view)
        self._write_log(view)
        self._ask()
        self.query_one("#status", Static).update(self.status_text(view))
        self.refresh_bindings()
        if view.over and not self._ended:
            self._ended = True
            self.call_after_refresh(self.action_results)

    def watch_path(self) -> None:
        self._ask()
        self.refresh_bindings()

    def _write_log(self, view: TableView) -> None:
        if len(view.log) == self._logged:
            return
        self._logged = len(view.log)
        self.query_one("#log-text", Static).update("\n".join(view.log[-LOG_LINES:]))
        log = self.query_one("#log", VerticalScroll)
        self.call_after_refresh(log.scroll_end, animate=False)

    def _actions(self) -> tuple[Any, ...]:
        view = self.view
        if view is None or not view.my_turn:
            return ()
        return self.path[-1][1].actions if self.path else view.legal

    def _ask(self) -> None:
        view = self.view
        panel = self.query_one("#moves", MovePanel)
        prompt = self.query_one("#prompt", Static)
        actions = self._actions()
        if view is None or not actions:
            self._question = None
            panel.clear_options()
            panel.display = False
            prompt.update(self.waiting_text(view) if view else "")
            return
        asked = tuple(q.field for q, _ in self.path)
        q = self.question(view, actions, asked)
        if q is None:
            # the answers name one action: it cannot be asked about, only submitted
            self._submit(actions[0])
            return
        self._question = q
        trail = " / ".join(c.label.split(":")[0] for _, c in self.path)
        prompt.update((f"{trail}\n" if trail else "") + q.prompt)
        panel.display = True
        panel.set_options(
            Option(f"{i + 1 if i < 9 else 0 if i == 9 else ' '} {c.label}") for i, c in enumerate(q.choices)
        )
        panel.highlighted = 0
        if self.app.focused is None or not isinstance(self.app.focused, MovePanel):
            panel.focus()

    def waiting_text(self, view: TableView) -> str:
        if view.over:
            return "The game is over. Press e for the results."
        if view.actor >= 0:
            return f"Waiting for {view.names[view.actor]}..."
        return "..."

    def _submit(self, action: Any) -> None:
        try:
            self.client.submit(action)
        except (NotYourTurn, ValueError) as e:
            self.notify(str(e), title="Not allowed", severity="error")
            self.path = ()
            return
        self.path = ()
        self.view = self.client.snapshot()

    # -- input: keys and clicks meet in Picked -----------------------------------------------

    @on(OptionList.OptionSelected, "#moves")
    def _clicked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Picked(event.option_index))

    def on_table_screen_picked(self, message: TableScreen.Picked) -> None:
        q = self._question
        if q is None or not 0 <= message.index < len(q.choices):
            return
        self.path = self.path + ((q, q.choices[message.index]),)

    def action_pick(self, index: int) -> None:
        self.post_message(self.Picked(index))

    def action_back(self) -> None:
        if self.path:
            self.path = self.path[:-1]

    def action_results(self) -> None:
        view = self.view
        if view is None or view.outcome is None:
            return
        from tui.screens.end import EndScreen

        self.app.push_screen(EndScreen(view, self.end_words(view)), self._after_end)

    def _after_end(self, result: str | None) -> None:
        self.app.after_game(self.setup, result)  # type: ignore[attr-defined]

    def action_leave(self) -> None:
        from tui.screens.modals import Confirm

        def leave(yes: bool | None) -> None:
            if yes:
                self.app.after_game(self.setup, "new")  # type: ignore[attr-defined]

        if self.view is not None and self.view.over:
            leave(True)
            return
        self.app.push_screen(Confirm("Leave this game and go back to the start screen?"), leave)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick":
            return self._question is not None
        if action == "back":
            return bool(self.path)
        if action == "results":
            return self.view is not None and self.view.over
        return True
