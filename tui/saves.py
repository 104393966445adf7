"""Local games saved on every move: the start screen's Continue, ``palazzo resume`` and replay.

Where: ``$XDG_DATA_HOME/palazzo/local/`` (default ``~/.local/share/palazzo/local/``), one file
per game, ``<game>-<YYYYmmdd-HHMMSS>-<seed>.json``, named when the game starts. A ``Saver``
attached to a ``LocalClient`` (``client.on_move``) writes the file again after every move, the
seat's or a bot's, so quitting (or a crash) loses nothing: the file always holds the game as it
stood after its last move. A finished game stays, marked ``over``, for replay.

Every write is atomic: the bytes go to a temporary file in the same folder, are flushed to disk,
and ``os.replace`` puts them in place; a crash mid-write leaves the previous save whole. The
record of a move is taken at once, on the event loop (a fraction of a millisecond); the write,
whose flush to disk takes milliseconds, runs on one writer thread, in order, so the table is
redrawn without waiting for the disk. Closing the client (leaving the table, quitting) waits
for the last write (``Saver.flush``).

The file is one JSON object (``FORMAT``, version 1)::

    {"format": "palazzo-local-game", "version": 1,
     "game": "medici", "players": 4, "seat": 0, "bots": ["", "easy", "normal", "hard"],
     "options": [["hidden_cards", true]], "name": "Ada", "pace": 0.8, "seed": 1234,
     "started": "2026-12-01T14:00:00Z", "saved": "2026-12-01T14:05:00Z",
     "steps": 118, "over": false, "ended": "",
     "history": [<action data>, ...],          every step in order, chance steps included
     "rng": <the chance generator's state>,     random.Random.getstate() as lists
     "bot_rngs": {"1": <state>, ...}}           each bot's generator, by seat

Resuming (``resume``) plays ``history`` again from the seed through the rules' checked door and
sets every generator from the file, so the game, the bots' levels and the bots' own random
streams go on exactly as in a game never stopped. A file that does not read back is refused by
``SaveError`` (a ``ValueError``) naming the file and the check; nothing is ever run from it.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine.registry import get_game
from tui.client import LocalClient
from tui.setup import GameSetup, make_client

FORMAT = "palazzo-local-game"
VERSION = 1


class SaveError(ValueError):
    """A saved game that cannot be read back (the message names the file and why)."""


def saves_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "palazzo" / "local"


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def write_atomic(path: Path, data: bytes) -> None:
    """Put ``data`` at ``path`` whole or not at all: a crash mid-write keeps the old file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def _state_to_json(state: Any) -> Any:
    return [state[0], list(state[1]), state[2]]


def _state_from_json(data: Any) -> Any:
    if (type(data) is not list or len(data) != 3 or type(data[1]) is not list
            or not all(type(x) is int for x in data[1])):
        raise ValueError("a generator state is [version, [numbers], gauss]")
    return (data[0], tuple(data[1]), data[2])


@dataclass(frozen=True)
class SavedGame:
    """One saved local game as read from its file."""

    path: Path
    setup: GameSetup
    started: str
    saved: str
    steps: int
    over: bool
    ended: str
    data: dict[str, Any]

    def describe(self) -> str:
        """One line for a list of saved games."""
        title = get_game(self.setup.game).rules.title
        bots = ", ".join(b for i, b in enumerate(self.setup.bots) if i != self.setup.seat)
        winners = self.data.get("winners")
        won = ""
        if isinstance(winners, list) and winners and all(isinstance(w, str) for w in winners):
            won = " and ".join(winners) + (" won" if len(winners) == 1 else " shared the win")
        state = f"{won or 'over'}: {self.ended}" if self.over else f"{self.steps} steps in, unfinished"
        when = self.saved.replace("T", " ")[:16]
        return f"{when}  {title.split(':')[0]}, {self.setup.players} players ({bots}); {state}"


