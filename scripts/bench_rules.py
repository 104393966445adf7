#!/usr/bin/env python3
"""How long the rules screen takes to open: from the key (``r`` at the table) to its first paint.

    python scripts/bench_rules.py [--runs 9]

In a headless app (Textual's Pilot, 80x24) a game's table is opened; for each run the clock
runs from the ``r`` key event until the rules screen is on top and a frame showing its first
heading has been composed for the terminal; Escape closes it again. The first open of each game
is reported apart (it reads the rules file and builds the text, later opens reuse it). Gate:
0.3 s. The figure is a median, quoted with the load average (the machine is shared), and beside
it, measured the same way in the same run, the help screen (``?``: a small modal screen over the
table), so that the ratio says what the rules themselves cost.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


async def measure(game: str, runs: int, key: str = "r") -> list[float]:
    from tui.app import PalazzoApp
    from tui.screens.help import HelpScreen
    from tui.screens.rules import RulesScreen
    from tui.setup import GameSetup

    heading = {"medici": "Court of the Medici", "condottiere": "Condottiere"}[game]
    kind, words = (RulesScreen, ("Rules (Escape", heading)) if key == "r" else (
        HelpScreen, ("Help: keys",))
    app = PalazzoApp(GameSetup(game=game, players=3, seed=1, pace=0.3), play=True)
    times = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.5)
        for _ in range(runs):
            t0 = time.perf_counter()
            await pilot.press(key)
            while True:
                screen = app.screen
                if isinstance(screen, kind):
                    text = "\n".join(s.text for s in screen._compositor.render_strips())
                    if all(w in text for w in words):
                        break
                await asyncio.sleep(0.001)
            times.append(time.perf_counter() - t0)
            await pilot.press("escape")
            await pilot.pause(0.05)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9, help="opens per game (default 9)")
    args = ap.parse_args()
    load = os.getloadavg()[0]
    worst = 0.0
    ratios = []
    for game in ("medici", "condottiere"):
        t = asyncio.run(measure(game, args.runs))
        h = asyncio.run(measure(game, args.runs, "question_mark"))
        med = statistics.median(t[1:]) if len(t) > 1 else t[0]
        ref = statistics.median(h)
        worst = max(worst, t[0], med)
        ratios.append(med / ref)
        print(f"{game}: first open {t[0] * 1000:.0f} ms, median of the next {len(t) - 1}: "
              f"{med * 1000:.0f} ms; the help screen {ref * 1000:.0f} ms (ratio {med / ref:.2f})")
    print(f"rules screen: slowest {worst * 1000:.0f} ms (gate 300 ms), "
          f"{max(ratios):.2f} times the help screen; load average {load:.2f}")


if __name__ == "__main__":
    main()
