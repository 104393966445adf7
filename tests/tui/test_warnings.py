"""The warning line: shown when someone can end the game on their next turn, not otherwise, and
worded only from what the seat's view shows. Each test's name is the end condition it checks.
"""

from __future__ import annotations

from textual.widgets import Static

from engine.condottiere import RULES as CONDOTTIERE
from engine.condottiere.scenario import position as battle
from engine.condottiere.state import CondottiereConfig
from engine.medici import RULES as MEDICI
from engine.medici.scenario import action, position
from tui.condottiere.warning import warning as condottiere_warning
from tui.medici.warning import warning as medici_warning

NAMES4 = ("Orsini", "Colonna", "Delle Rovere", "Gonzaga")


def _rows(**left):
    """Every house's three default alliances, but ``left[house letter]`` of them for some."""
    rows = []
    for h, letter in enumerate("OCRG"):
        others = [p for p in "OCRG" if p != letter]
        row = [f"{letter}{k + 2}/{others[k]}{h + 6}" for k in range(3)]
        keep = left.get(letter, 3)
        rows.append(row[:keep] + [None] * (3 - keep))
    return rows


def _medici(s, seat=0):
    return medici_warning(MEDICI.view(s, seat), seat, NAMES4)


# -- Court of the Medici -------------------------------------------------------------------------


def test_a_house_at_its_last_shadow_alliance_is_announced():
    s = position(hands=["O5", "C5", "R5", "G5"], alliances=_rows(C=1))
    assert _medici(s) == "Colonna is at its last shadow alliance: its next strike ends the game."


def test_two_houses_at_their_last_shadow_alliance_are_named_in_one_sentence():
    s = position(hands=["O5", "C5", "R5", "G5"], alliances=_rows(C=1, R=1))
    assert _medici(s) == ("Colonna and Delle Rovere are each at their last shadow alliance: a "
                          "strike by either ends the game.")
    s = position(hands=["O5", "C5", "R5", "G5"], alliances=_rows(C=1, R=1, G=1))
    assert _medici(s) == ("Colonna, Delle Rovere and Gonzaga are each at their last shadow "
                          "alliance: a strike by any of them ends the game.")


def test_no_warning_while_every_house_holds_two_alliances_or_more():
    s = position(hands=["O5", "C5", "R5", "G5"], alliances=_rows(C=2, R=2))
    assert _medici(s) == ""


def test_with_end_when_all_struck_only_the_last_alliance_on_the_table_is_announced():
    s = position(hands=["O5", "C5", "R5", "G5"], alliances=_rows(O=0, C=1, R=0, G=1),
                 end_when_all_struck=True)
    assert _medici(s) == ""
    s = position(hands=["O5", "C5", "R5", "G5"], alliances=_rows(O=0, C=1, R=0, G=0),
                 end_when_all_struck=True)
    assert _medici(s) == "One shadow alliance is left, Colonna's: its strike ends the game."


def test_no_warning_during_the_set_up():
    s = position(hands=["O5", "C5", "R5", "G5"], alliances=_rows(C=1), phase="hide")
    assert _medici(s) == ""


def test_an_empty_deck_under_a_limit_is_announced_without_the_hand_it_hides():
    """The empty-deck end: Colonna's deck is empty with a limit of 4. Seat 0 cannot see whether
    Colonna holds a card it may play, so the warning is the same whichever hand it holds."""
    playable = position(hands=["O5", "C3 C9", "R5", "G5"], decks=[None, "", None, None],
                        limits=[None, 4, None, None])
    stuck = position(hands=["O5", "C8 C9", "R5", "G5"], decks=[None, "", None, None],
                     limits=[None, 4, None, None])
    said = _medici(playable)
    assert said == _medici(stuck)
    assert said == "Colonna's deck is empty: if it starts a turn with no card of 4 or less, the game ends."


