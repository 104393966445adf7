"""The guide: a first game on a fixed deal, each kind of move explained once, when it first
becomes possible, in the words of the player rules; and the bell on the seat's turn."""

from __future__ import annotations

import pytest

from tui.app import PalazzoApp
from tui.guide import RULE_FOR, Guide, guide_setup, paragraphs
from tui.setup import GameSetup


def _notes(app) -> list[str]:
    return [str(n.title) for n in app._notifications]


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
    assert told[1][0] == "Heroine (strength 10" + ")" and told[1][1] == "nothing changes her."
    assert len(told) == 2


def test_there_is_no_guide_for_an_unknown_game():
    with pytest.raises(ValueError):
        guide_setup("chess")


async def test_the_guide_explains_the_first_move_at_the_table(ui, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    app = PalazzoApp(guide_setup("medici"), play=True, guide=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the first question")
        await ui.until(pilot, lambda: "Guide: Hidden cards" in _notes(app), what="the guide's note")
        assert _notes(app).count("Guide: Hidden cards") == 1


async def test_guide_on_the_start_screen_opens_a_guided_game(ui, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    app = PalazzoApp(GameSetup(seed=1, pace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f7")
        await ui.until(pilot, lambda: ui.asking(app), what="the guided game")
        assert app.screen.client.seed == guide_setup("medici").seed
        await ui.until(pilot, lambda: "Guide: Hidden cards" in _notes(app), what="the guide's note")


@pytest.mark.parametrize("on", [False, True])
async def test_the_bell_rings_on_your_turn_only_when_set(ui, tmp_path, monkeypatch, on):
    from tui import settings

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
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


async def test_the_bell_is_a_command_in_the_palette_and_is_kept(ui, tmp_path, monkeypatch):
    from tui import settings

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    app = PalazzoApp(GameSetup(seed=1, pace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Bell on your turn: turn on" in titles
        app.toggle_bell()
        await pilot.pause()
    assert settings.get("bell") is True
