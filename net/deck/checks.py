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
* ``check_beside(checks)`` hands every check not yet done nor queued to this process's one
  worker thread (made on first use; one for every table of the process, so a host's bots share
  it). A check that fails there keeps its error for ``run``: the worker never raises, and a
  check it could not finish is run again by the caller. ``where`` (set by a caller) is the place
  of the message in the caller's record, named in the error instead of ``"shuffle"``.
* ``SHUFFLES_CHECKED`` remembers the digests of the shuffles this process has seen pass, so that
  several tables in one process (a host and its bots) check each proof once. The digest covers
  every input of the check. ``size = 0`` turns it off (a benchmark of every peer's own work).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor

from net.deck import group as g
from net.deck import shuffle_proof as sp
from net.deck.cipher import Ciphertext
from net.wire.errors import CheatDetected


class ProofMemo:
    """Digests of the shuffles this process has already seen pass their proof (bounded)."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._seen: OrderedDict[bytes, None] = OrderedDict()
        self._lock = threading.Lock()

    def __contains__(self, digest: object) -> bool:
        return digest in self._seen

    def add(self, digest: bytes) -> None:
        with self._lock:
            self._seen[digest] = None
            while len(self._seen) > self.size:
                self._seen.popitem(last=False)


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

    def run(self) -> None:
        """Check the proof (once); ``CheatDetected`` naming the author if it fails."""
        with self._lock:
            if not self.done:
                try:
                    sp.verify(*self._args, group=self._group)
                except sp.ShuffleProofError as e:
                    self._error = CheatDetected(self.author, "shuffle", str(e))
                else:
                    if SHUFFLES_CHECKED.size:
                        SHUFFLES_CHECKED.add(self._digest)
                self.done = True
        if self._error is not None:
            if self.where is not None:
                raise CheatDetected(self.author, self.where, f"shuffle: {self._error.reason}")
            raise CheatDetected(self._error.seat, self._error.step, self._error.reason)


_worker: ThreadPoolExecutor | None = None
_worker_lock = threading.Lock()


def _run_quietly(check: ShuffleCheck) -> None:
    try:
        check.run()
    except Exception:  # kept in the check (or left for the caller to run again)
        pass


def check_beside(checks: Iterable[ShuffleCheck]) -> None:
    """Check each of ``checks`` not yet done nor queued in this process's worker thread, in
    the order given (see the module docstring)."""
    global _worker
    for check in checks:
        if check.done or check.queued:
            continue
        with _worker_lock:
            if _worker is None:
                _worker = ThreadPoolExecutor(1, thread_name_prefix="palazzo-proofs")
        check.queued = True
        _worker.submit(_run_quietly, check)