def test_a_seat_with_no_card_it_may_play_is_told_its_turn_ends_the_game():
    s = position(hands=["O8 O9", "C3", "R5", "G5"], decks=["", None, None, None],
                 limits=[4, None, None, None], turn=1)
    assert _medici(s) == "You hold no card you may play: the game ends when your turn comes."
    s = position(hands=["O3 O9", "C3", "R5", "G5"], decks=["", None, None, None],
                 limits=[4, None, None, None], turn=1)
    assert _medici(s) == ""


def test_a_house_with_no_card_left_ends_the_game_when_its_turn_comes():
    s = position(hands=["O5", "", "R5", "G5"], decks=[None, "", None, None],
                 limits=[None, 4, None, None])
    assert _medici(s) == "Colonna has no card left: the game ends when its turn comes."


# -- Condottiere ---------------------------------------------------------------------------------


def _condottiere(s, seat=0, names=("Red", "Blue")):
    return condottiere_warning(CONDOTTIERE.view(s, seat), seat, names)


def test_a_player_one_region_from_the_total_is_announced():
    s = battle(2, owner={"Torino": 0, "Venezia": 0, "Napoli": 0, "Lucca": 0, "Ancona": 0},
               battle="Parma")
    assert _condottiere(s) == "Red holds 5 of 6 regions: one more wins the game."


def test_a_player_one_region_from_adjacent_regions_is_told_which_regions_win():
    s = battle(2, owner={"Torino": 1, "Milano": 1, "Genova": 1}, battle="Roma")
    assert _condottiere(s) == ("Blue is one region from 4 adjacent ones: Venezia, Mantova, "
                               "Parma or Modena wins the game.")


def test_no_warning_two_regions_from_any_victory():
    s = battle(2, owner={"Torino": 0, "Venezia": 0, "Napoli": 1, "Lucca": 1}, battle="Parma")
    assert _condottiere(s) == ""


def test_bigger_kingdoms_asks_one_more_adjacent_region_before_warning():
    owner = {"Torino": 1, "Milano": 1, "Genova": 1}
    s = battle(2, config=CondottiereConfig(2, bigger_kingdoms=True), owner=owner, battle="Roma")
    assert _condottiere(s) == ""


def test_playing_for_points_says_the_win_ends_one_game_of_the_match():
    s = battle(2, config=CondottiereConfig(2, playing_for_points=True),
               owner={"Torino": 0, "Venezia": 0, "Napoli": 0, "Lucca": 0, "Ancona": 0},
               battle="Parma")
    assert _condottiere(s) == "Red holds 5 of 6 regions: one more wins this game of the match."


def test_the_last_free_region_is_announced():
    regions = ["Torino", "Milano", "Venezia", "Genova", "Mantova", "Modena", "Ferrara", "Bologna",
               "Lucca", "Firenze", "Siena", "Urbino", "Spoleto", "Ancona", "Roma", "Napoli"]
    # a board all but full, held so that nobody is near a victory... which four players allow
    owner = {r: q for q, r in zip([0, 1, 2, 3] * 4, regions, strict=False)}
    s = battle(4, owner=owner, battle="Parma")
    said = _condottiere(s, names=("Red", "Blue", "Green", "Yellow"))
    assert said.endswith("Parma is the last free region: if it is conquered, the game ends: "
                         "the most regions wins.")


def test_no_warning_in_the_final_battle():
    s = battle(2, owner={"Torino": 0, "Venezia": 0, "Napoli": 0, "Lucca": 0, "Ancona": 0},
               battle=None, final=1, fighters=(0, 1))
    assert _condottiere(s) == ""


# -- on the table --------------------------------------------------------------------------------


async def test_the_medici_table_shows_the_warning_line_when_due(ui, still):
    s = position(hands=["O5 O9", "C5", "R5", "G5"], alliances=_rows(C=1))
    app = still.app(still.client("medici", s, action("court", 0, "O9"), 0))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        warning = app.screen.query_one("#warning", Static)
        assert warning.display
        assert str(warning.content) == ("! Colonna is at its last shadow alliance: its next strike "
                                        "ends the game.")
        assert "! Colonna is at its last shadow alliance" in ui.text(app)


