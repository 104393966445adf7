"""``palazzo host`` and ``palazzo join`` at the table: the palazzo app opened on one networked game.

``NetApp`` is ``PalazzoApp`` opened on a ``tui.netgame.NetGame`` (the lobby, then the same table
as local play, then the end); every way out of it closes the app, since the game was its whole
run, but the end screen's "Play again", which goes on to the rematch the players agreed to
(``net.session.features.rematch``). ``join_tui`` and ``host_tui`` are what the command line runs without ``--headless``; they
return the exit status (``net.session.commands.hosting.exit_status``: 0 the game ended; 1 it could not
go on; 3 a cheat was detected; 5 the join gave up) and save the transcript like the headless
commands.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from net.session.commands.hosting import HostSettings
from net.session.runners.peer import LEAVE_TRY
from net.wire.identity import Identity
from tui.app import PalazzoApp
from tui.netgame import NetGame, host_net, join_net, remove_note_handler
from tui.setup import GameSetup


class NetApp(PalazzoApp):
    """The palazzo app that opens on a networked game's lobby (``palazzo host`` / ``join``)."""

    def __init__(self, net: NetGame) -> None:
        super().__init__(GameSetup(), net=net)
        self.game = net  # ``net`` too, as long as the game is on
        self._signalled = False
        self._telling = False  # waiting for a leave to be said before closing

    session = property(lambda self: self.game.session)
    client = property(lambda self: self.game.client)
    failure = property(lambda self: self.game.failure)
    host_session = property(lambda self: self.game.host_session)

    def end_choices(self) -> dict[str, str]:
        """Every way out of this app's end screen closes it (the game was its whole run), but
        "Play again", which asks the others for a rematch and goes on with it."""
        return {"again": "Play again", "quit": "Leave"}

    def leave_question(self) -> str:
        return "Leave this networked game and quit palazzo?"

    def leave_lobby(self) -> None:
        self._leave()

    def network_over(self) -> None:
        self._leave()

    def on_mount(self) -> None:
        """A kill (SIGTERM) or a closed terminal (SIGHUP: an SSH session that ended) leaves
        the game as ``q``, ``y`` does: the host is told at once (a host tells every peer), the
        record is saved, the app closes with no traceback; a second one stops waiting for a
        host that cannot be told."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.signalled)

    def signalled(self) -> None:
        """SIGTERM or SIGHUP (``on_mount``)."""
        if self._signalled:
            self.game.stop_telling()
            return
        self._signalled = True
        self._leave()
        threading.Thread(target=self._end_anyway, name="palazzo-signalled", daemon=True).start()

    def _end_anyway(self) -> None:
        """After a signal the program ends, whatever keeps the screen from closing: a terminal
        that is gone (SIGHUP) can hold the screen's input thread for good. The leave has had its
        time by then (``LEAVE_TRY``), and the record was saved when the signal came."""
        time.sleep(LEAVE_TRY + SIGNAL_SLACK)
        os._exit(self.exit_status())

    def _leave(self) -> None:
        """Close the app; a host tells every peer "the host closed the game" first, a joiner
        tells its host it leaves, and the app closes once the goodbyes are out."""
        self.game.leave_game()
        self.game.close()
        self.game.save_again(lambda line: self.notify(line, timeout=15))
        if self.game.ends_by_itself:
            self.run_worker(self._exit_when_closed(), group="closing")
        else:
            self.exit()

    async def _exit_when_closed(self) -> None:
        await self.game.wait_closed()
        self._telling = True  # waited already
        self.exit()

    def exit_status(self) -> int:
        return self.game.exit_status()

    def exit(self, *args: Any, **kwargs: Any) -> None:
        """Every way out: a joiner tells the host it leaves, then the app closes (once the
        leave is said, when its connection was down: at most ``LEAVE_TRY`` seconds)."""
        self.game.leave_game()
        if self.game.ends_by_itself and self.game.telling and not self._telling:
            self._telling = True
            self.notify("telling the host you leave (its connection is down) ...", timeout=20)
            self.run_worker(self._exit_when_told(args, kwargs), group="closing")
            return
        super().exit(*args, **kwargs)

    async def _exit_when_told(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        await self.game.wait_closed()
        super().exit(*args, **kwargs)


#: seconds after ``LEAVE_TRY`` that a signalled program ends even if its screen does not close
SIGNAL_SLACK = 10.0


def join_app(host: str, port: int, code: str | None, name: str,
             identity: Identity | None = None, host_fingerprint: str | None = None,
             talk: Sequence[str] = ()) -> NetApp:
    """The app that joins ``host:port`` as ``name`` (only a host with that fingerprint; saying
    ``talk`` once seated)."""
    return NetApp(join_net(host, port, code, name, identity, host_fingerprint, talk))


def host_app(settings: HostSettings) -> NetApp:
    """The app that hosts a game for ``settings`` and plays the host's own seat."""
    return NetApp(host_net(settings))


def finish(app: NetApp, say: Callable[[str], None]) -> int:
    """After the app: save the transcript, say what went wrong, give the exit status."""
    remove_note_handler(app.note_handler)
    app.game.save_again(say)  # again after a failure; the same file at the end
    if app.failure:
        say(f"error: {app.failure}")
    return app.exit_status()


def join_tui(host: str, port: int, code: str | None, name: str, say: Callable[[str], None],
             identity: Identity | None = None, host_fingerprint: str | None = None,
             talk: Sequence[str] = ()) -> int:
    app = join_app(host, port, code, name, identity, host_fingerprint, talk)
    app.run()
    return finish(app, say)


def host_tui(settings: HostSettings, say: Callable[[str], None]) -> int:
    app = host_app(settings)
    app.run()
    return finish(app, say)

