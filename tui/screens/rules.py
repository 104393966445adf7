"""The rules of the game being played, for players: ``tui/rules/<game>.md``, shipped with the
program. The developer's rules (``docs/rules/``: tests, views, actions) are not shown here.

The rules files use a small part of Markdown, read here by a few lines of code rather than a
Markdown widget (whose parse and layout took seconds): ``#`` and ``##`` headings, paragraphs
(lines joined), ``-`` and ``1.`` items, ``**bold**``, ``*italic*`` and `` `as shown` ``. The text
is built once per game and kept (``rules_text``); the screen is one ``Static`` in a scrolled
box, so it wraps at any width, items with a hanging indent, and opens at once.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

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
def rules_text(game: str) -> RenderableType:
    """The rules of ``game``, ready to draw (built once, then kept)."""
    parts: list[RenderableType] = []
    items: Table | None = None
    for kind, marker, text in _blocks(rules_markdown(game)):
        if kind == "item":
            if items is None:
                items = Table.grid(padding=(0, 1))
                items.add_column(no_wrap=True)
                items.add_column(ratio=1)
            items.add_row("•" if marker == "-" else marker, _inline(text))
            continue
        if items is not None:
            parts.append(items)
            items = None
        if kind == "heading1":
            parts.append(_inline(text, "bold underline"))
        elif kind == "heading2":
            if parts and not (isinstance(parts[-1], Text) and not parts[-1].plain):
                parts.append(Text())
            parts.append(_inline(text, "bold"))
        elif kind == "paragraph":
            parts.append(_inline(text))
        elif parts and not (isinstance(parts[-1], Text) and not parts[-1].plain):
            parts.append(Text())
    if items is not None:
        parts.append(items)
    return Group(*parts)


def plain_rules(game: str, width: int = 80) -> str:
    """The rules as they read on a screen ``width`` columns wide (for tests and the curious)."""
    from rich.console import Console

    console = Console(width=width, record=True, color_system=None, file=open("/dev/null", "w"))
    console.print(rules_text(game))
    return console.export_text()


class RulesScreen(ModalScreen[None]):
    CSS_PATH = "help.tcss"
    BINDINGS = [Binding("escape,q,r,f2", "close", "Close")]

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        box = VerticalScroll(Static(rules_text(self.game), id="rules-text"), id="rules")
        box.border_title = "Rules (Escape closes; arrows and PgUp/PgDn scroll)"
        yield box
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rules", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
