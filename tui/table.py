"""What every table screen shares: following a game client, asking the seat's move, the layout.

Theory of operation
-------------------
A table screen has one reactive ``view`` (a ``TableView`` from its ``GameClient``), reassigned
after every step by a worker that follows ``client.updates()``; ``watch_view`` redraws. The
screen never sees the game's full state. Every widget is drawn in place (``update``, with a
layout only when a panel's height may change); nothing is recomposed after the first frame.

The view's ``marks`` (what the last move touched) go to the game's render functions; the
``warning`` line under the header shows the game's ``warning_text(view)`` (who can end the game
on their next turn) and is hidden when there is none.

When the seat must decide, the screen asks questions built from the legal actions
(``tui.choices``): the current question's answers fill the ``MovePanel``. A digit key, Enter on
the highlighted answer, a second click on an answer, or a second click on the card, stack or
region it names on the board all post the same ``Picked`` message (a first click only selects).
A kind of move answers to its own letter, the same every turn; the answers that change from
turn to turn (cards, stacks, regions, values) to numbers (``tui.choices``: ``Question.keys``).
When the answers narrow the legal actions down to one, it is submitted, unless the game calls
it final (``final_words``: a pass, a strike, anything that ends something): then one more
question asks to confirm it, and Escape takes it back. Escape takes back the last answer.

No input meant for one question answers the next: a key or click whose event was made before
the current answers were put up (``MovePanel.asked_at``) is dropped, so a key typed ahead
during a bot's move, or while a one-answer question was skipped, does nothing.

Layout. A header of two lines (who acts and what it is doing, and where the game stands, with
the turn limit's countdown, redrawn alone once a second while it runs: ``tui.status``; the game,
its options and the bots' levels), the ``warning`` line (or a plain note, ``note_text``), the board's panes in two columns, the move box across
the bottom and the key bar. On a small screen (under ``WIDE`` columns or ``TALL`` rows, e.g.
80x24) every pane but the log is shown at once, each with a one-line title for its border, and
the move box keeps a question and a few answers in view; ``l`` opens the whole log. A table
with ``TABBED`` (a replay, whose log says what each move was) shows one pane at a time there
instead, chosen on the tab bar.

A game's table subclasses ``TableScreen``: it gives ``PANES`` (the pane ids and tab names),
composes its columns in ``compose_left``/``compose_right``, draws a view in ``draw(view)``,
gives its ``question(view, actions, asked)`` and the words of its final moves.

The table returns, with ``dismiss``, what its end screen's choice or leaving asked for
(``"again"``, ``"new"``, ``"quit"``); the app decides what follows, and names the ways out
beforehand (``end_choices``, ``leave_question``: attributes it sets).

Late news. A view, a timer's tick, a redraw put off to after a refresh or a hint may arrive
after the screen was popped, or while it closes and its widgets are being removed. Every such
way in checks ``gone`` first and then does nothing: a closed table draws nothing and asks
nothing, and no lookup of a removed widget fails on the player's terminal.
"""

from __future__ import annotations

import textwrap
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import var
from textual.screen import Screen
from textual.visual import visualize
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.registry import get_game
from tui import status
from tui.chat import TalkScreen, phrases
from tui.choices import Choice, Question
from tui.client import GameClient, NotYourTurn, TableView
from tui.names import level_name, options_words, setting_words
from tui.panels import KeyBar, LogTail, MovePanel, Panel, TabBar
from tui.presence import PresenceLine
from tui.screens.end import EndScreen, Rematch
from tui.screens.hint import ask_hint, hints_allowed
from tui.screens.log import LogScreen
from tui.screens.modals import Confirm

__all__ = ["LogTail", "MovePanel", "TableScreen"]

#: below this many columns or rows the panes take turns
WIDE = 100
TALL = 30

#: the talk key, at a table whose client may talk (a networked seat: ``tui.chat``)
TALK = Binding("t", "talk", "Talk", key_display="t")

