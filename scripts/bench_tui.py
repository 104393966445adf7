#!/usr/bin/env python3
"""How fast the table feels, as ratios to a minimal Textual app measured in the same run.

    python scripts/bench_tui.py [--runs 5] [--moves 30]

The machine is noisy, so every figure is a ratio: palazzo's median over a minimal Textual app's
median (one ``Static`` and one key binding, and for the first frame the ``Footer`` that shows
it, as every palazzo screen has one), the two measured turn about in the same run.

First frame: the program is started in a pseudo-terminal (100x30, xterm-256color), as a user
starts it; the clock runs from the spawn until its first screen's text has been written to the
terminal (palazzo's start screen; the minimal app's line and its footer's key). Both run from bytecode, as an
installed program does (one untimed start of each writes it, into the profile, whatever
``PYTHONDONTWRITEBYTECODE`` says). Gate: 2 times the minimal app's, goal 1.5.

Redraw: in a headless app (Textual's Pilot, 100x30) a game of Court of the Medici is played by
keyboard against easy bots; for each key that answers the table's question, pressed on a quiet
screen, the clock runs from the key event until the last frame composed and handed to the
terminal driver within 0.2 s (the move applied, the view reassigned, every changed panel drawn,
laid out if it must be, and rendered). The bots are paced 0.3 s so that their moves fall outside
the measured time (the set-up, where their placements are not paced, is played but not timed).
The minimal app's redraw is the same clock around a key that changes its ``Static``: once for a
screenful (all 30 lines of the terminal change, as most of the table does after a move: the
figure the gate is on) and once for one line (printed beside it). Gate: 8 times the screenful,
goal 3.

It runs with a profile of its own (``XDG_DATA_HOME``, ``XDG_CONFIG_HOME``), removed at the end.
The last line printed is the figure: both ratios and the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pty
import select
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MINIMAL = """
from textual.app import App
from textual.widgets import Footer, Static

class Minimal(App):
    BINDINGS = [("1", "bump", "Bump")]

    def __init__(self, full=False, footer=False):
        super().__init__()
        self.full = full
        self.footer = footer
        self.n = 0

    def compose(self):
        yield Static(self.text(), id="text")
        if self.footer:  # as every screen of palazzo has
            yield Footer()

    def text(self):
        if not self.full:
            return f"minimal app ready {self.n}"
        # a screenful: every line of a 100x30 terminal changes with each key
        return "\\n".join(f"minimal app ready {self.n} line {i:2} ".ljust(99, "abcdefghij"[(self.n + i) % 10])
                         for i in range(30))

    def action_bump(self):
        self.n += 1
        self.query_one("#text", Static).update(self.text())

if __name__ == "__main__":
    Minimal(footer=True).run()
