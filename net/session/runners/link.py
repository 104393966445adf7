"""An in-memory link: a host session and its peers wired together without sockets.

Tests use it to play whole games sans-IO; the asyncio host uses it for the seats it runs itself
(its own seat and the bots, each a ``PeerSession`` with its own key). ``pump`` moves bytes both
ways, and lets each peer's bot decide when its turn comes, until nothing moves any more.

A ``RawPeer`` stands for a hostile or hand-driven connection: a test writes bytes for it and
reads what the host answered, decoded.
"""

from __future__ import annotations

from typing import Protocol

from engine.core import Bot, GameAction, GameState
from net.session.machines.conversation import Close, Output, Send
from net.session.machines.host_session import HostSession
from net.session.machines.peer_session import PeerSession
from net.wire.rpc import Codec, Event


class RawPeer:
    """A connection driven by hand: ``received`` collects the host's bytes, ``closed`` its close."""

    def __init__(self) -> None:
        self.received = bytearray()
        self.closed = False
        self.outbox = bytearray()

    def receive_data(self, data: bytes) -> None:
        self.received += data

    def data_to_send(self) -> bytes:
        out, self.outbox = bytes(self.outbox), bytearray()
        return out

    def connection_lost(self) -> None:
        self.closed = True

    def decision_due(self) -> bool:
        return False

    def events(self) -> list[Event]:
        """Everything the host sent so far, decoded."""
        return Codec().receive_data(bytes(self.received))


class Connected(Protocol):
    """A peer on a ``MemoryLink``: a ``PeerSession``, a ``RawPeer`` or a watcher."""

    def receive_data(self, data: bytes) -> None: ...
    def data_to_send(self) -> bytes: ...
    def connection_lost(self) -> None: ...


#: a bot of the game being played, seen through the contract
SomeBot = Bot[GameState, GameAction]


class MemoryLink:
    #: settle the host's pending entry (``net.session.machines.relay``) as soon as the bytes
    #: handed to it are delivered: in process its check has run beside the peers' meanwhile; the
    #: asyncio host settles when the check ends instead (``HostRunner``)
    settle_at_once = True

    def __init__(self, host: HostSession) -> None:
        self.host = host
        self.peers: dict[int, Connected] = {}
        self.bots: dict[int, SomeBot] = {}
        self.fallbacks: dict[int, SomeBot] = {}  # bots that play a seat whose player let time pass
        self._next = 0

    def add(self, peer: Connected, bot: SomeBot | None = None, fallback: SomeBot | None = None,
            address: str = "") -> int:
        """Connect ``peer`` (a ``PeerSession`` or ``RawPeer``), played by ``bot`` if given, or
        by ``fallback`` when its player lets the turn timeout pass (``--on-timeout bot``).
        ``address`` is where the host sees it come from (``""``: in process)."""
        self._next += 1
        conn = self._next
        self.peers[conn] = peer
        if bot is not None:
            self.bots[conn] = bot
        if fallback is not None:
            self.fallbacks[conn] = fallback
        self.deliver(self.host.connect(conn, address))
        return conn

    def drop(self, conn: int) -> None:
        """Cut a connection as if the network failed."""
        peer = self.peers.pop(conn, None)
        self.bots.pop(conn, None)
        if peer is not None:
            peer.connection_lost()
        self.deliver(self.host.disconnect(conn))

    def deliver(self, outputs: list[Output]) -> None:
        for out in outputs:
            peer = self.peers.get(out.conn)
            if peer is None:
                continue
            if isinstance(out, Send):
                peer.receive_data(out.data)
            elif isinstance(out, Close):
                self.drop(out.conn)

    def send(self, conn: int, data: bytes) -> None:
        """Bytes from connection ``conn`` to the host."""
        self.deliver(self.host.receive_data(conn, data))
        while self.settle_at_once and self.host.pending is not None:
            self.deliver(self.host.settle(wait=True))

    def pump(self, limit: int = 1_000_000) -> None:
        for _ in range(limit):
            moved = False
            for conn, peer in list(self.peers.items()):
                data = peer.data_to_send()
                if data:
                    moved = True
                    self.send(conn, data)
                bot, auto = self.bots.get(conn), False
                if bot is None and conn in self.fallbacks and isinstance(peer, PeerSession) \
                        and peer.takeover_due():
                    bot, auto = self.fallbacks[conn], True  # the entry says so: ``auto``
                if bot is not None and isinstance(peer, PeerSession) and peer.decision_due():
                    assert peer.table is not None and peer.table.view is not None
                    peer.act(bot.choose(peer.table.view, peer.table.me), auto)
                    moved = True
            ticked = self.host.tick()
            if self.settle_at_once and self.host.pending is not None:
                ticked += self.host.settle(wait=True)  # a post the host took on its own
            if ticked:
                moved = True
                self.deliver(ticked)
            if not moved:
                return
        raise RuntimeError("the link did not settle")
