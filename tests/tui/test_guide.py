"""The guide: a first game on a fixed deal that waits for the reader. A note over the table
says what the game is about, then explains each kind of move (and each special card) once, when
it first becomes possible, in the words of the player rules; ``i`` shows the notes again. And
the bell on the seat's turn."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tui.app import PalazzoApp
from tui.guide import RULE_FOR, Guide, GuideNote, guide_setup, paragraphs
from tui.screens.end import EndScreen
from tui.setup import GameSetup


@pytest.fixture
def profile(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))


def test_every_medici_move_is_explained_from_the_rules():
    rules = paragraphs("medici")
    for kind, name in RULE_FOR["medici"].items():
        assert len(rules[name]) > 20, kind


def test_each_kind_of_move_is_explained_once_when_it_becomes_legal():
    from tui.setup import make_client

    view = make_client(guide_setup("medici")).snapshot()
    guide = Guide("medici")
    assert guide.news((), True) == []
    legal = view.legal
    assert guide.news(legal, False) == []  # not the seat's turn: nothing yet
    told = guide.news(legal, True)
    assert [title for title, _ in told] == ["Hidden cards"]
    assert "face down" in told[0][1]
    assert guide.news(legal, True) == []  # once


def test_condottiere_cards_are_explained_by_their_own_paragraph():
    from engine.condottiere.cards import NAMES

    guide = Guide("condottiere")

    class Play:
        kind = "play"

        def __init__(self, card):
            self.card = card

    scarecrow = NAMES.index("Scarecrow")
    heroine = NAMES.index("Heroine")
    told = guide.news((Play(scarecrow), Play(heroine), Play(scarecrow)), True)
    assert told[0] == ("Scarecrow", "take one of your mercenaries from your line back into your hand.")
    assert told[1] == ("Heroine (strength 10)", "nothing changes her.")
    assert len(told) == 2


def test_there_is_no_guide_for_an_unknown_game():
    with pytest.raises(ValueError):
        guide_setup("chess")


async def _walk(ui, pilot, app, until):
    """Play the guided game by the first answer, closing each note (Enter) and keeping what it
    said and what the seat could do then, until ``until(seen)`` or the game's end."""
    seen: list[tuple[list[str], str, set[str]]] = []
    for _ in range(4000):
        await pilot.pause(0.01)
        screen = app.screen
        if isinstance(screen, GuideNote):
            table = app.screen_stack[-2]
            kinds = {getattr(a, "kind", "") for a in table.view.legal}
            title = screen.notes[0][0]
            await ui.until(pilot, lambda title=title: title in ui.text(app),
                           what="the note drawn")  # a loaded machine draws it a moment later
            seen.append(([t for t, _ in screen.notes], ui.text(app), kinds))
            await pilot.press("enter")
            await ui.until(pilot, lambda: not isinstance(app.screen, GuideNote), what="the note closed")
            if until(seen):
                return seen
            continue
        if isinstance(screen, EndScreen):
            return seen
        if ui.asking(app):
            app._guide_tick()  # the guide's timer, ticked now: a question is never answered
            await pilot.pause()  # before the guide has looked at it (a person is not so quick)
            if isinstance(app.screen, GuideNote):
                continue
            await pilot.press(screen._question.keys()[0])
    raise AssertionError(f"the guided game did not get there: {seen}")


