"""How a table screen talks to a game: the ``GameClient`` interface and ``LocalClient``.

Theory of operation
-------------------
A table screen never holds the game. It holds one seat's ``TableView``: the seat's masked view
of the state (``rules.view(state, seat)``), who must act, the legal actions open to the seat,
the log as the seat may hear it, and the outcome once the game is over. A client hands out
such snapshots and takes the seat's decisions; whether the game runs in this process or on the
network is the client's business alone.

The interface, small on purpose (a networked client implements the same):

``game``, ``seat``, ``rules``, ``names``
    The registry name of the game, the seat this client plays, the rules object (pure
    functions, used by the screens only on views) and a display name per seat.
``snapshot() -> TableView``
    What the seat may know now. Cheap; call it as often as you like.
``submit(action)``
    The seat's decision. Checked at once: ``IllegalActionError`` / ``InvalidActionError``
    (``ValueError`` subclasses) if the rules refuse it, ``NotYourTurn`` if the seat is not to
    act. A client may apply the action at once (``LocalClient`` does) or later.
``updates() -> AsyncIterator[TableView]``
    An async stream of snapshots: one whenever something the seat may see has changed (a bot
    move, a draw, the seat's own move) and one when the seat must decide. It ends after the
    snapshot that carries the outcome. A screen consumes it in a Textual worker and reassigns
    its reactive ``view`` with each item.
``close()``
    Stop: the stream ends and no more decisions are taken.

``GameClient`` is the base class of every client, generic over the game's state, action and
configuration types. Beside the interface it holds the optional capabilities, each off in the
base, that a client turns on by overriding it, so the table screen asks each by name:
``undoable`` with ``can_undo()`` and ``undo()`` (taking a move back, a local game),
``can_talk`` (table talk), ``clock`` (a turn limit's clock), ``hints_allowed`` (the coach),
``shows_presence`` (who is here), ``bot_kinds`` (the computer's seats and their bots),
``saved_note`` (where a networked game's signed record went, said on its end screen).

``LocalClient`` runs the rules and the bots in process through ``engine.core.LocalGame``: it
resolves chance and reveal steps from the seeded generator, lets each bot decide from its own
seat's view (in a thread, so a slow bot never freezes the screen), and paces the bots' visible
moves ``pace`` seconds apart (0 in tests) so a person can follow them one at a time. It words
the log with the game's narrator (``tui.<game>.adapter.narrate``), which reads only the seat's
views around each step, so a networked client can word its log the same way. The game's marker
(``tui.<game>.adapter.marks``) says, from the same views, what the last move touched on the
table (``TableView.marks``), for the screen to mark until the next move. After every move
(the seat's or a bot's, with the chance steps it led to) it calls ``on_move`` when one is set,
and ``on_close`` when closed: ``tui.saves`` writes the game there. ``record()`` is what a save
holds and ``restore()`` plays a saved game back to where it stopped, generators included, so
it goes on as if never stopped. ``undo()`` takes back the seat's last move until another seat
has moved (``can_undo()`` says why not): the state, the generators, the log and the marks go
back to where they stood, and a bot's move thought out meanwhile is dropped.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic

from engine.core import TERMINAL, A, C, GameRules, LocalGame, Outcome, S
from engine.registry import GameEntry
from engine.sim import bot_rng
from tui.ahead import Ahead
from tui.names import short_names
from tui.remarks import Remarks
from tui.status import Due

#: ``narrate(before, action, after, seat, names) -> list of lines``: a step in words as the seat
#: may hear it; ``before`` and ``after`` are that seat's views around the step.
Narrator = Callable[[Any, Any, Any, int, Sequence[str]], list[str]]
#: ``marks(before, action, after, seat) -> frozenset | None``: what a step touched on the table,
#: from the seat's views; ``None`` for a step that is not a move (it keeps the last move's marks)
Marker = Callable[[Any, Any, Any, int], frozenset[Any] | None]


class NotYourTurn(Exception):
    """A decision submitted while another seat (or chance) is to act."""


@dataclass(frozen=True)
class TableView(Generic[S, A]):
    """Everything a table screen may draw: one seat's knowledge of the game, at one moment.
    ``S`` and ``A`` are the game's state and action types."""

    game: str
    seat: int
    names: tuple[str, ...]
    state: S
    actor: int
    legal: tuple[A, ...]
    log: tuple[str, ...]
    outcome: Outcome | None = None
    steps: int = 0
    #: a networked game's audit once it is over: "verified", or "verified as far as it went:
    #: ..." (a forfeit); "" for a local game
    audit: str = ""
    #: what the last move touched on the table (the game's marker's words), marked until the next
    marks: frozenset[Any] = frozenset()
    #: a networked table's word on whom it waits for (``tui.status.Due``); ``None`` locally
    due: Due | None = None
    #: a networked game that cannot go on (its host went away): why, in one line
    stopped: str = ""
    #: the set-up choices the seat may make ahead of its turn, and those it queued
    #: (``tui.ahead``); () when there are none
    ahead: tuple[A, ...] = ()
    queued: tuple[A, ...] = ()

    @property
    def my_turn(self) -> bool:
        return self.actor == self.seat and bool(self.legal)

    @property
    def over(self) -> bool:
        return self.outcome is not None


