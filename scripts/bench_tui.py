#!/usr/bin/env python3
"""How fast the table feels: start to first frame, and a move to the redrawn table.

    .venv/bin/python scripts/bench_tui.py [--runs 5] [--moves 40]

First frame: ``palazzo`` is started in a pseudo-terminal (100x30, xterm-256color), as a user
starts it; the clock runs from the spawn until the start screen's text has been written to the
terminal. Gate: under 1.5 s (median of ``--runs``).

Redraw: in a headless app (Textual's Pilot, 100x30) a game of Court of the Medici is played
by keyboard; for each key that answers the table's question, the clock runs from the key
event until the last frame that redraws a panel of the table is composed and handed to the
terminal driver (the move applied, the view reassigned, every changed panel drawn, the screen
laid out and rendered). Frames that only redraw the footer's key hints, which are rebuilt
after the board, are not counted. The bots are
paced 0.3 s so that their moves fall outside the measured time (the set-up, where their
placements are not paced, is played but not timed). Gate: median under 100 ms.
Keys that submit a move and keys that answer a question are reported apart.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pty
import select
import statistics
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def first_frame(timeout: float = 20.0) -> float:
    """Seconds from spawning ``palazzo`` in a pty until the start screen is on it."""
    exe = ROOT / ".venv" / "bin" / "palazzo"
    master, slave = pty.openpty()
    try:
        import fcntl

        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    except OSError:
        pass
    env = dict(os.environ, TERM="xterm-256color", COLORTERM="")
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [str(exe)], stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
        start_new_session=True,
    )
    os.close(slave)
    seen = b""
    try:
        while time.perf_counter() - t0 < timeout:
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            seen += chunk
            if b"Medici" in seen and b"Play" in seen:
                return time.perf_counter() - t0
        raise RuntimeError("the start screen did not appear")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
        os.close(master)


async def redraws(moves: int, seed: int) -> tuple[list[float], list[float]]:
    """Key press to composed frame, for the answers that submit a move and for the others."""
    from textual import events
    from textual.screen import Screen

    from tui.app import PalazzoApp
    from tui.screens.end import EndScreen
    from tui.setup import GameSetup

    submit: list[float] = []
    ask: list[float] = []
    app = PalazzoApp(GameSetup(seed=seed, pace=0.3), play=True)
    frames: list[float] = []
    update = Screen._on_timer_update

    def timed_update(screen):  # a frame: dirty widgets drawn, composed, handed to the driver
        # the table's panels have ids; the footer and its keys have none
        board = any(w.id is not None for w in screen._dirty_widgets)
        update(screen)
        if board:
            frames.append(time.perf_counter())

    Screen._on_timer_update = timed_update  # type: ignore[method-assign]
    async with app.run_test(size=(100, 30)) as pilot:
        while len(submit) < moves:
            await pilot.pause(0.05)
            s = app.screen
            if isinstance(s, EndScreen):
                await pilot.press("a")
                continue
            if getattr(s, "_question", None) is None or not s.view.my_turn:
                continue
            if s.view.state.phase not in ("play", "resolve"):
                await pilot.press("1")  # set-up: the bots' placements are not paced, skip it
                continue
            steps = s.view.steps
            frames.clear()
            t0 = time.perf_counter()
            app._driver.send_message(events.Key("1", "1"))
            await asyncio.sleep(0.2)  # the bots wait 0.3 s: every frame until now is ours
            if frames:
                (submit if s.view.steps != steps else ask).append(max(frames) - t0)
    return submit, ask


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5, help="first-frame runs")
    p.add_argument("--moves", type=int, default=40, help="moves to time")
    p.add_argument("--seed", type=int, default=3)
    args = p.parse_args()

    frames = [first_frame() for _ in range(args.runs)]
    ff = statistics.median(frames)
    print(f"first frame: median {ff * 1000:.0f} ms over {args.runs} runs "
          f"(min {min(frames) * 1000:.0f}, max {max(frames) * 1000:.0f}); gate 1500 ms: "
          f"{'pass' if ff < 1.5 else 'FAIL'}")

    submit, ask = asyncio.run(redraws(args.moves, args.seed))
    med = statistics.median(submit)
    q90 = statistics.quantiles(submit, n=10)[-1]
    print(f"move to redrawn table: median {med * 1000:.1f} ms, 90th percentile {q90 * 1000:.1f} ms "
          f"over {len(submit)} moves; gate 100 ms: {'pass' if med < 0.1 else 'FAIL'}")
    if ask:
        print(f"answer to next question: median {statistics.median(ask) * 1000:.1f} ms "
              f"over {len(ask)} answers")
    return 0 if ff < 1.5 and med < 0.1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
