"""Answers of pure checks, remembered in a process and worked out once there.

Rules:

* A ``Once`` maps a key (the bytes of every input of a check, or their digest) to the answer a
  pure function gave for it. ``once(key, work)`` returns the remembered answer, or runs
  ``work()`` and remembers what it returns. Several tables share one process (a host and its
  bots, a host that plays a seat): each proof is then worked out once there.
* Once in flight: a thread that asks for a key another thread is working out waits for that
  answer instead of working it out beside it (the tables of a process check in their own
  threads, at the same moments).
* An exception is never remembered: each caller that asks again works it out afresh (a failed
  check names its author in each caller's own words).
* At most ``size`` answers are kept, the least recently used dropped first. ``size = 0`` turns
  it off: every caller works out everything itself (a benchmark of each peer's own work, or a
  test of a table whose checks must not be shared).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Once(Generic[K, V]):
    """Answers remembered by key, each worked out once (see the module docstring)."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._answers: OrderedDict[K, V] = OrderedDict()
        self._flights: dict[K, threading.Lock] = {}
        self._lock = threading.Lock()

    def __contains__(self, key: object) -> bool:
        return bool(self.size) and key in self._answers

    def remember(self, key: K, answer: V) -> None:
        with self._lock:
            self._remember(key, answer)

    def _remember(self, key: K, answer: V) -> None:
        if not self.size:
            return
        self._answers[key] = answer
        self._answers.move_to_end(key)
        while len(self._answers) > self.size:
            self._answers.popitem(last=False)

    def __call__(self, key: K, work: Callable[[], V]) -> V:
        while True:
            if not self.size:
                return work()
            with self._lock:
                if key in self._answers:
                    self._answers.move_to_end(key)
                    return self._answers[key]
                flight = self._flights.get(key)
                if flight is None:  # this thread works it out
                    flight = self._flights[key] = threading.Lock()
                    flight.acquire()
                    break
            with flight:  # another thread works it out: wait, then look again
                pass
        try:
            answer = work()
        except BaseException:
            with self._lock:
                del self._flights[key]
            flight.release()
            raise
        with self._lock:
            self._remember(key, answer)
            del self._flights[key]
        flight.release()
        return answer
