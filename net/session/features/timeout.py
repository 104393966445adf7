"""The timed-out move: the ``auto`` flag of an ``act`` entry, its check and its words.

With the host's ``--on-timeout program-plays`` (``bot`` on the wire), a seat's own program
plays a decision the player let wait for the turn limit: it alone holds the seat's cards. The
entry it signs then carries ``auto: true``, the seat's own word that the program, not the
player, chose the move. Rules:

1. ``auto`` is optional; when present it is ``true`` (every reader refuses ``false`` or a value
   of another type, naming the seat). An entry without it has the bytes it always had.
2. It is the seat's word, not a proof: a seat may mark a move ``auto`` before the limit has
   passed, and the move is as legal as any other (it changes no game state).
3. Every log that tells the move says so: ``timed_out_text`` turns the move's line
   ("Jo: plays Mercenary 4.") into "Jo's time ran out: the program played Mercenary 4 for Jo."

The ``--on-timeout`` choices as the user names them (``ON_TIMEOUT``) and as the wire does
(``WIRE``): ``end-game`` (``forfeit``: the seat due forfeits at the limit, the game ends) and
``program-plays`` (``bot``: the seat's own program plays at the limit T, the host forfeits the
seat at 2T). The old names stay accepted (``wire_name``).
"""

from __future__ import annotations

from typing import Any

#: the user's name of each ``--on-timeout`` choice -> its name on the wire (``start.on_timeout``)
WIRE: dict[str, str] = {"end-game": "forfeit", "program-plays": "bot"}
#: the choices as ``--on-timeout`` shows them
ON_TIMEOUT: tuple[str, ...] = tuple(WIRE)


def wire_name(choice: str) -> str:
    """The wire's name of an ``--on-timeout`` choice (a new name, or an old one as it is);
    ``ValueError`` for anything else."""
    if choice in WIRE:
        return WIRE[choice]
    if choice in WIRE.values():
        return choice
    raise ValueError(f"--on-timeout is one of {', '.join(ON_TIMEOUT)}, not {choice!r}")


def check_auto(fields: dict[str, Any]) -> str | None:
    """Why an ``act`` entry's ``auto`` field is refused (rule 1), or ``None``."""
    if "auto" in fields and fields["auto"] is not True:
        return "field 'auto' of an 'act' entry is true when present"
    return None


#: the first word of a move's line, as the program did it
PAST: dict[str, str] = {
    "plays": "played", "passes": "passed", "places": "placed", "draws": "drew", "keeps": "kept",
    "discards": "discarded", "sends": "sent", "plans": "planned", "turns": "turned",
    "declares": "declared", "goes": "went", "reveals": "revealed", "takes": "took",
}


def timed_out_text(line: str, labels: tuple[str, ...], name: str) -> str:
    """The line of a move the seat's program played for ``name`` after the turn limit:
    ``line`` is the move told as usual, starting with one of ``labels`` (the seat as the log
    names it: "Jo", "Green (Jo)", "Green")."""
    rest = line.strip()
    for label in sorted(labels, key=len, reverse=True):
        if label and rest.startswith(label):
            rest = rest[len(label):].lstrip(":").strip()
            break
    rest = rest.rstrip(".")
    head = f"{name}'s time ran out: the program"
    verb, _, tail = rest.partition(" ")
    if verb in PAST:
        return f"{head} {PAST[verb]}{' ' + tail if tail else ''} for {name}."
    return f"{head} played for {name}: {rest}." if rest else f"{head} played for {name}."
