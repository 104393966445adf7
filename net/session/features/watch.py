"""Watchers: connections that follow a networked game without a seat (the host's side).

Rules (``HostSession`` applies them through the hooks named here; ``docs/protocol.md`` states
them for peers, ``docs/security.md`` what a watcher sees and costs):

* **Coming in.** A watcher says ``hello`` as a seat does (``name``, ``key``, ``sig`` over the
  host's challenge, ``code``, ``nonce``, ``have``) with ``watch: true``. The game code and its
  budget of checks apply as to any hello. Its ``nonce`` is only its challenge to the host (the host's
  ``proof`` signs it): it is never a contribution to a game id. The host answers
  ``{seat: -1, players, length, resume, proof, watch: true}`` and sends it the entries from
  ``have`` on (0 for a new watcher, so one that comes in mid-game gets everything so far).
* **Following.** From then on a watcher gets what every seat gets, by the same broadcast
  (``HostSession._broadcast``): the ``lobby`` notifications, every relayed ``entry`` and the
  ``bye``. It never gets anything a seat alone gets: there is no such message, every entry is
  public and hides its cards under the fair deck, so a watcher sees only what the rules show
  everyone (its table is an observer's, seat -1).
* **Never a seat.** A watcher's ``post``, ``ready`` (and any request a seat alone may make) is
  refused with ``E_NOT_YOUR_SEAT`` and changes nothing; a second ``hello`` on its connection is
  refused as any second hello is (``E_WRONG_PHASE``). Its key may be a seated player's (a player
  watching from another program): watching touches no seat, and that seat is not claimed.
* **Room.** At most ``MAX_WATCHERS`` watchers at once; one more is refused with ``E_FULL``
  and closed. Watchers count as connections under ``net.session.features.limits`` (they are not
  strangers: no hello timeout, never closed for room). A watcher sends nearly nothing, so its
  request budget is small: ``BURST`` messages at once, ``RATE`` a second after that; one more and
  it is closed (it may come back).
* **Coming again.** A watch hello that is let in costs the host the whole record sent from
  ``have`` on (megabytes, late in a long game) for a few hundred bytes: from one address
  (``net.session.features.code.address_key``) at most ``ADMIT_BURST`` are let in at once and one every
  ``ADMIT_EVERY`` seconds after that; one more is told ``E_BUSY`` and closed (the watcher's
  program tries again later, ``net.session.runners.peer``), so an address cannot pull the record over and
  over. An honest watcher that reconnects says what it ``have``s and is sent only the rest.
  The host remembers ``ADDRESSES`` addresses at most.
* **Names.** A watcher's name follows the seats' rule (1 to ``NAME_LIMIT`` printable
  characters). ``HostSession.watchers()`` lists them in the order they came; the ``lobby``
  notification carries them as ``watchers`` when there is any, and is sent again whenever a
  watcher comes or goes.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from net.session.features.limits import Bucket
from net.wire.errors import E_FULL, E_NOT_YOUR_SEAT, RemoteProtocolError
from net.wire.rpc import Fields

MAX_WATCHERS = 8
RATE = 2.0  # messages a second a watcher may send, after its burst
BURST = 20
ADMIT_BURST = 4  # watch hellos let in from one address at once
ADMIT_EVERY = 10.0  # seconds between two, after that
ADDRESSES = 1024  # addresses whose admissions are remembered


class Admissions:
    """How many watch hellos each address may still have let in (see the rules above)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()

    def take(self, address: str) -> bool:
        """Whether one more watch hello from ``address`` may come in (``""``, in process: yes)."""
        if not address:
            return True
        bucket = self._buckets.pop(address, None) or Bucket(self.clock, 1.0 / ADMIT_EVERY,
                                                            ADMIT_BURST)
        self._buckets[address] = bucket
        while len(self._buckets) > ADDRESSES:
            self._buckets.popitem(last=False)
        return bucket.take()


def check_room(watching: int) -> None:
    """``E_FULL`` when ``watching`` watchers are already there."""
    if watching >= MAX_WATCHERS:
        raise RemoteProtocolError(f"the game has {MAX_WATCHERS} watchers already: no room to "
                                  "watch", E_FULL)


def welcome(players: int, length: int, started: bool, proof: bytes) -> Fields:
    """The answer to a watcher's hello."""
    return {"seat": -1, "players": players, "length": length, "resume": started,
            "proof": proof, "watch": True}


def refuse(method: str) -> RemoteProtocolError:
    """The refusal of a request a seat alone may make, from a watcher."""
    return RemoteProtocolError(f"a watcher holds no seat: it may not {method}", E_NOT_YOUR_SEAT)
