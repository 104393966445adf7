"""A rematch: after a networked game's end, the same players play again with the same settings.

The conversation (``docs/protocol.md``, "Rematch"):

1. At ``over`` a host that offers rematches (``HostRematch.offer``: ``net.session.commands.hosting``
   does) waits ``REMATCH_WAIT`` seconds for the seats' answers, keeping their connections.
   It broadcasts ``rematch {agreed: [seats], declined: [seats]}`` at the end and on every
   change, to every seat and every watcher. A seat without a connection at the end has
   declined.
2. A seat asks ``again {}`` (an empty map: the seat is always the connection's own). The host
   refuses it before the end or where it offers none (``E_WRONG_PHASE``), a second time from
   the same seat, and once the answer is settled.
3. A seat whose connection closes (it left, or pressed "Leave") declines: there is no rematch,
   and every peer is told "<name> left: no rematch". So does every seat that has not asked when
   ``REMATCH_WAIT`` runs out; the message then lists those as ``unanswered`` too (a subset of
   ``declined``), and every peer is told "Jo did not answer in time: no rematch" ("Nobody
   answered in time" when no seat asked).
4. When every seat has agreed, and at least one of them is not a host-side bot (a host whose
   seats are all its own bots would play on for ever), the host broadcasts
   ``rematch {agreed, declined: [], go: true}``, closes every connection and starts a fresh
   ``HostSession`` (``next_host``) on the same port: the same game, options, code, turn limit
   and hints, its seats reserved for the same keys in the same order (no other key is seated);
   the game code's wrong codes and budget of checks go on.
   The old game's record stays as it is: saved and finished. A rematch that has not started
   ``REMATCH_WAIT`` seconds after that (a seat did not come back) is closed by the host
   (``bye``, "the rematch did not start: Jo did not come back within 120 seconds").
5. Each peer that asked joins the new game with a new ``PeerSession`` (a fresh hello, so a
   fresh nonce: the journal's contribution rules apply, the old game stays finished) whose
   ``expect`` is ``Expected.of`` the old game's table: its new start must name the same host,
   rules, options, seats (names and keys, in order), turn limit and hints, or the peer refuses it
   as a cheat of the host ("rematch check: ..."). A replay of the old start carries a nonce
   bound to a finished game: the contribution check refuses it.

The peer's side is ``PeerRematch``: ``wanted`` keeps the connection after the end (the table;
``palazzo join --rematch N``), ``auto`` asks at once (a bot). A watcher's (``watching``) keeps
it too and follows a ``go`` every seat agreed to without asking (it has no seat to ask for): it
watches the new game on a new connection. A rematch message that breaks these
rules (seats out of range or twice, ``go`` not every seat agreed to, or that this seat never
asked for) is not followed, and the peer says why; nothing said after the end changes the game
that ended or its record. A seat stops waiting by itself ``REMATCH_WAIT + PEER_GRACE`` seconds
after the end, should the host neither answer nor close.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from net.wire.errors import E_NOT_YOUR_SEAT, E_WRONG_PHASE, RemoteProtocolError
from net.wire.rpc import Fields, Value
from net.wire.transcript import Entry

if TYPE_CHECKING:
    # the machines import this module: their types only, for the annotations
    from net.session.machines.host_session import HostSession
    from net.session.machines.table import Table

#: seconds the host keeps the connections after the end for the rematch answers
REMATCH_WAIT = 120.0
#: seconds more a seat waits, on its own clock, before it stops waiting for a host that neither
#: answers nor closes
PEER_GRACE = 30.0
#: characters a line on the rematch takes at most (one line of the end screen at 80x24): beyond
#: it, the names it lists become a count
LINE = 66


#: the host's rematch, as ``HostRematch.state`` holds it
RematchState = Literal["idle", "waiting", "go", "off", "started"]


class HostRematch:
    """The host's count of the answers: ``idle`` (no game over, or no rematch offered) ->
    ``waiting`` -> ``go`` (every seat agreed) or ``off`` (a seat declined) -> ``started``."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.offered = False
        self.automatic: set[bytes] = set()  # keys of the host-side bots (they agree at once)
        self.state: RematchState = "idle"
        self.agreed: set[int] = set()
        self.declined: set[int] = set()
        self.unanswered: set[int] = set()  # declined by not answering in time
        self.seats = 0
        self.since = 0.0
        self.lobby_since: float | None = None  # when this rematch's lobby opened (``reserve``)

    def offer(self, automatic: Iterable[bytes] = ()) -> None:
        """Offer a rematch at the end; ``automatic`` are the keys of seats played by the
        host's own bots."""
        self.offered = True
        self.automatic = set(automatic)

    @property
    def waiting(self) -> bool:
        return self.state == "waiting"

    @property
    def go(self) -> bool:
        return self.state == "go"

    def start(self) -> None:
        """The seats agreed and the host starts the next game (``go`` -> ``started``)."""
        self.state = "started"

    def begin(self, keys: Sequence[bytes], present: Sequence[bool]) -> bool:
        """The game is over (``keys`` its seats', ``present`` whether each has a connection):
        ``True`` if a rematch is offered and the answers are now awaited or already settled."""
        if not self.offered or self.state != "idle":
            return False
        self.seats, self.since = len(keys), self.clock()
        self.declined = {i for i, here in enumerate(present) if not here}
        everyone_a_bot = all(k in self.automatic for k in keys)
        self.state = "off" if self.declined or everyone_a_bot else "waiting"
        return True

    def ask(self, seat: int) -> None:
        """Seat ``seat`` asks ``again``; ``RemoteProtocolError`` naming the rule it breaks."""
        if self.state == "idle":
            why = ("the game is not over: a rematch is asked after its end" if self.offered
                   else "this host offers no rematch (the game is not over, or it was not asked)")
            raise RemoteProtocolError(why, E_WRONG_PHASE)
        if not 0 <= seat < self.seats:  # a watcher, say: only the players answer
            raise RemoteProtocolError("only a seat of the game asks for a rematch",
                                      E_NOT_YOUR_SEAT)
        if seat in self.agreed:
            raise RemoteProtocolError(f"seat {seat} has already agreed to a rematch",
                                      E_WRONG_PHASE)
        if self.state != "waiting":
            raise RemoteProtocolError("the rematch is settled: "
                                      + ("it starts" if self.state in ("go", "started")
                                         else "there is none"), E_WRONG_PHASE)
        self.agreed.add(seat)
        if len(self.agreed) == self.seats:
            self.state = "go"

    def leave(self, seat: int) -> bool:
        """Seat ``seat``'s connection closed: it declines (``True`` if that changed anything)."""
        if self.state != "waiting" or not 0 <= seat < self.seats:
            return False
        self.agreed.discard(seat)
        self.declined.add(seat)
        self.state = "off"
        return True

    def expire(self) -> bool:
        """After ``REMATCH_WAIT``: every seat that has not agreed declines (``True`` if so)."""
        if self.state != "waiting" or self.clock() - self.since < REMATCH_WAIT:
            return False
        self.unanswered = set(range(self.seats)) - self.agreed - self.declined
        self.declined |= self.unanswered
        self.state = "off"
        return True

    def unstarted(self, in_lobby: bool, missing: Sequence[str]) -> str:
        """Why the host closes this rematch's lobby now (``""``: it does not): ``in_lobby``
        whether the game has not started, ``missing`` the names of the seats not there and
        ready."""
        if self.lobby_since is None or not in_lobby or not missing \
                or self.clock() - self.lobby_since < REMATCH_WAIT:
            return ""
        who = missing[0] if len(missing) == 1 else ", ".join(missing[:-1]) + " and " + missing[-1]
        return f"the rematch did not start: {who} did not come back within {REMATCH_WAIT:g} seconds"

    def message(self) -> Fields:
        """The ``rematch`` notification's map."""
        m: Fields = {"agreed": [*sorted(self.agreed)], "declined": [*sorted(self.declined)]}
        if self.unanswered:
            m["unanswered"] = [*sorted(self.unanswered)]
        if self.state == "go":
            m["go"] = True
        return m


