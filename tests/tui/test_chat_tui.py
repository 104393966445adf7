"""Table talk on the screen, at 80x24: the talk pane in the lobby and at the table (``t``),
Escape back to the game, a quick phrase by its number, the host's "slow down" shown plainly,
and the talk in the log among the moves."""


import pytest

from net.session.commands.hosting import HostSettings
from net.session.features.chat import SLOW_DOWN
from tests.tui.conftest import asking, until
from tests.tui.conftest import screen_text as text
from tui.chat import QUICK_PHRASES, TalkScreen
from tui.netapp import host_app
from tui.screens.lobby import LobbyScreen
from tui.table import TableScreen


@pytest.mark.long
async def test_the_talk_pane_in_the_lobby_and_at_the_table(profile):
    settings = HostSettings(game="condottiere", players=3, options={}, port=0, bind="127.0.0.1",
                            bots=2, open=True, name="Ada")
    app = host_app(settings)
    async with app.run_test(size=(80, 24)) as pilot:
        app.host_session.chat.clock = lambda: 1000.0  # one instant: the limit is reached
        await until(pilot, lambda: "bot-2 (greedy)" in text(app), "the bots in the lobby")
        assert isinstance(app.screen, LobbyScreen)
        await until(pilot, lambda: "Talk" in text(app), "the talk key in the lobby")
        await pilot.press("t")
        assert isinstance(app.screen, TalkScreen)
        await until(pilot, lambda: "Quick phrases" in text(app), "the talk pane")
        screen = text(app)
        assert "Table talk (Esc: back to the game)" in screen
        assert "Nobody has said anything yet." in screen
        await pilot.press(*"good luck", "enter")
        await until(pilot, lambda: 'Ada says: "good luck"' in text(app), "the lobby's talk")
        await pilot.press("escape")
        assert isinstance(app.screen, LobbyScreen)
        await until(pilot, lambda: 'Ada says: "good luck"' in text(app), "talk in the lobby")
        await pilot.press("r")
        await until(pilot, lambda: asking(app), "the first question at the table")
        table = app.screen
        assert isinstance(table, TableScreen) and "t Talk" in text(app)
        await pilot.press("t")
        assert isinstance(app.screen, TalkScreen)
        await until(pilot, lambda: "Quick phrases" in text(app), "the talk pane")
        screen = text(app)
        for i, phrase in enumerate(QUICK_PHRASES[:3]):
            assert f"{i + 1} {phrase}" in screen
        await pilot.press("4")  # with the line empty: the fourth quick phrase
        await until(pilot, lambda: 'Ada says: "Deal?"' in text(app), "a quick phrase said")
        for key in "12356":  # the sixth message within the instant
            await pilot.press(key)
        await until(pilot, lambda: f"Not said: {SLOW_DOWN}" in text(app), "the refusal")
        assert 'Ada says: "Good game"' not in text(app)
        await pilot.press("escape")
        assert app.screen is table and asking(app)  # the game is back, its question asked
        log = app.client.snapshot().log
        assert log.index('Ada says: "good luck"') < log.index('Ada says: "Deal?"')
        assert f'Not said ("Good game"): {SLOW_DOWN}' in log
        await pilot.press("l")  # the whole log, a key away at 80x24
        await until(pilot, lambda: type(app.screen).__name__ == "LogScreen", "the log")
        screen = text(app)
        assert ('Ada says: "Leave this region to me"' in screen and "Not said" in screen), screen
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is table, "the table again")
        for _ in range(4):  # the game goes on: answer until a move is sent
            if len(app.client.snapshot().log) > len(log):
                break
            q = getattr(app.screen, "_question", None)
            await pilot.press(q.keys()[0] if q is not None else "1")
            await pilot.pause(0.2)
        await until(pilot, lambda: len(app.client.snapshot().log) > len(log), "a move")


@pytest.mark.long
def test_the_replay_shows_recorded_talk_at_its_place(tmp_path):
    import random

    from engine.registry import get_game
    from tests.net.conftest import new_game
    from tui.replay import network_replay

    g = new_game(3)
    a = g.add_bot(0, name="Ada", bot=None)
    g.add_bot(1, name="Bea")
    g.add_bot(2, name="Cy")
    g.link.pump()
    said_at = len(g.host.table.steps)  # the steps the public view had when it was said
    a.say("Leave this region to me")
    g.link.pump()
    g.link.bots[g.conns[0]] = get_game("medici").make_bot("greedy", random.Random(1))
    g.link.pump()
    assert g.host.finished
    path = tmp_path / "talk.palazzo"
    path.write_bytes(g.host.table.transcript.to_bytes())
    replay = network_replay(path)
    line = 'Ada says: "Leave this region to me"'
    first = next(f for f in replay.frames if line in f.log)
    before = [f for f in replay.frames if f.steps <= said_at]
    assert before and all(line not in f.log for f in before)
    assert first.steps > said_at and first is replay.frames[len(before)]
    assert replay.frames[-1].log.count(line) == 1
    assert "1 message of table talk" in replay.verdict
