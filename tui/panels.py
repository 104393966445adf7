"""The table's small widgets: the log's tail, the move panel, the pane tabs and the key bar.

Each is drawn in place: a new log line, a new question, a switched pane or a key that starts
or stops working repaints one widget and never recomposes the screen (Textual's ``Footer``
rebuilds its children whenever the bindings are refreshed, which the table does after every
question; the ``KeyBar`` is one line of text instead).

* ``LogTail``: the latest lines of the log that fit, newest at the bottom, the latest step's
  lines in bold.
* ``MovePanel``: the answers to the current question. A click on an answer selects it (it is
  highlighted and armed); a second click on the same answer confirms it, as Enter does.
  ``arm(i)`` is the same first click from elsewhere (a card clicked in the hand).
* ``TabBar``: on a small screen, the panes that take turns above the move panel, the shown
  one in brackets; a click on a name shows that pane.
* ``KeyBar``: the keys that work now, ``key Description``, a dimmed one for a key that is
  shown but does nothing at the moment; a click on a key runs it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.geometry import Size
from textual.reactive import Reactive, reactive
from textual.widget import Widget
from textual.widgets import OptionList, Static


class LogTail(Widget):
    """The latest lines of the log that fit, long lines wrapped with an indent; the lines of
    the latest step in bold. It only repaints (no layout) when lines are added; ``l`` opens
    the whole log."""

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


class Panel(Static):
    """A ``Static`` whose virtual size is news to nobody: Textual sets it during a layout and,
    by default, asks for a second layout when it changes; a panel's own size is settled by
    the first (``TableScreen.put`` asks for a layout when a panel's height changes)."""

    virtual_size = Reactive(Size(0, 0), layout=False, repaint=False)


class PaneScroll(VerticalScroll):
    """A scrolling pane; its scroll bars come and go with a layout of their own, so a change
    of its content's size needs no second layout either."""

    virtual_size = Reactive(Size(0, 0), layout=False, repaint=False)


class MovePanel(OptionList):
    """The answers to the current question: one click selects, a second confirms. New answers
    are drawn without laying the screen out again (the panel's size does not depend on them)."""

    virtual_size = Reactive(Size(0, 0), layout=False, repaint=False)

    armed: int | None = None
    #: when the current answers were put up (``time.monotonic``); older input is not for them
    asked_at: float = 0.0

    def arm(self, index: int) -> bool:
        """Select answer ``index`` without confirming it; ``True`` if it was already armed."""
        again = self.armed == index
        self.armed = index
        self.highlighted = index
        return again

    async def _on_click(self, event: events.Click) -> None:
        event.prevent_default()  # not OptionList's: one click would confirm
        index = event.style.meta.get("option")
        if index is None or event.time < self.asked_at:
            return
        if self.arm(index):
            self.action_select()


class TabBar(Panel):
    """``[Court]  Hand  Houses  Log   left/right: other panes``: the panes of a small screen,
    with the keys that change them (``keys``: a replay steps with left/right, and uses tab)."""

    def show(self, names: Sequence[str], current: int, keys: str = "left/right") -> None:
        out = Text()
        for i, name in enumerate(names):
            if i:
                out.append("  ")
            style = Style(meta={"pane": i})
            if i == current:
                out.append(f"[{name}]", style=Style(bold=True, reverse=True) + style)
            else:
                out.append(f" {name} ", style=style)
        out.append(f"   {keys}: other panes", style="dim italic")
        self.update(out, layout=False)

    def on_click(self, event: events.Click) -> None:
        index = event.style.meta.get("pane")
        if index is not None:
            event.stop()
            self.screen.show_pane(index)  # type: ignore[attr-defined]


class KeyBar(Panel):
    """One line of the keys that work now; a click on one runs it on the screen."""

    _drawn: dict[tuple[object, ...], Text]

    def show(self, keys: Sequence[tuple[Binding, bool]], width: int) -> None:
        if not hasattr(self, "_drawn"):
            self._drawn = {}
        seen = (tuple((b.key, b.action, on) for b, on in keys), width)
        if seen not in self._drawn:  # a turn goes between a few sets of keys: draw each once
            self._drawn[seen] = self._draw(keys, width)
        self.update(self._drawn[seen], layout=False)

    def _draw(self, keys: Sequence[tuple[Binding, bool]], width: int) -> Text:
        out = Text(no_wrap=True, overflow="ellipsis")
        for binding, enabled in keys:
            key = binding.key_display or binding.key.split(",")[0]
            part = Text()
            part.append(f" {key} ", style="bold reverse" if enabled else "dim reverse")
            part.append(f"{binding.description} ", style="" if enabled else "dim")
            action = binding.action if "." in binding.action else f"screen.{binding.action}"
            part.stylize(Style(meta={"@click": action}))
            if out.cell_len and out.cell_len + part.cell_len > width:
                break
            out.append_text(part)
        return out


def clickable(text: Text, words: Sequence[tuple[str, object]], in_order: bool = True) -> Text:
    """``text`` with each word of ``words`` answering a click: a click on it gives the screen
    the word's answer (``("card", 12)``) in its meta. ``in_order``: each word is looked for
    after the last one found (a hand with two cards of one name)."""
    at = 0
    plain = text.plain
    for word, answer in words:
        i = _find_word(plain, word, at if in_order else 0)
        if i < 0:
            continue
        text.stylize(Style(meta={"answer": answer}), i, i + len(word))
        if in_order:
            at = i + len(word)
    return text


def _find_word(plain: str, word: str, start: int) -> int:
    """Where ``word`` stands whole in ``plain`` from ``start`` (not ``Mercenary 1`` in
    ``Mercenary 10``), or -1."""
    i = plain.find(word, start)
    while i >= 0:
        before = plain[i - 1] if i else " "
        after = plain[i + len(word)] if i + len(word) < len(plain) else " "
        if not before.isalnum() and not after.isalnum():
            return i
        i = plain.find(word, i + 1)
    return -1
