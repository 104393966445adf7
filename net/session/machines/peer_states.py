"""The states of a seat's session and what it tells its user (``net.session.machines.peer_session``).

The rule: ``PEER_TRANSITIONS`` is the one place that says which state follows which; the
session's ``_go`` alone changes its ``state``. A step its state has no row for leaves the state
as it is (a game over is never failed, only its rematch; a failed session stays failed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class PeerState(str, Enum):
    """Where a seat's session stands; ``PEER_TRANSITIONS`` says which state follows which."""

    CONNECTING = "connecting"  # a new connection: the challenge, the hello and its answer
    LOBBY = "lobby"  # seated, the game not started
    PLAYING = "playing"  # the game under way (or taken up again after a drop)
    OVER = "over"  # the table reached its end: only a rematch is talked about now
    FAILED = "failed"  # stopped for good: ``error`` says why (a cheat names its author)
    DISCONNECTED = "disconnected"  # the connection went; ``reconnect`` starts over

    def __str__(self) -> str:
        return self.value


class Step(Enum):
    """What moves a seat's session from one state to another."""

    SEATED = "the host seated it in the lobby"
    RESUMED = "the host seated it in a game under way"
    STARTED = "an entry arrived in the lobby"
    ENDED = "its table reached the end of the game"
    FAILED = "it stopped (a refusal, a malformed message, a detected cheat)"
    LOST = "its connection went"
    RECONNECTED = "a new connection"


_UNDER_WAY = {
    Step.SEATED: PeerState.LOBBY, Step.RESUMED: PeerState.PLAYING, Step.ENDED: PeerState.OVER,
    Step.FAILED: PeerState.FAILED, Step.RECONNECTED: PeerState.CONNECTING,
}
#: which state follows which (the module's rule)
PEER_TRANSITIONS: dict[PeerState, dict[Step, PeerState]] = {
    PeerState.CONNECTING: {**_UNDER_WAY, Step.LOST: PeerState.DISCONNECTED},
    PeerState.LOBBY: {**_UNDER_WAY, Step.STARTED: PeerState.PLAYING,
                      Step.LOST: PeerState.DISCONNECTED},
    PeerState.PLAYING: {**_UNDER_WAY, Step.LOST: PeerState.DISCONNECTED},
    PeerState.DISCONNECTED: dict(_UNDER_WAY),
    PeerState.OVER: {},
    PeerState.FAILED: {Step.FAILED: PeerState.FAILED},
}

#: each notification the host sends a seat -> the session's method that takes it (any other is
#: refused, ``E_UNKNOWN_METHOD``)
PEER_NOTES: dict[str, str] = {
    "challenge": "_on_challenge",
    "lobby": "_on_lobby",
    "entry": "_on_entry",
    "error": "_on_error",
    "bye": "_on_bye",
    "presence": "_on_presence",
    "said": "_on_said",
    "rematch": "_on_early_rematch",
    "ack": "_on_ack",
    "evidence": "_on_evidence",
    "confirm": "_on_confirm",
    "withdraw": "_on_withdraw",
    "disk": "_on_disk",
}


@dataclass
class PeerEvent:
    """Something a peer's user may want to hear: ``kind`` is lobby, log, turn, over, failed,
    presence (``data`` the ``Presence`` read), note (``data`` a line: "Jo left", ...),
    rematch (a line on the rematch after the end: ``net.session.features.rematch``), cheat
    (``data`` the ``CheatDetected``, named with evidence this program checked) or evidence
    (``data`` the file it is kept in: ``net.session.machines.echo``)."""

    kind: str
    data: Any = field(default=None)
