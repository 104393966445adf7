"""What one stranger may cost the host: connections, requests and log lines, each bounded.

Rules (``HostSession`` applies them; ``docs/protocol.md`` section 3 states them for peers):

* **Connections.** The host holds at most ``MAX_CONNECTIONS`` connections, and at most
  ``STRANGERS_PER_ADDRESS`` *strangers* (connections that have not taken a seat) from one
  address (``net.session.features.code.address_key``). A new connection is never turned away: when
  either limit is reached, the oldest stranger (of that address, or of all) is closed to make
  room. Seated connections are never closed for room, and there are at most as many of them as
  seats, so a seated player's key always finds room to rejoin, and so does a new player.
* **Hello.** A stranger's frames may be ``STRANGER_FRAME_LIMIT`` bytes (a hello is a few hundred;
  a larger frame is a frame error and closes it), so a stranger holds little of the host's
  memory. A stranger that has not taken a seat ``HELLO_TIMEOUT`` seconds after it connected is
  closed. One that sends more than ``STRANGER_REQUESTS`` messages without taking a seat is
  *muted*: told so once, and nothing more it sends is read (the asyncio host stops reading its
  socket, so a flood fills the flooder's own buffers and blocks it) until the hello timeout.
* **Requests.** A seated connection may send ``REQUEST_BURST`` messages at once and
  ``REQUEST_RATE`` a second after that (a token bucket); an honest peer sends one per entry it
  writes and waits for each to come back. One more and it is closed (its seat stays: it may
  rejoin). The seats the host runs in its own process (``""``) have no budget. Every refusal is cheap: the messages after it are not even parsed.
* **Watchers** (``net.session.features.watch``) are connections too, at most ``watch.MAX_WATCHERS``:
  not strangers (no hello timeout, never closed for room), with a request budget of their own,
  far smaller than a seat's, and their frames kept at ``STRANGER_FRAME_LIMIT``.
* **A held seat.** A hello that proves the key of a seat another connection holds does not take
  it at once: the host pings the holder and refuses the hello (``E_KEY_IN_USE``) if the holder
  answers within ``PING_WAIT`` seconds; if it does not (a half-open connection), or closes
  meanwhile, the new connection takes the seat and the old one is closed. The same join line
  again (the key and the seat's name, over the network) is the player going on from a new
  program: it takes the seat at once, the old program told why. A claimer waits at
  most ``PING_WAIT`` (its hello timeout does not run meanwhile). One claim per seat at a time,
  and one per ``CLAIM_INTERVAL`` seconds: one sooner is closed with ``E_BUSY`` (a retry may
  do), so two programs with one key cannot make the seat flap between them.
* **Log.** Refusals are logged per address at most ``LOG_BURST`` lines at once and one every
  ``LOG_EVERY`` seconds after that; the next line logged says how many were left out. A flood
  costs a few lines, not one per frame.
* **Strangers never reach a player's screen** (``StrangerNews``): refusals of connections
  without a seat, from every address together, make at most one line a ``SUMMARY_EVERY``
  seconds (the first at once, then one line counting those of the minute); the rest go to the
  debug log only. A flood of strangers from any number of addresses is one line a minute on
  the host's screen, whatever its size.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

MAX_CONNECTIONS = 64
STRANGERS_PER_ADDRESS = 8
HELLO_TIMEOUT = 5.0
PING_WAIT = 3.0
CLAIM_INTERVAL = 5.0
STRANGER_REQUESTS = 8
STRANGER_FRAME_LIMIT = 4096
REQUEST_RATE = 200.0
REQUEST_BURST = 400
LOG_BURST = 5
LOG_EVERY = 10.0
LOG_ADDRESSES = 1024  # addresses whose log budget is remembered
SUMMARY_EVERY = 60.0  # seconds between two lines on refused strangers, at least


class Bucket:
    """A token bucket: ``take()`` is true while the budget lasts (``burst`` at once, then
    ``rate`` a second)."""

    __slots__ = ("clock", "rate", "burst", "tokens", "at")

    def __init__(self, clock: Callable[[], float], rate: float, burst: float) -> None:
        self.clock, self.rate, self.burst = clock, rate, burst
        self.tokens = float(burst)
        self.at = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class QuietLog:
    """A log budget per address: ``allow(address)`` says whether to log one more line, and how
    many lines were left out since the last one logged."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._budgets: OrderedDict[str, tuple[Bucket, int]] = OrderedDict()

    def allow(self, address: str) -> tuple[bool, int]:
        budget = self._budgets.pop(address, None)
        bucket, skipped = budget if budget is not None else (
            Bucket(self.clock, 1.0 / LOG_EVERY, LOG_BURST), 0)
        ok = bucket.take()
        self._budgets[address] = (bucket, 0 if ok else skipped + 1)
        while len(self._budgets) > LOG_ADDRESSES:
            self._budgets.popitem(last=False)
        return ok, skipped if ok else 0


class StrangerNews:
    """The refusals of strangers, told at most one line a ``SUMMARY_EVERY`` seconds:
    ``refused(line)`` says whether to log this one now; ``summary()`` (now and then) the line
    counting those held back since, once the minute is over."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.told_at = -SUMMARY_EVERY
        self.held = 0
        self.last = ""
        self.addresses: set[str] = set()

    def refused(self, address: str, line: str) -> bool:
        if self.clock() - self.told_at >= SUMMARY_EVERY and not self.held:
            self.told_at = self.clock()
            return True
        self.held += 1
        self.last = line
        if len(self.addresses) < LOG_ADDRESSES:
            self.addresses.add(address)
        return False

    def summary(self) -> str:
        if not self.held or self.clock() - self.told_at < SUMMARY_EVERY:
            return ""
        n, many = self.held, len(self.addresses)
        line = (f"{n} more refusal{'s' if n != 1 else ''} of connections without a seat in "
                f"the last {SUMMARY_EVERY:g} seconds, from {many}"
                f"{'+' if many >= LOG_ADDRESSES else ''} address{'es' if many != 1 else ''} "
                f"(the last: {self.last})")
        self.told_at, self.held, self.last, self.addresses = self.clock(), 0, "", set()
        return line
