"""The conversation between the host and its peers, and what both sides of it share.

The host's side is ``HostSession`` (``net.session.machines.host_session``, its connections and
what they may cost in ``net.session.machines.host_door``), a seat's ``PeerSession``
(``net.session.machines.peer_session``). Both are sans-IO state machines over the rpc codec and
the table: they take bytes and return bytes; neither touches a socket, a clock it was not given,
or a file. ``net.session.runners.host`` and ``net.session.runners.peer`` drive them over
asyncio; tests and host-side bots drive them through ``net.session.runners.link``.

The conversation (``docs/protocol.md`` gives every field):

1. On connect the host sends ``challenge {nonce, host, version, game, players, code}`` (a
   peer that chose the host from an advertisement on the LAN, ``net.session.commands.discovery``, stops
   here unless the host key has the fingerprint advertised).
2. The peer asks ``hello {name, key, sig, code, have, nonce}``: ``sig`` signs the host's nonce
   and the host key with the peer's identity; ``nonce`` is 32 fresh bytes of the peer's, its
   challenge to the host and, in the lobby, its contribution to the game id (kept in its journal
   before it is sent). The host checks the game code, the key (``check_public_key``) and the
   signature, then seats the key (a key already seated takes its seat back: a rejoin; while
   another connection holds that seat the host first sends it ``ping`` and answers the hello
   only when it has answered, ``E_KEY_IN_USE`` the player is already at the table, or not
   within ``limits.PING_WAIT``, or closed: the new connection takes the seat; a hello from the
   network with the seat's own name too takes it at once, ``_claim``) and answers ``{seat, players, length, resume, proof}``: ``proof``
   is the host's signature of the peer's nonce and key (``HOST_TAG``), which the peer checks with
   the host key of the challenge before it goes on, so nobody without the host's private key
   can play the host (not even with a saved transcript of its). To a rejoining peer the host then
   sends the transcript entries from ``have`` on.
3. In the lobby the host broadcasts ``lobby {...}`` on every change; peers ask ``ready``.
4. When every seat is taken and ready, the host writes the ``start`` entry: it names every seat's
   key and nonce (the nonce of the hello that seated it), and its game id is made from them
   (``derive_game_id``), so every seat makes the game fresh and knows its own part in it; a peer
   follows only a start that carries a live contribution of its own. From then on peers
   ask ``post {body, sig}`` with their entries; the host checks each on its observer table and
   either answers an error (nothing relayed) or relays it to everyone as ``entry {body, sig}``.
   A peer signs each entry once: its journal keeps it before it is posted, and after a reconnect
   or a restart the same bytes go out again.
5. When the table reaches ``over`` the host sends ``bye`` and the peers save the transcript.
   A host that offers a rematch keeps the connections for the answers (``again``, ``rematch``:
   ``net.session.features.rematch``).

Watchers (``net.session.features.watch``) and presence (``net.session.features.presence``) are
the host session's hooks (``host_session``); what one connection may do and cost, its door's
(``host_door``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypeVar, overload

from net.session.machines.table import Table
from net.wire.errors import (
    E_BAD_PARAMS,
    E_BAD_SIGNATURE,
    E_BUSY,
    E_FULL,
    E_LOCKED_OUT,
    E_TIMEOUT,
    E_WRONG_CODE,
    CheatDetected,
    RemoteProtocolError,
)
from net.wire.identity import Identity
from net.wire.rpc import Fields, Request, Value
from net.wire.transcript import Entry

VERSION = 3
HELLO_TAG = b"palazzo/hello/v1\x00"
HOST_TAG = b"palazzo/host/v1\x00"
#: refusals after which the host closes the connection (the peer cannot go on without it)
CLOSING = frozenset({E_WRONG_CODE, E_LOCKED_OUT, E_FULL})
#: what a host says as it closes a connection that may try again later
RETRY = frozenset({E_BUSY, E_TIMEOUT})
#: entries one ``supply`` request may carry (a seat giving back what a restarted host lost)
SUPPLY_CHUNK = 64


def hello_signature(identity: Identity, nonce: bytes, host_key: bytes) -> bytes:
    return identity.sign(HELLO_TAG, nonce + host_key)


def host_proof(identity: Identity, peer_nonce: bytes, peer_key: bytes) -> bytes:
    """The host's answer to a peer's challenge: its signature of the peer's nonce and key."""
    return identity.sign(HOST_TAG, peer_nonce + peer_key)


@dataclass(frozen=True)
class Send:
    conn: int
    data: bytes


@dataclass(frozen=True)
class Close:
    conn: int
    reason: str


Output = Send | Close


def param_map(req: Request) -> Fields:
    m = req.params[0] if len(req.params) == 1 else None
    if type(m) is not dict:
        raise RemoteProtocolError(f"{req.method} takes one map of fields", E_BAD_PARAMS)
    return m


_T = TypeVar("_T", bool, int, str, bytes)


@overload
def typed(m: Mapping[str, Value], name: str, t: type[_T], *, size: int | None = None,
          optional: Literal[False] = False) -> _T: ...
@overload
def typed(m: Mapping[str, Value], name: str, t: type[_T], *, size: int | None = None,
          optional: Literal[True]) -> _T | None: ...


def typed(m: Mapping[str, Value], name: str, t: type[_T], *, size: int | None = None,
          optional: bool = False) -> _T | None:
    """The field ``name`` of ``m``, of type ``t`` (and ``size`` long; ``None`` when it is
    missing and ``optional``); else ``RemoteProtocolError``."""
    v = m.get(name)
    if v is None and optional:
        return None
    if type(v) is not t or not isinstance(v, t) \
            or (size is not None and (not isinstance(v, bytes) or len(v) != size)):
        what = f"{t.__name__}" + (f" of {size} bytes" if size is not None else "")
        raise RemoteProtocolError(f"field {name!r} must be {what}", E_BAD_PARAMS)
    return v


def printable(text: object) -> str:
    """Text from the host, as one printable line of at most 300 characters."""
    return printable_line(str(text)[:300])


def check_equivocation(table: Table, entry: Entry) -> None:
    """``CheatDetected`` naming the author when ``entry`` is signed by it for a place of the
    transcript that already holds a different entry of its; ``RemoteProtocolError`` when it is
    not validly signed; nothing when the place is free or holds this very entry."""
    held = table.transcript.entries
    if not 0 <= entry.seq < len(held) or held[entry.seq].body == entry.body:
        return
    author = entry.author
    key = table.author_key(author)
    if key is None or not entry.signed_by(key):
        raise RemoteProtocolError(f"entry {entry.seq}: signature check: bad signature for its author", E_BAD_SIGNATURE)
    if held[entry.seq].author == author:
        raise CheatDetected(author, entry.seq, "signed two different entries for one place in "
                            "the transcript")


def printable_line(text: str) -> str:
    """``text`` as one printable line, each character that is not printable by its escape: the
    names and reasons come from the file (or from the host)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
