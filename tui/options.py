"""The rules options of a game as form widgets, shared by the start screen and the host form.

``option_widgets(game, chosen)`` gives one widget per option the game's rules offer, as the
engine declares them (``rules.variants``, ``engine.core.Option``: the name, the words shown,
the numbers offered): a tick for an on/off option, a list for one that takes a number
(``playing_for_points``). ``read_options`` reads them back from the screen as ``(name, value)``
pairs, the values ``parse_options`` gives for ``--option NAME`` or ``--option NAME=N``. A game
without options shows ``none``.
"""

from __future__ import annotations

from typing import Any

from textual.containers import Horizontal
from textual.dom import DOMNode
from textual.widgets import Checkbox, Label, Select

from engine.registry import get_game
from tui.widgets import Tick


def option_widgets(game: str, chosen: dict[str, Any] | None = None) -> list[Any]:
    """One widget per rules option of ``game`` (ids ``opt-NAME``), set as in ``chosen``."""
    chosen = chosen or {}
    widgets: list[Any] = []
    for option in get_game(game).rules.variants:
        name = option.name
        if option.values:
            widgets.append(Horizontal(
                Label(option.words, classes="option-name"),
                Select(option.choices(), value=int(chosen.get(name, option.default) or 0),
                       allow_blank=False, compact=True, id=f"opt-{name}",
                       classes="option-number"),
                classes="option",
            ))
        else:
            widgets.append(Tick(option.words, value=bool(chosen.get(name, option.default)),
                                compact=True, id=f"opt-{name}", classes="option"))
    if not widgets:
        widgets.append(Label("none", classes="none"))
    return widgets


def read_options(root: DOMNode, game: str) -> list[tuple[str, Any]]:
    """The options set on the widgets under ``root``: ``True`` for a tick, the number chosen."""
    options: list[tuple[str, Any]] = []
    for name in get_game(game).rules.options:
        found = root.query(f"#opt-{name}")
        if not found:
            continue
        w = found.first()
        if isinstance(w, Checkbox) and w.value:
            options.append((name, True))
        elif isinstance(w, Select) and w.value:
            options.append((name, int(w.value)))  # type: ignore[arg-type]
    return options
