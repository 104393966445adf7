"""The rules options of a game as form widgets, shared by the start screen and the host form.

``option_widgets(game, chosen)`` gives one widget per option the game's rules offer: a tick for
an on/off option, a list for one that takes a number (``playing_for_points``). ``read_options``
reads them back from the screen as ``(name, value)`` pairs, the values ``parse_options`` gives
for ``--option NAME`` or ``--option NAME=N``. A game without options shows ``none``.
"""

from __future__ import annotations

from typing import Any

from textual.containers import Horizontal
from textual.dom import DOMNode
from textual.widgets import Checkbox, Label, Select

from engine.registry import get_game
from tui.widgets import Tick

#: words for the options of each game; an option with a list of numbers takes one of them
OPTION_WORDS: dict[str, str] = {
    "end_when_all_struck": "Play on until no house has a shadow alliance left",
    "draw_after_battle": "Draw after battle (no rounds; up to 3 cards after each battle)",
    "playing_for_points": "Playing for points: a match to a target score",
    "bigger_kingdoms": "Bigger kingdoms (more adjacent regions to win)",
    "capturing_regions": "Capturing regions (battles for held regions)",
    "hidden_cards": "Hidden cards (some cards are played face down)",
}
NUMERIC_OPTIONS: dict[str, tuple[int, ...]] = {"playing_for_points": (20, 30, 40)}


def option_widgets(game: str, chosen: dict[str, Any] | None = None) -> list[Any]:
    """One widget per rules option of ``game`` (ids ``opt-NAME``), set as in ``chosen``."""
    rules = get_game(game).rules
    chosen = chosen or {}
    widgets: list[Any] = []
    for name in rules.options:
        words = OPTION_WORDS.get(name, name.replace("_", " "))
        if name in NUMERIC_OPTIONS:
            choices = [("off", 0)] + [(f"to {n} points", n) for n in NUMERIC_OPTIONS[name]]
            widgets.append(Horizontal(
                Label(words, classes="option-name"),
                Select(choices, value=int(chosen.get(name, 0) or 0), allow_blank=False,
                       compact=True, id=f"opt-{name}", classes="option-number"),
                classes="option",
            ))
        else:
            widgets.append(Tick(words, value=bool(chosen.get(name)), compact=True,
                                id=f"opt-{name}", classes="option"))
    if not widgets:
        widgets.append(Label("none", classes="none"))
    return widgets


def read_options(root: DOMNode, game: str) -> list[tuple[str, Any]]:
    """The options set on the widgets under ``root``: ``True`` for a tick, the number chosen."""
    options: list[tuple[str, Any]] = []
    for name in getattr(get_game(game).rules, "options", ()):
        found = root.query(f"#opt-{name}")
        if not found:
            continue
        w = found.first()
        if isinstance(w, Checkbox) and w.value:
            options.append((name, True))
        elif isinstance(w, Select) and w.value:
            options.append((name, int(w.value)))  # type: ignore[arg-type]
    return options
