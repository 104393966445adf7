"""Errors of the peer protocol, each saying whose fault it was.

* ``LocalProtocolError``: this side tried something the protocol does not allow (a bug here, or
  a caller asking for the impossible). Nothing was sent.
* ``RemoteProtocolError``: the other side sent something malformed or out of place. It carries
  the wire error ``code`` to answer with.
* ``CheatDetected(seat, step, reason)``: a signed message breaks the rules of the game or of the
  protocol (a false opening, a move out of turn, an altered relay). ``seat`` names the author
  (``HOST`` for the host that relayed it), ``step`` the transcript position.
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
    """A signed message that an honest author could not have written."""

    def __init__(self, seat: int, step: int, reason: str, code: int = 13) -> None:
        who = "the host" if seat == HOST else f"seat {seat}"
        super().__init__(f"cheat detected: {who} at step {step}: {reason}")
        self.seat = seat
        self.step = step
        self.reason = reason
        self.code = code
