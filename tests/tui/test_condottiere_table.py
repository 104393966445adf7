"""A whole game of Condottiere played through the screen, by keyboard, against bots: the map,
the battle lines, the questions of a turn, the end screen."""

from __future__ import annotations

from engine.condottiere import RULES  # noqa: E402
from engine.condottiere.cards import REGIONS
from engine.core import UNKNOWN  # noqa: E402
from tui.app import PalazzoApp  # noqa: E402
from tui.condottiere import regions
from tui.condottiere.table import CondottiereTable  # noqa: E402
from tui.screens.end import EndScreen  # noqa: E402
from tui.setup import GameSetup  # noqa: E402


def _choose(question) -> int:
    """The test's player: plays its first card rather than pass, else takes the first answer."""
    labels = [c.label for c in question.choices]
    if labels[0].startswith("Pass") and len(labels) > 1:
        return 1
    return 0


async def _play_to_end(ui, pilot, app, seen_phases, checks=None):
    table = app.screen
    for _ in range(3000):
        await ui.until(pilot, lambda: ui.asking(app) or isinstance(app.screen, EndScreen),
                       what="a decision")
        if isinstance(app.screen, EndScreen):
            return table
        seen_phases.add(table.view.state.phase)
        if checks:
            checks(table)
        await pilot.press(str(_choose(table._question) + 1))
    raise AssertionError("the game did not end")


