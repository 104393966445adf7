"""The table never sends what the player did not mean: a final move is confirmed first, a key
pressed before a question is shown does not answer it, one click selects and a second confirms,
and the hand, the court and the map answer clicks. At 80x24 every pane can be reached with the
move box and its answers still in view; long names are shortened the same way everywhere; the
header names the options and the bots' levels."""

from __future__ import annotations

from textual import events

from tui.app import PalazzoApp
from tui.names import NAME_LIMIT, level_name, short_name
from tui.screens.end import EndScreen
from tui.setup import GameSetup


def _where(ui, app, widget_id: str, word: str) -> tuple[int, int]:
    """Screen coordinates of ``word`` inside the widget ``widget_id``, as the screen shows it."""
    region = app.screen.query_one(f"#{widget_id}").region
    for y, line in enumerate(ui.text(app).splitlines()):
        if not region.y <= y < region.bottom:
            continue
        x = line.find(word, region.x)
        if 0 <= x < region.right:
            return x + 1, y
    raise AssertionError(f"{word!r} is not shown in #{widget_id}")


async def _until_play(ui, pilot, app, want=lambda table, q: True):
    """Answer the first choice (a card rather than a pass) until ``want(table, question)``."""
    for _ in range(400):
        await ui.until(pilot, lambda: ui.asking(app) or isinstance(app.screen, EndScreen), what="a question")
        table = app.screen
        assert not isinstance(table, EndScreen), "the game ended first"
        q = table._question
        if want(table, q):
            return table, q
        labels = [c.label for c in q.choices]
        i = 1 if labels[0].startswith("Pass") and len(labels) > 1 else 0
        await pilot.press(q.keys()[i])
    raise AssertionError("the wanted question never came")


def _pass_offered(table, q) -> bool:
    s = table.view.state
    return (q.field == "card" and q.choices[0].label.startswith("Pass")
            and not (table.view.seat == s.defender and s.free))


