"""The rules of the game being played, for players: ``tui/rules/<game>.md``, shipped with the
program. The developer's rules (``docs/rules/``: tests, views, actions) are not shown here.

The rules files use a small part of Markdown, read here by a few lines of code rather than a
Markdown widget (whose parse and layout took seconds): ``#`` and ``##`` headings, paragraphs
(lines joined), ``-`` and ``1.`` items, ``**bold**``, ``*italic*`` and `` `as shown` ``. The text
is read once per game and kept (``_parsed``), and wrapped once per width (``RulesText``): the
screen is that one widget in a scrolled box, so it wraps at any width, items with a hanging
indent, and opens at once.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Footer

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"

_INLINE = re.compile(r"\*\*(.+?)\*\*|\*(.+?)\*|`(.+?)`")
_ITEM = re.compile(r"^(\s*)(-|\d+\.)\s+(.*)$")


def rules_markdown(game: str) -> str:
    try:
        return (RULES_DIR / f"{game}.md").read_text(encoding="utf-8")
    except OSError:
        return f"# {game}\n\nNo rules are installed for this game."


def _inline(text: str, style: str = "") -> Text:
    out = Text(style=style)
    at = 0
    for m in _INLINE.finditer(text):
        out.append(text[at:m.start()])
        bold, italic, code = m.groups()
        if bold is not None:
            out.append(bold, style="bold")
        elif italic is not None:
            out.append(italic, style="italic")
        else:
            out.append(code, style="bold reverse")
        at = m.end()
    out.append(text[at:])
    return out


def _blocks(markdown: str) -> list[tuple[str, str, str]]:
    """``(kind, marker, text)`` blocks: heading1, heading2, item (marker ``-`` or ``1.``) or
    paragraph, each block's lines joined."""
    blocks: list[tuple[str, str, str]] = []
    for line in markdown.splitlines():
        stripped = line.strip()
        item = _ITEM.match(line)
        if not stripped:
            blocks.append(("gap", "", ""))
        elif stripped.startswith("## "):
            blocks.append(("heading2", "", stripped[3:]))
        elif stripped.startswith("# "):
            blocks.append(("heading1", "", stripped[2:]))
        elif item and not item.group(1):
            blocks.append(("item", item.group(2), item.group(3)))
        elif blocks and blocks[-1][0] in ("item", "paragraph"):
            kind, marker, text = blocks[-1]
            blocks[-1] = (kind, marker, f"{text} {stripped}")
        else:
            blocks.append(("paragraph", "", stripped))
    return blocks


@lru_cache(maxsize=8)
def _parsed(game: str) -> tuple[tuple[str, str, Text], ...]:
    """The blocks of ``game``'s rules with their inline styles (read once, then kept)."""
    out = []
    for kind, marker, text in _blocks(rules_markdown(game)):
        style = {"heading1": "bold underline", "heading2": "bold"}.get(kind, "")
        out.append((kind, "•" if marker == "-" else marker, _inline(text, style)))
    return tuple(out)


def wrapped_lines(game: str, width: int) -> list[Text]:
    """The rules of ``game`` as lines of at most ``width`` columns: paragraphs wrapped, items
    with a hanging indent, a blank line between blocks."""
    console = Console(width=max(width, 10), color_system=None, file=_NOWHERE, legacy_windows=False)
    width = max(width, 10)
    lines: list[Text] = []
    previous = ""
    for kind, marker, text in _parsed(game):
        if kind == "gap":
            previous = "gap"
            continue
        if lines and (previous == "gap" or kind == "heading2") and lines[-1].plain:
            lines.append(Text())
        previous = kind
        if kind == "item":
            indent = len(marker) + 1
            rows = text.wrap(console, width - indent)
            for i, row in enumerate(rows):
                lines.append(Text(f"{marker} " if i == 0 else " " * indent) + row)
        else:
            lines.extend(text.wrap(console, width))
    for line in lines:
        line.rstrip()
    return lines


class _Nowhere:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


_NOWHERE: Any = _Nowhere()


def plain_rules(game: str, width: int = 80) -> str:
    """The rules as they read on a screen ``width`` columns wide (for tests and the curious)."""
    return "\n".join(line.plain for line in wrapped_lines(game, width))


class RulesText(Widget):
    """The rules of one game, wrapped at the widget's width (kept per width: a repaint or a
    scroll wraps nothing again)."""

    DEFAULT_CSS = "RulesText { height: auto; }"

    def __init__(self, game: str, id: str | None = None) -> None:
        super().__init__(id=id)
        self.game = game
        self._lines: dict[int, list[Text]] = {}

    def lines(self, width: int) -> list[Text]:
        if width not in self._lines:
            self._lines = {width: wrapped_lines(self.game, width)}
        return self._lines[width]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        return Text("\n").join(self.lines(self.content_size.width or 80))


class RulesScreen(ModalScreen[None]):
    CSS_PATH = "help.tcss"
    BINDINGS = [Binding("escape,q,r,f2", "close", "Close")]

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        box = VerticalScroll(RulesText(self.game, id="rules-text"), id="rules")
        box.border_title = "Rules (Escape closes; arrows and PgUp/PgDn scroll)"
        yield box
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rules", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
