"""Finding a game on the LAN: a host advertises it with zeroconf (multicast DNS service
discovery), a joiner browses for it.

The advertisement is a DNS-SD service of type ``SERVICE`` (``_palazzo._tcp.local.``): the
host's addresses and port, and TXT properties (``properties``), every one of them printable
ASCII or UTF-8 text of at most ``VALUE_LIMIT`` bytes:

* ``v`` the protocol version (``3``; an advertisement of another version is not listed); ``game`` the game's name (``medici``, ``condottiere``);
* ``players`` the seats wanted, ``seated`` the seats taken (updated as they fill);
* ``host`` the host's name, ``fp`` the host key's fingerprint (``net.wire.identity.fingerprint``);
* ``code`` ``1`` when joining needs a game code, ``0`` for an open game. Never the code itself.

An advertisement is anybody's word: any machine on the LAN may send one, with any name, game
or fingerprint, for any address. So a browser keeps only the well-formed ones (``parse``: a
property missing, not text, too long, or out of range drops the whole advertisement, quietly;
nothing in one can crash the browser) and shows the fingerprint; a join that came from an
advertisement holds the host to it (``PeerSession(host_fingerprint=...)``): a host whose key
does not have the fingerprint it was chosen by is refused before anything is signed for it. The
fingerprint itself is only as good as the player's check of it against the host's own screen.

Two ways to use it, each for an asyncio loop and for a plain thread:

* ``Advertiser(offer)`` (asyncio: ``start``, ``registered``, ``seated(n)``, ``close``)
  advertises one game on a running loop; a failure is one log line and never stops the game.
  An update waits for the one before it to go out (about half a second: zeroconf sends each one
  a few times), so seats that come and go quickly cost a few packets a second at most.
  ``advertise(offer)`` is the same from a plain thread (zeroconf runs its own loop thread), a
  handle with ``update(seated)`` and ``close()``.
* ``browse(seconds)`` (a plain thread) and ``async_browse(seconds)`` (asyncio) listen for
  ``seconds`` and return every game found, ``Found``, in a stable order.

Interfaces: every IPv4 interface of this machine (``InterfaceChoice.All`` with
``IPVersion.V4Only``), which includes the loopback one, so that two programs on one machine
find each other on 127.0.0.1 (the tests do). A host bound to one address advertises that one;
bound to every address, all of this machine's IPv4 addresses, the browser preferring one that is
not a loopback address.

Questions are zeroconf's: the first asks for a unicast answer (``QU``), the next ones, from about
a second on, for multicast answers. Every mDNS program on one machine shares its port 5353, and
a unicast answer reaches only one of them, perhaps another one: so a browse listens for
``BROWSE_SECONDS`` (2), long enough for a multicast answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ipaddress
import logging
import socket
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from zeroconf import (
    InterfaceChoice,
    IPVersion,
    ServiceBrowser,
    ServiceInfo,
    ServiceListener,
    ServiceStateChange,
    Zeroconf,
)
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

log = logging.getLogger("palazzo.net")

SERVICE = "_palazzo._tcp.local."
VERSION = 3
#: the most bytes of one TXT value (a longer one drops the advertisement)
VALUE_LIMIT = 64
#: the most seats a game may say it wants (any game here has at most 6)
MAX_PLAYERS = 16
#: seconds a browse listens, by default: past zeroconf's second question (see the rules)
BROWSE_SECONDS = 2.0
#: the most games one browse returns
MAX_FOUND = 64
#: the most addresses of one game that are read
MAX_ADDRESSES = 8
#: milliseconds to wait for one service's records if they did not come with its announcement
RESOLVE_MS = 800
#: seconds, in all, that one browse waits for such records after listening (names that never
#: resolve, however many, cannot hold it longer)
RESOLVE_BUDGET = 2.0
#: seconds to wait for the goodbyes of a withdrawn advertisement to go out
CLOSE_WAIT = 3.0
#: seconds a browser may keep a record (short: a host killed without its goodbyes is soon gone)
TTL = 120
Interfaces = Any  # InterfaceChoice or a list of addresses (zeroconf's own type)
#: the interfaces used when none are given: every IPv4 one (the module's rules)
INTERFACES: Interfaces = InterfaceChoice.All


@dataclass(frozen=True)
class Offer:
    """What a host advertises: its game, the seats wanted and taken, its name and key's
    fingerprint, whether a code is needed, and where it listens."""

    game: str
    players: int
    seated: int
    host: str
    fingerprint: str
    code: bool
    port: int
    addresses: tuple[str, ...]


@dataclass(frozen=True)
class Found:
    """A game found on the LAN: ``address`` is the one to join (``addresses`` all it gave)."""

    address: str
    port: int
    game: str
    players: int
    seated: int
    host: str
    fingerprint: str
    code: bool
    addresses: tuple[str, ...] = ()

    @property
    def join_address(self) -> str:
        """``HOST:PORT``, as ``palazzo join`` takes it."""
        return f"{self.address}:{self.port}"

    def lines(self) -> tuple[str, str]:
        """The game in two short lines: the game, the seats taken of those wanted and whether
        it needs a code; then the host's name and key fingerprint, and the address."""
        from engine.registry import get_game

        title = get_game(self.game).rules.title.partition(":")[0]
        code = "code needed" if self.code else "open"
        return (f"{title}, {self.seated}/{self.players} seated, {code}",
                f"host {self.host} [{self.fingerprint}] at {self.join_address}")


