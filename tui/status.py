"""Whose turn it is, in words, and the turn limit's countdown, for every table screen.

Rules:

1. Every screen names the seat the game waits for and what it is doing, in words, never a
   bare "..." or a turn number alone: "Jo (Orsini) is choosing a card to play", "waiting for
   Jo's shuffle (dealing, 2 of 3)", "dealing: waiting for the deck".
2. A networked table knows the seat due from its ``Table.writer()`` and the deck's step
   (``FairDealer.step``): ``due_of(table)`` says it as a ``Due``, which ``NetClient`` puts in
   every ``TableView`` with the time on this machine's clock when the entry that made the seat
   due arrived (the host counts the same way, from the entry it relayed). A local table's view
   has no ``Due``: the actor and the game's phase say it all.
3. With a turn limit (the start's ``timeout`` T), ``countdown(view, now)`` gives the seat due's
   time left ("Jo: 0:42 left"), and on the seat's own screen, in its last ``WARN`` seconds (or
   its last quarter of T, whichever is longer), the warning of what follows: "your time runs out
   in 0:10: the program will play for you" (``on_timeout`` ``bot``) or "...: you forfeit". With
   ``bot``, once T has passed, the host forfeits the seat at 2T: "Jo: forfeit in 0:12".
4. The words are short: a name is at most 32 characters, and the header line that carries them
   (``header``) is cropped to the screen's width from the right, the countdown kept.

``TableScreen`` redraws its header once a second while a countdown runs, that line alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import CHANCE
from tui.names import possessive

#: seconds before the limit from which the seat's own screen warns it
WARN = 10

#: what a seat due in a phase is doing, by game
DOING: dict[str, dict[str, str]] = {
    "medici": {
        "hide": "placing a card face down",
        "top": "crowning a shadow alliance",
        "play": "choosing a card to play",
        "resolve": "declaring a strike's values",
        "reveal": "showing the struck card",
        "flip": "turning up the shadow alliances",
    },
    "condottiere": {
        "place": "choosing where to fight",
        "play": "choosing a card to play",
        "take": "choosing cards to draw",
        "discard": "keeping or discarding the hand",
        "keep": "choosing the cards to keep",
        "reveal": "turning up a face-down card",
        "showdown": "turning up a face-down card",
    },
}


@dataclass(frozen=True)
class Due:
    """Whom a networked table waits for: ``seat`` (-1: the host), ``step`` (``move``, ``key``,
    ``shuffle``, ``shares``, ``seed``, ``open``, ``end``, ``start``), ``n`` of ``of`` for a step
    of a round, ``since`` (this machine's clock when the seat became due), the turn ``limit``
    in seconds (0: none), ``on_timeout`` (the wire's name) and the ``players``' own names."""

    seat: int
    step: str
    n: int = 0
    of: int = 0
    since: float = 0.0
    limit: int = 0
    on_timeout: str = "forfeit"
    players: tuple[str, ...] = ()


def due_of(table: Any, since: float = 0.0) -> Due | None:
    """What a networked ``Table`` waits for (rule 2); ``None`` once the game is over."""
    from net.session.machines.entries import Phase  # a networked game's: not loaded by local play

    phase = table.phase
    names = tuple(s.name for s in table.seats)
    kw: dict[str, Any] = {"since": since, "limit": table.timeout,
                          "on_timeout": table.on_timeout, "players": names}
    if phase is Phase.LOBBY:
        return Due(-1, "start", **kw)
    writer = table.writer()
    if writer is None:
        return None if phase is Phase.OVER else Due(-1, "deck", **kw)
    if phase in (Phase.SEED_COMMIT, Phase.SEED_OPEN):
        return Due(writer, "seed" if phase is Phase.SEED_COMMIT else "open", writer + 1, len(names),
                   **kw)
    if phase is Phase.END:
        return Due(writer, "end", **kw)
    step = table.dealer.step() if table.dealer is not None else None
    if step is not None:
        return Due(writer, step[0], step[1], step[2], **kw)
    return Due(writer, "move", **kw)


def _player(view: Any, seat: int) -> str:
    """The player's own name when the table knows it ("Jo"), else the seat's label."""
    due: Due | None = getattr(view, "due", None)
    players = due.players if due is not None else ()
    if 0 <= seat < len(players) and players[seat]:
        return str(players[seat])
    names = view.names
    return str(names[seat]) if 0 <= seat < len(names) else f"seat {seat + 1}"


def doing(game: str, state: Any) -> str:
    """What the seat due in ``state`` is doing, in words (rule 1)."""
    phase = getattr(state, "phase", "")
    return DOING.get(game, {}).get(phase, "thinking")


def who(view: Any) -> str:
    """The header's first words: whose turn, and what it is doing or what the table waits
    for."""
    if view.outcome is not None:
        return " and ".join(view.names[w] for w in view.outcome.winners) + " won"
    if getattr(view, "stopped", ""):
        return "The game stopped"
    due: Due | None = getattr(view, "due", None)
    if due is not None and due.step != "move":
        return waiting(view)
    if view.my_turn:
        return "Your turn"
    actor = view.actor
    if actor == CHANCE and due is None:
        return "dealing"
    if actor >= 0:
        return f"{view.names[actor]} is {doing(view.game, view.state)}"
    if due is not None and due.seat >= 0:
        return f"{view.names[due.seat]} is {doing(view.game, view.state)}"
    return waiting(view)


def waiting(view: Any) -> str:
    """What the table waits for when no decision is due from this seat (rule 1)."""
    due: Due | None = getattr(view, "due", None)
    if getattr(view, "stopped", ""):
        return str(view.stopped)
    if view.over:
        return "the game is over"
    if due is None or due.seat < 0:
        if due is not None and due.step == "start":
            return "waiting for the host to start the game"
        if view.actor >= 0:
            return f"waiting for {view.names[view.actor]}: {doing(view.game, view.state)}"
        return "dealing: waiting for the deck"
    name = _player(view, due.seat)
    mine = due.seat == view.seat
    whose = "your" if mine else possessive(name)
    count = f", {due.n} of {due.of}" if due.of else ""
    if due.step == "key":
        return f"waiting for {whose} deck key (dealing{count})"
    if due.step == "shuffle":
        return f"waiting for {whose} shuffle (dealing{count})"
    if due.step == "shares":
        return f"waiting for {whose} share of the cards dealt (dealing)"
    if due.step == "seed":
        return f"waiting for {whose} seed (starting{count})"
    if due.step == "open":
        return f"waiting for {whose} seed to open (starting{count})"
    if due.step == "end":
        return f"waiting for {whose} signature on the end"
    if mine:
        return "Your turn"
    return f"waiting for {view.names[due.seat]}: {doing(view.game, view.state)}"


def clock(seconds: float) -> str:
    """``0:42``, ``12:05``: whole seconds left, rounded up, never below 0."""
    s = max(0, int(-(-seconds // 1)))
    return f"{s // 60}:{s % 60:02d}"


def countdown(view: Any, now: float) -> str:
    """The seat due's time left under the turn limit (rule 3); "" when there is none."""
    due: Due | None = getattr(view, "due", None)
    if due is None or due.limit <= 0 or due.seat < 0 or view.over or getattr(view, "stopped", ""):
        return ""
    spent = now - due.since
    left = due.limit - spent
    program = due.on_timeout == "bot"
    if due.seat == view.seat:
        if left <= 0 and program:
            return f"the program is playing for you; you forfeit in {clock(2 * due.limit - spent)}"
        if left <= max(WARN, due.limit / 4):
            then = "the program will play for you" if program else "you forfeit"
            return f"your time runs out in {clock(left)}: {then}"
        return f"you: {clock(left)} left"
    name = _player(view, due.seat)
    if left <= 0 and program:
        return f"{name}: forfeit in {clock(2 * due.limit - spent)}"
    return f"{name}: {clock(left)} left"


def header(status: str, count: str, width: int) -> str:
    """The header line: the game's status with the countdown after it, cropped from the right
    to ``width`` characters, the countdown kept whole (rule 4)."""
    if not count:
        return status if len(status) <= width else status[: max(width - 1, 0)] + "…"
    room = width - len(count) - 3
    if len(status) > room:
        status = status[: max(room - 1, 0)].rstrip(" |") + "…"
    return f"{status} | {count}"


def placed(view: Any, rules: Any) -> str:
    """Who has placed in a set-up all seats make at once ("placed: Orsini 3/3, Colonna 1/3,
    Borgia 0/3", the seat's own queued choices counted apart); "" outside one. Only counts:
    nothing of a placement's card."""
    counts = rules.setup_placed(view.state) if view.state is not None else ()
    if not counts:
        return ""
    n = rules.setup_owed(view.state)
    labels = tuple(rules.seat_names)
    parts = [f"{labels[i] if i < len(labels) else view.names[i]} {c}/{n}"
             for i, c in enumerate(counts)]
    text = "placed: " + ", ".join(parts)
    if view.queued:
        text += f" (yours queued: {len(view.queued)})"
    return text

