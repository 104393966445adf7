"""Shuffle proofs checked beside the game: one check per shuffle, runnable in a worker thread.

Rules:

* A ``ShuffleCheck`` holds everything one shuffle's proof is checked against (the group, the
  joint key, the input pile, the output pile, the proof and its context), all immutable, so
  ``run`` may be called from any thread: libsodium releases Python's global lock, and a second
  core checks while the first shuffles. ``run`` checks once (a lock makes a second caller wait
  for the first's answer) and raises ``CheatDetected(author, "shuffle", check)`` for a proof
  that fails, every time it is asked again.
* ``FairDeck`` (``net.deck.fair_deck``) makes one for every shuffle it takes unchecked
  (``receive(..., defer=True)``) and runs every one still pending, in the order of the chain,
  before it deals a card or makes a decryption share (``require_checked``): whatever a caller
  does with the checks, no card is dealt and no share made until every proof of the chain holds,
  and the first bad one names its author.
* ``run_all(checks)`` runs several checks, in the order given, as ``run`` runs each: those still
  to do are first checked together (``together``: every equation of every proof as one random
  linear combination, ``shuffle_proof.verify_all``, so that a pile between two shuffles, the
  generators and the key are multiplied once for all of them); if that holds, each is done;
  if not, nothing is decided, and each is checked on its own, in order, so the first bad one
  names its author as ``run`` would. A check another thread is running is left to it.
* A seat sums the proofs of a round of a deck's shuffles (every seat once) as they come: its
  ``FairDeck`` gives each ``ShuffleCheck`` it takes the round's ``Chain``, which adds each
  proof's equations, with weights of its own, to one random linear combination
  (``shuffle_proof.Sum``) as soon as the proof before it is in: the proof's own points
  (commitments, chain, ``t`` values) are multiplied at once, a pile between two shuffles once
  both proofs on it are in, the generators, the key and ``G`` when the round is whole. So the
  round costs what its proofs checked together cost, and all but the last proof's share of it
  is done while the round goes on. A round is whole when every shuffle but the seat's own is
  summed; then the sum settles: if it holds, every check is done; if not, the checks are run on
  their own, in order, and the first bad one keeps its error (``CheatDetected`` naming its
  author). Nothing is done before the round is whole, so no card is dealt and no share made
  before every proof of it holds. A caller that needs the answer before (``together``: a game
  that ends in a round) gives the chain up, and its checks are run as any other. An observer
  (the host, ``palazzo verify``) has no chain: it checks each proof on its own or together.
* ``check_beside(checks)`` hands every check not yet done nor queued to this process's one
  worker thread (``WORKER``, made on first use; one for every table of the process, so a host's
  bots share it), which takes everything queued since it last looked in one batch: checks of a
  chain summed into it, the others run as ``run_all`` does (checks that arrive while it is busy
  are checked together), those first, so that a chain of another table of this process finds
  their answers. Its thread runs ``BEHIND`` nice levels below the game's where the system sets
  a priority per thread (Linux): what a seat waits on (its own shuffle, its shares, the screen)
  goes first on a busy machine. ``deck_checks_beside`` hands a deck's checks over as its peer's
  table does. A ``Worker`` of its own stands for another machine's (the in-memory table gives
  one to each peer). A check that fails there keeps its error for ``run``: the worker never
  raises, and a check it could not finish is run again by the caller. ``where`` (set by a
  caller) is the place of the message in the caller's record, named in the error instead of
  ``"shuffle"``.
* A ``ShareCheck`` holds one ``deck/shares`` message's equal-logs proof the same way
  (``share_error`` is its check, which ``FairDeck`` also makes at once): a seat's table takes
  the shares of cards dealt to *other* seats with their points checked and their proof checked
  beside the game, as a shuffle's (``FairDeck.receive(..., defer=True)``); they are only ever
  used when such a card is shown, and every one pending is checked before that. ``together``
  leaves share checks to ``run``.
* ``SHUFFLES_CHECKED`` remembers the digests of the shuffles this process has seen pass, so that
  several tables in one process (a host and its bots) check each proof once: a table whose
  thread asks while another table's thread checks the same shuffle waits for that answer, and a
  chain does not sum a proof whose answer is there. The digest covers every input of the check.
  ``size = 0`` turns it off (a benchmark of every peer's own work).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from net.deck import group as g
from net.deck import proofs as dp
from net.deck import shuffle_proof as sp
from net.deck.cipher import Ciphertext
from net.deck.once import Once
from net.wire.errors import CheatDetected

if TYPE_CHECKING:
    from net.deck.fair_deck import FairDeck


class ProofMemo(Once[bytes, bool]):
    """Digests of the shuffles this process has already seen pass their proof (bounded; one
    thread works each out while the others asking for it wait: ``net.deck.once``)."""

    def __init__(self, size: int = 256) -> None:
        super().__init__(size)

    def add(self, digest: bytes) -> None:
        self.remember(digest, True)


SHUFFLES_CHECKED = ProofMemo()


def share_error(author: int, step: str, group: g.Group, public: bytes, handles: Sequence[int],
                bases: Sequence[bytes], shares: Sequence[bytes], proof: object,
                bound: bytes) -> CheatDetected | None:
    """What is wrong with the shares ``author`` sent for ``handles`` (decryption shares of
    ``bases`` under its key share ``public``, with one proof bound to ``bound``), naming it; or
    ``None``."""
    if dp.verify_dleq(public, bases, shares, proof, bound, group=group):
        return None
    return point_error(author, step, group, handles, shares) or CheatDetected(
        author, step, f"the shares for cards {list(handles)} fail their proof")


def point_error(author: int, step: str, group: g.Group, handles: Sequence[int],
                shares: Sequence[bytes]) -> CheatDetected | None:
    """The first of ``shares`` that is no point of the group, named; or ``None``."""
    for h, share in zip(handles, shares, strict=True):
        try:
            group.decode_point(share)
        except g.InvalidPoint as e:
            return CheatDetected(author, step, f"share for card {h}: {e}")
    return None


class _Check:
    """What a check of one message is, whatever it checks: run once, in any thread (a lock makes
    a second caller wait for the first's answer), its failure kept and raised every time it is
    asked again. What it checks never changes, so every copy of a deck shares it."""

    def __init__(self, author: int) -> None:
        self.author = author
        self._lock = threading.Lock()
        self._error: CheatDetected | None = None
        self.done = False
        self.queued = False  # for a caller: handed to a worker thread
        self.where: int | None = None  # the message's place in the caller's record, if any

    def __copy__(self) -> _Check:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> _Check:
        return self

    def _find(self) -> CheatDetected | None:
        raise NotImplementedError

    def run(self) -> None:
        """Check (once); ``CheatDetected`` naming the author if it fails, at ``where`` if set."""
        with self._lock:
            if not self.done:
                self._error = self._find()
                self.done = True
        if self._error is None:
            return
        if self.where is not None:
            raise CheatDetected(self._error.seat, self.where,
                                f"{self._error.step}: {self._error.reason}")
        raise CheatDetected(self._error.seat, self._error.step, self._error.reason)


class ShareCheck(_Check):
    """The check of one shares message's proof, taken unchecked (see the module docstring)."""

    def __init__(self, author: int, step: str, group: g.Group, public: bytes,
                 handles: Sequence[int], bases: Sequence[bytes], shares: Sequence[bytes],
                 proof: object, bound: bytes) -> None:
        super().__init__(author)
        self.handles = tuple(handles)
        self._args = (author, step, group, public, self.handles, tuple(bases), tuple(shares),
                      proof, bound)

    def _find(self) -> CheatDetected | None:
        return share_error(*self._args)


class ShuffleCheck(_Check):
    """The check of one shuffle's proof by ``author`` (see the module docstring): the deck's
    shuffle ``number``, and the ``Chain`` of its round when a seat takes it (``None``: an
    observer's, checked on its own or with others, ``together``)."""

    def __init__(self, author: int, group: g.Group, key: bytes, inputs: Sequence[Ciphertext],
                 outputs: Sequence[Ciphertext], proof: object, bound: bytes, number: int = 0,
                 chain: Chain | None = None) -> None:
        super().__init__(author)
        self._args = (key, tuple(inputs), tuple(outputs), proof, bound)
        self._group = group
        self.number = number
        self.chain = chain
        self._digest = hashlib.sha256(g.encode(
            group.name.encode(), key, b"".join(ct.to_bytes() for ct in inputs),
            b"".join(ct.to_bytes() for ct in outputs),
            proof if isinstance(proof, bytes) else b"", bound)).digest()
        self.done = isinstance(proof, bytes) and self._digest in SHUFFLES_CHECKED

    def _verify(self) -> bool:
        sp.verify(*self._args, group=self._group)
        return True

    def _find(self) -> CheatDetected | None:
        try:  # another table's thread may have it (only a pass is remembered)
            SHUFFLES_CHECKED(self._digest, self._verify)
        except sp.ShuffleProofError as e:
            return CheatDetected(self.author, "shuffle", str(e))
        return None

    def _passed(self) -> None:
        """Done: it held in its chain's sum (``Chain``)."""
        with self._lock:
            self.done = True
        if SHUFFLES_CHECKED.size:
            SHUFFLES_CHECKED.add(self._digest)


class Chain:
    """The shuffles of one round of a deck (every seat once, in seat order, from shuffle
    ``first``) that a seat checks, summed as they come (``shuffle_proof.Sum``), so that the
    round costs what its proofs checked together cost, and most of it is done before the round
    ends (see the module docstring).

    ``take(checks)`` sums each check handed to it, in the order of the chain, as soon as the one
    before it is summed: its own points at once, a pile once both proofs on it are summed (or
    the next is this seat's own, or none). When every shuffle but this seat's own is summed, the
    sum is settled: if it holds, every check is done; if not, each is checked on its own, in
    order, so that the first bad one names its author as ``run`` would. A check whose answer
    another table of this process already has is not summed. ``settle()`` (a caller that needs
    the answer) takes what it is given first and settles the chain if it is whole; if it is not
    (the game ends in a round), it gives the chain up and its checks are run as any other.
    Every method may be called from any thread."""

    def __init__(self, group: g.Group, seats: int, first: int, own: int | None) -> None:
        self.first, self.end, self.own = first, first + seats, own
        self._sum = sp.Sum(group)
        self._lock = threading.Lock()
        self._next = first  # the next shuffle to sum
        self._handed: dict[int, ShuffleCheck] = {}
        self._summed: list[ShuffleCheck] = []
        self._broken = False  # a proof that cannot be read: the sum cannot hold
        self.settled = False
        self.given_up = False

    def __copy__(self) -> Chain:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Chain:
        return self

    def take(self, checks: Iterable[ShuffleCheck]) -> None:
        """Sum every check handed over that comes next in the chain; settle a whole chain."""
        with self._lock:
            for check in checks:
                if check.chain is self and not (self.settled or self.given_up):
                    self._handed.setdefault(check.number, check)
            self._advance()

    def settle(self, checks: Iterable[ShuffleCheck] = ()) -> None:
        """Take ``checks``, then settle the chain if it is whole, or give it up."""
        self.take(checks)
        with self._lock:
            if not self.settled:
                self.given_up = True

    def _advance(self) -> None:
        while not (self.settled or self.given_up) and self._next < self.end:
            if self._next == self.own:
                self._next += 1
                continue
            check = self._handed.pop(self._next, None)
            if check is None:
                return
            self._add(check)
            self._next += 1
        if self._next == self.end and not (self.settled or self.given_up):
            self._settle()

    def _add(self, check: ShuffleCheck) -> None:
        key, inputs, outputs, proof, bound = check._args
        pile_before = [x for ct in inputs for x in (ct.c1, ct.c2)]
        if check._error is None and (check.done or check._digest in SHUFFLES_CHECKED):
            check.done = True  # it held (here, or at another table of this process)
            self._sum.fold(pile_before)  # whole: nothing more comes on it
            return
        self._summed.append(check)
        if check.done:  # already found false: named when the chain settles
            self._broken = True
            return
        try:
            claim = sp._read(key, inputs, outputs, proof, bound)
        except sp.ShuffleProofError:
            self._broken = True
            return
        self._sum.add(claim)
        self._sum.fold(pile_before)  # the proof before it is summed, or is nobody's here
        self._sum.fold_own(claim)
        if check.number + 1 in (self.own, self.end):  # nobody here sums the pile after it
            self._sum.fold([x for ct in outputs for x in (ct.c1, ct.c2)])

    def _settle(self) -> None:
        self.settled = True
        if not self._broken and self._sum.holds():
            for check in self._summed:
                check._passed()
            return
        for check in self._summed:  # one of them is false: each on its own, to the first bad
            try:
                check.run()
            except CheatDetected:
                return


#: a check a deck holds until it is run: a shuffle's or a shares message's
Check = ShuffleCheck | ShareCheck


def _chained(check: Check) -> bool:
    """A shuffle's check that belongs to a chain: handed to it even when its answer is known
    (the chain sums the others, and needs to know it is in)."""
    return isinstance(check, ShuffleCheck) and check.chain is not None


def _by_chain(checks: Iterable[Check]) -> list[tuple[Chain, list[ShuffleCheck]]]:
    """The chained ones of ``checks`` by their chain, each in the order given."""
    chains: dict[int, tuple[Chain, list[ShuffleCheck]]] = {}
    for check in checks:
        if isinstance(check, ShuffleCheck) and check.chain is not None:
            chains.setdefault(id(check.chain), (check.chain, []))[1].append(check)
    return list(chains.values())


def together(checks: Iterable[Check]) -> None:
    """Check every one of ``checks`` not yet done (nor running in another thread) together, when
    there are two or more of one group: all are done if every proof holds; else nothing changes
    (``run`` then names the bad one). Checks of a ``Chain`` settle it first (``Chain.settle``)."""
    checks = list(checks)
    for chain, mine in _by_chain(checks):
        chain.settle(mine)
    held: list[ShuffleCheck] = []
    try:
        for check in checks:
            if not isinstance(check, ShuffleCheck):
                continue  # a share check: ``run``
            if check.chain is not None and check.chain.settled:
                continue  # done, or each already run on its own
            if check.done or not check._lock.acquire(blocking=False):
                continue
            if check._digest in SHUFFLES_CHECKED:
                check.done = True  # another table of this process checked it meanwhile
            if check.done or (held and check._group is not held[0]._group):
                check._lock.release()
                continue
            held.append(check)
        if len(held) > 1 and sp.verify_all([c._args for c in held], group=held[0]._group):
            for check in held:
                check.done = True
                if SHUFFLES_CHECKED.size:
                    SHUFFLES_CHECKED.add(check._digest)
    finally:
        for check in held:
            check._lock.release()


def run_all(checks: Sequence[Check]) -> None:
    """Run ``checks`` in order, as ``run`` runs each (``CheatDetected`` for the first bad one),
    those still to do checked together first."""
    together(checks)
    for check in checks:
        check.run()


#: how much lower the worker thread's scheduling priority is than the game's (its nice value
#: above the process's, where the system sets it per thread: Linux)
BEHIND = 10


def _behind() -> None:
    """Lower this thread's scheduling priority (Linux: a thread is a task of its own)."""
    if sys.platform.startswith("linux") and BEHIND:
        with contextlib.suppress(OSError, AttributeError):
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + BEHIND)