def properties(offer: Offer) -> dict[str, str]:
    """The TXT properties of ``offer`` (the module's rules); never the code."""
    return {"v": str(VERSION), "game": offer.game, "players": str(offer.players),
            "seated": str(offer.seated), "host": offer.host, "fp": offer.fingerprint,
            "code": "1" if offer.code else "0"}


def _text(props: Mapping[bytes, bytes | None], key: bytes) -> str | None:
    value = props.get(key)
    if type(value) is not bytes or not 0 < len(value) <= VALUE_LIMIT:
        return None
    try:
        text = value.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if text.isprintable() else None


def _number(props: Mapping[bytes, bytes | None], key: bytes, low: int, high: int) -> int | None:
    text = _text(props, key)
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 3:
        return None
    n = int(text)
    return n if low <= n <= high else None


def _fingerprint_ok(text: str) -> bool:
    groups = text.split("-")
    return (len(groups) == 4 and all(len(g) == 4 for g in groups)
            and all(c in "0123456789abcdef" for g in groups for c in g))


def parse(port: int | None, addresses: Iterable[str],
          props: Mapping[bytes, bytes | None]) -> Found | None:
    """The game an advertisement offers, or ``None`` for one that is not well formed (the
    module's rules): nothing in it is trusted but its form."""
    from engine.registry import game_names
    from net.session.machines.entries import NAME_LIMIT

    if type(port) is not int or not 0 < port < 65536:
        return None
    if _number(props, b"v", VERSION, VERSION) is None:
        return None
    game, host, fp = _text(props, b"game"), _text(props, b"host"), _text(props, b"fp")
    players = _number(props, b"players", 1, MAX_PLAYERS)
    seated = _number(props, b"seated", 0, MAX_PLAYERS)
    code = _text(props, b"code")
    if game not in game_names() or host is None or len(host) > NAME_LIMIT or fp is None:
        return None
    if players is None or seated is None or seated > players or code not in ("0", "1"):
        return None
    if not _fingerprint_ok(fp):
        return None
    ipv4: list[ipaddress.IPv4Address] = []
    for a in list(addresses)[:MAX_ADDRESSES]:
        with contextlib.suppress(ValueError):
            ipv4.append(ipaddress.IPv4Address(a))
    if not ipv4:
        return None
    best = min(ipv4, key=lambda a: (a.is_loopback, a.is_link_local))
    return Found(str(best), port, game, players, seated, host, fp, code == "1",
                 tuple(str(a) for a in ipv4))


def _order(found: Iterable[Found]) -> list[Found]:
    return sorted(found, key=lambda f: (f.game, f.host, f.fingerprint, f.address, f.port))[
        :MAX_FOUND]


