"""Nothing irreversible without a yes, and an undo: a move that cannot be taken back asks first
(and a setting turns the questions off); in a local game ``u`` takes back the seat's last move
until the next seat has moved."""

from __future__ import annotations

import asyncio

import pytest

from engine.core import TERMINAL
from tui.app import PalazzoApp
from tui.client import NotYourTurn
from tui.setup import GameSetup, make_client


def _noted(app, words: str) -> bool:
    """Whether a note (a toast) with ``words`` was shown."""
    return any(words in n.message for n in app._notifications)


async def _until_my_turn(client):
    async for snap in client.updates():
        if snap.my_turn or snap.over:
            return snap
    return client.snapshot()


async def test_undo_takes_back_the_seats_move_until_the_next_seat_has_moved():
    client = make_client(GameSetup(game="condottiere", players=3, bots=("greedy",), seed=4, pace=0))
    assert "no move" in client.can_undo()
    with pytest.raises(NotYourTurn):
        client.undo()
    snap = await _until_my_turn(client)
    before = client.snapshot()
    steps, log = before.steps, before.log
    move = snap.legal[-1]
    client.submit(move)
    assert client.can_undo() == "" and client.snapshot().steps > steps
    client.undo()
    back = client.snapshot()
    assert back.steps == steps and back.log == log and back.state == before.state
    assert back.legal == before.legal and back.my_turn
    # the same move again plays out exactly as it did: the generators went back too
    client.submit(move)
    again = client.snapshot()
    # once the next seat has moved, the move stays
    async for snap in client.updates():
        moved = [s for s in client._local.history[steps + 1 :] if s.actor >= 0 and s.actor != 0]
        if moved:
            break
        if snap.my_turn:
            client.submit(snap.legal[0])
    assert "another player has moved" in client.can_undo()
    assert again.steps > steps
    client.close()


async def test_a_bots_move_thought_out_before_an_undo_is_dropped():
    # a second's pace: the bot is still waiting to move when the undo comes, however loaded
    client = make_client(GameSetup(game="condottiere", players=3, bots=("greedy",), seed=4, pace=1))
    snap = await _until_my_turn(client)
    steps = snap.steps
    updates = client.updates()
    client.submit(snap.legal[-1])
    task = asyncio.ensure_future(updates.__anext__())
    await asyncio.sleep(0)  # the stream notes the move and a bot starts thinking (1 s pace)
    await task
    bot = asyncio.ensure_future(updates.__anext__())
    await asyncio.sleep(0.05)
    client.undo()
    await asyncio.wait_for(bot, 30)
    assert client.snapshot().steps == steps and client.snapshot().my_turn
    assert client.rules.current_player(client._local.state) not in (TERMINAL,)
    client.close()