class Worker:
    """A thread that checks what it is handed: everything queued since it last looked, in one
    batch (checks of a ``Chain`` summed into it; the others ``together``, then ``run`` for
    each), one batch after another while the queue holds any. Made on first use; ``WORKER`` is
    this process's."""

    def __init__(self, name: str = "palazzo-proofs") -> None:
        self.name = name
        self._executor: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._queue: list[Check] = []  # handed over, not yet taken
        self._busy = False  # a batch is being checked (or about to be)

    def forget(self) -> None:
        """A child process has none of its parent's threads: it makes its own."""
        self._executor = None
        self._lock = threading.Lock()
        self._queue = []
        self._busy = False

    def submit(self, checks: Iterable[Check]) -> None:
        """Queue every one of ``checks`` not yet done nor queued, and check the queue as soon as
        this thread is free."""
        with self._lock:
            fresh = [c for c in checks if not c.queued and (not c.done or _chained(c))]
            for check in fresh:
                check.queued = True
            self._queue += fresh
            if not self._queue or self._busy:
                return
            if self._executor is None:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix=self.name,
                                                    initializer=_behind)
            self._busy = True
            self._executor.submit(self._run_queued)

    def _run_queued(self) -> None:
        while True:
            with self._lock:
                checks, self._queue = self._queue, []
            try:
                self._check(checks)
            finally:
                with self._lock:
                    self._busy = bool(self._queue)
                    go_on = self._busy
            if not go_on:
                return

    @staticmethod
    def _check(checks: Sequence[Check]) -> None:
        summed = [c for c in checks if isinstance(c, ShuffleCheck) and c.chain is not None
                  and not c.chain.given_up]
        others = [c for c in checks if c not in summed and not c.done]
        try:  # first, so that a chain of another table of this process finds their answers
            together(others)
        except Exception:  # each is run on its own below
            pass
        for check in others:
            try:
                check.run()
            except Exception:  # kept in the check (or left for the caller to run again)
                pass
        for chain, mine in _by_chain(summed):
            try:
                chain.take(mine)
            except Exception:  # the caller settles it again, or gives it up
                pass