class Saver:
    """Writes one game's file after every move (``client.on_move = saver``)."""

    def __init__(self, setup: GameSetup, client: LocalClient, path: Path | None = None,
                 started: str | None = None) -> None:
        self.setup = setup
        self.started = started or _now()
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        self.path = path or saves_dir() / f"{setup.game}-{stamp}-{client.seed}.json"
        self.error = ""  # the last write's failure, if any (the game goes on regardless)
        #: whether the game's end is in the record of games played (a resumed finished game is)
        self.recorded = False
        self._writer: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def data(self, client: LocalClient) -> dict[str, Any]:
        actions, rng, bot_rngs = client.record()
        rules = client.rules
        snap = client.snapshot()
        s = self.setup
        bots = [""] * s.players
        for seat, name in client.bot_kinds.items():
            bots[seat] = name
        return {
            "format": FORMAT, "version": VERSION, "game": s.game, "players": s.players,
            "seat": s.seat, "bots": bots, "options": [list(kv) for kv in s.options],
            "name": s.name, "pace": s.pace, "seed": client.seed,
            "started": self.started, "saved": _now(), "steps": len(actions),
            "over": snap.over,
            "ended": (snap.outcome.detail.get("text", snap.outcome.end) if snap.outcome else ""),
            "winners": [snap.names[w] for w in snap.outcome.winners] if snap.outcome else [],
            "history": [rules.action_to_data(a) for a in actions],
            "rng": _state_to_json(rng),
            "bot_rngs": {str(seat): _state_to_json(st) for seat, st in bot_rngs.items()},
        }

    def __call__(self, client: LocalClient) -> None:
        """Record the game now and write it on the writer thread; a game that has just ended
        goes into the record of games played (``tui.history``)."""
        fields = self.data(client)
        if fields["over"] and not self.recorded:
            self.recorded = True
            self._add_to_history(client)
        data = json.dumps(fields, separators=(",", ":")).encode()
        with self._lock:
            if self._writer is None:
                self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="palazzo-save")
            self._writer.submit(self._write, data)

    def _add_to_history(self, client: LocalClient) -> None:
        from tui import history
        from tui.names import level_name

        outcome = client.snapshot().outcome
        seat = self.setup.seat
        if outcome is None or not 0 <= seat < len(outcome.scores):
            return
        entry = get_game(self.setup.game)
        levels = [level_name(entry, b) for q, b in sorted(client.bot_kinds.items()) if q != seat]
        place = 1 + sum(1 for x in outcome.scores if x > outcome.scores[seat])
        history.record(self.path.name, self.setup.game, self.setup.players,
                       history.opponents_level(levels), seat in outcome.winners, place)

    def _write(self, data: bytes) -> None:
        try:
            write_atomic(self.path, data)
            self.error = ""
        except OSError as e:
            self.error = f"the game could not be saved to {self.path}: {e.strerror or e}"

    def flush(self) -> None:
        """Wait until every write asked for is on disk (or has failed, see ``error``)."""
        with self._lock:
            writer, self._writer = self._writer, None
        if writer is not None:
            writer.shutdown(wait=True)


def attach(setup: GameSetup, client: LocalClient, path: Path | None = None,
           started: str | None = None) -> Saver:
    """Save ``client``'s game after each move from now on (and once at once)."""
    saver = Saver(setup, client, path, started)
    client.on_move = saver
    client.on_close = saver.flush
    saver(client)
    saver.flush()  # the first write at once: a folder that cannot be written is said at the start
    return saver


# -- reading ---------------------------------------------------------------------------------------


def load(path: str | os.PathLike[str]) -> SavedGame:
    """The saved game at ``path``; ``SaveError`` naming the check when it is not one."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise SaveError(f"{path}: cannot read it: {e.strerror or e}") from None
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise SaveError(f"{path}: not a saved palazzo game (it is not JSON)") from None
    if type(data) is not dict or data.get("format") != FORMAT:
        raise SaveError(f"{path}: not a saved palazzo game")
    if data.get("version") != VERSION:
        raise SaveError(f"{path}: a saved game of version {data.get('version')!r}; "
                        f"this palazzo reads version {VERSION}")
    try:
        setup = GameSetup(
            game=_field(data, "game", str), players=_field(data, "players", int),
            seat=_field(data, "seat", int),
            bots=tuple(_strings(_field(data, "bots", list))),
            options=tuple((str(k), v) for k, v in _field(data, "options", list)),
            name=_field(data, "name", str), seed=_field(data, "seed", int),
            pace=float(_field(data, "pace", (int, float))),
        )
        get_game(setup.game)
        saved = SavedGame(path, setup, _field(data, "started", str), _field(data, "saved", str),
                          _field(data, "steps", int), bool(data.get("over")),
                          str(data.get("ended", "")), data)
        _field(data, "history", list)
    except (ValueError, TypeError) as e:
        raise SaveError(f"{path}: {e}") from None
    return saved


def _field(data: dict[str, Any], name: str, t: type | tuple[type, ...]) -> Any:
    value = data.get(name)
    if not isinstance(value, t) or isinstance(value, bool) and t is int:
        raise ValueError(f"the field {name!r} is missing or of the wrong type")
    return value


def _strings(items: Sequence[Any]) -> list[str]:
    if not all(type(x) is str for x in items):
        raise ValueError("the field 'bots' holds a name per seat")
    return list(items)


def saved_games(finished: bool | None = False) -> list[SavedGame]:
    """The saved games, newest first: unfinished ones (``finished=False``), finished ones
    (``True``) or all (``None``). Files that do not read back are left out."""
    folder = saves_dir()
    try:
        paths = sorted(folder.glob("*.json"))
    except OSError:
        return []
    games = []
    for p in paths:
        try:
            g = load(p)
        except SaveError:
            continue
        if finished is None or g.over == finished:
            games.append(g)
    games.sort(key=lambda g: g.saved, reverse=True)
    return games


def resume(saved: SavedGame, pace: float | None = None) -> LocalClient:
    """A client playing ``saved`` on from where it stopped, saving to the same file."""
    setup = saved.setup if pace is None else replace(saved.setup, pace=pace)
    try:
        client = make_client(setup)
        rules = client.rules
        data = saved.data
        actions = [rules.action_from_data(a) for a in data["history"]]
        bot_rngs = data.get("bot_rngs")
        if type(bot_rngs) is not dict:
            raise ValueError("the field 'bot_rngs' is missing")
        states = {int(k): _state_from_json(v) for k, v in bot_rngs.items()}
        if set(states) != set(client.bot_kinds):
            raise ValueError("the bots' generators do not match the seats")
        client.restore(actions, _state_from_json(data.get("rng")), states)
    except SaveError:
        raise
    except (ValueError, TypeError, KeyError, IndexError) as e:
        raise SaveError(f"{saved.path}: it does not play back: {e}") from None
    attach(setup, client, saved.path, saved.started)
    return client