def next_host(old: HostSession) -> HostSession:
    """The fresh host session of the rematch of ``old``'s game: the same settings, its seats
    reserved for the same keys and names, in order."""
    new = type(old)(old.identity, old.game, old.config, code=old.code,
                    turn_timeout=old.turn_timeout, on_timeout=old.on_timeout,
                    allow_hints=old.allow_hints, clock=old.clock, wall=old.wall,
                    grace=old.presence.grace)
    new.reserve([(s.name, s.key) for s in old.table.seats])
    new.rematch.offer(old.rematch.automatic)
    new.guard, new.quiet = old.guard, old.quiet  # wrong codes and the budget go on into the rematch
    return new


@dataclass(frozen=True)
class Expected:
    """What the start of an agreed rematch must carry: the old game's host, rules, options,
    seats (names and keys, in order), turn limit and hints."""

    host: bytes
    rules: str
    config: object
    seats: tuple[tuple[str, bytes], ...]
    timeout: int
    on_timeout: str
    hints: bool

    @classmethod
    def of(cls, table: Table) -> Expected:
        assert table.config is not None
        return cls(table.host_key, table.game, table.config.to_data(),
                   tuple((s.name, s.key) for s in table.seats), table.timeout,
                   table.on_timeout, bool(table.hints))

    def refuses(self, entry: Entry) -> str | None:
        """Why ``entry`` is not the start of this rematch (``None``: it may be; the table then
        checks it as any start)."""
        f = entry.fields
        if f.get("kind") != "start":
            return "the first entry of the rematch is not a start"
        seats = f.get("seats")
        maps = [s for s in seats if type(s) is dict] if type(seats) is list else []
        named = (tuple((s.get("name"), s.get("key")) for s in maps)
                 if type(seats) is list and len(maps) == len(seats) else None)
        for what, got, want in (
            ("host key", f.get("host"), self.host), ("game", f.get("rules"), self.rules),
            ("options", f.get("config"), self.config), ("seats", named, self.seats),
            ("turn limit", f.get("timeout"), self.timeout),
            ("on-timeout choice", f.get("on_timeout"), self.on_timeout),
            ("hints", bool(f.get("hints", False)), self.hints),
        ):
            if got != want:
                return f"the start does not carry the agreed {what}"
        return None


