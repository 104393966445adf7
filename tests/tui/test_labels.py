"""Labels that agree with each other and with the rules: plurals, the battle count and region,
the defender's pass, the end screen's ways out named for what they do, Hidden Cards' strength and
legend. Each test's name is the label it checks.
"""

from __future__ import annotations

import re

from textual.app import App
from textual.widgets import Button, Static

from engine.condottiere import RULES as CONDOTTIERE
from engine.condottiere.scenario import position as battle
from engine.condottiere.state import CondottiereConfig
from engine.medici.scenario import action, position
from engine.words import noun, plural
from tui.app import PalazzoApp
from tui.client import TableView
from tui.condottiere import choices as condottiere_choices
from tui.condottiere import render as condottiere_render
from tui.condottiere.table import CondottiereTable
from tui.medici import render as medici_render
from tui.netapp import NetApp
from tui.screens.end import EndScreen, result_text
from tui.setup import GameSetup


def test_plural_says_1_card_and_2_cards_and_0_cards():
    assert plural(1, "card") == "1 card"
    assert plural(2, "card") == "2 cards"
    assert plural(0, "card") == "0 cards"
    assert plural(1, "pt", "pts") == "1 pt" and plural(5, "pt", "pts") == "5 pts"
    assert noun(1, "battle") == "battle" and noun(7, "battle") == "battles"


def test_a_medici_house_with_1_point_shows_1_pt():
    s = position(middle=["OL"])
    text = medici_render.houses_text(s, 0, ("Orsini", "Colonna", "Rovere", "Gonzaga"), 0).plain
    assert "  1 pt " in text and "1 pts" not in text
    assert "  0 pts" in text


def _view(state, seat=0, outcome=None, game="condottiere"):
    rules = CONDOTTIERE
    return TableView(game=game, seat=seat, names=tuple(rules.seat_names[: state.players]),
                     state=state, actor=rules.current_player(state), legal=(), log=(),
                     outcome=outcome)


async def test_the_hand_title_says_1_card(ui, still):
    s = position(hands=["O5 O9", "", "", ""])
    app = still.app(still.client("medici", s, action("court", 0, "O9"), 0))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "Your hand (Orsini, 1 card)" in ui.text(app)


async def test_choosing_the_next_battle_names_the_battle_to_come_not_the_last_region(ui, still):
    s = battle(2, lines=[["Mercenary 5"], ["Mercenary 3"]],
               hands=[["Mercenary 2"], ["Heroine", "Mercenary 1"]], battle="Parma", passed=[1, 0],
               holder=0, turn=1, battles=2)
    passing = next(a for a in CONDOTTIERE.legal_actions(s) if a.kind == "pass")
    client = still.client("condottiere", s, passing, 0)
    assert client.state.phase == "place"
    app = still.app(client)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        status = str(app.screen.query_one("#status", Static).content)
        assert "choosing the region of battle 4" in status
        assert "Parma" not in status
        assert app.screen.query_one("#players-box").border_title == "Choosing the region of battle 4"


def test_the_header_counts_the_battles_the_end_screen_counts():
    s = battle(2, owner={"Torino": 0, "Milano": 0, "Genova": 0, "Parma": 0}, battle=None,
               phase="over", battles=7, winners=(0,), end="adjacent", won_by="adjacent")
    view = _view(s, outcome=CONDOTTIERE.outcome(s))
    table = CondottiereTable(None)
    assert "game over after 7 battles" in table.status_text(view)
    words = table.end_words(view)
    assert words[1] == "after 7 battles"
    text = result_text(view, *words).plain
    assert "The game ended after 7 battles" in text
    assert "4 regions" in text and "0 regions" in text


def test_a_score_of_1_region_is_singular_on_the_end_screen():
    s = battle(2, owner={"Torino": 0, "Milano": 0, "Genova": 0, "Parma": 0, "Roma": 1},
               battle=None, phase="over", battles=1, winners=(0,), end="adjacent", won_by="adjacent")
    view = _view(s, outcome=CONDOTTIERE.outcome(s))
    text = result_text(view, *CondottiereTable(None).end_words(view)).plain
    assert "after 1 battle:" in text
    assert "   1 region" in text and "1 regions" not in text


