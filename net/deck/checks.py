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
  queue meanwhile are checked together, for less. A ``Worker`` of its own stands for another
  machine's (the in-memory table gives one to each peer). A check that fails there keeps its
  error for ``run``: the worker never raises, and a check it could not finish is run again by
  the caller. ``where`` (set by a caller) is the place of the message in the caller's record,
  named in the error instead of ``"shuffle"``.
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
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor

from net.deck import group as g
from net.deck import proofs as dp
from net.deck import shuffle_proof as sp
from net.deck.cipher import Ciphertext
from net.deck.once import Once
from net.wire.errors import CheatDetected


class ProofMemo(Once[bytes, bool]):
    """Digests of the shuffles this process has already seen pass their proof (bounded; one
    thread works each out while the others asking for it wait: ``net.deck.once``)."""

    def __init__(self, size: int = 256) -> None:
        super().__init__(size)

    def add(self, digest: bytes) -> None:
        self.remember(digest, True)


SHUFFLES_CHECKED = ProofMemo()


class ShuffleCheck:
    """The check of one shuffle's proof by ``author`` (see the module docstring)."""

    def __init__(self, author: int, group: g.Group, key: bytes, inputs: Sequence[Ciphertext],
                 outputs: Sequence[Ciphertext], proof: object, bound: bytes) -> None:
        self.author = author
        self._args = (key, tuple(inputs), tuple(outputs), proof, bound)
        self._group = group
        self._digest = hashlib.sha256(g.encode(
            group.name.encode(), key, b"".join(ct.to_bytes() for ct in inputs),
            b"".join(ct.to_bytes() for ct in outputs),
            proof if isinstance(proof, bytes) else b"", bound)).digest()
        self._lock = threading.Lock()
        self._error: CheatDetected | None = None
        self.done = isinstance(proof, bytes) and self._digest in SHUFFLES_CHECKED
        self.queued = False  # for a caller: handed to a worker thread
        self.where: int | None = None  # the message's place in the caller's record, if any

    def __copy__(self) -> ShuffleCheck:
        return self  # what it checks never changes: every copy of a deck shares its checks

    def __deepcopy__(self, memo: dict[int, object]) -> ShuffleCheck:
        return self

    def _verify(self) -> bool:
        sp.verify(*self._args, group=self._group)
        return True

    def run(self) -> None:
        """Check the proof (once); ``CheatDetected`` naming the author if it fails."""
        with self._lock:
            if not self.done:
                try:  # another table's thread may have it (only a pass is remembered)
                    SHUFFLES_CHECKED(self._digest, self._verify)
                except sp.ShuffleProofError as e:
                    self._error = CheatDetected(self.author, "shuffle", str(e))
                self.done = True
        if self._error is not None:
            if self.where is not None:
                raise CheatDetected(self.author, self.where, f"shuffle: {self._error.reason}")
            raise CheatDetected(self._error.seat, self._error.step, self._error.reason)


def together(checks: Iterable[ShuffleCheck]) -> None:
    """Check every one of ``checks`` not yet done (nor running in another thread) together, when
    there are two or more of one group: all are done if every proof holds; else nothing changes
    (``run`` then names the bad one)."""
    held: list[ShuffleCheck] = []
    try:
        for check in checks:
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


def run_all(checks: Sequence[ShuffleCheck]) -> None:
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
    """A thread that checks what it is handed: everything queued since it last looked, together
    (``together``, then ``run`` for each). Made on first use; ``WORKER`` is this process's."""

    def __init__(self, name: str = "palazzo-proofs") -> None:
        self.name = name
        self._executor: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._queue: list[ShuffleCheck] = []  # handed over, not yet taken

    def forget(self) -> None:
        """A child process has none of its parent's threads: it makes its own."""
        self._executor = None
        self._lock = threading.Lock()
        self._queue = []

    def submit(self, checks: Iterable[ShuffleCheck]) -> None:
        for check in checks:
            if check.done or check.queued:
                continue
            with self._lock:
                if self._executor is None:
                    self._executor = ThreadPoolExecutor(1, thread_name_prefix=self.name,
                                                        initializer=_behind)
                check.queued = True
                self._queue.append(check)
                self._executor.submit(self._run_queued)

    def _run_queued(self) -> None:
        with self._lock:
            checks, self._queue = self._queue, []
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


def check_beside(checks: Iterable[ShuffleCheck], worker: Worker = WORKER) -> None:
    """Check each of ``checks`` not yet done nor queued in ``worker`` (this process's, unless
    given), in the order given (see the module docstring)."""
    worker.submit(checks)


def share_answers(on: bool) -> None:
    """Whether the tables of this process share the answers of their checks (shuffles, one-of
    and equal-logs proofs; on by default). Off, each table checks every proof itself: a
    benchmark of each peer's own work, as on machines of their own."""
    SHUFFLES_CHECKED.size = 256 if on else 0
    dp.ONE_OF_CHECKED.size = dp.DLEQ_CHECKED.size = 1024 if on else 0
