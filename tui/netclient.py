"""A networked seat behind the table's ``GameClient`` interface: ``NetClient``.

The game runs on the network (``net``): a ``PeerSession`` follows the signed transcript on this
seat's view and posts the seat's entries. This client turns the session into ``TableView``
snapshots for a table screen and passes the seat's decisions on; it holds no game facts of its
own.

A move a seat's own program played after the turn limit (``auto``, ``net.session.features.timeout``) is
told as such: "Jo's time ran out: the program played Mercenary 4 for Jo."

``send(action)`` posts a decision: ``PeerRunner.act`` for a seat on a TCP connection, or the
host's in-process link for the host's own seat. ``changed()`` must be called whenever the
session may have moved (the runner's event callback does it); ``updates()`` then yields a new
snapshot if anything the seat may see is different. A session that fails (a detected cheat, a
lost host) ends the stream; ``error`` says why.

Presence (``tui.presence``): ``presence`` is the host's last word on who is here,
``player_names`` the players' names, ``rejoin_line`` the join line to show while the seat due
is gone, and ``set_away(flag)`` tells the host the player is away; the notes ("Jo left", ...)
go into the log in the order they came, among the moves.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from engine.core import (
    CHANCE,
    TERMINAL,
    GameAction,
    GameConfig,
    GameState,
    IllegalActionError,
    Outcome,
)
from net.session.commands.hosting import standing
from net.session.features.timeout import timed_out_text
from net.session.machines.entries import Phase
from net.session.machines.peer_session import PeerSession, PeerState
from net.session.records.verify import Verdict, verify_bytes
from net.wire.errors import LocalProtocolError
from tui.ahead import Ahead
from tui.chat import talk_line
from tui.client import GameClient, Marker, NotYourTurn, TableView
from tui.names import short_names
from tui.status import Due, due_of

Narrator = Callable[[Any, Any, Any, int, Sequence[str]], list[str]]


class NetClient(GameClient[GameState, GameAction, GameConfig]):
    def __init__(
        self,
        session: PeerSession,
        send: Callable[[Any], None],
        names: Sequence[str] | None = None,
        narrator: Narrator | None = None,
        on_close: Callable[[], None] | None = None,
        marker: Marker | None = None,
        away: Callable[[bool], None] | None = None,
        rejoin_line: str = "",
        flush: Callable[[], None] | None = None,
    ) -> None:
        table = session.table
        if table is None or table.rules is None:
            raise ValueError("the game has not started")
        self.session = session
        self.game: str = table.game
        self.seat: int = table.me
        #: the seat the narrator and the marker are told (a watcher's: the one after the last)
        self.hear: int = table.me
        self.rules: Any = table.rules
        self.names: tuple[str, ...] = short_names(names or (s.name for s in table.seats))
        self._send = send
        self._flush = flush or (lambda: None)
        self._narrate = narrator
        self._marker = marker
        self._marks: frozenset[Any] = frozenset()
        self._on_close = on_close
        self._told = 0
        self._noted = 0  # notes of the session put in the log
        self._away = away
        #: the line to rejoin this game (shown while the seat due is gone)
        self.rejoin_line = rejoin_line
        self._talked = 0  # the session's table talk lines told (``tui.chat``)
        #: the audit at the end: the record read again from scratch, once the game is over
        self._again: Verdict | None = None
        self._log: list[str] = []
        self._changed = asyncio.Event()
        self._closed = False
        self._stopped = ""
        self._ahead = Ahead(self.rules, self.seat)
        self._due_key: tuple[Any, ...] = ()
        self._due_since = 0.0

    @property
    def hints_allowed(self) -> bool:
        """Whether the host allowed hints (the start entry says so to every peer)."""
        table = self.session.table
        return self._hints and table is not None and table.hints

    @hints_allowed.setter
    def hints_allowed(self, allowed: bool) -> None:
        self._hints = allowed

    @property
    def error(self) -> Exception | None:
        return self.session.error

    def changed(self) -> None:
        self._changed.set()

    @property
    def presence(self) -> Any:
        """The host's last word on who is here (``net.session.features.presence.Presence``), or None."""
        return self.session.presence

    @property
    def host_gone(self) -> float | None:
        """When this program gives up on a host that does not answer (``clock``), or None."""
        return self.session.host_gone

    @property
    def game_over(self) -> bool:
        """Whether the game has ended (or cannot go on): no seat is due any more."""
        table = self.session.table
        return self.session.state in (PeerState.OVER, PeerState.FAILED) or (table is not None and table.phase is Phase.OVER)

    @property
    def player_names(self) -> tuple[str, ...]:
        table = self.session.table
        return tuple(s.name for s in table.seats) if table is not None else ()

    def set_away(self, away: bool) -> None:
        if self._away is not None and not self._closed:
            self._away(away)
    #: this client's seat may talk at the table (``t``; ``tui.chat``)
    can_talk = True
    #: the host says who is here (``presence``; ``tui.presence``)
    shows_presence = True

    def talk(self, text: str) -> None:
        """Say ``text`` at the table; ``ValueError`` for a text that cannot be said."""
        try:
            self.session.say(text)
        except LocalProtocolError as e:
            raise ValueError(str(e)) from None
        self._flush()
        self._changed.set()

    def talk_said(self) -> list[tuple[str, Any, int]]:
        return self.session.chat.lines

    def talk_lines(self) -> list[str]:
        """The table talk so far, as the log shows it."""
        return [line for kind, data, _ in self.session.chat.lines
                if (line := talk_line(kind, data))]

    def halt(self, why: str) -> None:
        """The game cannot go on (its host went away): the table says ``why`` and waits no more."""
        self._stopped = why
        self._changed.set()

    # -- the interface -------------------------------------------------------------------------

    def snapshot(self) -> TableView:
        table = self.session.table
        assert table is not None
        self._tell()
        view = table.view
        over = table.phase in (Phase.END, Phase.OVER)
        actor = TERMINAL if over else self.rules.current_player(view)
        if actor < 0 and not over and table.writer() is not None:
            actor = CHANCE  # a reveal or a draw some seat must write: the table waits
        due = self.session.decision_due()
        legal = tuple(self.rules.legal_actions(view)) if due else ()
        outcome = self._outcome() if table.phase is Phase.OVER else None
        ahead = () if over or self.seat < 0 else self._ahead.offered(view, due)
        return TableView(
            game=self.game, seat=self.seat, names=self.names, state=view, actor=actor,
            legal=legal, log=tuple(self._log), outcome=outcome, steps=len(table.transcript),
            audit=self._audit() if outcome is not None else "", marks=self._marks,
            due=self._due(table), stopped=self._stopped, ahead=ahead,
            queued=tuple(self._ahead.queued),
        )

    @property
    def clock(self) -> Callable[[], float]:
        """The clock the session counts its turn limit on (``Due.since`` is on it)."""
        return self.session.clock

    def _due(self, table: Any) -> Due | None:
        """Whom the table waits for, since the entry that made it due arrived (``tui.status``;
        this seat's own turn from when its session saw it due, as its program's limit runs)."""
        key = (table.writer(), len(table.transcript))
        if key != self._due_key:
            self._due_key, self._due_since = key, self.session.clock()
        since = self._due_since
        p = self.session.presence
        if p is not None and p.hosts_clock and p.at == key[1] and p.due == key[0]:
            since = p.due_since  # one clock: the host's, across reconnects and restarts
        elif self.session.decision_due():
            since = self.session.turn_since
        return due_of(table, since)

    def submit(self, action: Any) -> None:
        table = self.session.table
        if not self._closed and table is not None and not self.session.decision_due() \
                and self._ahead.add(action, table.view, False):
            self._changed.set()  # queued: it goes out at the seat's turn (``tui.ahead``)
            return
        if self._closed or not self.session.decision_due():
            raise NotYourTurn(f"it is not {self.names[self.seat]}'s turn")
        assert table is not None
        self.rules.apply(table.view, action)  # IllegalActionError / InvalidActionError
        try:
            self._send(action)
        except ValueError as e:
            raise IllegalActionError(str(e)) from None
        self._changed.set()

    async def updates(self) -> AsyncIterator[TableView]:
        last: tuple[Any, ...] | None = None
        while not self._closed:
            self._send_queued()
            snap = self.snapshot()
            key = (snap.steps, snap.legal, len(snap.log), snap.over, self.session.state, snap.due,
                   snap.stopped, snap.queued, self.session.presence, self.session.host_gone)
            if key != last:
                last = key
                yield snap
            if snap.over and self._again is None:
                # the audit at the end: the whole record read again from scratch, off the loop
                table = self.session.table
                assert table is not None
                self._again = await asyncio.to_thread(verify_bytes, table.transcript.to_bytes())
                if self.record_fails:
                    yield self.snapshot()
            if snap.over or self.session.state is PeerState.FAILED or snap.stopped:
                return
            self._changed.clear()
            await self._changed.wait()

    def close(self) -> None:
        self._closed = True
        self._changed.set()
        if self._on_close is not None:
            self._on_close()

    # -- inside --------------------------------------------------------------------------------

    def _send_queued(self) -> None:
        """The seat is due and chose ahead: send the first queued choice still legal."""
        table = self.session.table
        if self._closed or table is None or not self._ahead.queued \
                or not self.session.decision_due():
            return
        action = self._ahead.next(table.view, self.rules.legal_actions(table.view))
        if action is not None:
            try:
                self._send(action)
            except ValueError:  # refused here after all: the seat is asked again
                pass

    def _tell(self) -> None:
        table = self.session.table
        assert table is not None
        steps = table.steps
        talk = self.session.chat.lines
        while True:
            # table talk in its place among the moves: after the steps applied when it came
            if self._talked < len(talk) and talk[self._talked][2] <= self._told:
                kind, data, _ = talk[self._talked]
                self._talked += 1
                line = talk_line(kind, data)
                if line:
                    self._log.append(line)
                continue
            if self._told >= len(steps):
                break
            before, action, after = steps[self._told]
            auto = self._told in table.timed_out
            self._told += 1
            lines = self._words(before, action, after)
            if auto and lines:  # the seat's own program played it: every log says so
                lines[0] = timed_out_line(lines[0], getattr(action, "seat", -1), table,
                                          self.names)
            self._log.extend(lines)
            if self._marker is not None:
                marks = self._marker(before, action, after, self.hear)
                if marks is not None:
                    self._marks = marks
        notes, self._noted = self.session.notes.since(self._noted)
        self._log.extend(notes)

    def _words(self, before: Any, action: Any, after: Any) -> list[str]:
        """A step as this seat hears it (``hear``)."""
        if self._narrate is not None:
            return list(self._narrate(before, action, after, self.hear, self.names))
        return [self.rules.action_text(before, action, self.hear)]

    @property
    def record_fails(self) -> bool:
        """The audit at the end read the record again and it did not check out."""
        return self._again is not None and not self._again.ok

    def _audit(self) -> str:
        """The table's verdict: "verified", or "verified as far as it went: ..." after a forfeit
        (a cheat is refused when it is made, and stops the game before its end)."""
        table = self.session.table
        assert table is not None
        if self._again is not None and not self._again.ok:
            return f"the record read again does not check out: {self._again.text}"
        r = table.result()
        return f"{r['verdict']}; record: {r['agreed']}"  # agreed by all, or one side's

    def _outcome(self) -> Outcome:
        table = self.session.table
        assert table is not None
        r = table.result()
        if r["end"] == "forfeit":
            return forfeit_outcome(self.rules, table.view, len(table.seats), r)
        return self.rules.outcome(table.view)


