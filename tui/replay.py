"""Replaying a finished game, move by move, forward and back: ``palazzo replay FILE``.

Two kinds of record are read:

* a saved local game (``tui.saves``): its history is played again from the seed through the
  rules' checked door, and each step is shown as the chosen seat saw it (``rules.view(state,
  seat)``), or as nobody's hand, the public view (the seat after the last, as an observer);
* a networked game's signed transcript (``net.wire.transcript``, what ``palazzo verify`` reads):
  it is read by an observer ``Table`` exactly as ``verify`` does, entry by entry, every check
  made; the record holds no secret, so only the public view can be shown. A record that fails a
  check (or stops early) is shown up to its last good entry, and its verdict closes the log.
  The table talk it carries (``net.session.features.chat``) shows in the log at each message's place:
  after the moves of the entries that were in when it was said (its ``after``).

A ``Replay`` is a list of ``TableView`` frames: the table before the first decision, then one
after each decision (with the chance steps it led to), each with the log up to it. No frame
carries legal actions or an outcome, so a table screen drawing one asks nothing and opens no end
screen. ``ReplayClient`` serves the frames through the ``GameClient`` interface, and
``replay_screen`` wraps the game's own table screen with the keys that step through them.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from textual.binding import Binding

from engine.core import CHANCE, REVEAL, TERMINAL, GameAction, GameConfig, GameState
from engine.registry import get_game
from net.session.machines.table import Table
from net.session.records.verify import read_entries, verify_bytes
from net.wire.transcript import MAGIC
from tui import saves
from tui.chat import talk_line
from tui.client import GameClient, NotYourTurn, TableView
from tui.netclient import timed_out_line
from tui.records import RecordFile as RecordFile  # the start screen's list
from tui.records import replay_records as replay_records
from tui.setup import adapter, seat_labels
from tui.table import TableScreen

PUBLIC = None  # the viewer of a public replay


class ReplayError(ValueError):
    """A file that cannot be replayed (the message says why)."""


@dataclass(frozen=True)
class Replay:
    game: str
    title: str
    names: tuple[str, ...]
    viewer: int | None  # the seat whose view is shown, or PUBLIC
    frames: tuple[TableView, ...]
    verdict: str = ""  # a networked record's verdict
    #: a local game's computer seats and their bots (the header names their levels)
    bots: tuple[tuple[int, str], ...] = ()

    @property
    def who(self) -> str:
        return "the public view" if self.viewer is None else f"as {self.names[self.viewer]} saw it"


def _frames(rules: Any, game: str, names: Sequence[str], viewer: int | None,
            steps: Sequence[tuple[Any, Any, Any]], players: int,
            talk: dict[int, list[str]] | None = None,
            timed_out: Callable[[int, Any, list[str]], list[str]] | None = None) -> list[TableView]:
    """Frames from ``(before, action, after)`` steps of full (or public) states: one after each
    step that leaves a seat to decide, or the game over; ``talk``: lines of the log to show
    after that many steps. ``timed_out(n, action, lines)`` words again the lines of step ``n``
    (a networked record's moves played after the turn limit)."""
    talk = talk or {}
    narrate = adapter(game).narrate
    seat = players if viewer is None else viewer
    shown = 0 if viewer is None else viewer

    def frame(state: Any, log: list[str], n: int) -> TableView:
        return TableView(game=game, seat=shown, names=tuple(names), state=rules.view(state, seat),
                         actor=rules.current_player(state), legal=(), log=tuple(log), steps=n)

    def words(before: Any, action: Any, after: Any) -> list[str]:
        try:
            return narrate(before, action, after, seat, names)
        except Exception:  # a narrator that speaks only to a seat at the table: plain words,
            try:  # as the same seat may hear them
                return [rules.action_text(before, action, seat)]
            except Exception:
                return []

    log: list[str] = []
    out: list[TableView] = []
    for n, (before, action, after) in enumerate(steps, 1):
        log.extend(talk.get(n - 1, ()))
        lines = words(rules.view(before, seat), action, rules.view(after, seat))
        log.extend(timed_out(n - 1, action, lines) if timed_out is not None else lines)
        if rules.current_player(after) in (CHANCE, REVEAL) and n < len(steps):
            continue
        out.append(frame(after, log, n))
    if not out:
        raise ReplayError("the record holds no move")
    rest = [line for at, lines in sorted(talk.items()) if at >= len(steps) for line in lines]
    if rest:
        out[-1] = replace(out[-1], log=out[-1].log + tuple(rest))
    return out


def local_replay(path: str | Path, seat: int | None = -1) -> Replay:
    """A saved local game; ``seat`` -1 (default) for the seat that was played, ``PUBLIC`` for
    the public view."""
    try:
        saved = saves.load(path)
    except saves.SaveError as e:
        raise ReplayError(str(e)) from None
    setup = saved.setup
    entry = get_game(setup.game)
    rules = entry.rules
    viewer = setup.seat if seat == -1 else seat
    if viewer is not None and not 0 <= viewer < setup.players:
        raise ReplayError(f"there is no seat {viewer + 1} at a table of {setup.players}")
    try:
        state = rules.new_game(rules.make_config(setup.players, dict(setup.options)))
        steps = []
        for data in saved.data["history"]:
            action = rules.action_from_data(data)
            after = rules.apply(state, action)
            steps.append((state, action, after))
            state = after
    except (ValueError, TypeError, KeyError) as e:
        raise ReplayError(f"{path}: it does not play back: {e}") from None
    names = seat_labels(setup, tuple(rules.seat_names)) if viewer == setup.seat else tuple(
        rules.seat_names[: setup.players])
    frames = _frames(rules, setup.game, names, viewer, steps, setup.players)
    bots = tuple((q, b) for q, b in enumerate(setup.bots) if q != setup.seat and b)
    return Replay(setup.game, rules.title, tuple(names), viewer, tuple(frames), bots=bots)


def network_replay(path: str | Path) -> Replay:
    """A networked game's transcript, checked as ``verify`` checks it; the public view."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise ReplayError(f"{path}: cannot read it: {e.strerror or e}") from None
    verdict = verify_bytes(data)
    try:
        entries = read_entries(data, partial=True)
    except ValueError as e:
        raise ReplayError(f"{path}: {verdict.text or e}") from None
    host = entries[0].fields.get("host")
    if verdict.kind == "not-a-record" or type(host) is not bytes:
        raise ReplayError(f"{path}: {verdict.text}")
    table = Table(host, None)
    steps_at = [0]  # the steps applied once the transcript held so many entries
    for entry in entries:
        try:
            table.accept(entry)
        except Exception:  # the verdict names it; show the game as far as it checked out
            break
        steps_at.append(len(table.steps))
    if table.rules is None or table.view is None:
        raise ReplayError(f"{path}: {verdict.text}")
    rules, players = table.rules, len(table.seats)
    names = tuple(s.name for s in table.seats)
    talk: dict[int, list[str]] = {}
    for seat, _n, after, text, _seq in sorted(table.said, key=lambda m: (m[2], m[4])):
        line = talk_line("said", {"name": names[seat], "text": text})
        talk.setdefault(steps_at[min(after, len(steps_at) - 1)], []).append(line)

    def timed_out(n: int, action: Any, lines: list[str]) -> list[str]:
        if n in table.timed_out and lines:
            lines = [timed_out_line(lines[0], getattr(action, "seat", -1), table, names),
                     *lines[1:]]
        return lines

    frames = _frames(rules, table.game, names, PUBLIC, table.steps, players, talk, timed_out)
    last = frames[-1]
    frames[-1] = replace(last, log=last.log + (f"The record: {verdict.text}",))
    return Replay(table.game, rules.title, names, PUBLIC, tuple(frames), verdict.text)


def open_replay(path: str | Path, seat: int | None = -1) -> Replay:
    """A replay of the file at ``path``, whichever kind of record it is."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(MAGIC))
    except OSError as e:
        raise ReplayError(f"{path}: cannot read it: {e.strerror or e}") from None
    if head == MAGIC:
        if seat not in (-1, PUBLIC):
            raise ReplayError("a networked record holds no hidden card: it replays the public "
                              "view only (leave out --seat)")
        return network_replay(path)
    return local_replay(path, seat)


class ReplayClient(GameClient[GameState, GameAction, GameConfig]):
    """Serves a replay's frames as a ``GameClient``; ``go(i)`` moves to frame ``i``."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.game = replay.game
        self.rules = get_game(replay.game).rules
        #: the seat replayed; -1 for the public view, which is nobody's seat (the frames draw it
        #: in seat 0's place, its hand hidden)
        self.seat = replay.frames[0].seat if replay.viewer is not None else -1
        self.names = replay.names
        self.bot_kinds = dict(replay.bots)
        self.index = 0
        self._moved = asyncio.Event()
        self._closed = False

    def snapshot(self) -> TableView:
        return self.replay.frames[self.index]

    def go(self, index: int) -> None:
        self.index = max(0, min(index, len(self.replay.frames) - 1))
        self._moved.set()

    def submit(self, action: Any) -> None:
        raise NotYourTurn("this is a replay")

    async def updates(self) -> AsyncIterator[TableView]:
        while not self._closed:
            yield self.snapshot()
            self._moved.clear()
            await self._moved.wait()

    def close(self) -> None:
        self._closed = True
        self._moved.set()


class ReplayKeys(TableScreen):
    """The keys of a replay, mixed into the game's table screen (see ``replay_screen``)."""

    BINDINGS = [
        Binding("right,n,space", "step(1)", "Next move", key_display="→", priority=True),
        Binding("left,p", "step(-1)", "Back a move", key_display="←", priority=True),
        Binding("pagedown", "step(10)", "10 on", show=False, priority=True),
        Binding("pageup", "step(-10)", "10 back", show=False, priority=True),
        Binding("home", "go(0)", "Start", show=False, priority=True),
        Binding("end", "go(-1)", "End", show=False, priority=True),
        Binding("escape,q", "close", "Close", priority=True),
        Binding("tab", "pane(1)", "Pane", show=False, priority=True),
        Binding("shift+tab", "pane(-1)", show=False, priority=True),
    ]
    PANE_KEYS = "tab"  # left and right step through the moves
    TABBED = True  # on a small screen, one pane at a time: the log among them
    HELP_TITLE = "Replaying a game"
    HELP_KEYS = (  # type: ignore[assignment]
        ("right, n, space", "The next move"),
        ("left, p", "Back one move"),
        ("pgdn, pgup", "Ten moves on or back"),
        ("home, end", "The start, the end"),
        ("l", "The whole log up to this move"),
        ("tab, shift+tab", "The other panes, on a small screen"),
        ("escape, q", "Close the replay"),
    )
    HELP = ("A replay shows a finished game one move at a time, as the seat named at the top saw "
            "it, or the public view: what everyone at the table could see. Nothing can be played.")

    client: ReplayClient  # type: ignore[assignment]

    def draw(self, view: TableView) -> None:
        super().draw(view)
        for box in self.query("#move-box"):
            box.border_title = "Replay"
        if self.client.replay.viewer is None:  # the public view: nobody's hand is shown
            for hand in self.query("#hand"):
                hand.display = False

    def setting_text(self) -> str:
        """The header's second line; the public view claims no seat ("the public view")."""
        text = super().setting_text()
        if self.client.replay.viewer is None:
            text = text.replace(", you are watching", ", the public view", 1)
        return text

    def action_step(self, delta: int) -> None:
        self.client.go(self.client.index + delta)

    def action_go(self, index: int) -> None:
        self.client.go(index if index >= 0 else len(self.client.replay.frames) - 1)

    def action_close(self) -> None:
        self.dismiss(None)  # the app decides: back to the start screen, or the end

    def action_leave(self) -> None:
        self.action_close()

    def status_text(self, view: TableView) -> str:
        r = self.client.replay
        n = len(r.frames)
        # the game's title is the header's second line: said once, the first fits 80 columns
        return f"Replay | move {self.client.index} of {n - 1} | {r.who}"

    def move_words(self) -> str:
        """What the move shown did: the log's lines since the frame before ("" at the start)."""
        frames, i = self.client.replay.frames, self.client.index
        if i <= 0:
            return ""
        said = frames[i].log[len(frames[i - 1].log):]
        return f"Move {i}: {' '.join(said)}" if said else ""

    def waiting_text(self, view: TableView) -> str:
        r = self.client.replay
        move = self.move_words()
        head = f"{move}\n" if move else ""
        if self.client.index == len(r.frames) - 1:
            return f"{head}The end of the game. ← goes back; Escape closes the replay."
        who = view.names[view.actor] if 0 <= view.actor < len(view.names) else ""
        nxt = f"{who} moves next. " if who and view.actor != TERMINAL else ""
        return f"{head}{nxt}→ the next move, ← back, Home/End the start/end, ? help."


def replay_screen(replay: Replay) -> Any:
    """The game's own table screen, drawing the replay's frames, with the replay's keys."""
    table = adapter(replay.game).TABLE
    css = getattr(table, "CSS_PATH", None)
    attrs: dict[str, Any] = {}
    if css is not None:  # the table's style sheets, found beside its module, not this one's
        here = Path(inspect.getfile(table)).parent
        attrs["CSS_PATH"] = [str(here / c) for c in ([css] if isinstance(css, (str, Path)) else css)]
    cls = type(f"Replay{table.__name__}", (ReplayKeys, table), attrs)
    return cls(ReplayClient(replay), None)
