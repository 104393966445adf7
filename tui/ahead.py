"""Set-up choices made ahead of the seat's turn: the queue a table's client keeps.

In a game whose rules give ``setup_choices(view, seat, queued)`` (Court of the Medici's hide
and top phases, ``engine.medici.setup``), a seat need not wait for its turn to make its set-up
choices: they depend only on its own hand. Rules:

1. While another seat is due, the client offers the seat's choices ahead (``TableView.ahead``)
   and a choice submitted from them joins the queue (``TableView.queued``); nothing is sent.
2. When the seat is due, the client sends the queued choices in order, one per turn, each only
   if it is legal then; one that is not (it cannot happen with honest rules, but a queue is
   never trusted) is dropped, and the seat is asked again.
3. The queue belongs to its phase: a phase that ends drops what is left of it.
4. Nothing of the queue leaves this machine before the seat is due: the other seats learn of a
   placement when its entry is written, as they would have anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


class Ahead:
    """One seat's queue of set-up choices (see the module docstring)."""

    def __init__(self, rules: Any, seat: int) -> None:
        self._choices: Callable[..., Sequence[Any]] | None = rules.setup_choices
        self.seat = seat
        self.queued: list[Any] = []
        self._phase: Any = None

    def offered(self, view: Any, due: bool) -> tuple[Any, ...]:
        """The set-up actions the seat may choose now, ahead of its turn, after its queued
        ones: () while it is due (its turn asks it), or in a phase without such choices."""
        self._follow(view)
        if self._choices is None or due or view is None:
            return ()
        try:
            return tuple(self._choices(view, self.seat, self.queued))
        except ValueError:  # the queue no longer fits the view: drop it (rule 2)
            self.queued.clear()
            return tuple(self._choices(view, self.seat, ()))

    def add(self, action: Any, view: Any, due: bool) -> bool:
        """Queue ``action`` if it is one of the choices offered now; whether it was."""
        if action in self.offered(view, due):
            self.queued.append(action)
            return True
        return False

    def next(self, view: Any, legal: Sequence[Any]) -> Any | None:
        """The queued choice to send now that the seat is due, dropping any that is not
        legal (rule 2); ``None`` when none is left."""
        self._follow(view)
        while self.queued:
            action = self.queued.pop(0)
            if action in legal:
                return action
        return None

    def _follow(self, view: Any) -> None:
        phase = getattr(view, "phase", None)
        if phase != self._phase:  # rule 3
            self._phase = phase
            self.queued.clear()