#: the letters of the question that confirms a move: yes, no, yes and ask no more
YES_KEY, NO_KEY, ALWAYS_KEY = "y", "n", "a"

#: which question fields a click on the board can answer, by what was clicked
BOARD_FIELDS = {"card": ("card",), "stack": ("target", "elim"), "region": ("target",)}


class TableScreen(Screen[str]):
    BINDINGS = [
        Binding("1", "pick(0)", "Choose", key_display="1-9"),
        *[Binding(str(n), f"pick({n - 1})", show=False) for n in range(2, 10)],
        Binding("0", "pick(9)", show=False),
        Binding("escape,backspace", "back", "Back", key_display="esc"),
        Binding("left", "pane(-1)", "Pane", key_display="left/right"),
        Binding("right", "pane(1)", show=False),
        Binding("question_mark,f1", "app.help", "Help", key_display="?"),
        Binding("r,f2", "app.rules", "Rules", key_display="r"),
        Binding("l", "whole_log", "Log", key_display="l"),
        Binding("w", "since", "Since your turn", key_display="w", show=False),
        Binding("h", "hint", "Hint", key_display="h"),
        Binding("u", "undo", "Undo", key_display="u"),
        Binding("i", "guide_notes", "Guide", key_display="i", show=False),
        Binding("e", "results", "Results", key_display="e"),
        Binding("q", "leave", "Leave", key_display="q"),
    ]

    #: the end screen's ways out, named for what they do in this app (``None``: a local game's)
    end_choices: dict[str, str] | None = None
    #: a networked game's "Play again": asks the others for a rematch (``tui.screens.end``)
    end_rematch: Rematch | None = None
    #: what leaving a table under way does in this app, asked before it is done
    leave_question = "Leave this game?"

    #: (pane id, tab name), in the order the tabs show them; the first is shown first
    PANES: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: the keys that change panes, as the tab bar names them
    PANE_KEYS: ClassVar[str] = "left/right"
    #: on a small screen, the panes take turns (chosen on the tab bar) rather than all being
    #: shown at once without the log
    TABBED: ClassVar[bool] = False

    # watched, but never a repaint of the whole screen: the panels redraw what changed
    view: var[TableView | None] = var(None, init=False)
    path: var[tuple[tuple[Question, Choice], ...]] = var((), init=False)

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
        self._keys: tuple[object, ...] = ()
        self._waiting = False
        self._prompt_rows = 0
        self._drawn: dict[str, object] = {}
        self._rows: dict[str | None, int] = {}
        self._pane = 0
        self._narrow: bool | None = None
        #: ask before a move that cannot be taken back (``GameSetup.confirm``; "a" at the
        #: question turns it off for the rest of the game)
        self.confirm: bool = bool(getattr(setup, "confirm", True))
        #: since the seat's last move: where the log stood, what the moves since touched, and
        #: the marks of the seat's own move (not news to it)
        self._since_log = 0
        self._since_marks: frozenset[Any] = frozenset()
        self._own_marks: frozenset[Any] | None = None
        self._own_move = False
        if self.can_talk:
            self.HELP_KEYS = (*type(self).HELP_KEYS, ("t", "Talk at the table: type a message, "
                                                      "or a number for a quick phrase; Escape "
                                                      "returns to the game"))

    @property
    def gone(self) -> bool:
        """The screen was popped or is closing (its widgets removed or being removed)."""
        return not self.is_attached or self._closing or self._closed or self._pruning

    @property
    def can_talk(self) -> bool:
        return self.client.can_talk

    def action_talk(self) -> None:
        if self.can_talk:
            client = self.client
            self.app.push_screen(TalkScreen(client.talk, client.talk_said, phrases(client.game)))

    HELP_TITLE = "At the table"
    HELP_KEYS: tuple[tuple[str, str], ...] = (
        ("1-9, 0", "Choose a numbered answer: a card, a stack, a region, a value"),
        ("a-z", "Choose a lettered answer: a kind of move, the same letter every turn"),
        ("up, down", "Move among the answers (or scroll the panel with the focus)"),
        ("enter", "Choose the highlighted answer"),
        ("w", "What happened since your last turn: every line of the log since then (the table "
              "marks everything those moves touched, and the log shows them in bold)"),
        ("u", "Undo: take back your last move, in a game against the computer, until the next "
              "player has moved"),
        ("i", "In a guided game (palazzo guide): the guide's notes so far, again"),
        ("tab, shift+tab", "Move the focus between the answers and the panels"),
        ("pgup, pgdn", "Scroll the panel with the focus"),
    )
    HELP = (
        "Your move is asked one question at a time: a card, then what to do with it, then its "
        "target, then a value when one is needed. Only legal answers are offered. Press the "
        "key shown beside the answer, or move with the arrows and press Enter, or click it "
        "twice (the first click selects it). A kind of move has its own letter, the same every "
        "turn (in Court of the Medici: c court, a alliance, x conspire, s strike, p plan, f a "
        "strike that fizzles; in Condottiere: p pass, k keep, d discard, n none, o off the "
        "board; y yes and n no when asked to confirm); cards, stacks, regions and values are "
        "numbered 1 to 9, then 0. A card in your hand, a stack in the court or a region on the "
        "map answers too, clicked twice, when it is one of the answers. A move that decides "
        "something (a pass, a strike, a Minister, a Plan, your only move) asks you to confirm it: y "
        "sends it, n goes back, a sends it and asks no more in this game (palazzo play --confirm "
        "off asks nothing). In a game against the computer, u takes back your last move until "
        "the next player has moved. Escape takes back the last "
        "answer. A key pressed before a question is shown does not answer it. Computer players "
        "move one at a time. What the last move touched is starred on the table until the "
        "next move, and the log names every card it took off the table. A line starting with ! "
        "warns that someone can end the game on their next turn."
    )

    @property
    def game_name(self) -> str:
        return self.client.game

    # -- to be given by a game ---------------------------------------------------------------

    def compose_left(self) -> ComposeResult:
        yield from ()

    def compose_right(self) -> ComposeResult:
        yield from ()

    def draw(self, view: TableView) -> None:
        raise NotImplementedError

    def question(self, view: TableView, actions: tuple[Any, ...], asked: tuple[str, ...]) -> Question | None:
        raise NotImplementedError

    def final_words(self, view: TableView, action: Any) -> str:
        """What a move that cannot be taken back does, to ask before sending it; "" for a move
        that is sent at once."""
        return ""

    def forced_quietly(self, view: TableView, action: Any) -> bool:
        """Whether the seat's only move may go out without a word (keeping a hand that cannot
        be discarded): it decides nothing."""
        return False

    def confirm_words(self, view: TableView, action: Any) -> str:
        """What to ask before sending ``action`` ("" to send it at once): the game's words for
        a move that cannot be taken back, or, for a move the seat had no choice about (every
        question it answered had one answer), the move in words."""
        words = self.final_words(view, action)
        if words:
            return words
        if all(len(q.choices) == 1 for q, _ in self.path) and not self.forced_quietly(view, action):
            text = self.client.rules.action_text(view.state, action, view.seat)
            return f"Your only move: {text}."
        return ""

    def status_text(self, view: TableView) -> str:
        return ""

    def warning_text(self, view: TableView) -> str:
        """A line saying who can end the game on their next turn ("" when nobody can), from
        what the seat's view shows."""
        return ""

    def note_text(self, view: TableView) -> str:
        """A plain line for the warning line while no warning is due (who has placed in a
        set-up made by all seats at once); "" for none."""
        return ""

    def title_words(self) -> str:
        """The game's name and the seat, for the header's second line."""
        return self.client.game

    def end_words(self, view: TableView) -> tuple[str, str, str]:
        """How the game ended, how long it lasted, what a score counts, in this game's words
        ("" for the defaults)."""
        return ("", "", "")

    # -- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Panel(id="status")
        yield Panel(id="setting")
        yield Panel(id="warning")
        yield PresenceLine(id="presence")
        yield TabBar(id="tabs")
        with Horizontal(id="board"):
            with Vertical(id="left", classes="column"):
                yield from self.compose_left()
            with Vertical(id="right", classes="column"):
                yield from self.compose_right()
        with Vertical(id="move-box") as box:
            box.border_title = "Your move"
            yield Panel(id="prompt")
            yield MovePanel(id="moves")
        yield KeyBar(id="keys")

    def compose_log(self) -> ComposeResult:
        log = LogTail(id="log", classes="pane")
        log.border_title = "Log (l: the whole log)"
        yield log

    def _layout(self) -> None:
        """Small screen or large: one pane at a time, or all of them."""
        narrow = self.size.width < WIDE or self.size.height < TALL
        if narrow != self._narrow:
            self._narrow = narrow
            self.set_class(narrow and not self.TABBED, "-narrow")
            self.set_class(narrow and self.TABBED, "-tabbed")
        self._show_panes()

    def _show_panes(self) -> None:
        if not self.PANES:
            return
        shown = self.PANES[self._pane][0]
        for pid, _ in self.PANES:
            pane = self.query_one(f"#{pid}")
            pane.set_class(pid == shown, "-shown")
        for column in self.query(".column"):
            column.set_class(bool(column.query(f"#{shown}")), "-shown")
        if self._narrow and self.TABBED:
            self.query_one("#tabs", TabBar).show([name for _, name in self.PANES], self._pane,
                                                 self.PANE_KEYS)

    def show_pane(self, index: int) -> None:
        if self.PANES:
            self._pane = index % len(self.PANES)
            self._show_panes()
            self.call_after_refresh(self._redraw)

    def action_pane(self, step: int) -> None:
        self.show_pane(self._pane + step)

    # -- redrawing only what changed ---------------------------------------------------------

    def _changed(self, part: str, key: object) -> bool:
        """Whether the panel ``part`` must be redrawn for ``key`` (and remember that it was)."""
        if self._drawn.get(part) == key:
            return False
        self._drawn[part] = key
        return True

    def put(self, widget: Static | str, content: Any, most: int | None = None) -> None:
        """Show ``content`` in a panel; lay the screen out again only if its height changes
        (a layout costs more than all the drawing of a move). A panel of class ``fill`` fills
        its pane (``min-height: 100%``), so its height changes only past the pane's; ``most``,
        if given, is a bound on the content's rows that spares measuring it when it fits."""
        if isinstance(widget, str):
            widget = self.query_one(f"#{widget}", Static)
        width = widget.content_size.width
        pane = -1
        if widget.has_class("fill") and widget.parent is not None:
            pane = widget.parent.scrollable_content_region.height  # type: ignore[attr-defined]
        if not width:
            rows = -1
        elif most is not None and most <= pane:
            rows = pane
        else:
            # Textual's own widgets pass their styles here; its stubs name a narrower type
            visual = visualize(widget, content, markup=False)
            rows = max(visual.get_height(widget.styles, width), pane)  # type: ignore[arg-type]
        widget.update(content, layout=rows < 0 or rows != self._rows.get(widget.id))
        self._rows[widget.id] = rows

    def as_text(self, renderable: Any, width: int) -> Text:
        """A Rich renderable (a table) as the lines of text it draws at ``width``, styles and
        click marks kept: Textual draws a ``Text`` several times faster than a ``Table``."""
        if isinstance(renderable, Text):
            return renderable
        console = self.app.console
        out = Text(no_wrap=True, overflow="crop")
        for i, line in enumerate(console.render_lines(renderable, console.options.update_width(width),
                                                      pad=False)):
            if i:
                out.append("\n")
            for seg in line:
                if not seg.control:
                    out.append(seg.text, seg.style)
        out.rstrip()
        return out

    def pane_width(self, pane_id: str, wide: int) -> int:
        """The width inside a pane: as laid out, or, while it is hidden (a small screen shows
        one pane at a time), the whole screen's less the borders; ``wide`` when not yet laid out."""
        width = self.query_one(f"#{pane_id}").content_size.width
        if width:
            return width
        return self.size.width - 4 if self._narrow else wide

    def on_resize(self) -> None:
        self._layout()
        self._keys = ()
        self.call_after_refresh(self._redraw)

    def on_presence_line_reshaped(self) -> None:
        if not self.gone:
            self.call_after_refresh(self._redraw)  # the panes under the line have another size

    def _redraw(self) -> None:
        if self.gone:
            return
        self._drawn.clear()
        self._rows.clear()
        if self.view is not None:
            self.draw(self.since_view(self.view))
            self._status()
        self._update_keys()

    # -- following the game --------------------------------------------------------------------

    def on_mount(self) -> None:
        self._layout()
        self.view = self.client.snapshot()
        self.query_one("#setting", Static).update(self.setting_text(), layout=False)
        self.query_one(PresenceLine).follow(self.client)
        self.run_worker(self._follow(), exclusive=True, group="client")
        if self.client.clock is not None:  # a networked game's turn limit
            self.set_interval(1, self._tick)

    def on_unmount(self) -> None:
        self.client.close()

    async def _follow(self) -> None:
        async for snapshot in self.client.updates():
            if self.gone:
                return
            self.view = snapshot

    def setting_text(self) -> str:
        """The header's second line: the game and seat, its options, the bots' levels."""
        view = self.view
        config = getattr(view.state, "config", None) if view is not None else None
        options = options_words(self.client.rules, config) if config is not None else []
        # a local game's bots (a networked game names its players' programs in their names)
        bots = self.client.bot_kinds
        levels = [level_name(get_game(self.client.game), b) for _, b in sorted(bots.items())] if bots else []
        return setting_words(self.title_words(), self._me(), options, levels)

    def warn(self, text: str) -> None:
        """Show ``text`` on the warning line under the header ("" hides the line)."""
        warning = self.query_one("#warning", Static)
        warning.update(Text(f"! {text}", style="bold") if text else "")
        warning.set_class(bool(text), "-shown")

    def _me(self) -> str:
        seat = self.client.seat
        seat_names = self.client.rules.seat_names
        return seat_names[seat] if 0 <= seat < len(seat_names) else "watching"

    def watch_view(self, old: TableView | None, view: TableView | None) -> None:
        if view is None or self.gone:
            return
        if old is None or old.legal != view.legal or old.ahead != view.ahead:
            self.path = ()
        if view.my_turn and not view.over and (old is None or not old.my_turn):
            if getattr(self.app, "bell_on_turn", False):  # a setting, off at first
                self.app.bell()
        self._note_since(old, view)
        self.query_one(PresenceLine).tick()  # the host's word shown as it comes, not a second late
        self.draw(self.since_view(view))
        self._write_log(view)
        self._ask()
        self._status()
        self._warn(view)
        self._update_keys()
        if view.over and not self._ended:
            self._ended = True
            self.call_after_refresh(self.action_results)

    def _status(self) -> None:
        """The header's first line: the game's status and the turn limit's countdown
        (``tui.status``), redrawn only when its text changes."""
        view = self.view
        if view is None or self.gone:
            return
        clock = self.client.clock
        count = status.countdown(view, clock()) if clock is not None else ""
        width = max(self.size.width - 2, 20)
        text = status.header(self.status_text(view), count, width)
        if self._changed("status", text):
            self.query_one("#status", Static).update(text, layout=False)

    def _tick(self) -> None:
        """Once a second: the countdown, while a turn limit runs (the header line alone)."""
        view = self.view
        if not self.gone and view is not None and view.due is not None and view.due.limit and not view.over:
            self._status()

    def _warn(self, view: TableView) -> None:
        text = self.warning_text(view)
        note = "" if text else self.note_text(view)
        if self._changed("warning", (text, note)):
            if text or not note:
                self.warn(text)
            else:
                self.note(note)

    def note(self, text: str) -> None:
        """Show ``text`` on the warning line as a plain note (no warning is due)."""
        warning = self.query_one("#warning", Static)
        warning.update(Text(text))
        warning.set_class(bool(text), "-shown")

    def watch_path(self) -> None:
        if self.gone:
            return
        self._ask()
        self._update_keys()

    def refresh_bindings(self) -> None:
        super().refresh_bindings()
        if self.is_mounted and not self.gone:
            self._update_keys()

    def _update_keys(self) -> None:
        """Redraw the key bar when the keys it shows change (in place: one line of text). It
        shows the same keys all through a game, so that a move redraws no key bar: choosing
        and going back are offered while the game goes on (they do nothing while another
        seat plays, as the move box says), the results once it is over."""
        over = self.view is not None and self.view.over
        hints = hints_allowed(self.client)
        keys = (over, self._narrow, self.size.width, hints)
        if keys == self._keys:
            return
        self._keys = keys
        shown = []
        bindings = list(self.BINDINGS)
        if self.can_talk:
            bindings.insert(len(bindings) - 1, TALK)
        for binding in bindings:
            assert isinstance(binding, Binding)
            if not binding.show:
                continue
            action = binding.action.split("(")[0]
            if action in ("pick", "back"):
                state: bool | None = not over
            elif action == "hint":  # offered all through the game where hints are allowed
                state = hints and not over
            else:
                state = self.check_action(action, ())
            if state is False:
                continue
            shown.append((binding, True))
        self.query_one("#keys", KeyBar).show(shown, self.size.width)

    def _write_log(self, view: TableView) -> None:
        if len(view.log) != self._logged:
            tail = self.query_one("#log", LogTail)
            # bold: every line since the seat's last move (all of them before its first)
            tail.fresh = len(view.log) - min(self._since_log, len(view.log))
            self._logged = len(view.log)
            tail.lines = view.log

    # -- since your last turn ------------------------------------------------------------------

    def _note_since(self, old: TableView | None, view: TableView) -> None:
        """Gather what every move since the seat's own last move touched (``view.marks`` is
        the last move's alone), so that the table marks them all."""
        if self._since_log > len(view.log):  # a move taken back
            self._since_log = len(view.log)
        if self._own_move:  # the view right after the seat's own move: not news to it
            self._own_move = False
            return
        if old is None or view.steps == old.steps or not view.marks:
            return
        self._since_marks = self._since_marks | view.marks

    def since_view(self, view: TableView) -> TableView:
        """``view`` with the marks of every move since the seat's last one."""
        if not self._since_marks or self._since_marks == view.marks:
            return view
        from dataclasses import replace

        return replace(view, marks=self._since_marks | view.marks)

    def since_lines(self, view: TableView) -> tuple[str, ...]:
        """The log's lines since the seat's last move."""
        return view.log[min(self._since_log, len(view.log)):]

    def _moved_now(self) -> None:
        """The seat has just moved: what came before is no longer news."""
        view = self.client.snapshot()
        self._since_log = len(view.log)
        self._since_marks = frozenset()
        self._own_marks = view.marks
        self._own_move = True
        self._logged = -1  # the log's bold lines start again

    def action_since(self) -> None:
        if self.view is not None:
            lines = self.since_lines(self.view)
            self.app.push_screen(LogScreen(lines or ("Nothing has happened since your last move.",),
                                           "Since your last turn"))

    # -- asking ----------------------------------------------------------------------------------

    def _actions(self) -> tuple[Any, ...]:
        """The actions the current question chooses among: the seat's legal ones at its turn,
        or its set-up choices ahead of its turn (``tui.ahead``), narrowed by the answers."""
        view = self.view
        if view is None:
            return ()
        base = view.legal if view.my_turn else view.ahead
        if not base:
            return ()
        return self.path[-1][1].actions if self.path else base

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
            # the answers name one action: send it, or ask to confirm it if it is final
            words = self.confirm_words(view, actions[0])
            if not words or not self.confirm:
                self._submit(actions[0])
                return
            q = Question(f"{words} {self.taken_back_words()} Send it?", "confirm",
                         (Choice("Yes, send it", actions[:1], "yes", YES_KEY),
                          Choice("No, go back", (), "no", NO_KEY),
                          Choice("Yes, and ask no more in this game", actions[:1], "always",
                                 ALWAYS_KEY)))
        self._question = q
        if view.my_turn:
            self._say(q.prompt)
            news = len(self.since_lines(view))
            box = self.query_one("#move-box")
            box.border_title = (f"Your move ({news} lines since your last turn, bold in the log: w)"
                                if news and self._own_marks is not None else "Your move")
        else:  # chosen ahead of the turn: queued, sent when the turn comes
            self._say(f"{self.waiting_text(view)}\nAhead of your turn: {q.prompt}")
        panel.set_options(
            Option(f"{k or ' '} {c.label}") for k, c in zip(q.keys(), q.choices, strict=True)
        )
        panel.highlighted = 0
        panel.armed = None
        panel.asked_at = Message().time  # on the events' clock: input older than this is not for these answers
        if self.app.focused is None or not isinstance(self.app.focused, MovePanel):
            panel.focus()

    def taken_back_words(self) -> str:
        """Whether a move sent can be taken back, as it is: in a game against the computer,
        ``u`` takes it back until another player moves or the game ends; in a networked game,
        never."""
        if not self.client.undoable:
            return "This cannot be taken back."
        return "Until the next player moves or the game ends, u takes it back."

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
        words = status.waiting(view)
        if view.stopped:
            return words
        return words[0].upper() + words[1:] + "."

    def _submit(self, action: Any) -> None:
        try:
            self.client.submit(action)
        except (NotYourTurn, ValueError) as e:
            self.notify(str(e), title="Not allowed", severity="error")
            self.path = ()
            return
        self._moved_now()
        self.path = ()
        self.view = self.client.snapshot()

    # -- input: keys and clicks meet in Picked -----------------------------------------------

    def _fresh(self, event: events.Event) -> bool:
        """Whether ``event`` was made after the current answers were put up."""
        return self._question is not None and event.time >= self.query_one("#moves", MovePanel).asked_at

    def on_key(self, event: events.Key) -> None:
        """Digits and Enter answer only the question on the screen when they were pressed."""
        self.query_one(PresenceLine).pressed()  # any key: the player is here
        panel = self.query_one("#moves", MovePanel)
        if event.key == "t" and self.can_talk:
            event.stop()
            self.action_talk()
            return
        q = self._question
        if event.key.isdigit() and len(event.key) == 1:
            index = q.index_of(event.key) if q is not None else -1
        elif len(event.key) == 1 and q is not None and q.index_of(event.key) >= 0:
            index = q.index_of(event.key)  # a letter that means a kind of move (tui.choices)
        elif event.key == "enter" and self.app.focused is panel:
            index = panel.highlighted if panel.highlighted is not None else -1
        else:
            return
        event.stop()
        event.prevent_default()
        if self._fresh(event):
            self.post_message(self.Picked(index))

    def on_click(self, event: events.Click) -> None:
        """A card, stack or region on the board: the first click selects its answer, the
        second confirms it."""
        answer = event.style.meta.get("answer")
        if answer is None:
            return
        event.stop()
        q = self._question
        kind, key = answer
        if q is None or not self._fresh(event) or q.field not in BOARD_FIELDS.get(kind, ()):
            return
        for i, c in enumerate(q.choices):
            if c.key == key:
                if self.query_one("#moves", MovePanel).arm(i):
                    self.post_message(self.Picked(i))
                return

    @on(OptionList.OptionSelected, "#moves")
    def _clicked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Picked(event.option_index))

    def on_table_screen_picked(self, message: TableScreen.Picked) -> None:
        q = self._question
        if q is None or not 0 <= message.index < len(q.choices):
            return
        choice = q.choices[message.index]
        if q.field == "confirm":
            if choice.key in ("yes", "always"):
                if choice.key == "always":
                    self.confirm = False
                    self.notify("Moves go out without a question from now on in this game.",
                                title="No more questions")
                self._submit(choice.actions[0])
            else:
                self.action_back()
            return
        self.path = self.path + ((q, choice),)

    def action_pick(self, index: int) -> None:
        self.post_message(self.Picked(index))

    def action_back(self) -> None:
        if self.path:
            self.path = self.path[:-1]

    def action_undo(self) -> None:
        """Take back the seat's last move, in a local game, until another seat has moved."""
        if not self.client.undoable:
            self.notify("Only a game against the computer can take a move back.", title="No undo")
            return
        why = self.client.can_undo()
        if why:
            self.notify(f"Nothing to take back: {why}.", title="No undo")
            return
        self.client.undo()
        self._since_marks = frozenset()
        self.path = ()
        self.view = self.client.snapshot()
        self.notify("Your last move is taken back.", title="Undone")

    def action_guide_notes(self) -> None:
        """The guide's notes so far, again (a guided game only)."""
        guide = getattr(self.app, "guide", None)
        if guide is None or not guide.told_notes:
            self.notify("The guide's notes are for a guided game: palazzo guide, or Guide (F7) "
                        "on the start screen.", title="No guide")
            return
        from tui.guide import GuideNote
        self.app.push_screen(GuideNote(guide.told_notes, "Guide: the notes so far"))

    def action_whole_log(self) -> None:
        if self.view is not None:
            self.app.push_screen(LogScreen(self.view.log))

    def action_results(self) -> None:
        view = self.view
        if view is None or view.outcome is None or self.gone:
            return
        self.app.push_screen(EndScreen(view, self.end_words(view), self.end_choices,
                                       self.end_rematch, self.record_words()), self._after_end)

    def record_words(self) -> str:
        """The player's record at this kind of game (a local game against bots), where a
        networked game's signed record was saved, or ""."""
        from tui import history
        from tui.names import level_name

        if self.client.saved_note:  # a networked game: its signed record
            return self.client.saved_note
        bots = self.client.bot_kinds
        setup = self.setup
        if not bots or setup is None or self.client.can_talk:
            return ""
        entry = get_game(self.client.game)
        level = history.opponents_level([level_name(entry, b) for q, b in sorted(bots.items())
                                         if q != self.client.seat])
        return history.record_line(history.games(), self.client.game, setup.players, level)

    def _after_end(self, result: str | None) -> None:
        if result is not None:  # None: look at the final table again
            self.dismiss(result)

    def action_hint(self) -> None:
        ask_hint(self)

    def action_leave(self) -> None:
        def leave(yes: bool | None) -> None:
            if yes:
                self.dismiss("new")

        if self.view is not None and self.view.over:
            leave(True)
            return
        self.app.push_screen(Confirm(self.leave_question), leave)

    def help_hides(self, binding: Binding) -> bool:
        """Whether the help leaves out ``binding``: the pane keys of a table without tabs."""
        return binding.action.startswith("pane(") and not self.TABBED

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick":
            return self._question is not None
        if action == "back":
            # shown (dimmed while there is nothing to take back) all through the seat's turn
            return True if self.path else (None if self._question is not None else False)
        if action == "results":
            return self.view is not None and self.view.over
        if action == "pane":  # else every pane is shown at once (a small screen leaves out the log)
            return bool(self._narrow and self.TABBED)
        if action == "hint":
            return hints_allowed(self.client) and self._question is not None
        return True
