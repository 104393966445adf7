"""What every table screen shares: following a game client, asking the seat's move, the log.

Theory of operation
-------------------
A table screen has one reactive ``view`` (a ``TableView`` from its ``GameClient``), reassigned
after every step by a worker that follows ``client.updates()``; ``watch_view`` redraws. The
screen never sees the game's full state.

The view's ``marks`` (what the last move touched) go to the game's render functions; the
``warning`` line at the top of the move box shows the game's ``warning_text(view)`` (who can end
the game on their next turn) and is hidden when there is none.

When the seat must decide, the screen asks questions built from the legal actions
(``tui.choices``): the current question's answers fill an ``OptionList``. A digit key, Enter on
the highlighted answer and a mouse click all post the same ``Picked`` message; when the answers
narrow the legal actions down to one, it is submitted. Escape takes back the last answer.

The table returns, with ``dismiss``, what its end screen's choice or leaving asked for
(``"again"``, ``"new"``, ``"quit"``); the app decides what follows, and names the ways out
beforehand (``end_choices``, ``leave_question``: attributes it sets).

A game's table subclasses ``TableScreen``: it composes its board (plus the shared ``moves``
panel and ``log``), draws a view in ``draw(view)`` and gives its ``question(view, actions,
asked)``.
"""

from __future__ import annotations

import textwrap
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.choices import Choice, Question
from tui.client import GameClient, NotYourTurn, TableView
from tui.screens.end import EndScreen
from tui.screens.log import LogScreen
from tui.screens.modals import Confirm


class LogTail(Widget):
    """The latest lines of the log that fit, newest at the bottom, long lines wrapped with an
    indent; the lines of the latest step in bold. It only repaints (no layout) when lines are
    added; ``l`` opens the whole log."""

    lines: reactive[tuple[str, ...]] = reactive(())
    fresh: int = 0

    def render(self) -> Text:
        width = max(self.content_size.width, 10)
        height = max(self.content_size.height, 1)
        rows: list[tuple[str, bool]] = []
        n = len(self.lines)
        for i in range(n - 1, -1, -1):
            new = i >= n - self.fresh
            rows[:0] = [(r, new) for r in textwrap.wrap(self.lines[i], width, subsequent_indent="  ") or [""]]
            if len(rows) >= height:
                break
        out = Text()
        for k, (row, new) in enumerate(rows[-height:]):
            if k:
                out.append("\n")
            out.append(row, style="bold" if new else "")
        return out


class MovePanel(OptionList):
    """The answers to the current question. Selecting one posts ``Picked`` to the screen."""