async def test_a_whole_game_of_condottiere_by_keyboard(ui):
    setup = GameSetup(bots=("greedy",), game="condottiere", players=3, seed=8, pace=0)
    app = PalazzoApp(setup, play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the first decision")
        table = app.screen
        assert isinstance(table, CondottiereTable)
        text = ui.text(app)
        assert "Your hand (Red, 10 cards)" in text
        assert "Map" in text and "Napoli" in text and "Torino" in text
        assert "To win: 6 regions, or 4 adjacent ones." in text
        phases: set[str] = set()
        starred = []

        def check(t):
            s = t.view.state
            marked = regions.marked_regions(t.view.marks)
            if marked:  # the last move's regions carry a star on the map
                text = ui.text(app)
                for r in marked:
                    label = regions.region_label(s, r) + "*"
                    if regions.PLACES[REGIONS[r]][0] + len(label) <= regions.MAP_WIDTH:
                        assert label in text, label
                unmarked = [regions.region_label(s, r) + "*" for r in range(len(REGIONS))
                            if r not in marked]
                assert not any(label in text for label in unmarked)
                starred.append(marked)
            for q in range(1, 3):
                assert all(c == UNKNOWN for c in s.hands[q]), "another player's hand was shown"
            if s.phase == "play" and not t.path:
                assert "or pass?" in ui.text(app) or "you defend" in ui.text(app)
                assert f"Battle {s.battles + 1} for" in ui.text(app) or s.final

        await _play_to_end(ui, pilot, app, phases, check)
        assert {"play"} <= phases and starred
        outcome = table.view.outcome
        assert outcome is not None and outcome == RULES.outcome(table.client._local.state)
        text = ui.text(app)
        assert "Game over" in text
        assert any(table.view.names[w] in text for w in outcome.winners)
        assert any(line.startswith("End of the battle for") for line in table.view.log)
        assert "The game ends:" in table.view.log[-1]
        # the header says the game is over, and after how many battles, not the last battle's
        status = str(table.query_one("#status").render())
        battles = outcome.detail["battles"]
        assert status.endswith(f"won | game over after {battles} battles"), status
        assert "for " not in status


async def test_at_80x24_the_regions_in_a_few_lines_beside_the_battle_and_the_hand(ui):
    app = PalazzoApp(GameSetup(bots=("greedy",), game="condottiere", players=4, seed=2, pace=0), play=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the first decision")
        text = ui.text(app)
        assert "Regions and their neighbours" not in text and "─Regions (R: Red's)" in text
        assert "17 of 17 regions free" in text
        assert "─Your hand" in text and "battle 1" in text.lower()
        for name in app.screen.view.names:  # every seat's line in the battle
            assert name in text
        assert "Your move" in text and app.screen._question.prompt in text  # the move box is still there


def test_the_regions_summary_names_the_battle_the_pope_and_each_holders_regions():
    s = RULES.new_game()
    milano, parma, roma = (REGIONS.index(r) for r in ("Milano", "Parma", "Roma"))
    s.owner = tuple(0 if r in (milano, parma) else 2 if r == roma else -1 for r in range(len(REGIONS)))
    s.battle, s.favor = REGIONS.index("Firenze"), REGIONS.index("Napoli")
    text = regions.regions_summary(s, frozenset({parma})).plain.splitlines()
    assert text == ["Battle: Firenze  Pope: Napoli", "R: Milano Parma*", "G: Roma",
                    "14 of 17 regions free"]


async def test_a_bishop_asks_where_the_pope_goes(ui):
    """Hidden cards and every variant: the questions that follow a card are asked in turn."""
    options = (("hidden_cards", True), ("capturing_regions", True), ("draw_after_battle", True))
    app = PalazzoApp(GameSetup(bots=("greedy",), game="condottiere", players=2, seed=4, pace=0, options=options),
                     play=True)
    asked = set()
    async with app.run_test(size=(120, 40)) as pilot:
        table = None
        for _ in range(2000):
            await ui.until(pilot, lambda: ui.asking(app) or isinstance(app.screen, EndScreen),
                           what="a decision")
            if isinstance(app.screen, EndScreen):
                break
            table = app.screen
            q = table._question
            asked.add(q.field)
            bishop = [i for i, c in enumerate(q.choices) if c.label.startswith("Bishop")]
            if bishop:
                await pilot.press(str(bishop[0] + 1))
                await pilot.pause()
                assert "Where does the Favor of the Pope go?" in ui.text(app)
                assert "Off the board" in ui.text(app)
                return
            await pilot.press(str(_choose(q) + 1))
    raise AssertionError(f"no Bishop came to hand; asked {asked}")


async def test_resizing_switches_between_the_map_and_the_list(ui):
    app = PalazzoApp(GameSetup(bots=("greedy",), game="condottiere", players=4, seed=2, pace=0), play=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the first decision")
        assert "[x] battle here" in ui.text(app) and "Regions and their neighbours" not in ui.text(app)
        await pilot.resize_terminal(70, 24)
        await ui.until(pilot, lambda: "regions free" in ui.text(app), what="the regions' summary")
        assert "Your move" in ui.text(app) and "1-9 Choose" in ui.text(app)
        await pilot.resize_terminal(120, 40)
        await ui.until(pilot, lambda: "[x] battle here" in ui.text(app), what="the map")


def test_the_last_moves_regions_are_starred_on_every_map():
    parma, roma = REGIONS.index("Parma"), REGIONS.index("Roma")
    s = RULES.new_game()
    s.owner = tuple(1 if r == parma else -1 for r in range(len(REGIONS)))
    marks = frozenset({("region", parma), ("line", 1), ("card", 1, 0)})
    marked = regions.marked_regions(marks)
    assert marked == {parma}
    for draw in (regions.map_text, regions.compact_map_text, regions.regions_text):
        plain = draw(s)
        text = draw(s, marked)
        assert "Parma:B*" in text.plain and "Parma:B*" not in plain.plain
        assert text.plain.count("*") == 1 and "Roma*" not in text.plain
        start = text.plain.index("Parma:B*")
        styles = [span.style for span in text.spans if span.start <= start < span.end]
        assert any(getattr(st, "underline", False) for st in styles), draw.__name__
    assert "Roma*" in regions.compact_map_text(s, frozenset({roma})).plain


async def test_the_map_fits_its_box_as_the_waiting_line_comes_and_goes(ui):
    """The waiting line for a dropped player takes rows from the map: the list is drawn instead
    at once (not the map cut off until the next move); when the player is back and the line
    goes, the whole map is drawn again at once."""
    from net.session.features.presence import Presence, SeatPresence
    from tui.presence import PresenceLine

    class Source:
        player_names = ("Ann", "Jo", "Cy")
        rejoin_line = "palazzo join 127.0.0.1:27001 --code REED-BELL-HERON-7091"
        presence = None

        def set_away(self, flag):
            pass

    def presence(jo):
        return Presence(tuple(SeatPresence(s, 0.0) for s in ("here", jo, "here")), 1, 0.0, 170.0)

    app = PalazzoApp(GameSetup(bots=("greedy",), game="condottiere", players=3, seed=2, pace=0), play=True)
    async with app.run_test(size=(120, 32)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the first decision")
        assert "[x] battle here" in ui.text(app)  # the whole map
        line = app.screen.query_one(PresenceLine)
        line.source = src = Source()
        src.presence = presence("reconnecting")
        line.tick()
        await ui.until(pilot, lambda: "Waiting for Jo to come back" in ui.text(app), what="the wait")
        # not the map with its last rows cut off: what fits the smaller box
        box = app.screen.query_one("#map-box")
        await ui.until(pilot, lambda: box.virtual_size.height <= box.scrollable_content_region.height
                       or "Regions and their neighbours" in ui.text(app), what="what fits")
        src.presence = presence("here")
        line.tick()
        await ui.until(pilot, lambda: "[x] battle here" in ui.text(app), what="the whole map again")