def forfeit_outcome(rules: Any, view: Any, players: int, result: dict[str, Any]) -> Outcome:
    """A game a forfeit cut short, as its end screen tells it: every seat's score as the game
    stood when it stopped (the rules' count of what is on the table, which every seat sees
    alike), the seats that forfeited placed after the others, and the win to the best score of
    those that did not (``detail``: ``text`` why it ended, ``forfeited`` the seats)."""
    forfeited = tuple(sorted(int(s) for s in result.get("forfeited", ())))
    found = standing(rules, view, players, forfeited)
    if found is None:  # nothing scored yet: every seat at 0, the rest ahead alike
        rest = tuple(s for s in range(players) if s not in forfeited)
        found = ((0,) * players, rest)
    scores, winners = found
    return Outcome(scores, winners, "forfeit", getattr(view, "turns", 0),
                   {"text": str(result.get("text", "")), "forfeited": forfeited})


def timed_out_line(line: str, seat: int, table: Any, names: Sequence[str]) -> str:
    """A move's line as the seat's program played it after the turn limit, naming the player
    ("Jo's time ran out: the program played Mercenary 4 for Jo.")."""
    if not 0 <= seat < len(table.seats):
        return line
    name = table.seats[seat].name
    seat_names = tuple(table.rules.seat_names)
    labels = (*names[seat:seat + 1], *seat_names[seat:seat + 1], name)
    return timed_out_text(line, labels, name)