class TableScreen(Screen[str]):
    BINDINGS = [
        Binding("1", "pick(0)", "Choose", key_display="1-9"),
        *[Binding(str(n), f"pick({n - 1})", show=False) for n in range(2, 10)],
        Binding("0", "pick(9)", show=False),
        Binding("escape,backspace", "back", "Back"),
        Binding("question_mark,f1", "app.help", "Help", key_display="?"),
        Binding("r,f2", "app.rules", "Rules"),
        Binding("l", "whole_log", "Log"),
        Binding("e", "results", "Results"),
        Binding("q", "leave", "Leave"),
    ]

    #: the end screen's ways out, named for what they do in this app (``None``: a local game's)
    end_choices: dict[str, str] | None = None
    #: what leaving a table under way does in this app, asked before it is done
    leave_question = "Leave this game?"

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
        self._keys: tuple[bool, ...] = ()
        self._waiting = False
        self._prompt_rows = 0
        self._drawn: dict[str, object] = {}

    HELP_TITLE = "At the table"
    HELP_KEYS = (
        ("0", "Choose the tenth answer"),
        ("up, down", "Move among the answers (or scroll the panel with the focus)"),
        ("enter", "Choose the highlighted answer"),
        ("tab, shift+tab", "Move the focus between the answers and the panels"),
        ("pgup, pgdn", "Scroll the panel with the focus"),
    )
    HELP = (
        "Your move is asked one question at a time: a card, then what to do with it, then its "
        "target, then a value when one is needed. Only legal answers are offered. Press the "
        "answer's number, or move with the arrows and press Enter, or click it. Escape takes "
        "back the last answer. Computer players move one at a time. What the last move touched "
        "is starred on the table until the next move, and the log names every card it took off "
        "the table. A line starting with ! warns that someone can end the game on their next turn."
    )

    @property
    def game_name(self) -> str:
        return self.client.game

    # -- redrawing only what changed ---------------------------------------------------------

    def _changed(self, part: str, key: object) -> bool:
        """Whether the panel ``part`` must be redrawn for ``key`` (and remember that it was)."""
        if self._drawn.get(part) == key:
            return False
        self._drawn[part] = key
        return True

    def on_resize(self) -> None:
        self.call_after_refresh(self._redraw)

    def _redraw(self) -> None:
        self._drawn.clear()
        if self.view is not None:
            self.draw(self.view)

    # -- to be given by a game ---------------------------------------------------------------

    def draw(self, view: TableView) -> None:
        raise NotImplementedError

    def question(self, view: TableView, actions: tuple[Any, ...], asked: tuple[str, ...]) -> Question | None:
        raise NotImplementedError

    def status_text(self, view: TableView) -> str:
        return ""

    def warning_text(self, view: TableView) -> str:
        """A line saying who can end the game on their next turn ("" when nobody can), from
        what the seat's view shows."""
        return ""

    def end_words(self, view: TableView) -> tuple[str, str, str]:
        """How the game ended, how long it lasted, what a score counts, in this game's words
        ("" for the defaults)."""
        return ("", "", "")

    # -- shared parts --------------------------------------------------------------------------

    def compose_moves(self) -> ComposeResult:
        warning = Static(id="warning")
        warning.display = False
        yield warning
        yield Static(id="prompt")
        yield MovePanel(id="moves")

    def compose_log(self) -> ComposeResult:
        log = LogTail(id="log")
        log.border_title = "Log (l: the whole log)"
        yield log

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
        self.query_one("#status", Static).update(self.status_text(view), layout=False)
        self._warn(view)
        self._update_keys()
        if view.over and not self._ended:
            self._ended = True
            self.call_after_refresh(self.action_results)

    def _warn(self, view: TableView) -> None:
        text = self.warning_text(view)
        if self._changed("warning", text):
            warning = self.query_one("#warning", Static)
            warning.update(Text(f"! {text}", style="bold") if text else "")
            warning.display = bool(text)

    def watch_path(self) -> None:
        self._ask()
        self._update_keys()

    def _update_keys(self) -> None:
        """Let the footer show the keys that work now (it is rebuilt only when they change)."""
        keys = (self._question is not None, bool(self.path), self.view is not None and self.view.over)
        if keys != self._keys:
            self._keys = keys
            # after the table is drawn: rebuilding the footer must not hold back the board
            self.call_after_refresh(self.refresh_bindings)

    def _write_log(self, view: TableView) -> None:
        if len(view.log) != self._logged:
            tail = self.query_one("#log", LogTail)
            tail.fresh = len(view.log) - self._logged
            self._logged = len(view.log)
            tail.lines = view.log

    def _actions(self) -> tuple[Any, ...]:
        view = self.view
        if view is None or not view.my_turn:
            return ()
        return self.path[-1][1].actions if self.path else view.legal

    def _ask(self) -> None:
        view = self.view
        panel = self.query_one("#moves", MovePanel)
        actions = self._actions()
        if view is None or not actions:
            if self._question is not None or not self._waiting:
                self._question = None
                self._waiting = True
                panel.clear_options()
            self._say(self.waiting_text(view) if view else "")
            return
        self._waiting = False
        asked = tuple(q.field for q, _ in self.path)
        q = self.question(view, actions, asked)
        if q is None:
            # the answers name one action: it cannot be asked about, only submitted
            self._submit(actions[0])
            return
        self._question = q
        self._say(q.prompt)
        panel.set_options(
            Option(f"{i + 1 if i < 9 else 0 if i == 9 else ' '} {c.label}") for i, c in enumerate(q.choices)
        )
        panel.highlighted = 0
        if self.app.focused is None or not isinstance(self.app.focused, MovePanel):
            panel.focus()

    def _say(self, text: str) -> None:
        """Set the prompt; lay the screen out again only if its height changes."""
        prompt = self.query_one("#prompt", Static)
        width = max(prompt.content_size.width, 10)
        rows = sum(len(textwrap.wrap(line, width)) or 1 for line in text.split("\n"))
        prompt.update(text, layout=rows != self._prompt_rows)
        self._prompt_rows = rows

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

    def action_whole_log(self) -> None:
        if self.view is not None:
            self.app.push_screen(LogScreen(self.view.log))

    def action_results(self) -> None:
        view = self.view
        if view is None or view.outcome is None:
            return
        self.app.push_screen(EndScreen(view, self.end_words(view), self.end_choices),
                             self._after_end)

    def _after_end(self, result: str | None) -> None:
        if result is not None:  # None: look at the final table again
            self.dismiss(result)

    def action_leave(self) -> None:
        def leave(yes: bool | None) -> None:
            if yes:
                self.dismiss("new")

        if self.view is not None and self.view.over:
            leave(True)
            return
        self.app.push_screen(Confirm(self.leave_question), leave)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick":
            return self._question is not None
        if action == "back":
            # shown (dimmed while there is nothing to take back) all through the seat's turn
            return True if self.path else (None if self._question is not None else False)
        if action == "results":
            return self.view is not None and self.view.over
        return True
