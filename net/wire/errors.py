"""Errors of the peer protocol, each saying whose fault it was.

* ``LocalProtocolError``: this side tried something the protocol does not allow (a bug here, or
  a caller asking for the impossible). Nothing was sent.
* ``RemoteProtocolError``: the other side sent something malformed or out of place. It carries
  the wire error ``code`` to answer with.
* ``CheatDetected(seat, step, reason)``: something a seat signed or sent could not have come
  from an honest peer (a false opening, a move out of turn, an altered relay, a bad shuffle).
  ``seat`` names the author (``HOST`` for the host that relayed it); ``step`` is the transcript
  position (an int) or, for the fair deck, the protocol step (``"key"``, ``"shuffle"``,
  ``"deal"``, ``"open"``); ``reason`` says what was wrong in plain words; ``code``
  is the wire error code that tells the sender.
"""

from __future__ import annotations

HOST = -1


class ProtocolError(Exception):
    """Base of the protocol errors. ``code`` is the wire error code (see ``docs/protocol.md``)."""

    code = 1

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class LocalProtocolError(ProtocolError):
    """This side broke the protocol; nothing was sent."""


class RemoteProtocolError(ProtocolError):
    """The other side broke the protocol."""


class CheatDetected(Exception):
    """A peer broke the protocol in a way no honest peer could: the author is named."""

    def __init__(self, seat: int, step: int | str, reason: str, code: int = 13) -> None:
        who = "the host" if seat == HOST else f"seat {seat}"
        where = f"step {step}" if isinstance(step, int) else step
        super().__init__(f"cheat detected: {who} at {where}: {reason}")
        self.seat = seat
        self.step = step
        self.reason = reason
        self.code = code

    def __repr__(self) -> str:
        return f"CheatDetected({self.seat!r}, {self.step!r}, {self.reason!r})"