async def test_the_medici_table_has_no_warning_line_when_none_is_due(ui, still):
    s = position(hands=["O5 O9", "C5", "R5", "G5"])
    app = still.app(still.client("medici", s, action("court", 0, "O9"), 0))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert not app.screen.query_one("#warning", Static).display
        assert "ends the game" not in ui.text(app)


async def test_the_condottiere_table_shows_the_warning_line_when_due(ui, still):
    s = battle(2, owner={"Torino": 1, "Milano": 1, "Genova": 1}, battle="Roma",
               hands=[["Mercenary 2", "Mercenary 3"], ["Mercenary 4"]])
    play = next(a for a in CONDOTTIERE.legal_actions(s) if a.kind == "play")
    app = still.app(still.client("condottiere", s, play, 0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        warning = app.screen.query_one("#warning", Static)
        assert warning.display
        assert str(warning.content).startswith("! Blue is one region from 4 adjacent ones")
        assert "! Blue is one region from" in ui.text(app)


async def test_the_condottiere_table_has_no_warning_line_when_none_is_due(ui, still):
    s = battle(2, owner={"Torino": 1}, battle="Roma",
               hands=[["Mercenary 2", "Mercenary 3"], ["Mercenary 4"]])
    play = next(a for a in CONDOTTIERE.legal_actions(s) if a.kind == "play")
    app = still.app(still.client("condottiere", s, play, 0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert not app.screen.query_one("#warning", Static).display


def test_playing_for_points_says_when_the_win_would_also_end_the_match():
    """Six regions bring six points: with four already, a target of 10 is reached, of 11 not."""
    owner = {"Torino": 0, "Venezia": 0, "Napoli": 0, "Lucca": 0, "Ancona": 0}
    for target, words in ((10, "this game and the match"), (11, "this game of the match")):
        config = CondottiereConfig(2, playing_for_points=True, target_score=target)
        s = battle(2, config=config, owner=owner, battle="Parma", points=(4, 0))
        assert _condottiere(s) == f"Red holds 5 of 6 regions: one more wins {words}."


def test_a_connected_win_counts_its_bonus_toward_the_match():
    """Three connected regions and one more joining them: 4 points and the bonus of 5."""
    owner = {"Torino": 1, "Milano": 1, "Genova": 1}
    config = CondottiereConfig(2, playing_for_points=True, target_score=10)
    s = battle(2, config=config, owner=owner, battle="Roma", points=(0, 1))
    assert _condottiere(s).endswith("Parma or Modena wins this game and the match.")
    s = battle(2, config=config, owner=owner, battle="Roma", points=(0, 0))
    assert _condottiere(s).endswith("Parma or Modena wins this game of the match.")


def test_the_last_battle_of_the_long_war_is_announced():
    from engine.condottiere.measures import MAX_BATTLES

    s = battle(2, battle="Parma", battles=MAX_BATTLES - 1)
    assert _condottiere(s) == (f"Battle {MAX_BATTLES} is the last of the long war: after it, the "
                               "most regions wins.")
    assert _condottiere(battle(2, battle="Parma", battles=MAX_BATTLES - 2)) == ""


async def test_at_80x24_a_two_line_warning_hides_no_house_and_not_the_hand(ui, still):
    """The whole table at 80x24 with the longest warning (two houses at their last shadow
    alliance, and one of them the seat's own): every house, with its alliances, and the hand."""
    s = position(hands=["O5 O9 O3", "C5", "R5", "G5"], alliances=_rows(O=1, C=1, R=1))
    app = still.app(still.client("medici", s, action("court", 0, "O9"), 0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        warning = app.screen.query_one("#warning", Static)
        assert warning.display and warning.size.height >= 1
        text = ui.text(app)
        assert "! " in text
        for house in ("Orsini", "Colonna", "Delle Rovere", "Gonzaga"):
            assert house in text, f"{house} hidden at 80x24:\n{text}"
        assert len([line for line in text.splitlines() if line.startswith(" ! ") or
                    "ends the game" in line]) == 2  # the warning takes its two lines
        assert "Your hand" in text and "Noble 3  Noble 5" in text
        assert "3/?Col  4/?Rov" in text  # the last house's alliances are drawn