class GameClient(Generic[S, A, C]):
    """What a table screen needs from a game, and the optional capabilities, each off here
    (see the module docstring). ``S``, ``A`` and ``C`` are the game's state, action and
    configuration types."""

    game: str
    seat: int
    rules: GameRules[S, A, C]
    names: tuple[str, ...]

    #: table talk (``talk``, ``talk_lines``): a networked seat
    can_talk = False
    #: taking the seat's last move back (``can_undo``, ``undo``): a local game
    undoable = False
    #: whether a presence line follows it (``presence``): a networked game
    shows_presence = False
    _hints = True
    #: the computer's seats and the bot each plays (a local game, a replay of one)
    bot_kinds: Mapping[int, str] = MappingProxyType({})
    #: where the game's signed record was saved, or why it could not be (a networked game's)
    saved_note = ""

    def snapshot(self) -> TableView[S, A]:
        raise NotImplementedError

    def submit(self, action: A) -> None:
        raise NotImplementedError

    def updates(self) -> AsyncIterator[TableView[S, A]]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    @property
    def clock(self) -> Callable[[], float] | None:
        """The clock a networked game counts its turn limit on; ``None``: no turn limit."""
        return None


    def talk(self, text: str) -> None:
        """Say ``text`` at the table (``can_talk``); ``ValueError`` when it cannot be said."""
        raise ValueError("there is no table talk in this game")

    def talk_said(self) -> list[tuple[str, Any, int]]:
        """The table talk so far, as the session keeps it (``tui.chat.TalkScreen`` reads it)."""
        return []

    @property
    def hints_allowed(self) -> bool:
        """Whether the coach may give hints (a networked game's host may forbid them)."""
        return self._hints

    @hints_allowed.setter
    def hints_allowed(self, allowed: bool) -> None:
        self._hints = allowed

    def can_undo(self) -> str:
        """Why the seat's last move cannot be taken back ("" when it can)."""
        return "only a game against the computer can take a move back"

    def undo(self) -> None:
        raise NotYourTurn(self.can_undo())


def _plain_narrator(rules: Any) -> Narrator:
    def narrate(before: Any, action: Any, after: Any, seat: int, names: Sequence[str]) -> list[str]:
        return [rules.action_text(before, action, seat)]

    return narrate