# -- advertising ---------------------------------------------------------------------------------


def own_addresses(bind: str | None) -> tuple[str, ...]:
    """The IPv4 addresses a host listening on ``bind`` (``None``: every address) is reached at."""
    if bind not in (None, "", "0.0.0.0", "::"):
        try:
            return (str(ipaddress.IPv4Address(bind)),)
        except ValueError:
            with contextlib.suppress(OSError):
                return (socket.gethostbyname(str(bind)),)
            return ()
    import ifaddr

    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and ip.ip not in found:
                found.append(ip.ip)
    return tuple(found) or ("127.0.0.1",)


def _names(offer: Offer) -> tuple[str, str]:
    """The service's instance name and server name: made from the host key's fingerprint and
    the port, so that two games on one machine have two names."""
    tag = hashlib.sha256(f"{offer.fingerprint} {offer.port}".encode()).hexdigest()[:12]
    label = f"palazzo-{offer.fingerprint.replace('-', '')[:8]}-{offer.port}-{tag}"
    return f"{label}.{SERVICE}", f"{label}.local."


def _info(offer: Offer, name: str | None = None) -> ServiceInfo:
    service, server = _names(offer)
    return ServiceInfo(SERVICE, name or service, port=offer.port, properties=properties(offer),
                       server=server, host_ttl=TTL, other_ttl=TTL,
                       parsed_addresses=list(offer.addresses))


class Advertiser:
    """One game advertised from a running asyncio loop. ``start()`` begins (registration runs
    in the background), ``seated(n)`` updates the seats taken, ``close()`` withdraws it. Any
    failure is logged once (a warning) and the advertising stops; the game goes on."""

    def __init__(self, offer: Offer, interfaces: Interfaces = None) -> None:
        self.offer = offer
        self.interfaces = INTERFACES if interfaces is None else interfaces
        self.zc: AsyncZeroconf | None = None
        self.info: ServiceInfo | None = None
        self.failed = False
        self._task: asyncio.Task[None] | None = None
        self._dirty = asyncio.Event()
        self._settled = asyncio.Event()  # registered, or failed

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def registered(self) -> bool:
        """Wait until the advertisement is out (``True``) or has failed (``False``)."""
        await self._settled.wait()
        return not self.failed

    def seated(self, n: int) -> None:
        """The seats taken are now ``n`` (an update goes out if that is news)."""
        if n != self.offer.seated and not self.failed:
            self.offer = replace(self.offer, seated=n)
            self._dirty.set()

    async def _run(self) -> None:
        try:
            self.zc = AsyncZeroconf(interfaces=self.interfaces, ip_version=IPVersion.V4Only)
            info = self.info = _info(self.offer)  # withdrawn at close, even half registered
            await (await self.zc.async_register_service(info, allow_name_change=True))
            self._settled.set()
            log.info("advertised on the LAN: palazzo join with no address lists this game")
            while True:
                await self._dirty.wait()
                self._dirty.clear()
                info = _info(self.offer, self.info.name)
                await (await self.zc.async_update_service(info))
                self.info = info
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a failure to advertise never stops the game
            self.failed = True
            self._settled.set()
            log.warning("the game is not advertised on the LAN: %s", str(e) or type(e).__name__)

    async def close(self) -> None:
        """Withdraw the advertisement (its goodbyes go out) and free the sockets."""
        self._settled.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        zc, info, self.zc, self.info = self.zc, self.info, None, None
        if zc is None:
            return
        try:
            if info is not None:
                await asyncio.wait_for(await zc.async_unregister_service(info), CLOSE_WAIT)
        except Exception as e:
            log.debug("withdrawing the advertisement: %s", e)
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(zc.async_close(), CLOSE_WAIT)


