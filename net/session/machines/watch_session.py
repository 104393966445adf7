"""A watcher's session: following a networked game without a seat, sans-IO.

A ``WatchSession`` is a ``PeerSession`` in watch mode (``WATCH``): its hello says ``watch``
(``net.session.features.watch`` gives the host's rules), its table is an observer's (``Table(host,
None)``, seat -1: it sees as a seat that holds nothing, only what the rules show everyone), and
it never writes: no ``ready``, no entry, no word at the table, no decision is ever due.
Everything else is a seat's: the host must prove its key (the ``proof`` over this watcher's
nonce), every entry is checked by the observer table as it arrives (a bad one names the host
and stops the watch), a dropped connection is taken up again by ``PeerRunner`` with ``have``
(the host sends only what is missing), and at the end the record is read again from scratch
and saved: the very bytes every seat saves. The host answering a watch hello with a seat (a host that does not know watchers)
is refused: a watcher never plays.

``net.session.commands.watcher`` runs it for ``palazzo watch HOST:PORT``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from net.session.machines.peer_session import PeerSession
from net.wire.errors import E_BAD_PARAMS, LocalProtocolError, RemoteProtocolError
from net.wire.identity import Identity


class WatchSession(PeerSession):
    """A watcher: follows the transcript on an observer table, writes nothing."""

    WATCH = True

    def __init__(self, identity: Identity, name: str, code: str | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(identity, name, code, auto_ready=False, clock=clock)
        self.rematch.watching = True  # a rematch every seat agreed to may be followed

    def decision_due(self) -> bool:
        return False

    def act(self, action: Any, auto: bool = False) -> None:
        raise LocalProtocolError("a watcher makes no move")

    def ready(self) -> None:
        raise LocalProtocolError("a watcher takes no seat")

    def say(self, text: str) -> None:
        raise LocalProtocolError("a watcher does not talk at the table")

    def _on_welcome(self, result: Any) -> None:
        if type(result) is dict and result.get("seat") != -1:
            raise RemoteProtocolError(
                f"the host answered this watcher with seat {result.get('seat')!r}: it does not "
                "take watchers (a watcher never plays)", E_BAD_PARAMS)
        super()._on_welcome(result)

    def _maybe_write(self) -> None:
        return  # a watcher writes nothing
