"""Court of the Medici's part of the table: the screen, the log's words, which bot moves are
set-up work that need not be paced."""

from __future__ import annotations

from engine.medici.state import State
from tui.medici.coach import why
from tui.medici.narrate import marks, narrate
from tui.medici.table import MediciTable

TABLE = MediciTable


def quiet(view: State) -> bool:
    """The face-down placements of the set-up are quick; every move of play is paced."""
    return view.phase in ("hide", "top")


__all__ = ["TABLE", "marks", "narrate", "quiet", "why"]