class Advertisement:
    """One game advertised from a plain thread (``advertise``)."""

    def __init__(self, offer: Offer, interfaces: Interfaces = None) -> None:
        self.offer = offer
        self.zc = Zeroconf(interfaces=INTERFACES if interfaces is None else interfaces,
                           ip_version=IPVersion.V4Only)
        self.info: ServiceInfo | None = _info(offer)
        try:
            self.zc.register_service(self.info, allow_name_change=True)
        except BaseException:
            self.zc.close()
            raise
        self._lock = threading.Lock()

    def update(self, seated: int) -> None:
        with self._lock:
            if self.info is None or seated == self.offer.seated:
                return
            self.offer = replace(self.offer, seated=seated)
            self.info = _info(self.offer, self.info.name)
            self.zc.update_service(self.info)

    def close(self) -> None:
        with self._lock:
            info, self.info = self.info, None
            if info is None:
                return
            try:
                self.zc.unregister_service(info)
            finally:
                self.zc.close()


def advertise(offer: Offer, interfaces: Interfaces = None) -> Advertisement:
    """Advertise ``offer`` from a plain thread (not from a running asyncio loop: use
    ``Advertiser`` there); zeroconf's errors (e.g. ``OSError``) are the caller's."""
    return Advertisement(offer, interfaces)


# -- browsing ------------------------------------------------------------------------------------


def _found(info: ServiceInfo) -> Found | None:
    try:
        return parse(info.port, info.parsed_addresses(IPVersion.V4Only), info.properties)
    except Exception as e:  # whatever a record holds, the browse goes on
        log.debug("an advertisement is ignored: %s", e)
        return None


class _Names(ServiceListener):
    def __init__(self) -> None:
        self.names: set[str] = set()
        self.lock = threading.Lock()

    def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        with self.lock:
            if len(self.names) < 4 * MAX_FOUND:
                self.names.add(name)

    def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self.add_service(zc, type_, name)

    def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        with self.lock:
            self.names.discard(name)


def browse(seconds: float = BROWSE_SECONDS, interfaces: Interfaces = None) -> list[Found]:
    """Listen ``seconds`` for games on the LAN from a plain thread; every well-formed one."""
    zc = Zeroconf(interfaces=INTERFACES if interfaces is None else interfaces,
                  ip_version=IPVersion.V4Only)
    try:
        names = _Names()
        browser = ServiceBrowser(zc, SERVICE, names)
        time.sleep(seconds)
        browser.cancel()
        with names.lock:
            todo = sorted(names.names)
        found = []
        deadline = time.monotonic() + RESOLVE_BUDGET
        for name in todo:
            info = ServiceInfo(SERVICE, name)
            if not info.load_from_cache(zc):
                left = int(1000 * (deadline - time.monotonic()))
                if left <= 0 or not info.request(zc, min(RESOLVE_MS, left)):
                    continue
            f = _found(info)
            if f is not None:
                found.append(f)
        return _order(found)
    finally:
        zc.close()


async def async_browse(seconds: float = BROWSE_SECONDS, interfaces: Interfaces = None) -> list[Found]:
    """``browse`` from a running asyncio loop."""
    azc = AsyncZeroconf(interfaces=INTERFACES if interfaces is None else interfaces,
                        ip_version=IPVersion.V4Only)
    try:
        names: set[str] = set()

        def changed(zeroconf: Zeroconf, service_type: str, name: str,
                    state_change: ServiceStateChange) -> None:
            if state_change is ServiceStateChange.Removed:
                names.discard(name)
            elif len(names) < 4 * MAX_FOUND:
                names.add(name)

        browser = AsyncServiceBrowser(azc.zeroconf, [SERVICE], handlers=[changed])
        await asyncio.sleep(seconds)
        await browser.async_cancel()

        async def resolve(name: str) -> Found | None:
            info = AsyncServiceInfo(SERVICE, name)
            if info.load_from_cache(azc.zeroconf) or await info.async_request(azc.zeroconf,
                                                                               RESOLVE_MS):
                return _found(info)
            return None

        tasks = [asyncio.create_task(resolve(name)) for name in sorted(names)]
        if not tasks:
            return []
        done, pending = await asyncio.wait(tasks, timeout=RESOLVE_BUDGET)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        found = [f for t in done if not t.cancelled() and t.exception() is None
                 and (f := t.result()) is not None]
        return _order(found)
    finally:
        await azc.async_close()