"""
MINIMAL_MARKS = (b"minimal app ready", b"Bump")  # its line and its footer
MINIMAL_FILE = Path(os.environ.get("TMPDIR", "/tmp")) / f"palazzo_bench_minimal_{os.getpid()}.py"


def first_frame(argv: list[str], marks: tuple[bytes, ...], timeout: float = 20.0) -> float:
    """Seconds from spawning ``argv`` in a pty until every one of ``marks`` is on it."""
    master, slave = pty.openpty()
    try:
        import fcntl

        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    except OSError:
        pass
    env = dict(os.environ, TERM="xterm-256color", COLORTERM="", PYTHONPATH=str(ROOT),
               PYTHONPYCACHEPREFIX=str(Path(os.environ["XDG_DATA_HOME"]) / "pycache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # both start from bytecode, as installed programs do
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
                            start_new_session=True, cwd=str(ROOT))
    os.close(slave)
    seen = b""
    try:
        while time.perf_counter() - t0 < timeout:
            ready, _, _ = select.select([master], [], [], 0.02)
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            seen += chunk
            if all(m in seen for m in marks):
                return time.perf_counter() - t0
        raise RuntimeError(f"{argv} showed no first screen")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
        os.close(master)


class FrameClock:
    """Times of the frames that redraw anything (Textual's screen update, patched)."""

    def __init__(self) -> None:
        from textual.screen import Screen

        self.frames: list[float] = []
        self._update = Screen._on_timer_update
        clock = self

        def timed_update(screen):  # a frame: dirty widgets drawn, composed, handed to the driver
            drawn = bool(screen._dirty_widgets) or screen._layout_required or screen._repaint_required
            clock._update(screen)
            if drawn:
                clock.frames.append(time.perf_counter())

        Screen._on_timer_update = timed_update  # type: ignore[method-assign]

    def close(self) -> None:
        from textual.screen import Screen

        Screen._on_timer_update = self._update  # type: ignore[method-assign]

    async def key(self, app, key: str, settle: float) -> float | None:
        """Seconds from sending ``key`` to the last frame within ``settle`` seconds."""
        from textual import events

        self.frames.clear()
        t0 = time.perf_counter()
        app._driver.send_message(events.Key(key, key))
        await asyncio.sleep(settle)
        return max(self.frames) - t0 if self.frames else None


async def minimal_redraws(n: int, full: bool) -> list[float]:
    """The minimal app's key-to-frame times: one line of text changed, or (``full``) a screenful."""
    namespace: dict = {}
    exec(compile(MINIMAL, "minimal", "exec"), namespace)
    app = namespace["Minimal"](full)
    clock = FrameClock()
    out: list[float] = []
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause(0.1)
            while len(out) < n:
                t = await clock.key(app, "1", 0.05)
                if t is not None:
                    out.append(t)
    finally:
        clock.close()
    return out


async def table_redraws(moves: int, seed: int) -> tuple[list[float], list[float]]:
    """Key press to composed frame, for the answers that submit a move and for the others."""
    from tui.app import PalazzoApp
    from tui.screens.end import EndScreen
    from tui.setup import GameSetup

    submit: list[float] = []
    ask: list[float] = []
    app = PalazzoApp(GameSetup(seed=seed, pace=0.3, bots=("easy",)), play=True)
    clock = FrameClock()
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            while len(submit) < moves:
                await pilot.pause(0.05)
                s = app.screen
                if isinstance(s, EndScreen):
                    await pilot.press("a")
                    continue
                if getattr(s, "_question", None) is None or not s.view.my_turn:
                    continue
                key = s._question.keys()[0] or "1"  # the first answer's own key (y to confirm)
                if s.view.state.phase not in ("play", "resolve"):
                    await pilot.press(key)  # set-up: the bots' placements are not paced, skip it
                    continue
                steps = s.view.steps
                await asyncio.sleep(0.05)  # a quiet screen, as the minimal app's between its keys
                t = await clock.key(app, key, 0.2)  # the bots wait 0.3 s: every frame is ours
                if t is not None:
                    (submit if s.view.steps != steps else ask).append(t)
    finally:
        clock.close()
    return submit, ask


def main() -> int:
    # a profile of its own: the games it plays are saved there, not among the user's, and the
    # start screen lists none of the user's saved games
    profile = tempfile.mkdtemp(prefix="palazzo_bench_")
    os.environ["XDG_DATA_HOME"] = os.environ["XDG_CONFIG_HOME"] = profile
    try:
        return _main()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def _main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5, help="first-frame runs of each program")
    p.add_argument("--moves", type=int, default=30, help="moves to time")
    p.add_argument("--seed", type=int, default=3)
    args = p.parse_args()

    MINIMAL_FILE.write_text(MINIMAL)
    try:
        mine: list[float] = []
        base: list[float] = []
        # one untimed start of each writes its bytecode (into the profile): an installed program
        # has its modules compiled, and a checkout run with PYTHONDONTWRITEBYTECODE would compile
        # palazzo's fifty modules from source at every start while Textual's are compiled
        first_frame([sys.executable, str(MINIMAL_FILE)], MINIMAL_MARKS)
        first_frame([sys.executable, "-m", "tui"], (b"Medici", b"Play"))
        for _ in range(args.runs):  # turn about, so that a noisy moment falls on both
            base.append(first_frame([sys.executable, str(MINIMAL_FILE)], MINIMAL_MARKS))
            mine.append(first_frame([sys.executable, "-m", "tui"], (b"Medici", b"Play")))
    finally:
        MINIMAL_FILE.unlink(missing_ok=True)
    ff, ff0 = statistics.median(mine), statistics.median(base)
    ff_ratio = ff / ff0
    print(f"first frame: palazzo median {ff * 1000:.0f} ms, minimal app {ff0 * 1000:.0f} ms "
          f"over {args.runs} runs each: {ff_ratio:.2f}x (gate 2x, goal 1.5x)")

    line = asyncio.run(minimal_redraws(40, False))
    full = asyncio.run(minimal_redraws(40, True))
    submit, ask = asyncio.run(table_redraws(args.moves, args.seed))
    line += asyncio.run(minimal_redraws(40, False))
    full += asyncio.run(minimal_redraws(40, True))
    med, med_line, med0 = statistics.median(submit), statistics.median(line), statistics.median(full)
    redraw_ratio = med / med0
    q90 = statistics.quantiles(submit, n=10)[-1]
    print(f"move to redrawn table: median {med * 1000:.1f} ms (90th percentile {q90 * 1000:.1f} ms) "
          f"over {len(submit)} moves")
    print(f"minimal app's redraw: a screenful {med0 * 1000:.1f} ms (the table's {redraw_ratio:.1f}x), "
          f"one line {med_line * 1000:.1f} ms (the table's {med / med_line:.1f}x)")
    if ask:
        print(f"answer to the next question: median {statistics.median(ask) * 1000:.1f} ms "
              f"over {len(ask)} answers ({statistics.median(ask) / med0:.1f}x a screenful)")
    ok = redraw_ratio <= 8 and ff_ratio <= 2
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"redraw {redraw_ratio:.1f}x the minimal app's (gate 8, goal 3), first frame "
          f"{ff_ratio:.2f}x (gate 2, goal 1.5): {'pass' if ok else 'FAIL'}; load average {load}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