class PeerRematch:
    """A seat's view of the rematch (see the module's rules)."""

    def __init__(self) -> None:
        self.wanted = False  # keep the connection after the end, for the rematch
        self.auto = False  # ask at once at the end (a bot)
        self.watching = False  # a watcher's: it follows a go without asking
        self.asked = False
        self.agreed: tuple[int, ...] = ()
        self.declined: tuple[int, ...] = ()
        self.go = False
        self.off = ""  # why there will be no rematch for this seat
        self.since = 0.0  # when the game ended, on the seat's clock

    def waiting(self) -> bool:
        """Whether this seat still waits for the rematch's answer."""
        return self.wanted and not self.go and not self.off

    def update(self, m: Fields, names: Sequence[str]) -> list[str]:
        """A ``rematch`` message from the host: the lines to tell this seat's player."""
        if self.go or self.off:
            return []
        n = len(names)
        agreed, declined = _seat_list(m.get("agreed"), n), _seat_list(m.get("declined"), n)
        unanswered = _seat_list(m.get("unanswered", []), n)
        go = m.get("go", False)
        if agreed is None or declined is None or unanswered is None \
                or set(agreed) & set(declined) or not set(unanswered) <= set(declined) \
                or type(go) is not bool:
            return self.stop("the host sent a malformed rematch message")
        if go and ((not self.asked and not self.watching) or len(agreed) != n):
            return self.stop("the host started a rematch "
                             + ("this seat did not ask for" if not self.asked
                                and not self.watching else "not every seat agreed to"))
        gone = [i for i in declined if i not in self.declined]
        self.agreed, self.declined, self.go = tuple(sorted(agreed)), tuple(sorted(declined)), go
        if gone:
            self.off = _gone_line(names, [i for i in gone if i not in unanswered],
                                  [i for i in gone if i in unanswered], agreed)
        return [self.status(names)]

    def stop(self, why: str) -> list[str]:
        """No rematch for this seat, for ``why``; the lines to tell."""
        if self.go or self.off:
            return []
        self.off = why
        return [f"no rematch: {why}"] if not why.endswith("no rematch") else [why]

    def status(self, names: Sequence[str]) -> str:
        """One line: "Play again: 2 of 3 agreed; waiting for Jo", "Jo left: no rematch", ..."""
        if self.go:
            return "Play again: everyone agreed; the new game starts"
        if self.off:
            return self.off if self.off.endswith("no rematch") else f"no rematch: {self.off}"
        rest = [i for i in range(len(names)) if i not in self.agreed]
        counted = f"Play again: {len(self.agreed)} of {len(names)} agreed; waiting for "
        return _within(counted + _names(names, rest), counted + f"{len(rest)} players")


def _gone_line(names: Sequence[str], left: Sequence[int], silent: Sequence[int],
               agreed: Sequence[int]) -> str:
    """Why there is no rematch: who left, and who did not answer in time."""
    if silent and not left and not agreed:
        return "Nobody answered in time: no rematch"
    parts, short = [], []
    if left:
        parts.append(f"{_names(names, left)} left")
        short.append(f"{len(left)} players left" if len(left) > 1 else f"{_names(names, left)} left")
    if silent:
        verb = "did not answer in time"
        parts.append(f"{_names(names, silent)} {verb}")
        short.append(f"{len(silent)} players did not answer" if len(silent) > 1
                     else f"{_names(names, silent)} {verb}")
    return _within(" and ".join(parts) + ": no rematch", ", ".join(short) + ": no rematch")


def _seat_list(v: Value, n: int) -> list[int] | None:
    """``v`` if it is a list of distinct seats of ``n``, else ``None``."""
    if type(v) is not list:
        return None
    seats = [i for i in v if type(i) is int and 0 <= i < n]
    return seats if len(seats) == len(v) and len(set(seats)) == len(seats) else None


def _within(line: str, short: str) -> str:
    """``line`` if it fits in ``LINE`` characters, else ``short``."""
    return line if len(line) <= LINE else short


def _names(names: Sequence[str], seats: Sequence[int]) -> str:
    who = [names[i] for i in seats]
    return who[0] if len(who) == 1 else ", ".join(who[:-1]) + " and " + who[-1]