async def test_u_at_a_fresh_condottiere_table_at_80x24_says_there_is_nothing_to_undo(ui):
    app = PalazzoApp(GameSetup(game="condottiere", players=3, bots=("greedy",), seed=4, pace=0),
                     play=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the first question")
        table = app.screen
        await pilot.press("u")
        await ui.until(pilot, lambda: _noted(app, "Nothing to take back"), what="the note")
        assert app.screen is table and ui.asking(app)


async def test_u_at_the_table_takes_the_last_move_back(ui):
    # the bots wait 5 s before each move: none moves before the u, however loaded the machine
    app = PalazzoApp(GameSetup(game="condottiere", players=3, bots=("greedy",), seed=4, pace=5),
                     play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(50):
            await ui.until(pilot, lambda: ui.asking(app), what="a question")
            table = app.screen
            if table.view.state.phase == "play" and table._question.field == "card":
                break
            await pilot.press(table._question.keys()[0])
        table = app.screen
        steps, hand = table.view.steps, table.view.state.hands[0]
        q = table._question
        card = next(i for i, c in enumerate(q.choices) if c.key != "pass")
        await pilot.press(q.keys()[card])
        await ui.until(pilot, lambda: table.view.steps > steps, what="the card played")
        await pilot.press("u")
        await ui.until(pilot, lambda: table.view.steps == steps, what="the move taken back")
        assert table.view.state.hands[0] == hand
        await ui.until(pilot, lambda: _noted(app, "taken back") and ui.asking(app), what="the note")


async def test_a_minister_a_lady_and_a_plan_ask_first_and_a_setting_turns_the_questions_off(ui):
    from engine.medici.scenario import action, position

    app = PalazzoApp(GameSetup(bots=("greedy",), seed=5, pace=0), play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the first question")
        table = app.screen
        s = position(hands=["OM OL O5", "", "", ""], middle=["R10 R6", "G5"])
        view = table.view.__class__(**{**table.view.__dict__, "state": s})
        words = table.final_words(view, action("build", 0, "OM", stack="A"))
        assert "-> 0, eliminating 2 cards" in words  # the rules' result, not a sum
        words = table.final_words(view, action("build", 0, "OL", stack="A"))
        assert "-> splits into 10 | 6 | 1" in words
        assert "under your deck" in table.final_words(view, action("plan", 0, "O5"))
        assert table.final_words(view, action("court", 0, "O5")) == ""


async def test_token_placement_asks_first_and_yes_and_ask_no_more_stops_asking(ui):
    app = PalazzoApp(GameSetup(game="condottiere", players=3, bots=("greedy",), seed=4, pace=0),
                     play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(300):
            await ui.until(pilot, lambda: ui.asking(app), what="a question")
            table = app.screen
            q = table._question
            if q.field == "confirm" and table.path and table.path[-1][0].field == "target" \
                    and table.view.state.phase == "place":
                break
            card = next((i for i, c in enumerate(q.choices) if c.key != "pass"), 0)
            await pilot.press(q.keys()[card])
        else:
            raise AssertionError("no token placement came")
        assert "The next battle is for" in ui.text(app) and "u takes it back" in ui.text(app)
        steps = table.view.steps
        await pilot.press("a")  # yes, and ask no more in this game
        await ui.until(pilot, lambda: table.view.steps > steps, what="the token placed")
        assert table.confirm is False


async def test_with_the_questions_off_a_pass_goes_out_at_once(ui):
    app = PalazzoApp(GameSetup(game="condottiere", players=3, bots=("greedy",), seed=8, pace=0,
                               confirm=False), play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(300):
            await ui.until(pilot, lambda: ui.asking(app), what="a question")
            table = app.screen
            q = table._question
            assert q.field != "confirm"
            s = table.view.state
            if q.field == "card" and "p" in q.keys() and not (s.defender == 0 and s.free):
                break
            await pilot.press(q.keys()[0])
        steps = table.view.steps
        await pilot.press("p")
        await ui.until(pilot, lambda: table.view.steps > steps, what="the pass sent")
        assert any("Red (you) passes" in line or "passes" in line for line in table.view.log[-12:])


async def test_a_move_whose_only_question_has_one_answer_asks_first(ui):
    from tui.choices import Choice, Question

    app = PalazzoApp(GameSetup(bots=("greedy",), seed=5, pace=0), play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the first question")
        table = app.screen
        only = table.view.legal[0]
        one = Question("Which?", "card", (Choice("the one", (only,), only.card),))
        table.path = ((one, one.choices[0]),)
        words = table.confirm_words(table.view, only)
        assert words.startswith("Your only move:")
        table.path = ()


class _NoUndo:
    """A client without an undo, as a networked game's: everything else is the local client's."""

    undoable = False

    def __init__(self, client) -> None:
        self._client = client

    def __getattr__(self, name):
        if name in ("undo", "can_undo"):
            raise AttributeError(name)
        return getattr(self._client, name)


@pytest.mark.parametrize("undo", [True, False], ids=["local", "no undo"])
async def test_the_question_says_a_move_cannot_be_taken_back_only_where_u_cannot_undo_it(ui, undo):
    """In a game against the computer the question says u takes the move back (it does, until
    the next player moves); at a table without undo (a networked game) it says the move cannot
    be taken back, and u says so too."""
    from tui.condottiere.table import CondottiereTable

    setup = GameSetup(game="condottiere", players=3, bots=("greedy",), seed=4, pace=0)
    client = make_client(setup)
    app = PalazzoApp(setup)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.push_screen(CondottiereTable(client if undo else _NoUndo(client), setup))
        await ui.until(pilot, lambda: ui.asking(app), what="the first question")
        table = app.screen
        # the token placement: one answer (the region), then the question
        for _ in range(20):
            if table._question.field == "confirm":
                break
            await pilot.press(table._question.keys()[0])
            await pilot.pause()
        text = ui.text(app)
        assert table._question.field == "confirm", text
        if undo:
            assert "Until the next player moves or the game ends, u takes it back." in text
            assert "cannot be taken back" not in text
        else:
            assert "This cannot be taken back." in text and "u takes it back" not in text
            await pilot.press("u")
            await ui.until(pilot, lambda: _noted(app, "Only a game against the computer"),
                           what="the note")


async def test_no_undo_once_the_game_is_over():
    """A move that ended the game is not taken back: the game's result stands (and is kept)."""
    for seed in range(1, 60):
        client = make_client(GameSetup(game="condottiere", players=2, bots=("random",), seed=seed,
                                       pace=0))
        snap = client.snapshot()
        async for snap in client.updates():
            if snap.over:
                break
            if snap.my_turn:
                client.submit(snap.legal[-1])
        moved = [step.actor for step in client._local.history if step.actor >= 0]
        if snap.over and moved[-1] == client.seat:  # the seat's own move ended it
            break
    else:
        raise AssertionError("no game ended by the seat's move")
    assert client.can_undo() == "the game is over"
    with pytest.raises(NotYourTurn):
        client.undo()
    assert client.snapshot().over