WORKER = Worker()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=WORKER.forget)


def check_beside(checks: Iterable[Check], worker: Worker = WORKER) -> None:
    """Check each of ``checks`` not yet done nor queued in ``worker`` (this process's, unless
    given), in the order given (see the module docstring)."""
    worker.submit(checks)


def deck_checks_beside(deck: FairDeck, worker: Worker = WORKER) -> None:
    """Hand the proofs ``deck`` took unchecked to ``worker`` (this process's, unless given) as
    its peer's table does: every shuffle at once (a seat's are summed into their ``Chain`` as
    they come), and a seat's shares of cards in other hands once the deal under way has every
    share in: checked in the deal, they would slow it where the seats share the machine's
    cores."""
    checks = deck.unchecked
    if deck.seat is None:
        worker.submit(checks)
        return
    worker.submit([c for c in checks if isinstance(c, ShuffleCheck)])
    shares = [c for c in checks if isinstance(c, ShareCheck) and not (c.done or c.queued)]
    if shares and all(not deck.missing_shares(h) for h in range(deck.handles)):
        worker.submit(shares)


def share_answers(on: bool) -> None:
    """Whether the tables of this process share the answers of their checks (shuffles, one-of
    and equal-logs proofs; on by default). Off, each table checks every proof itself: a
    benchmark of each peer's own work, as on machines of their own."""
    SHUFFLES_CHECKED.size = 256 if on else 0
    dp.ONE_OF_CHECKED.size = dp.DLEQ_CHECKED.size = 1024 if on else 0
