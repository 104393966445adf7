"""Condottiere's part of the table: the screen, the log's words, which bot moves need no pace."""

from __future__ import annotations

from engine.condottiere.state import State
from tui.condottiere.coach import why
from tui.condottiere.narrate import marks, narrate
from tui.condottiere.table import CondottiereTable

TABLE = CondottiereTable


def quiet(view: State) -> bool:
    """Choices between battles that nobody waits to watch: keeping the hand or cards."""
    return view.phase in ("discard", "keep", "take")


__all__ = ["TABLE", "marks", "narrate", "quiet", "why"]
