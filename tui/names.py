"""Short words for a table's header: seat names cut to one length, bots by level, the options.

``short_name(name)`` is the one way a long seat name is shortened: a name is a seat and, in
brackets, its player (``Red (bot-1 (easy))``); the seat is kept whole and the player cut with
an ellipsis, so the name fits in ``NAME_LIMIT`` characters wherever it is written (the header,
the houses or battle lines, the log, the end screen). Clients shorten their names once with
``short_names``, so every screen shows the same short form.

``possessive(name)`` is a name's possessive, a seat's when the name carries its player in
brackets. ``level_name(entry, bot)`` words a bot the way the start screen offers it: by its level
(``easy``, ``normal``, ``hard``), never by the kind of program that plays it.
``setting_words(...)`` is the header's second line: the game's options and the bots' levels.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from engine.core import GameRules

NAME_LIMIT = 16

#: an option in a few words, for the header
def short_name(name: str, limit: int = NAME_LIMIT) -> str:
    """``name`` in at most ``limit`` characters: ``Red (bot-1 (easy))`` -> ``Red (bot-1 (ea…)``."""
    if len(name) <= limit:
        return name
    seat, sep, player = name.partition(" (")
    if sep and player.endswith(")") and len(seat) + 5 <= limit:
        room = limit - len(seat) - 4  # " (" + "…" + ")"
        return f"{seat} ({player[:-1][:room].rstrip()}…)"
    return name[: limit - 1].rstrip() + "…"


def possessive(name: str) -> str:
    """``Red's``; a seat with its player in brackets, shortened or not, by its seat alone
    (``Red (Alexandra…)`` -> ``Red's``), since ``Red (Alexandra…)'s`` reads oddly."""
    seat, sep, player = name.partition(" (")
    if sep and player.endswith(")"):
        name = seat
    return f"{name}'s"


def short_names(names: Iterable[str], limit: int = NAME_LIMIT) -> tuple[str, ...]:
    return tuple(short_name(n, limit) for n in names)


def level_name(entry: Any, bot: str) -> str:
    """The level a bot name stands for: a level as is; a kind by the level that plays it
    (the plainest one), else the kind's own name."""
    levels: dict[str, tuple[str, dict[str, Any]]] = getattr(entry, "levels", {})
    if bot in levels:
        return bot
    plays = [lv for lv, (kind, preset) in levels.items() if kind == bot]
    plain = [lv for lv in plays if not levels[lv][1]]
    return (plain or plays or [bot])[0]


def options_words(rules: GameRules[Any, Any, Any], config: Any) -> list[str]:
    """The options a game's configuration has on, in a few words each (the engine's
    ``Option.short_words``); a game whose configuration names its reading of the rules (Court
    of the Medici's length) says it even with no option on ("full game")."""
    words = []
    for opt in rules.variants:
        if not getattr(config, opt.name, False):
            continue
        words.append(opt.short_words(getattr(config, opt.field or opt.name, None)))
    reading = getattr(config, "reading", "")  # Court of the Medici's length: always said
    if reading and not words:
        words.append(reading.partition(":")[0])
    return words


def bots_words(levels: Sequence[str]) -> str:
    """``bots: easy x2, hard``."""
    if not levels:
        return ""
    counts = Counter(levels)
    return "bots: " + ", ".join(f"{lv} x{n}" if n > 1 else lv for lv, n in counts.items())


def setting_words(title: str, you: str, options: Sequence[str], levels: Sequence[str]) -> str:
    """``Court of the Medici, you are Orsini | no options | bots: easy x3``."""
    parts = [f"{title}, you are {you}", ", ".join(options) if options else "no options"]
    bots = bots_words(levels)
    if bots:
        parts.append(bots)
    return " | ".join(parts)
