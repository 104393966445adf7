"""Who is at a networked table, and what the game waits for: the ``PresenceLine``.

Theory of operation
-------------------
The host tells every seat who is here (``net.session.features.presence``: the host's word, not a
proof). The line under the table's header shows each player's presence, ``Ann here | Jo
thinking 0:42 | Cy away 3:10 | Di reconnecting 0:12 | Ed left`` (the seat due is
"thinking" while it is here, with how long it has been due), and, while the seat due is away,
reconnecting or gone, a second line::

    Waiting for Jo to come back (1:42 left): palazzo join HOST:PORT --code CODE

or, while the game waits on a seat's acknowledgement of the last entries
(``net.session.features.acks``), "Waiting for Jo to acknowledge (0:42 left)".

``1:42 left`` is what the host said it waits before it forfeits the seat (the grace period or
the turn limit, whichever is sooner), counted down on this machine's clock; the join line is
the one this program joined with (a joiner) or gave to its friends (the host). The line has
at most three rows: while the waiting line is shown, the list of players keeps one row (cut
with an ellipsis), so the join line is never cut off. The line is
drawn once a second; a local game has no presence and the line stays hidden. When the line
takes more or fewer rows (the waiting line comes or goes) it posts ``Reshaped``: the table
draws its panes again for their new size (the Condottiere map, its list).

The line also watches the keyboard for the host: after ``AWAY_AFTER`` seconds without a key
it tells the host the player is away (``status {away: true}``), and the next key tells it the
player is here again. The notes that come with the changes ("Jo left", "Jo is back", ...) go
to the table's log through the client (``tui.netclient``), not here.

A client that shows presence has ``presence`` (the last ``Presence`` or ``None``),
``player_names``, ``rejoin_line`` and ``set_away(flag)``, and may have ``game_over``: once the
game has ended no seat is due, whatever the host's last presence said (it is sent before the
end), and the line stops: it shows each player as the game ended ("Jo away 3:10" stays 3:10),
nothing counts on; ``tui.netclient.NetClient`` has them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static

from net.session.features.liveness import gone_line
from net.session.features.presence import GONE, Presence

if TYPE_CHECKING:
    from tui.client import GameClient

#: seconds without a key after which the player is away
AWAY_AFTER = 180.0


def clock_words(seconds: int) -> str:
    """``m:ss`` (``h:mm:ss`` from an hour)."""
    h, rest = divmod(max(0, seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02}:{s:02}" if h else f"{m}:{s:02}"


def seat_words(p: Presence, seat: int, now: float) -> str:
    """One seat's presence: here, thinking 0:42, away 3:10, reconnecting 0:12, left."""
    state = p.seats[seat].state
    if state == "silent":
        return f"not responding {clock_words(p.seconds(seat, now))}"
    if state == "here":
        if p.due == seat:
            return f"thinking {clock_words(int(now - p.due_since))}"
        return "here"
    if state == "left":
        return "left"
    return f"{state} {clock_words(p.seconds(seat, now))}"


def presence_text(p: Presence, names: Sequence[str], now: float) -> str:
    return " | ".join(f"{names[i] if i < len(names) else f'seat {i}'} {seat_words(p, i, now)}"
                      for i in range(len(p.seats)))


def waiting_text(p: Presence, names: Sequence[str], join_line: str, now: float) -> str:
    """The line while the seat due is away, reconnecting or gone, or while the game waits on
    a seat's acknowledgement ("" otherwise)."""
    if p.acks:
        who = " and ".join(names[i] if i < len(names) else f"seat {i}" for i in p.acks)
        wait = p.ack_wait(now)
        left = f" ({clock_words(wait)} left)" if wait is not None else ""
        silent = [i for i in p.acks if p.seats[i].state == "silent"]
        why = ", who is not responding" if len(p.acks) == 1 and silent else ""
        how = f": {join_line}" if join_line and any(p.seats[i].state in GONE for i in p.acks) \
            else ""
        return f"Waiting for {who} to acknowledge{why}{left}{how}"
    due = p.due
    if not 0 <= due < len(p.seats) or p.seats[due].state == "here":
        return ""
    name = names[due] if due < len(names) else f"seat {due}"
    wait = p.wait(now)
    left = f" ({clock_words(wait)} left)" if wait is not None else ""
    how = f": {join_line}" if join_line and p.seats[due].state in GONE else ""
    if p.seats[due].state == "silent":
        return f"Waiting for {name}, who is not responding{left}{how}"
    return f"Waiting for {name} to come back{left}{how}"


class PresenceLine(Static):
    """The presence of every player, and what the game waits for (see the module's rules)."""

    class Reshaped(Message):
        """The line took more or fewer rows: the panes under it have another size."""

    DEFAULT_CSS = """
    PresenceLine {
        display: none;
        height: auto;
        max-height: 3;
        padding: 0 1;
        color: $text-muted;
    }
    PresenceLine.-shown {
        display: block;
    }
    """

    def __init__(self, *, id: str | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(id=id)
        self.clock = clock
        self.source: Any = None
        self.last_key = clock()
        self.away = False
        self._shown: tuple[tuple[str, str], int] = (("", ""), 0)  # what the line shows, how wide
        self._ended: float | None = None  # when this line saw the game end: its clocks stop

    def follow(self, client: GameClient[Any, Any, Any]) -> None:
        """Show ``client``'s presence (nothing for a client without one)."""
        if not client.shows_presence:
            return
        self.source = client
        self.last_key = self.clock()
        self.tick()
        self.set_interval(1.0, self.tick)

    def on_resize(self, event: events.Resize) -> None:
        self.tick()  # cut to the new width
        self.post_message(self.Reshaped())

    def pressed(self) -> None:
        """A key: the player is here (again)."""
        self.last_key = self.clock()
        if self.away and self.source is not None:
            self.away = False
            self.source.set_away(False)

    def tick(self) -> None:
        src = self.source
        if src is None:
            return
        now = self.clock()
        if not self.away and now - self.last_key >= AWAY_AFTER:
            self.away = True
            src.set_away(True)
        p = src.presence
        gone = getattr(src, "host_gone", None)
        if gone is not None and p is not None and p.due >= 0:
            # the host counts nothing while it is gone
            p = replace(p, due=-1, deadline=None, acks=(), ack_deadline=None)
        if getattr(src, "game_over", False):
            if self._ended is None:
                self._ended = now
            now = self._ended  # nothing counts on after the end
            if p is not None and p.due >= 0:
                # the host's last word came before the end
                p = replace(p, due=-1, deadline=None, acks=(), ack_deadline=None)
        if p is None:
            lines = ("", "")
        else:
            names = src.player_names
            lines = (presence_text(p, names, now), waiting_text(p, names, src.rejoin_line, now))
        if gone is not None and not getattr(src, "game_over", False):
            lines = (lines[0] or "the host", gone_line(gone - now).capitalize())
        width = self.content_size.width
        if (lines, width) == self._shown:
            return
        self._shown = (lines, width)
        first = lines[0]
        if lines[1] and width and len(first) > width:  # the join line before the list's second row
            first = first[: width - 1] + "…"
        text = Text(first)
        if lines[1]:
            text.append("\n")
            text.append(lines[1], style="bold")
        self.update(text)
        self.set_class(bool(lines[0]), "-shown")


def watcher_news(before: Sequence[str], after: Sequence[str]) -> list[str]:
    """What to tell the table when the watchers went from ``before`` to ``after``."""
    came = [w for w in after if w not in before]
    went = [w for w in before if w not in after]
    return [f"{w} is watching" for w in came] + [f"{w} stopped watching" for w in went]
