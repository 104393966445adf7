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
* ``check_beside(checks)`` hands every check not yet done nor queued to this process's one
  worker thread (``WORKER``, made on first use; one for every table of the process, so a host's
  bots share it), which runs everything queued since it last looked as ``run_all`` does: checks
  that arrive while it is busy are checked together. Its thread runs ``BEHIND`` nice levels
  below the game's where the system sets a priority per thread (Linux): what a seat waits on
  (its own shuffle, its shares, the screen) goes first on a busy machine, and the checks that
  queue meanwhile are checked together, for less. A worker whose last checks got less than
  ``CONTENDED`` of a core (other programs, or the other seats of a table on one machine, want
  the cores) is ``contended``: then a caller's ``now=False`` leaves the proofs of a chain still
  being shuffled, which nothing waits on yet, to a later call (``deck_checks_beside``: when
  this seat's turn to shuffle comes, or the chain is done), so that they are checked together,
  for fewer multiplications; on a machine with a core to spare they are checked as they come,
  for the earliest answer. A ``Worker`` of its own stands for another
  machine's (the in-memory table gives one to each peer). A check that fails there keeps its
  error for ``run``: the worker never raises, and a check it could not finish is run again by
  the caller. ``where`` (set by a caller) is the place of the message in the caller's record,
  named in the error instead of ``"shuffle"``.
* A ``ShareCheck`` holds one ``deck/shares`` message's equal-logs proof the same way
  (``share_error`` is its check, which ``FairDeck`` also makes at once): a seat's table takes
  the shares of cards dealt to *other* seats with their points checked and their proof checked
  beside the game, as a shuffle's (``FairDeck.receive(..., defer=True)``); they are only ever
  used when such a card is shown, and every one pending is checked before that. ``together``
  leaves share checks to ``run``.
* ``SHUFFLES_CHECKED`` remembers the digests of the shuffles this process has seen pass, so that
  several tables in one process (a host and its bots) check each proof once: a table whose
  thread asks while another table's thread checks the same shuffle waits for that answer. The digest covers
  every input of the check. ``size = 0`` turns it off (a benchmark of every peer's own work).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import threading
import time
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
    """The check of one shuffle's proof by ``author`` (see the module docstring)."""

    def __init__(self, author: int, group: g.Group, key: bytes, inputs: Sequence[Ciphertext],
                 outputs: Sequence[Ciphertext], proof: object, bound: bytes) -> None:
        super().__init__(author)
        self._args = (key, tuple(inputs), tuple(outputs), proof, bound)
        self._group = group
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


#: a check a deck holds until it is run: a shuffle's or a shares message's
Check = ShuffleCheck | ShareCheck


def together(checks: Iterable[Check]) -> None:
    """Check every one of ``checks`` not yet done (nor running in another thread) together, when
    there are two or more of one group: all are done if every proof holds; else nothing changes
    (``run`` then names the bad one)."""
    held: list[ShuffleCheck] = []
    try:
        for check in checks:
            if not isinstance(check, ShuffleCheck):
                continue  # a share check: ``run``
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


#: the share of a core below which a worker's checks count as contended (``Worker.contended``),
#: and how long its thread's first look at the cores lasts (seconds)
CONTENDED = 0.5
PROBE = 0.003

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
    """A thread that checks what it is handed: everything queued since it last looked, together
    (``together``, then ``run`` for each), one batch after another while the queue holds any.
    Made on first use; ``WORKER`` is this process's."""

    def __init__(self, name: str = "palazzo-proofs") -> None:
        self.name = name
        self._executor: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._queue: list[Check] = []  # handed over, not yet taken
        self._busy = False  # a batch is being checked (or about to be)
        self._again = False  # something waits on the queue: take it after this batch
        #: its last batch ran on less than ``CONTENDED`` of a core: the machine is short of them
        self.contended = False

    def forget(self) -> None:
        """A child process has none of its parent's threads: it makes its own."""
        self._executor = None
        self._lock = threading.Lock()
        self._queue = []
        self._busy = self._again = self.contended = False

    def submit(self, checks: Iterable[Check], now: bool = True) -> None:
        """Queue every one of ``checks`` not yet done nor queued, and check the queue together
        as soon as this thread is free. ``now=False`` (nothing waits on them yet): while it is
        busy they wait for its next batch, and a contended worker keeps them queued until
        something waits on the queue (a later ``now``), or the caller runs them itself (a
        check not begun here is the caller's to run: ``together``, ``run``)."""
        with self._lock:
            fresh = [c for c in checks if not (c.done or c.queued)]
            for check in fresh:
                check.queued = True
            self._queue += fresh
            if not self._queue:
                return
            if self._busy:
                self._again = self._again or now
            elif now or not self.contended:
                if self._executor is None:
                    self._executor = ThreadPoolExecutor(1, thread_name_prefix=self.name,
                                                        initializer=self._start)
                self._busy = True
                self._executor.submit(self._run_queued, now)

    def _start(self) -> None:
        """The thread's start: behind the game, and a first look at how busy the cores are
        (``PROBE`` seconds of hashing), so that the first proofs are held on a busy machine."""
        _behind()
        if PROBE <= 0:
            return
        wall, cpu, digest = time.perf_counter(), time.thread_time(), b""
        while time.perf_counter() - wall < PROBE:
            digest = hashlib.sha256(digest).digest()
        with self._lock:
            self.contended = time.thread_time() - cpu < CONTENDED * (time.perf_counter() - wall)

    def _run_queued(self, now: bool = True) -> None:
        with self._lock:  # the first look found the cores busy: held unless something waits
            if not now and not self._again and self.contended:
                self._busy = False
                return
        while True:
            with self._lock:
                checks, self._queue, self._again = self._queue, [], False
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                self._check(checks)
            finally:
                wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
                with self._lock:
                    if wall > 0.005:
                        self.contended = cpu < CONTENDED * wall
                    go_on = bool(self._queue) and (self._again or not self.contended)
                    self._busy = go_on
            if not go_on:
                return

    @staticmethod
    def _check(checks: Sequence[Check]) -> None:
        try:
            together(checks)
        except Exception:  # each is run on its own below
            pass
        for check in checks:
            try:
                check.run()
            except Exception:  # kept in the check (or left for the caller to run again)
                pass


WORKER = Worker()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=WORKER.forget)


def check_beside(checks: Iterable[Check], worker: Worker = WORKER, now: bool = True) -> None:
    """Check each of ``checks`` not yet done nor queued in ``worker`` (this process's, unless
    given), in the order given (see the module docstring); ``now``: as ``Worker.submit``."""
    worker.submit(checks, now)


def deck_checks_beside(deck: FairDeck, worker: Worker = WORKER) -> None:
    """Hand the proofs ``deck`` took unchecked to ``worker`` (this process's, unless given) as
    its peer's table does. An observer's (the host's), all at once. A seat's shuffles, at once
    if something waits on them (its turn to shuffle, or the chain shuffled to its end), else as
    ``Worker.submit(..., now=False)``; its shares of cards in other hands once the deal under way
    has every share in: checked in the deal, they would slow it where the seats share the
    machine's cores."""
    checks = deck.unchecked
    if deck.seat is None:
        worker.submit(checks)
        return
    waited = not deck.shuffling or deck.next_shuffler == deck.seat
    worker.submit([c for c in checks if isinstance(c, ShuffleCheck)], now=waited)
    shares = [c for c in checks if isinstance(c, ShareCheck) and not (c.done or c.queued)]
    if shares and all(not deck.missing_shares(h) for h in range(deck.handles)):
        worker.submit(shares)


def share_answers(on: bool) -> None:
    """Whether the tables of this process share the answers of their checks (shuffles, one-of
    and equal-logs proofs; on by default). Off, each table checks every proof itself: a
    benchmark of each peer's own work, as on machines of their own."""
    SHUFFLES_CHECKED.size = 256 if on else 0
    dp.ONE_OF_CHECKED.size = dp.DLEQ_CHECKED.size = 1024 if on else 0
