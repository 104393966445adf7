#!/usr/bin/env python3
"""The README's pictures: both tables in the middle of a game, saved by Textual as SVG.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots] [--size 100x32]

Each picture is a local game against easy opponents on a fixed deal, played by answering the
first choice of every question until a few turns have passed, then drawn at ``--size``. It runs
with a profile of its own (``XDG_DATA_HOME``, ``XDG_CONFIG_HOME``: nothing of the user's is
read or written) and with the default theme, so the pictures are the same on every machine.
Run it again after changing what the table looks like, and commit the files it writes.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: (file name, game, players, seed, turns of play before the picture)
PICTURES = (
    ("medici.svg", "medici", 4, 21, 9),
    ("condottiere.svg", "condottiere", 4, 5, 6),
)


async def picture(game: str, players: int, seed: int, turns: int, size: tuple[int, int],
                  path: Path) -> None:
    from tui.app import PalazzoApp
    from tui.screens.end import EndScreen
    from tui.setup import GameSetup

    app = PalazzoApp(GameSetup(game=game, players=players, bots=("greedy",), seed=seed, pace=0),
                     play=True)
    async with app.run_test(size=size) as pilot:
        for _ in range(5000):
            await pilot.pause(0.01)
            screen = app.screen
            if isinstance(screen, EndScreen):
                break
            view = getattr(screen, "view", None)
            if view is None or getattr(screen, "_question", None) is None or not view.my_turn:
                continue
            played = getattr(view.state, "turns", None)
            if played is None:
                played = getattr(view.state, "battles", 0)
            if view.state.phase in ("play",) and played >= turns:
                break
            await pilot.press("1")
        await pilot.pause(0.3)
        app.save_screenshot(filename=path.name, path=str(path.parent))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(ROOT / "docs" / "screenshots"), help="where to write")
    p.add_argument("--size", default="120x40", help="columns x rows of the pictures")
    args = p.parse_args()
    cols, rows = (int(x) for x in args.size.split("x"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="palazzo_shots_")
    os.environ["XDG_DATA_HOME"] = os.environ["XDG_CONFIG_HOME"] = profile
    try:
        for name, game, players, seed, turns in PICTURES:
            asyncio.run(picture(game, players, seed, turns, (cols, rows), out / name))
            print(out / name)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
