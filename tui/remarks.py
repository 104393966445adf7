"""The bots' canned remarks in a local game (``palazzo play --remarks on``, the start screen's
Remarks setting): the first bot wishes luck at the start, the bot that moved last says
"Your move." when the player's turn comes after at least ``Remarks.EVERY`` turns without a
remark, and the first bot says "Good game." at the end. Off by default: a bot's remark carries
nothing of the game, and at 80x24 every line of it pushes a move out of the log's tail.
``Remarks`` is pure: it is told what happened and gives the lines to add to the log.
"""

from __future__ import annotations

from collections.abc import Sequence


class Remarks:
    """The remarks of the bots at a table of ``names`` where the player holds seat ``me``."""

    EVERY = 5

    def __init__(self, names: Sequence[str], me: int) -> None:
        self.names = tuple(names)
        self.me = me
        self._turns = 0
        self._started = False
        self._ended = False

    def _bots(self) -> list[int]:
        return [i for i in range(len(self.names)) if i != self.me]

    def start(self) -> list[str]:
        if self._started or not self._bots():
            return []
        self._started = True
        return [f"{self.names[self._bots()[0]]}: Good luck."]

    def my_turn(self, last: int | None) -> list[str]:
        """The player's turn has come; ``last`` the seat that moved last."""
        self._turns += 1
        if last is None or last == self.me or not 0 <= last < len(self.names) \
                or self._turns < self.EVERY:
            return []
        self._turns = 0
        return [f"{self.names[last]}: Your move."]

    def end(self) -> list[str]:
        if self._ended or not self._bots():
            return []
        self._ended = True
        return [f"{self.names[self._bots()[0]]}: Good game."]
