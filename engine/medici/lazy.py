"""A list of legal actions whose costly runs are made only when asked for.

Rules:

* ``LazyActions`` is a ``list`` made of eager actions with runs cut into them: a run is its
  length and a maker: ``make()`` gives its actions in order, ``make.at(i)`` its ``i``-th alone. Its length and any one action
  (``len``, ``[i]``: what a random choice asks) need only the runs' lengths and the one run the
  action is in; anything else (iterating, comparing, slicing, ``in``, changing it) first makes
  the whole list, once, and from then on it is a plain list. So it reads exactly as the full
  list would, in the same order.
* The conspiracies of Court of the Medici's play phase are the runs: a decision may have a few
  hundred, and a random choice takes one action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Protocol, SupportsIndex, TypeVar, overload

T = TypeVar("T")



class Maker(Protocol):
    """What makes a run: all of it, or one action of it."""

    def __call__(self) -> list[Any]: ...

    def at(self, i: int) -> Any: ...


#: a run cut into the eager actions: (its place among them, its length, what makes it)
Run = tuple[int, int, Maker]


class LazyActions(list[T]):
    """See the module docstring."""

    __slots__ = ("_eager", "_runs", "_n")

    def __init__(self, eager: list[T], runs: list[Run]) -> None:
        super().__init__()
        self._eager: list[T] | None = eager
        self._runs = runs
        self._n = len(eager) + sum(n for _, n, _ in runs)

    def _full(self) -> LazyActions[T]:
        eager = self._eager
        if eager is not None:
            out: list[T] = []
            at = 0
            for where, _, make in self._runs:
                out += eager[at:where]
                out += make()
                at = where
            out += eager[at:]
            self._eager = None
            list.extend(self, out)
        return self

    def __len__(self) -> int:
        return self._n if self._eager is not None else list.__len__(self)

    def __bool__(self) -> bool:
        return len(self) > 0

    @overload
    def __getitem__(self, i: SupportsIndex) -> T: ...

    @overload
    def __getitem__(self, i: slice) -> list[T]: ...

    def __getitem__(self, i: SupportsIndex | slice) -> T | list[T]:
        eager = self._eager
        if eager is None or isinstance(i, slice):
            return list.__getitem__(self._full(), i)
        k = i.__index__()
        if k < 0:
            k += self._n
        if not 0 <= k < self._n:
            raise IndexError("list index out of range")
        for where, n, make in self._runs:  # k: the place among the eager and later actions
            if k < where:
                return eager[k]
            if k < where + n:
                one: T = make.at(k - where)
                return one
            k -= n
        return eager[k]

    def __iter__(self) -> Iterator[T]:
        return list.__iter__(self._full())

    def __reversed__(self) -> Iterator[T]:
        return list.__reversed__(self._full())

    def __contains__(self, x: object) -> bool:
        return list.__contains__(self._full(), x)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyActions):
            other._full()
        return list.__eq__(self._full(), other)

    def __ne__(self, other: object) -> bool:
        return not self == other


    def __repr__(self) -> str:
        return list.__repr__(self._full())

    def __add__(self, other: list[T]) -> list[T]:  # type: ignore[override]
        return list(self) + list(other)

    def __radd__(self, other: list[T]) -> list[T]:
        return list(other) + list(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))

    def __copy__(self) -> list[T]:
        return list(self)

    def copy(self) -> list[T]:
        return list(self)

    def index(self, *a: Any) -> int:
        return list.index(self._full(), *a)

    def count(self, x: Any) -> int:
        return list.count(self._full(), x)


def _filled(name: str) -> Callable[..., Any]:
    method = getattr(list, name)

    def call(self: LazyActions[Any], *a: Any, **kw: Any) -> Any:
        return method(self._full(), *a, **kw)

    call.__name__ = name
    return call


for _name in ("append", "extend", "insert", "pop", "remove", "reverse", "sort", "clear",
              "__setitem__", "__delitem__", "__iadd__", "__imul__", "__mul__", "__rmul__",
              "__lt__", "__le__", "__gt__", "__ge__"):
    setattr(LazyActions, _name, _filled(_name))
