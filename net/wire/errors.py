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
* ``Fault(reason)``: something went wrong that nobody can be blamed for with evidence (this
  machine's journal lost or damaged, another program with this seat's key): it names nobody and
  says what happened and what to do.

Every one is a ``ProtocolError``, whose ``code`` is its wire error code: the codes (``E_*``) are
here, with the errors that carry them.
"""

from __future__ import annotations

HOST = -1

# the wire error codes (docs/protocol.md lists them with their meaning)
E_MALFORMED = 1
E_TOO_LARGE = 2
E_UNKNOWN_METHOD = 3
E_BAD_PARAMS = 4
E_WRONG_CODE = 5
E_BAD_SIGNATURE = 6
E_NOT_YOUR_TURN = 7
E_OUT_OF_ORDER = 8
E_ILLEGAL = 9
E_FULL = 10
E_KEY_IN_USE = 11
E_WRONG_PHASE = 12
E_CHEAT = 13
E_NOT_YOUR_SEAT = 14
E_INTERNAL = 15
E_LOCKED_OUT = 16
E_BUSY = 17
E_TIMEOUT = 18


class ProtocolError(Exception):
    """Base of the protocol errors. ``code`` is the wire error code (see ``docs/protocol.md``)."""

    code = E_MALFORMED

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class LocalProtocolError(ProtocolError):
    """This side broke the protocol; nothing was sent."""


class RemoteProtocolError(ProtocolError):
    """The other side broke the protocol."""


class CheatDetected(ProtocolError):
    """A peer broke the protocol in a way no honest peer could: the author is named."""

    code = E_CHEAT

    def __init__(self, seat: int, step: int | str, reason: str, code: int | None = None) -> None:
        who = "the host" if seat == HOST else f"seat {seat}"
        where = f"step {step}" if isinstance(step, int) else step
        super().__init__(f"cheat detected: {who} at {where}: {reason}", code)
        self.seat = seat
        self.step = step
        self.reason = reason

    def __repr__(self) -> str:
        return f"CheatDetected({self.seat!r}, {self.step!r}, {self.reason!r})"


class Fault(ProtocolError):
    """Something failed that is nobody's proven cheat, for want of signed evidence (a journal
    lost or damaged, a second program with one key, a record cut short, a host that relays
    what nobody signed): it names nobody, and says what happened and what to do."""

    code = E_INTERNAL

    def __init__(self, reason: str, code: int | None = None, *, final: bool = False) -> None:
        super().__init__(f"fault (nobody is named): {reason}", code)
        self.reason = reason
        #: this seat can never go on in its game (its record is final, its secrets erased)
        self.final = final
