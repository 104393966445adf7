"""A record of the games played here: wins by game, player count and opponents' level.

Where: ``$XDG_DATA_HOME/palazzo/history.json`` (default ``~/.local/share/palazzo/``), one JSON
object ``{"format": "palazzo-history", "version": 1, "games": [...]}``, each game::

    {"id": "medici-20261201-140000-1234.json", "game": "medici", "players": 4,
     "level": "normal", "won": true, "place": 1, "ended": "2026-12-01T14:30:00Z"}

A local game is written here once, when it ends (``record``: the saved game's file name is its
``id``, so a game is never counted twice); ``level`` is the opponents' level, or ``mixed`` when
they differ. A missing or damaged file counts as no games (and a damaged one is not written
over: a record that cannot be read is kept as it is). ``palazzo history``, the start screen and
the end screen show it (``table``, ``start_line``, ``record_line``).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

FORMAT = "palazzo-history"
VERSION = 1

#: the games' names as the record shows them
TITLES = {"medici": "Court of the Medici", "condottiere": "Condottiere"}
SHORT = {"medici": "Medici", "condottiere": "Condottiere"}


def path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "palazzo" / "history.json"


def _valid(g: Any) -> bool:
    return (isinstance(g, dict) and isinstance(g.get("id"), str) and isinstance(g.get("game"), str)
            and type(g.get("players")) is int and isinstance(g.get("level"), str)
            and type(g.get("won")) is bool)


def _read() -> tuple[list[dict[str, Any]], bool]:
    """The games recorded, and whether the file may be written (it is missing or whole)."""
    try:
        data = json.loads(path().read_text())
    except FileNotFoundError:
        return [], True
    except (OSError, ValueError):
        return [], False
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("games"), list):
        return [], False
    return [g for g in data["games"] if _valid(g)], True


def games() -> list[dict[str, Any]]:
    """Every game recorded, oldest first."""
    return _read()[0]


def opponents_level(levels: Sequence[str]) -> str:
    """One word for the opponents: their level, or ``mixed``."""
    kinds = set(levels)
    return kinds.pop() if len(kinds) == 1 else ("mixed" if kinds else "none")


def record(game_id: str, game: str, players: int, level: str, won: bool, place: int) -> bool:
    """Add a finished game (once: a game already recorded under ``game_id`` is left alone);
    ``False`` if it could not be written."""
    recorded, writable = _read()
    if not writable:
        return False
    if any(g["id"] == game_id for g in recorded):
        return True
    recorded.append({"id": game_id, "game": game, "players": players, "level": level,
                     "won": won, "place": place,
                     "ended": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
    p = path()
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"format": FORMAT, "version": VERSION, "games": recorded},
                                  indent=1) + "\n")
        tmp.replace(p)
    except OSError:
        return False
    return True


def tally(recorded: Sequence[dict[str, Any]], **match: Any) -> tuple[int, int]:
    """(won, played) among the games whose fields equal ``match`` (``game="medici"``)."""
    chosen = [g for g in recorded if all(g.get(k) == v for k, v in match.items())]
    return sum(1 for g in chosen if g["won"]), len(chosen)


def _share(won: int, played: int) -> str:
    return f"won {won} of {played} ({round(100 * won / played)}%)" if played else "none played"


def rows(recorded: Sequence[dict[str, Any]]) -> list[tuple[str, int, str, int, int]]:
    """(game's title, players, level, won, played) for every kind of game played, in order."""
    kinds = sorted({(g["game"], g["players"], g["level"]) for g in recorded})
    out = []
    for game, players, level in kinds:
        won, played = tally(recorded, game=game, players=players, level=level)
        out.append((TITLES.get(game, game), players, level, won, played))
    return out


def table(recorded: Sequence[dict[str, Any]]) -> str:
    """``palazzo history``: a line per game, player count and level, then the totals."""
    if not recorded:
        return f"No finished games yet (they are recorded in {path()})."
    lines = [f"{'game':<20} {'players':>7}  {'opponents':<9} {'won':>4} {'played':>6}  share"]
    for title, players, level, won, played in rows(recorded):
        lines.append(f"{title:<20} {players:>7}  {level:<9} {won:>4} {played:>6}  "
                     f"{round(100 * won / played)}%")
    won, played = tally(recorded)
    lines.append(f"{'all games':<20} {'':>7}  {'':<9} {won:>4} {played:>6}  "
                 f"{round(100 * won / played)}%")
    return "\n".join(lines)


def start_line(recorded: Sequence[dict[str, Any]]) -> str:
    """The start screen's line: each game's wins, ``""`` before any game is finished."""
    parts = []
    for game, title in TITLES.items():
        won, played = tally(recorded, game=game)
        if played:
            parts.append(f"{SHORT.get(game, title)} {_share(won, played)}")
    return ("Your record: " + "; ".join(parts) + " (palazzo history)") if parts else ""


def record_line(recorded: Sequence[dict[str, Any]], game: str, players: int, level: str) -> str:
    """The end screen's line: the record at this game, player count and level."""
    won, played = tally(recorded, game=game, players=players, level=level)
    if not played:
        return ""
    title = TITLES.get(game, game)
    return f"Your record in {title}, {players} players, {level} opponents: {_share(won, played)}."