def test_the_condottiere_end_screen_names_the_winner_and_the_regions_that_won():
    s = battle(2, owner={"Torino": 0, "Milano": 0, "Genova": 0, "Parma": 0}, battle=None,
               phase="over", battles=7, winners=(0,), end="adjacent", won_by="adjacent")
    text = result_text(_view(s, outcome=CONDOTTIERE.outcome(s)),
                       *CondottiereTable(None).end_words(_view(s))).plain
    assert "The game ended after 7 battles: Red holds 4 adjacent regions." in text
    assert "a player holds" not in text
    six = {r: 1 for r in ("Torino", "Parma", "Roma", "Napoli", "Venezia", "Ancona")}
    s = battle(2, owner=six, battle=None, phase="over", battles=9, winners=(1,), end="regions",
               won_by="regions")
    text = result_text(_view(s, outcome=CONDOTTIERE.outcome(s)),
                       *CondottiereTable(None).end_words(_view(s))).plain
    assert "The game ended after 9 battles: Blue holds 6 regions." in text


def _pass_label(s, seat):
    view = TableView(game="condottiere", seat=seat, names=("Red", "Blue"), state=s,
                     actor=seat, legal=tuple(CONDOTTIERE.legal_actions(s)), log=())
    q = condottiere_choices.question(view, view.legal, ())
    return q.prompt, [c.label for c in q.choices if c.label.startswith("Pass")][0]


def test_the_defenders_pass_is_worded_as_the_prompt_says_not_final():
    config = CondottiereConfig(2, capturing_regions=True)
    s = battle(2, config=config, owner={"Parma": 1}, battle="Parma", holder=0, turn=1,
               hands=[["Mercenary 2"], ["Mercenary 3"]], lines=[["Mercenary 5"], []])
    prompt, label = _pass_label(s, 1)
    assert "may pass and still play later" in prompt
    assert label == "Pass for now: as the defender you may still play later"
    prompt, label = _pass_label(battle(2, hands=[["Mercenary 2"], ["Mercenary 3"]]), 0)
    assert label == "Pass: play no more cards in this battle"
    assert "still play later" not in prompt


class EndApp(App):
    def __init__(self, view, choices, rematch=None):
        super().__init__()
        self.view, self.choices, self.result = view, choices, "not yet"
        self.rematch = rematch

    def on_mount(self):
        def done(result):
            self.result = result

        self.push_screen(EndScreen(self.view, choices=self.choices, rematch=self.rematch), done)


class AskedRematch:
    """A networked game's rematch that records the ask (``tui.screens.end.Rematch``)."""

    def __init__(self):
        self.asked = 0

    def again(self):
        self.asked += 1

    def rematch_status(self):
        return ("Play again: 1 of 3 agreed; waiting for Bo and Jo", False) if self.asked else None


def _over():
    s = battle(2, owner={"Torino": 0, "Milano": 0, "Genova": 0, "Parma": 0}, battle=None,
               phase="over", battles=3, winners=(0,), end="adjacent", won_by="adjacent")
    return _view(s, outcome=CONDOTTIERE.outcome(s))


def _buttons(app):
    return [str(b.label) for b in app.screen.query(Button)]


async def test_a_local_end_screen_offers_play_again_and_quit_palazzo():
    app = EndApp(_over(), PalazzoApp().end_choices())
    async with app.run_test() as pilot:
        await pilot.pause()
        assert _buttons(app) == ["Play again (a)", "New game (n)", "Table (t)", "Quit palazzo (q)"]
        await pilot.press("a")
        await pilot.pause()
        assert app.result == "again"


async def test_a_networked_end_screen_asks_for_a_rematch_and_names_the_start_screen():
    host = PalazzoApp()
    host.net = object()  # a networked game started from the host or join form
    rematch = AskedRematch()
    app = EndApp(_over(), host.end_choices(), rematch)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert _buttons(app) == ["Play again (a)", "Start screen (n)", "Table (t)",
                                 "Quit palazzo (q)"]
        await pilot.press("a")
        await pilot.press("a")  # asked once
        await pilot.pause()
        assert app.result == "not yet" and isinstance(app.screen, EndScreen)  # it stays
        assert rematch.asked == 1 and app.screen.query_one("#again").disabled
        await pilot.press("n")
        await pilot.pause()
        assert app.result == "new"


async def test_the_end_screen_of_palazzo_host_or_join_offers_a_rematch_or_leaving():
    app = EndApp(_over(), NetApp.end_choices(None), AskedRematch())
    async with app.run_test() as pilot:
        await pilot.pause()
        assert _buttons(app) == ["Play again (a)", "Table (t)", "Leave (q)"]
        await pilot.press("n")
        await pilot.pause()
        assert app.result == "not yet"