async def test_a_pass_asks_to_confirm_and_is_not_sent_before(ui):
    app = PalazzoApp(GameSetup(bots=("greedy",), game="condottiere", players=3, seed=8, pace=0), play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        table, q = await _until_play(ui, pilot, app, _pass_offered)
        steps, logged = table.view.steps, len(table.view.log)
        await pilot.press("p")  # Pass
        await pilot.pause()
        assert table._question.field == "confirm"
        assert "Pass: you play no more cards in this battle." in ui.text(app)
        # a local game: u takes it back until the next player moves; it never claims otherwise
        assert "u takes it back" in ui.text(app) and "cannot be taken back" not in ui.text(app)
        assert table.view.steps == steps and not table.view.state.passed[0], "the pass was sent"
        await pilot.press("escape")  # taken back: the card question again
        await pilot.pause()
        assert table._question.field == "card" and table.view.steps == steps
        await pilot.press("p")
        await pilot.pause()
        await pilot.press("n")  # "No, go back"
        await pilot.pause()
        assert table._question.field == "card" and table.view.steps == steps
        await pilot.press("p")
        await pilot.pause()
        await pilot.press("y")  # "Yes, send it"
        await ui.until(pilot, lambda: table.view.steps > steps, what="the pass sent")
        assert any("pass" in line.lower() for line in table.view.log[logged:])


async def test_a_strike_and_a_conspiracy_are_final_a_card_to_court_is_not(ui):
    from engine.medici.state import Action

    app = PalazzoApp(GameSetup(bots=("greedy",), seed=5, pace=0), play=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the first question")
        table, view = app.screen, app.screen.view
        card = view.state.hands[0][0]
        assert "cannot" not in table.final_words(view, Action("court", 0, card=card))
        assert table.final_words(view, Action("court", 0, card=card)) == ""
        assert "Strike with" in table.final_words(view, Action("strike", 0, card=card, slot=1))
        assert "eliminates stack" in table.final_words(view, Action("conspire", 0, card=card, stack=0, elim=1))


async def test_a_key_pressed_before_the_question_was_shown_does_not_answer_it(ui):
    app = PalazzoApp(GameSetup(bots=("greedy",), seed=5, pace=0), play=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the first question")
        table = app.screen
        early = events.Key("1", "1")  # typed now...
        await pilot.press("1")  # ...while this key answers the first question
        await pilot.pause()
        assert len(table.path) == 1 and table._question.field == "target"
        app.post_message(early)  # ...and read after the second question was put up
        await pilot.pause()
        assert len(table.path) == 1 and table._question.field == "target", "a stale key answered"
        await pilot.press("1")  # a key pressed now answers it
        await ui.until(pilot, lambda: table.view.steps > 0 or not table.path, what="the answer")


async def test_keys_pressed_while_a_bot_plays_are_dropped(ui):
    app = PalazzoApp(GameSetup(bots=("greedy",), game="condottiere", players=3, seed=8, pace=0.3),
                     play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        table, q = await _until_play(ui, pilot, app, lambda t, q: t.view.state.phase == "play")
        i = 1 if q.choices[0].label.startswith("Pass") else 0
        await pilot.press(q.keys()[i])  # a card: the bots play next, 0.3 s apart
        await ui.until(pilot, lambda: not table.view.my_turn, what="the bots' turn")
        for key in "1111":
            await pilot.press(key)
        await ui.until(pilot, lambda: ui.asking(app), what="our next turn")
        await pilot.pause()
        assert table.path == () and table._question.field == "card", "a key typed ahead answered"


async def test_clicking_a_card_in_the_hand_selects_it_and_a_second_click_plays_it(ui):
    app = PalazzoApp(GameSetup(bots=("greedy",), seed=5, pace=0), play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the first question")
        table = app.screen
        q = table._question
        assert q.field == "card"
        wanted = q.choices[2]
        from tui.medici.render import card_name

        word = card_name(wanted.key)
        hand = list(table.view.state.hands[0])
        nth = hand.index(wanted.key)
        x, y = _where(ui, app, "hand", word)
        # the same name may stand twice in the hand: click the one for this card
        for _ in range(sum(1 for c in hand[:nth] if card_name(c) == word)):
            x, y = x + len(word) + 2, y
        await pilot.click(offset=(x, y))
        await pilot.pause()
        assert table.path == () and table.query_one("#moves").highlighted == 2
        await pilot.click(offset=(x, y))
        await pilot.pause()
        assert table.path and table.path[0][1].key == wanted.key


async def test_clicking_a_stack_in_the_court_answers_which_stack(ui):
    from engine.medici.text import stack_label

    def builds(table, q):
        return q.field == "kind" and any(c.key == "build" for c in q.choices)

    app = PalazzoApp(GameSetup(bots=("greedy",), seed=21, pace=0), play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        table, q = await _until_play(ui, pilot, app, builds)
        await pilot.press("a")  # Alliance: the same letter every turn
        await pilot.pause()
        q = table._question
        assert q.field == "target"
        target, steps = q.choices[-1], table.view.steps
        region = table.query_one("#court").region
        rows = [y for y, line in enumerate(ui.text(app).splitlines())
                if region.y <= y < region.bottom
                and line[region.x:region.right].strip().lstrip("*").startswith(f"{stack_label(target.key)} ")]
        assert rows, "the stack is not in the court"
        x, y = region.x + 8, rows[0]  # on the stack's cards, right of its letter and total
        await pilot.click(offset=(x, y))
        await pilot.pause()
        assert table._question is q and table.query_one("#moves").highlighted == len(q.choices) - 1
        await pilot.click(offset=(x, y))
        await pilot.pause()
        history = table.client._local.history
        assert target.actions[0] in [step.action for step in history[steps:]], "the stack was not played on"


async def test_clicking_a_region_on_the_map_places_the_token(ui):
    from engine.condottiere.cards import REGIONS

    app = PalazzoApp(GameSetup(bots=("greedy",), game="condottiere", players=3, seed=8, pace=0), play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        table, q = await _until_play(ui, pilot, app, lambda t, q: t.view.state.phase == "place")
        wanted = q.choices[3]
        x, y = _where(ui, app, "map", REGIONS[wanted.key])
        await pilot.click(offset=(x, y))
        await pilot.pause()
        assert table.view.state.battle < 0 and table.query_one("#moves").highlighted == 3
        await pilot.click(offset=(x, y))
        await ui.until(pilot, lambda: table._question is not None and table._question.field == "confirm",
                       what="the question before the token goes down")
        assert "The next battle is for" in ui.text(app)
        await pilot.press("y")
        await ui.until(pilot, lambda: table.view.state.battle == wanted.key, what="the token placed")


async def test_a_click_on_the_board_that_is_no_answer_does_nothing(ui):
    app = PalazzoApp(GameSetup(bots=("greedy",), game="condottiere", players=3, seed=8, pace=0), play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        table, q = await _until_play(ui, pilot, app, lambda t, q: t.view.state.phase == "play")
        assert q.field == "card"
        x, y = _where(ui, app, "map", "Napoli")  # a region, while a card is asked for
        for _ in range(2):
            await pilot.click(offset=(x, y))
            await pilot.pause()
        assert table._question is q and table.path == ()


async def test_at_80x24_the_whole_table_shows_at_once_with_the_move_box_and_the_log_a_key_away(ui):
    for game, panes in (("medici", ("Court", "Your hand", "Houses")),
                        ("condottiere", ("Regions", "Battle", "Your hand"))):
        setup = GameSetup(bots=("greedy",), game=game, players=4, seed=2, pace=0)
        app = PalazzoApp(setup, play=True)
        async with app.run_test(size=(80, 24)) as pilot:
            table, q = await _until_play(ui, pilot, app)
            text = ui.text(app)
            for pane in panes:
                assert f"─{pane}" in text, (pane, text)
            assert "Your move" in text and q.prompt.split("\n")[0][:40] in text
            shown = sum(1 for c in q.choices[:4] if c.label[:30] in text)
            assert shown == min(4, len(q.choices)), "the move box lost its answers"
            names = table.view.names
            for name in names:  # every house or seat, whole
                assert name in text, (name, text)
            table.warn("Gonzaga can end the game on their next turn by striking with the last "
                       "shadow alliance it holds; the Colonna can too, with a Duke or a Bishop.")
            await pilot.pause()
            text = ui.text(app)
            assert "Gonzaga can end" in text and "Bishop." in text, text  # two lines
            for name in names:  # a two-line warning hides no house or seat
                assert name in text, (name, text)
            await pilot.press("l")
            await ui.until(pilot, lambda a=app: type(a.screen).__name__ == "LogScreen",
                           what="the log")
            await pilot.press("escape")
            await ui.until(pilot, lambda a=app, t=table: a.screen is t, what="the table again")
            assert table._question is q and table.path == (), "the log answered something"


def test_long_names_are_shortened_one_way():
    assert short_name("Red (bot-1 (easy))") == "Red (bot-1 (ea…)"
    assert len(short_name("Red (bot-1 (easy))")) == NAME_LIMIT
    assert short_name("Orsini (you)") == "Orsini (you)"
    assert short_name("Bartholomew the Magnificent") == "Bartholomew the…"
    assert len(short_name("Gonzaga (a very long player name)")) <= NAME_LIMIT


async def test_a_long_name_is_the_same_short_name_in_the_header_houses_log_and_end_screen(ui):
    long = "Bartholomew the Magnificent"
    app = PalazzoApp(GameSetup(bots=("greedy",), seed=21, pace=0, name=long), play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the first question")
        table = app.screen
        me = table.view.names[0]
        assert me == short_name(f"Orsini ({long})") and len(me) <= NAME_LIMIT
        text = ui.text(app)
        assert me in text and long not in text
        for _ in range(3000):
            await ui.until(pilot, lambda: ui.asking(app) or isinstance(app.screen, EndScreen), what="a turn")
            if isinstance(app.screen, EndScreen):
                break
            await pilot.press("1")
        text = ui.text(app)
        assert long not in text and me in text
        assert all(long not in line for line in table.view.log)
        assert any(me in line for line in table.view.log)


async def test_the_header_names_the_options_and_the_bots_levels(ui):
    from engine.registry import get_game

    options = (("hidden_cards", True), ("capturing_regions", True))
    setup = GameSetup(game="condottiere", players=3, bots=("easy", "hard", "ismcts"), options=options,
                      seed=3, pace=0)
    app = PalazzoApp(setup, play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.pause()
        line = next(li for li in ui.text(app).splitlines() if "you are" in li)
        assert "Condottiere, you are Red" in line
        assert "capturing regions" in line and "hidden cards" in line
        assert "bots: hard, normal" in line and "ismcts" not in line
    assert level_name(get_game("medici"), "greedy") == "easy"
    assert level_name(get_game("medici"), "random") == "random"