async def test_the_guide_walks_a_first_medici_game_at_80x24(ui, profile):
    """The welcome before the first answer; then each kind of move, each special card and the
    parts of the table in a note when they first matter, the game waiting for Enter."""
    app = PalazzoApp(replace(guide_setup("medici"), pace=0), play=True, guide=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ui.until(pilot, lambda: isinstance(app.screen, GuideNote), what="the first note")
        note = app.screen
        assert [t for t, _ in note.notes] == ["Welcome to Court of the Medici", "How the guide goes",
                                              "Hidden cards"]
        table = app.screen_stack[-2]
        steps = table.view.steps
        await ui.until(pilot, lambda: "Enter: back to the table" in ui.text(app),
                       what="the note drawn")
        await pilot.pause(0.3)
        assert app.screen is note and table.view.steps == steps  # the game waits for the reader
        told: list[str] = []
        seen = await _walk(ui, pilot, app, lambda seen: "Minister (two, worth 0)" in seen[-1][0])
        for titles, _, kinds in seen:
            told += titles
            for kind, name in RULE_FOR["medici"].items():
                if name.rstrip(".") in titles:
                    assert kind in kinds, f"{name} explained while it was not a legal move"
        for name in RULE_FOR["medici"].values():
            assert told.count(name.rstrip(".")) == 1, name  # every kind of move, once
        for part in ("Court", "Houses", "Your move"):
            assert told.count(f"On the table: {part}") == 1
        for card in ("Jester", "Duke", "Lady-in-Waiting", "Minister"):
            assert sum(t.startswith(card + " (") for t in told) == 1, card
        # i: every note so far, again
        await pilot.press("i")
        await ui.until(pilot, lambda: isinstance(app.screen, GuideNote), what="the notes again")
        assert [t for t, _ in app.screen.notes] == told
        await pilot.press("escape")
        await ui.until(pilot, lambda: not isinstance(app.screen, GuideNote), what="the table")


async def test_the_guide_walks_a_first_condottiere_game(ui, profile):
    app = PalazzoApp(replace(guide_setup("condottiere"), pace=0), play=True, guide=True)
    async with app.run_test(size=(120, 40)) as pilot:
        seen = await _walk(ui, pilot, app, lambda seen: len(seen) >= 2)
        first, second = seen[0][0], seen[1][0]
        assert first[:2] == ["Welcome to Condottiere", "How the guide goes"]
        assert "Choosing the battle" in first and "On the table: Map" in first
        assert "place" in seen[0][2]
        assert "Passing" in second and "Mercenary 1, 2, 3, 4, 5, 6 and 10" in second
        assert "Scarecrow" in second and "take one of your mercenaries" in seen[1][1]  # its words


async def test_i_without_a_guide_says_what_the_guide_is(ui, profile):
    app = PalazzoApp(GameSetup(game="condottiere", players=3, bots=("greedy",), seed=4, pace=0),
                     play=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the first question")
        await pilot.press("i")
        await ui.until(pilot, lambda: any("palazzo guide" in n.message for n in app._notifications),
                       what="the note")
        assert not isinstance(app.screen, GuideNote)


async def test_guide_on_the_start_screen_opens_a_guided_game(ui, profile):
    app = PalazzoApp(GameSetup(seed=1, pace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f7")
        await ui.until(pilot, lambda: isinstance(app.screen, GuideNote), what="the guide's note")
        assert app.screen_stack[-2].client.seed == guide_setup("medici").seed
        await ui.until(pilot, lambda: "Welcome to Court of the Medici" in ui.text(app),
                       what="the note drawn")


@pytest.mark.parametrize("on", [False, True])
async def test_the_bell_rings_on_your_turn_only_when_set(ui, profile, monkeypatch, on):
    from tui import settings

    assert settings.get("bell") is False  # off by default
    if on:
        settings.save(bell=True)
    app = PalazzoApp(GameSetup(game="condottiere", players=3, bots=("greedy",), seed=4, pace=0),
                     play=True)
    rung = []
    monkeypatch.setattr(app, "bell", lambda: rung.append(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the first question")
        await pilot.pause()
    assert (len(rung) >= 1) is on


async def test_the_bell_is_a_command_in_the_palette_and_is_kept(ui, profile):
    from tui import settings

    app = PalazzoApp(GameSetup(seed=1, pace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Bell on your turn: turn on" in titles
        app.toggle_bell()
        await pilot.pause()
    assert settings.get("bell") is True
