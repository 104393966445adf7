"""The bots' canned remarks in a local game (``tui.remarks``): off by default, on with
``palazzo play --remarks on`` or the start screen's Remarks tick; they add lines to the log and
change nothing else."""

import asyncio

import pytest

from engine.registry import get_game
from tui.cli import _play_setup, build_parser
from tui.remarks import Remarks
from tui.setup import GameSetup, make_client


def test_remarks_wish_luck_nudge_now_and_then_and_end_well():
    r = Remarks(("Red (you)", "Blue", "Green"), 0)
    assert r.start() == ["Blue: Good luck."] and r.start() == []
    said = [r.my_turn(2) for _ in range(2 * Remarks.EVERY)]
    assert said.count(["Green: Your move."]) == 2
    assert all(s in ([], ["Green: Your move."]) for s in said)
    assert r.my_turn(None) == [] and r.my_turn(0) == []  # nobody else moved: nothing to say
    assert r.end() == ["Blue: Good game."] and r.end() == []
    assert Remarks(("Red (you)",), 0).start() == []  # no bot, no remark


async def _log(remarks):
    setup = GameSetup(game="condottiere", players=3, seat=0, bots=("", "greedy", "greedy"),
                      seed=7, pace=0, remarks=remarks)
    client = make_client(setup)
    async for snap in client.updates():
        if snap.over:
            break
        if snap.my_turn:
            client.submit(snap.legal[snap.steps % len(snap.legal)])
    client.close()
    return snap.log


def test_remarks_add_lines_to_the_log_and_change_nothing_else():
    plain = asyncio.run(_log(False))
    talky = asyncio.run(_log(True))
    bots = get_game("condottiere").rules.seat_names[1:3]
    remarks = [line for line in talky if line.endswith(("Good luck.", "Your move.", "Good game."))
               and line.split(": ")[0] in bots]
    assert remarks[0] == f"{bots[0]}: Good luck." and remarks[-1] == f"{bots[0]}: Good game."
    assert any(line.endswith(": Your move.") for line in remarks)
    assert [line for line in talky if line not in remarks] == list(plain)
    assert not any(line in plain for line in remarks)


@pytest.mark.parametrize("flags, on", [([], False), (["--remarks", "on"], True),
                                       (["--remarks", "off"], False)])
def test_play_remarks_flag(flags, on):
    args = build_parser().parse_args(["play", "condottiere", "--players", "3", *flags])
    assert _play_setup(args).remarks is on


async def test_the_start_screens_remarks_tick_sets_the_remarks():
    from tui.app import PalazzoApp

    app = PalazzoApp(GameSetup(pace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            await pilot.pause()
            if getattr(app.screen, "_filled", False):
                break
        start = app.screen
        assert "the bots' remarks in the log" in "\n".join(
            s.text for s in start._compositor.render_strips())  # in view at 80x24
        assert start._current().remarks is False
        await pilot.click("#remarks")
        assert start._current().remarks is True