async def test_the_tables_q_key_is_named_leave(ui, still):
    s = position(hands=["O5 O9", "", "", ""])
    app = still.app(still.client("medici", s, action("court", 0, "O9"), 0))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        text = ui.text(app)
        assert "q Leave" in text and "q Quit" not in text


def test_hidden_cards_shows_the_strength_everyone_sees_and_the_seats_own():
    config = CondottiereConfig(2, hidden_cards=True)
    s = battle(2, config=config, lines=[["Mercenary 6", "~Mercenary 10"], ["Mercenary 5"]])
    mine = condottiere_render.players_text(CONDOTTIERE.view(s, 0), 0, ("Red", "Blue"), 0).plain
    assert "Red  strength  6 (16 with your face-down)" in mine
    assert "(10)" in mine
    theirs = condottiere_render.players_text(CONDOTTIERE.view(s, 1), 1, ("Red", "Blue"), 0).plain
    assert "Red  strength  6" in theirs and "16" not in theirs and "##" in theirs


def test_without_face_down_cards_the_strength_is_said_once():
    s = battle(2, lines=[["Mercenary 6", "Mercenary 10"], ["Mercenary 5"]])
    mine = condottiere_render.players_text(s, 0, ("Red", "Blue"), 0).plain
    assert "strength 16" in mine and "face-down" not in mine


def test_the_hidden_cards_legend_says_what_the_marks_are():
    config = CondottiereConfig(2, hidden_cards=True)
    legend = condottiere_render.goal_text(battle(2, config=config))
    assert "##: a face-down card, (6): your own" in legend
    assert "##" not in condottiere_render.goal_text(battle(2))


def test_the_legend_names_the_region_the_last_move_touched():
    parma = ("region", 5)
    assert condottiere_render.goal_text(battle(2), frozenset({parma})).endswith(
        "*: the last move (at Parma)")
    assert condottiere_render.goal_text(battle(2)).endswith("*: the last move")


def test_a_long_battle_line_wraps_under_its_first_card_within_the_width():
    cards = ["Heroine", "Courtesan", "Courtesan", "Drummer", "Drummer", "Mercenary 4"]
    s = battle(2, lines=[cards, ["Mercenary 5"]])
    text = condottiere_render.players_text(s, 0, ("Red", "Blue"), 0, width=44).plain
    rows = text.splitlines()
    assert all(len(row) <= 44 for row in rows)
    first = rows.index("    Heroine  Courtesan  Courtesan  Drummer")
    assert rows[first + 1] == "    Drummer  4"


async def test_the_table_help_names_the_pane_keys_once_and_clicks_as_select_then_choose(ui):
    app = PalazzoApp(GameSetup(bots=("greedy",), seed=21, pace=0), play=True)
    async with app.run_test(size=(80, 70)) as pilot:  # narrow: every pane shown, no pane keys
        await ui.until(pilot, lambda: ui.asking(app), what="the first question")
        await pilot.press("question_mark")
        await ui.until(pilot, lambda: type(app.screen).__name__ == "HelpScreen", what="the help")
        await pilot.pause()
        text = ui.text(app)
        assert "show the next pane" not in text and not re.search(r"left/right +Pane", text)
        assert "to select it and again to choose it" in text


def test_the_possessive_of_a_shortened_long_name_is_its_seats():
    from tui.names import possessive, short_name

    long = short_name("Red (Alexandra Konstantinopoulou)")
    assert long.endswith("…)") and possessive(long) == "Red's"
    assert possessive("Colonna") == "Colonna's" and possessive("Red (Ada)") == "Red's"


def test_the_header_says_the_length_of_a_court_of_the_medici_game():
    """The reading of the end rule a game is played under is always said: "full game" by
    default, "short game" with the option; Condottiere without options says none."""
    from engine.registry import get_game
    from tui.names import options_words, setting_words

    medici = get_game("medici").rules
    full = options_words(medici, medici.make_config(4, {}))
    short = options_words(medici, medici.make_config(4, {"short_game": True}))
    assert full == ["full game"] and short == ["short game"]
    assert "| full game |" in setting_words("Court of the Medici", "Orsini", full, ["easy"] * 3)
    condottiere = get_game("condottiere").rules
    assert options_words(condottiere, condottiere.make_config(3, {})) == []
