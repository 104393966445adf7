"""Words every game's text shares: a count with its noun, singular or plural.

``plural(1, "card") == "1 card"``, ``plural(2, "card") == "2 cards"``; a noun whose plural is
not its singular plus ``s`` gives it: ``plural(2, "pt", "pts")``. Zero takes the plural, as in
English ("0 cards"). Every label that puts a number before a noun goes through here, so no
screen writes "1 cards".
"""

from __future__ import annotations


def noun(n: int, singular: str, many: str | None = None) -> str:
    """The noun alone, for ``n`` of it: ``noun(1, "turn") == "turn"``."""
    if n == 1:
        return singular
    return many if many is not None else singular + "s"


def plural(n: int, singular: str, many: str | None = None) -> str:
    """``n`` and its noun: ``plural(3, "region") == "3 regions"``."""
    return f"{n} {noun(n, singular, many)}"