class LocalClient(GameClient[S, A, C]):
    """A game against computer opponents, run in this process (see the module docstring).

    ``bots`` names a bot (``entry.bot_names()``) for every seat but ``seat``. ``quiet(view)``
    tells, for a seat's view before it decides, whether that decision is set-up work that need
    not be paced.
    """

    undoable = True

    def __init__(
        self,
        entry: GameEntry[S, A, C],
        config: C,
        seed: int,
        seat: int,
        bots: dict[int, str],
        names: Sequence[str],
        pace: float = 0.8,
        narrator: Narrator | None = None,
        quiet: Callable[[Any], bool] | None = None,
        marker: Marker | None = None,
        remarks: bool = False,
    ) -> None:
        rules = entry.rules
        self.game = rules.name
        self.rules = rules
        self.seat = seat
        self.names = short_names(names)  # one short form everywhere (tui.names)
        self.pace = pace
        self.seed = seed
        self.config = config
        self._local = LocalGame(rules, config, seed)
        players = config.players
        missing = [s for s in range(players) if s != seat and s not in bots]
        if missing:
            raise ValueError(f"no bot for seat {missing[0]}")
        self._bots = {s: entry.make_bot(name, bot_rng(seed, s)) for s, name in bots.items()}
        self.bot_kinds = dict(bots)
        self._narrate = narrator or _plain_narrator(rules)
        self._quiet = quiet or (lambda view: False)
        self._marker = marker
        self._marks: frozenset[Any] = frozenset()
        self._log: list[str] = []
        self._decided = asyncio.Event()
        self._closed = False
        self._ahead = Ahead(rules, seat)
        #: called after every move, once the chance steps it led to are resolved
        self.on_move: Callable[[LocalClient], None] | None = None
        #: called once when the client is closed (a save waits there for its last write)
        self.on_close: Callable[[], None] | None = None
        #: the bots' canned remarks in the log (``tui.chat.Remarks``), if wanted
        self._remarks = Remarks(self.names, seat) if remarks else None
        self._last_actor: int | None = None
        #: where the seat's own moves began: (history length, chance generator, bots'
        #: generators, log length, marks), the last one first to go (``undo``)
        self._undo: list[tuple[int, Any, dict[int, Any], int, frozenset[Any]]] = []
        #: counts the undos: a bot's move thought out before one is dropped
        self._generation = 0
        self._advance()
        if self._remarks is not None:
            self._log.extend(self._remarks.start())
        self._remark()

    # -- the interface -------------------------------------------------------------------------

    def snapshot(self) -> TableView:
        rules, state = self.rules, self._local.state
        actor = rules.current_player(state)
        view = rules.view(state, self.seat)
        legal = tuple(rules.legal_actions(view)) if actor == self.seat else ()
        outcome = rules.outcome(state) if actor == TERMINAL else None
        ahead = self._ahead.offered(view, actor == self.seat) if outcome is None else ()
        return TableView(
            game=self.game,
            seat=self.seat,
            names=self.names,
            state=view,
            actor=actor,
            legal=legal,
            log=tuple(self._log),
            outcome=outcome,
            steps=len(self._local.history),
            marks=self._marks,
            ahead=ahead,
            queued=tuple(self._ahead.queued),
        )

    def submit(self, action: Any) -> None:
        if self._closed:
            raise NotYourTurn("the game has been closed")
        actor = self.rules.current_player(self._local.state)
        if actor != self.seat:
            if self._ahead.add(action, self.rules.view(self._local.state, self.seat), False):
                return  # queued: it goes out at the seat's turn (``tui.ahead``)
            raise NotYourTurn(f"it is not {self.names[self.seat]}'s turn")
        checkpoint = (len(self._local.history), self._local.rng.getstate(),
                      {s: b.rng.getstate() for s, b in self._bots.items()}, len(self._log), self._marks)
        self._step(action)
        self._undo = [*self._undo[-20:], checkpoint]
        self._advance()
        self._moved()
        self._decided.set()

    async def updates(self) -> AsyncIterator[TableView]:
        rules, history = self.rules, self._local.history
        shown = -1
        while not self._closed:
            if len(history) != shown:
                shown = len(history)
                yield self.snapshot()
                continue
            actor = rules.current_player(self._local.state)
            if actor == TERMINAL:
                return
            if actor == self.seat:
                view = rules.view(self._local.state, self.seat)
                queued = self._ahead.next(view, rules.legal_actions(view))
                if queued is not None:  # chosen ahead of the turn
                    self._step(queued)
                    self._advance()
                    self._moved()
                    continue
                self._decided.clear()
                await self._decided.wait()
                continue
            await self._bot_move(actor)

    async def _bot_move(self, actor: int) -> None:
        generation = self._generation
        view = self.rules.view(self._local.state, actor)
        if self.pace > 0 and not self._quiet(view):
            await asyncio.sleep(self.pace)
        else:
            await asyncio.sleep(0)
        if self._closed or generation != self._generation:
            return
        action = await asyncio.to_thread(self._bots[actor].choose, view, actor)
        if self._closed or generation != self._generation:
            return  # closed, or the move it answered was taken back meanwhile
        self._step(action)
        self._advance()
        self._moved()

    # -- undo --------------------------------------------------------------------------------

    def can_undo(self) -> str:
        """Why the seat's last move cannot be taken back ("" when it can): there must be one,
        the game must not be over, and no other seat may have moved since (chance and reveal
        steps may have)."""
        if not self._undo:
            return "you have made no move to take back"
        if self.rules.current_player(self._local.state) == TERMINAL:
            return "the game is over"
        start = self._undo[-1][0]
        later = self._local.history[start + 1 :]
        if any(step.actor >= 0 and step.actor != self.seat for step in later):
            return "another player has moved since your last move"
        return ""

    def undo(self) -> None:
        """Take back the seat's last move and the chance steps it led to, as if never made:
        the state, the generators, the log and the marks as they were before it.
        ``NotYourTurn`` (with ``can_undo``'s words) when it cannot be done."""
        why = self.can_undo()
        if why:
            raise NotYourTurn(why)
        start, rng, bots, logged, marks = self._undo.pop()
        local = self._local
        local.state = local.history[start].before
        del local.history[start:]
        local.rng.setstate(rng)
        for seat, state in bots.items():
            self._bots[seat].rng.setstate(state)
        del self._log[logged:]
        self._marks = marks
        self._ahead = Ahead(self.rules, self.seat)
        self._generation += 1
        self._moved()
        self._decided.set()

    def close(self) -> None:
        self._closed = True
        self._decided.set()
        done, self.on_close = self.on_close, None
        if done is not None:
            done()

    # -- saving and restoring ------------------------------------------------------------------

    def record(self) -> tuple[list[Any], Any, dict[int, Any]]:
        """Every step's action so far (chance steps included), the chance generator's state
        and each bot's generator state: enough to go on exactly where the game stands."""
        actions = [step.action for step in self._local.history]
        return actions, self._local.rng.getstate(), {s: b.rng.getstate() for s, b in self._bots.items()}

    def restore(self, actions: Sequence[Any], rng_state: Any, bot_states: dict[int, Any]) -> None:
        """Play ``actions`` from the start through the rules' checked door (a ``ValueError``
        names a step that is not legal), then set the generators as ``record()`` gave them."""
        config = self._local.config
        self._local = LocalGame(self.rules, config, self.seed)
        self._log = []
        self._undo = []
        for action in actions:
            self._step(action)
        self._local.rng.setstate(rng_state)
        for s, state in bot_states.items():
            self._bots[s].rng.setstate(state)
        self._advance()

    def _remark(self) -> None:
        """The bots' remarks on what just happened (none without ``remarks``)."""
        r = self._remarks
        if r is None:
            return
        actor = self.rules.current_player(self._local.state)
        if actor == TERMINAL:
            self._log.extend(r.end())
        elif actor == self.seat:
            self._log.extend(r.my_turn(self._last_actor))

    def _moved(self) -> None:
        self._remark()
        if self.on_move is not None and not self._closed:
            self.on_move(self)

    # -- inside --------------------------------------------------------------------------------

    def _step(self, action: Any, checked: bool = True) -> None:
        before = self._local.state
        actor = self.rules.current_player(before)
        if actor >= 0:
            self._last_actor = actor
        self._local.step(action, checked)
        self._tell(before, action, self._local.state)

    def _advance(self) -> None:
        """Resolve chance and reveal steps until a seat must decide or the game is over
        (``LocalGame.advance``), telling each as this seat saw it."""
        local = self._local
        steps = local.advance()
        if not steps:
            return
        afters = [step.before for step in steps[1:]] + [local.state]
        for step, after in zip(steps, afters, strict=True):
            self._tell(step.before, step.action, after)

    def _tell(self, before_state: Any, action: Any, after_state: Any) -> None:
        """The log's words and the marks of one step, from this seat's views around it."""
        rules = self.rules
        before = rules.view(before_state, self.seat)
        after = rules.view(after_state, self.seat)
        self._log.extend(self._narrate(before, action, after, self.seat, self.names))
        if self._marker is not None:
            marks = self._marker(before, action, after, self.seat)
            if marks is not None:
                self._marks = marks
