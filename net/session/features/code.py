"""The game code: what a stranger must know to take a seat, and how guessing it is slowed.

Rules:

* A code is three words from a list of 256 and four digits, e.g. ``ROOK-LUTE-OWL-4821``:
  ``256**3 * 10**4`` (about 1.7e11, 37.3 bits) codes, each read aloud in a breath. The host
  draws it with ``secrets``; it travels in the peer's ``hello``.
* A code is compared in its normal form (``normal_code``): upper case, any run of spaces,
  dots or dashes one dash, so that ``rook lute owl 4821`` is the same code.
* **One budget for everyone.** The host checks at most ``CHECK_RATE`` codes a second, from all
  addresses together (``CHECK_BURST`` at once): a hello whose code cannot be checked now is not
  refused but waits, unanswered, for its turn (``CodeGuard.turn``). A right code is checked
  under the same budget as a wrong one, so that no number of addresses or connections guesses
  faster: half the codes take ``CODE_SPACE / 2 / CHECK_RATE`` seconds, 133 years.
* **Turns go to the least suspect first.** The hellos waiting are taken in the order of their
  address's wrong codes (fewest first), then of their arrival: a player whose address never gave
  a wrong code goes before every guesser.
* **A wrong code costs its address a delay, never a ban.** An address may give ``FREE_WRONG``
  wrong codes; after that, each wrong code makes its next hello wait ``DELAY_BASE`` seconds,
  doubled for each further one, up to ``DELAY_MAX``. The right code from that address (a
  shared machine, a NAT) is checked once the delay is over: a few seconds at most, whatever
  the guesses before it. A right code forgets the address's wrong ones.
* **Nothing is forgotten to make room in a way that helps a guesser.** The table of addresses
  holds ``MAX_TRACKED`` of them; when it is full, those with the fewest wrong codes (the oldest
  first) make room, never a guesser with more. An address is forgotten ``FORGET`` seconds after
  its last wrong code. Neither resets the one budget, which is the bound on guessing.
* Wrong-code addresses counted by ``address_key``: an IPv4 address, or the /64 of an IPv6 one.
"""

from __future__ import annotations

import hmac
import ipaddress
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from net.session.features.limits import Bucket

CODE_WORDS: tuple[str, ...] = (
    "ACORN", "ALLEY", "AMBER", "ANCHOR", "ANVIL", "APPLE", "APRON", "ARCH", "ARROW", "ASH",
    "ATLAS", "AXE", "BADGE", "BAKER", "BANJO", "BARGE", "BARN", "BASIL", "BASIN", "BEACH", "BEAN",
    "BEAR", "BEAVER", "BEE", "BELL", "BENCH", "BERRY", "BIRCH", "BISON", "BLADE", "BOAR", "BONE",
    "BOOK", "BOOT", "BOW", "BRASS", "BREAD", "BRICK", "BRIDGE", "BROOK", "BROOM", "BUCKET", "BULL",
    "CABIN", "CAMEL", "CANDLE", "CANOE", "CANYON", "CAPE", "CASTLE", "CEDAR", "CELLO", "CHAIR",
    "CHALK", "CHEESE", "CHERRY", "CHESS", "CLAY", "CLIFF", "CLOAK", "CLOCK", "CLOUD", "CLOVER",
    "COAL", "COAST", "COBRA", "COIN", "COMET", "CORAL", "CRANE", "CROW", "CROWN", "CUP", "DAISY",
    "DEER", "DESK", "DIAL", "DOME", "DOVE", "DRAGON", "DRUM", "DUCK", "DUKE", "EAGLE", "ELBOW",
    "ELK", "EMBER", "FALCON", "FARM", "FENCE", "FERN", "FIDDLE", "FIG", "FLAG", "FLAME", "FLUTE",
    "FOREST", "FORGE", "FORK", "FORT", "FOX", "FROG", "GARDEN", "GATE", "GEM", "GLOVE", "GOAT",
    "GOLD", "GRAPE", "GULL", "HAMMER", "HARBOR", "HARP", "HAWK", "HAZEL", "HELMET", "HERON",
    "HILL", "HIVE", "HONEY", "HOOK", "HORN", "HORSE", "INK", "IRON", "IVORY", "IVY", "JADE", "JAR",
    "JEWEL", "KETTLE", "KEY", "KING", "KITE", "KNIGHT", "KNOT", "LADDER", "LAKE", "LAMB", "LAMP",
    "LARK", "LEMON", "LILY", "LION", "LOCK", "LOOM", "LOTUS", "LUTE", "MAPLE", "MARBLE", "MASK",
    "MEADOW", "MILL", "MINT", "MIRROR", "MOLE", "MOON", "MOSS", "MOTH", "MOUSE", "MULE", "NEEDLE",
    "NEST", "NUT", "OAK", "OAR", "OCEAN", "OLIVE", "ONION", "OPAL", "ORCHID", "OTTER", "OWL", "OX",
    "PALACE", "PALM", "PANDA", "PARROT", "PEACH", "PEARL", "PEBBLE", "PEN", "PEPPER", "PIANO",
    "PIGEON", "PINE", "PIPE", "PLUM", "POND", "POPPY", "PORCH", "PRINCE", "QUEEN", "QUILL",
    "RABBIT", "RAFT", "RAVEN", "REED", "RIBBON", "RIVER", "ROBIN", "ROCK", "ROOK", "ROPE", "ROSE",
    "RUBY", "SADDLE", "SAGE", "SAIL", "SALMON", "SALT", "SAND", "SCROLL", "SEAL", "SHELL", "SHIP",
    "SILK", "SILVER", "SLATE", "SNAIL", "SPEAR", "SPICE", "SPOON", "SPRUCE", "STAR", "STONE",
    "STORK", "STRAW", "SWAN", "SWORD", "TENT", "THORN", "TIGER", "TORCH", "TOWER", "TRAIN",
    "TROUT", "TULIP", "TURTLE", "VALLEY", "VASE", "VELVET", "VINE", "VIOLIN", "WAGON", "WALNUT",
    "WAND", "WHALE", "WHEAT", "WHEEL", "WILLOW", "WINDOW", "WOLF", "WREN", "YARN", "ZEBRA",
)
assert len(CODE_WORDS) == 256 and len(set(CODE_WORDS)) == 256
WORDS_PER_CODE = 3
DIGITS = 4
#: how many codes there are
CODE_SPACE = len(CODE_WORDS) ** WORDS_PER_CODE * 10**DIGITS

