"""Table talk at the table and in the lobby: the talk pane, quick phrases, and how talk reads in
the log.

* ``t`` opens the ``TalkScreen`` over the table (or the lobby): the latest talk, the quick
  phrases, a line to type on. Enter says the line; with the line empty, a digit says that quick
  phrase; Escape returns to the game (the pane takes no game key: the table's keys are back at
  once). What the host refuses ("slow down: ...") shows on the pane's status line and in the log.
* The log shows each message in its place among the moves (``talk_line``): ``Jo says: "Deal?"``,
  ``(from the record)`` for one this table did not hear live but read in its author's entry;
  the peer's notes (a message the host did not relay in order, one nobody signed) as they are.
* Quick phrases (``phrases``): Condottiere's deals, chosen by number; in the Medici, the few
  that fit any game.
* Local games: the bots' canned remarks (``tui.remarks``), if the player wants them
  (``palazzo play --remarks on``, the start screen's Remarks setting). They are off by default:
  a bot's remark carries nothing of the game, and at 80x24 every line of it pushes a move out of
  the log's tail.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

#: quick phrases for Condottiere's deals, chosen by number in the talk pane
QUICK_PHRASES = ("I pass if you pass", "Let's not fight here", "Leave this region to me",
                 "Deal?", "No deal", "Good game")
#: the quick phrases of a game without deals to make
PLAIN_PHRASES = ("Good luck", "Well played", "Good game")
#: how many lines of talk the pane shows
SHOWN = 6


def phrases(game: str) -> tuple[str, ...]:
    return QUICK_PHRASES if game == "condottiere" else PLAIN_PHRASES


def talk_line(kind: str, data: Any) -> str:
    """One line of the log for a line of table talk (``ChatPeer.lines``); "" for none."""
    if kind == "said":
        where = "" if data.get("live", True) else " (from the record)"
        return f'{data["name"]} says: "{data["text"]}"{where}'
    if kind == "refused":
        return f'Not said ("{data["text"]}"): {data["why"]}'
    if kind == "note":
        return str(data)
    return ""


def phrase_text(choices: Sequence[str], per_row: int = 3, width: int = 25) -> str:
    """The quick phrases, numbered, ``per_row`` to a row (three fit in 80 columns)."""
    cells = [f"{i + 1} {p}".ljust(width) for i, p in enumerate(choices)]
    return "\n".join("".join(cells[k:k + per_row]).rstrip() for k in range(0, len(cells), per_row))


class TalkScreen(ModalScreen[None]):
    """The talk pane, over the lower part of the screen: ``say(text)`` says a line (``ValueError``
    for one that cannot be said), ``lines()`` gives the talk so far as ``ChatPeer.lines``."""

    DEFAULT_CSS = """
    TalkScreen { align: center bottom; }
    TalkScreen #talk { width: 100%; height: auto; max-height: 100%; border: round $accent;
                       background: $surface; padding: 0 1; }
    TalkScreen #talk-lines { height: auto; }
    TalkScreen #talk-phrases { height: auto; color: $text-muted; }
    TalkScreen #talk-status { height: auto; text-style: bold; }
    TalkScreen Input { margin: 0; }
    """
    BINDINGS = [Binding("escape", "close", "Back to the game", key_display="esc")]

    def __init__(self, say: Callable[[str], None], lines: Callable[[], list[tuple[str, Any, int]]],
                 choices: Sequence[str] = QUICK_PHRASES) -> None:
        super().__init__()
        self.say = say
        self.lines = lines
        self.choices = tuple(choices)[:9]
        self._seen = -1
        self._status = ""

    def compose(self) -> ComposeResult:
        from net.session.features.chat import TEXT_LIMIT  # the network's code: only when talk opens

        with Vertical(id="talk") as box:
            box.border_title = "Table talk (Esc: back to the game)"
            yield Static(id="talk-lines", markup=False)
            yield Static("Quick phrases (a number, with the line empty):\n"
                         + phrase_text(self.choices),
                         id="talk-phrases", markup=False)
            yield Static(id="talk-status", markup=False)
            yield Input(placeholder=f"Type a message (at most {TEXT_LIMIT} characters), Enter",
                        max_length=TEXT_LIMIT, id="talk-input")

    def on_mount(self) -> None:
        self._refresh()
        self.set_interval(0.2, self._refresh)
        self.query_one(Input).focus()

    def _refresh(self) -> None:
        lines = self.lines()
        if len(lines) == self._seen:
            return
        fresh = lines[max(self._seen, 0):] if self._seen >= 0 else []
        self._seen = len(lines)
        shown = [talk_line(k, d) for k, d, _ in lines if k != "refused"]
        shown = [s for s in shown if s][-SHOWN:]
        self.query_one("#talk-lines", Static).update("\n".join(shown) or "Nobody has said "
                                                     "anything yet.")
        for kind, data, _ in fresh:
            if kind == "refused":
                self._show(f"Not said: {data['why']}")

    def _show(self, status: str) -> None:
        self._status = status
        self.query_one("#talk-status", Static).update(status)

    def _send(self, text: str) -> None:
        try:
            self.say(text)
        except ValueError as e:
            self._show(f"Not said: {e}")
            return
        self._show("")
        self.query_one(Input).value = ""

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self._send(event.value.strip())

    def on_input_changed(self, event: Input.Changed) -> None:
        """A digit typed on an empty line says that quick phrase."""
        value = event.value
        if len(value) == 1 and value.isdigit() and 0 < int(value) <= len(self.choices):
            event.stop()
            self._send(self.choices[int(value) - 1])

    def action_close(self) -> None:
        self.dismiss(None)
