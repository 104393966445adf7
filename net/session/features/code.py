"""The game code: what a stranger must know to take a seat, and how guessing it is slowed.

Rules:

* A code is three words from a list of 256 and four digits, e.g. ``ROOK-LUTE-OWL-4821``:
  ``256**3 * 10**4`` (about 1.7e11, 37.3 bits) codes, each read aloud in a breath. The host
  draws it with ``secrets``; it travels in the peer's ``hello``.
* A code is compared in its normal form (``normal_code``): upper case, any run of spaces,
  dots or dashes one dash, so that ``rook lute owl 4821`` is the same code.
* Wrong codes are counted per address (``address_key``: an IPv4 address, or the /64 of an IPv6
  one, which is what one household holds). An address may give ``FREE_WRONG`` wrong codes;
  each one after that locks the address out for ``LOCK_BASE`` seconds, doubled each time, up
  to ``LOCK_MAX``. While an address is locked out every hello from it that carries a code is
  refused without looking at the code, right or wrong, so a lockout cannot be raced. A right code
  forgets the address's wrong ones. The table of addresses is bounded (``MAX_TRACKED``, the
  oldest forgotten first), and an address is forgotten ``FORGET`` seconds after its last
  wrong code.

What that gives (``scripts/bench_strangers.py`` measures it): from one address, 5 guesses at once,
then about 12 more in the first 1.1 hours, then one an hour. Half the codes take 8.4e10 guesses,
so 9.6 million years from one address, and still 9,600 years from a thousand addresses at once.
"""

from __future__ import annotations

import hmac
import ipaddress
import re
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

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

FREE_WRONG = 5  # wrong codes an address may give before it is locked out
LOCK_BASE = 1.0  # seconds of the first lockout, doubled for each further wrong code
LOCK_MAX = 3600.0  # the longest lockout
FORGET = 24 * 3600.0  # an address's wrong codes are forgotten this long after the last one
MAX_TRACKED = 4096  # addresses remembered at once

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
    until: float = 0.0  # locked out until then
    last: float = 0.0  # the time of the last wrong code


class CodeGuard:
    """Counts wrong codes per address and says how long an address is locked out."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._records: OrderedDict[str, _Record] = OrderedDict()

    def locked(self, address: str) -> float:
        """Seconds until ``address`` may try a code again (0: it may now)."""
        r = self._records.get(address)
        if r is None:
            return 0.0
        now = self.clock()
        if now - r.last >= FORGET:
            del self._records[address]
            return 0.0
        return max(0.0, r.until - now)

    def wrong(self, address: str) -> float:
        """Count a wrong code from ``address``; the lockout it earns, in seconds (0: none)."""
        now = self.clock()
        r = self._records.pop(address, None) or _Record()
        if now - r.last >= FORGET:
            r = _Record()
        r.wrong += 1
        r.last = now
        lock = 0.0
        if r.wrong > FREE_WRONG:
            lock = min(LOCK_BASE * 2 ** min(r.wrong - FREE_WRONG - 1, 32), LOCK_MAX)
            r.until = now + lock
        self._records[address] = r  # the most recent last
        while len(self._records) > MAX_TRACKED:
            self._records.popitem(last=False)
        return lock

    def right(self, address: str) -> None:
        """A right code from ``address``: its wrong ones are forgotten."""
        self._records.pop(address, None)