CHECK_RATE = 20.0  # codes the host checks a second, from all addresses together
CHECK_BURST = 20  # codes it checks at once after a quiet while
FREE_WRONG = 5  # wrong codes an address may give before its hellos are delayed
DELAY_BASE = 0.25  # seconds of the first delay, doubled for each further wrong code
DELAY_MAX = 2.0  # the longest delay: a right code from a guessing address waits no more
QUEUE_WAIT = 10.0  # seconds a hello may wait for its turn; then it is told to try again
FORGET = 24 * 3600.0  # an address's wrong codes are forgotten this long after the last one
MAX_TRACKED = 65536  # addresses remembered at once
#: seconds to check half the codes at the host's most checks (``docs/security.md``)
HALF_CODES_SECONDS = CODE_SPACE / 2 / CHECK_RATE

_SEPARATORS = re.compile(r"[\s.\-_]+")


def new_code() -> str:
    """A fresh random game code, e.g. ``ROOK-LUTE-OWL-4821``."""
    words = [secrets.choice(CODE_WORDS) for _ in range(WORDS_PER_CODE)]
    return "-".join(words) + f"-{secrets.randbelow(10**DIGITS):0{DIGITS}d}"


def normal_code(text: str) -> str:
    """A code as typed, in the form it is compared in."""
    return _SEPARATORS.sub("-", text.strip().upper()).strip("-")


def same_code(given: str, code: str) -> bool:
    """Whether ``given`` (as typed) is ``code``, in time that does not depend on where they differ."""
    return hmac.compare_digest(normal_code(given).encode(), normal_code(code).encode())


def address_key(host: str) -> str:
    """The unit that wrong codes and connections are counted by: an IPv4 address as it is, an
    IPv6 address by its /64 (an IPv4 address mapped into IPv6 as the IPv4 one); anything that
    is no IP address (an in-process seat: ``""``) as it is."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass
class _Record:
    wrong: int = 0
    until: float = 0.0  # its next code is checked from then on
    last: float = 0.0  # the time of the last wrong code


class CodeGuard:
    """The budget of code checks, and the wrong codes per address (see the module docstring)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.budget = Bucket(clock, CHECK_RATE, CHECK_BURST)
        self._records: dict[str, _Record] = {}

    def _record(self, address: str) -> _Record | None:
        r = self._records.get(address)
        if r is not None and self.clock() - r.last >= FORGET:
            del self._records[address]
            return None
        return r

    def delay(self, address: str) -> float:
        """Seconds until a code from ``address`` may be checked (0: now)."""
        r = self._record(address)
        return 0.0 if r is None else max(0.0, r.until - self.clock())

    def rank(self, address: str) -> int:
        """The wrong codes ``address`` gave: the fewer, the sooner its turn."""
        r = self._record(address)
        return 0 if r is None else r.wrong

    def turn(self, address: str) -> bool:
        """Whether a code from ``address`` is checked now: its delay is over and the budget
        has a check left (which this takes)."""
        return self.delay(address) == 0.0 and self.budget.take()

    def wrong(self, address: str) -> float:
        """Count a wrong code from ``address``; the delay it earns, in seconds (0: none)."""
        now = self.clock()
        r = self._record(address) or _Record()
        r.wrong += 1
        r.last = now
        delay = 0.0
        if r.wrong > FREE_WRONG:
            delay = min(DELAY_BASE * 2 ** min(r.wrong - FREE_WRONG - 1, 32), DELAY_MAX)
            r.until = now + delay
        self._records[address] = r
        if len(self._records) > MAX_TRACKED:
            self._make_room()
        return delay

    def right(self, address: str) -> None:
        """A right code from ``address``: its wrong ones are forgotten."""
        self._records.pop(address, None)

    def _make_room(self) -> None:
        """Forget a sixteenth of the table: the addresses with the fewest wrong codes, the
        oldest first (never one with more for one with fewer)."""
        order = sorted(self._records.items(), key=lambda kv: (kv[1].wrong, kv[1].last))
        for address, _ in order[: max(1, MAX_TRACKED // 16)]:
            del self._records[address]
