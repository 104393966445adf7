"""What the start screen's Replay offers: the finished local games and the networked games'
records on disk, newest first.

Only the standard library and ``tui.saves``: the start screen lists them just after its first
frame without loading the network's code, which ``tui.replay`` brings in when a game is
replayed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from net.wire.folders import data_dir
from tui import saves


@dataclass(frozen=True)
class RecordFile:
    """A networked game's transcript on disk, for the start screen's list."""

    path: Path
    saved: str  # when it was written, "YYYY-mm-dd HH:MM:SS" UTC

    def describe(self) -> str:
        return f"{self.saved[:16]}  networked game: {self.path.name}"


def replay_records() -> list[Any]:
    """The finished local games (``tui.saves.SavedGame``) and the networked games' transcripts
    (``RecordFile``), newest first."""
    found: list[tuple[str, Any]] = [(g.saved.replace("T", " "), g)
                                    for g in saves.saved_games(finished=True)]
    try:
        paths = list(data_dir().glob("*.palazzo"))
    except OSError:
        paths = []
    for p in paths:
        try:
            when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(p.stat().st_mtime))
        except OSError:
            continue
        found.append((when, RecordFile(p, when)))
    found.sort(key=lambda pair: pair[0], reverse=True)
    return [item for _, item in found]
