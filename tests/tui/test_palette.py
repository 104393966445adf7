"""The players' colours: readable on every theme offered, in true colour, in 256 colours and
under NO_COLOR; distinct under the three colour blindnesses; named right in 16 colours."""

from __future__ import annotations

import pytest
from textual.theme import BUILTIN_THEMES

from tui import palette
from tui.palette import (
    ANSI_NAME,
    BLACK_ON,
    BLACK_ON_16,
    COLOURS,
    COLOURS_16,
    CVD,
    HOUSES,
    MIN_CONTRAST,
    MIN_DISTANCE,
    SEATS,
    ansi_name,
    contrast,
    in_256,
    least_distance,
    monochrome,
    offered_themes,
    rgb,
    theme_backgrounds,
)

OFFERED = offered_themes(BUILTIN_THEMES)


def test_the_default_theme_and_several_others_are_offered():
    assert "textual-dark" in OFFERED and len(OFFERED) >= 5


def test_light_themes_and_the_terminals_own_colours_are_not_offered():
    assert "textual-light" not in OFFERED and "textual-ansi" not in OFFERED


@pytest.mark.parametrize("theme", sorted(OFFERED))
@pytest.mark.parametrize("seat", SEATS[:-1])
def test_every_seat_colour_has_a_contrast_of_4_5_on_every_offered_theme(theme, seat):
    for back in theme_backgrounds(OFFERED[theme]):
        assert contrast(rgb(COLOURS[seat]), rgb(back)) >= MIN_CONTRAST
        assert contrast(in_256(COLOURS[seat]), in_256(back)) >= MIN_CONTRAST


def test_the_seat_colours_are_the_same_in_256_colours():
    for hex_colour in COLOURS.values():
        assert in_256(hex_colour) == rgb(hex_colour)
    assert contrast((0, 0, 0), in_256(BLACK_ON)) >= 7  # a grey a step darker: still the chip


def test_the_black_seat_is_black_letters_on_a_chip_that_reads():
    assert contrast((0, 0, 0), rgb(BLACK_ON)) >= 7 and contrast((0, 0, 0), rgb(BLACK_ON_16)) >= 7
    # and the chip stands out from the background
    assert contrast(rgb(BLACK_ON), rgb(theme_backgrounds(OFFERED["textual-dark"])[0])) >= 3


@pytest.mark.parametrize("seat", SEATS)
def test_your_own_seat_is_legible_under_no_color(seat):
    """NO_COLOR: Textual draws every colour in its grey; each seat's grey still reads on the
    default theme's background greyed the same way (not grey 237 on 233)."""
    back = monochrome(rgb(theme_backgrounds(OFFERED["textual-dark"])[0]))
    if seat == "Black":
        assert contrast(monochrome((0, 0, 0)), monochrome(rgb(BLACK_ON))) >= MIN_CONTRAST
    else:
        assert contrast(monochrome(rgb(COLOURS[seat])), back) >= MIN_CONTRAST


@pytest.mark.parametrize("kind", [None, *CVD])
def test_the_seat_colours_stay_distinct_under_each_colour_blindness(kind):
    d, a, b = least_distance(kind)
    assert d >= MIN_DISTANCE, f"{a} and {b} are {d:.1f} apart under {kind}"
    d, a, b = least_distance(kind, HOUSES)
    assert d >= MIN_DISTANCE, f"{a} and {b} are {d:.1f} apart under {kind}"


def test_the_simulation_makes_red_and_green_alike_for_a_deuteranope():
    """The measure can fail: pure red and a green of the same lightness come close."""
    from tui.palette import distance, simulate
    red, green = (200, 60, 60), (90, 130, 40)
    assert distance(red, green) > 40
    assert distance(simulate(red, "deuteranopia"), simulate(green, "deuteranopia")) < 15


@pytest.mark.parametrize("seat", SEATS)
def test_in_16_colours_each_name_is_drawn_in_its_colour(seat):
    if seat == "Black":
        assert ansi_name(BLACK_ON_16) == "white"  # black letters on white
        assert "#000000 on" in palette.seat_style(seat, "16")
    else:
        assert ansi_name(COLOURS_16[seat]) == ANSI_NAME[seat]
        assert COLOURS_16[seat] in palette.seat_style(seat, "16")


def test_red_and_purple_are_never_drawn_alike():
    for mode in ("full", "16"):
        assert palette.seat_style("Red", mode) != palette.seat_style("Purple", mode)
    assert ansi_name(COLOURS_16["Red"]) != ansi_name(COLOURS_16["Purple"])


def test_the_tables_draw_in_the_colours_the_terminal_has():
    from tui.condottiere.regions import SEAT_STYLE
    from tui.medici.render import HOUSE_STYLE
    try:
        palette.use("standard")
        assert SEAT_STYLE[3] == f"bold {COLOURS_16['Yellow']}"
        assert HOUSE_STYLE[2] == f"bold {COLOURS_16['Yellow']}"  # Delle Rovere
        palette.use("256")
        assert SEAT_STYLE[3] == f"bold {COLOURS['Yellow']}"
    finally:
        palette.use("truecolor")


async def test_ctrl_p_opens_the_command_palette_at_the_table_and_escape_returns(ui, tmp_path,
                                                                                monkeypatch):
    from textual.command import CommandPalette

    from tui.app import PalazzoApp
    from tui.setup import GameSetup
    from tui.table import TableScreen

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    app = PalazzoApp(GameSetup(game="condottiere", players=3, seed=4, pace=0), play=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ui.until(pilot, lambda: ui.asking(app), what="the seat's first question")
        table = app.screen
        await pilot.press("ctrl+p")
        await ui.until(pilot, lambda: isinstance(app.screen, CommandPalette), what="the palette")
        await pilot.press("escape")
        await ui.until(pilot, lambda: app.screen is table, what="the table again")
        assert isinstance(app.screen, TableScreen) and ui.asking(app)


async def test_a_theme_chosen_is_one_offered_and_is_kept_for_next_time(tmp_path, monkeypatch):
    from tui import settings
    from tui.app import PalazzoApp
    from tui.setup import GameSetup

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    app = PalazzoApp(GameSetup(seed=1, pace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        assert set(app.available_themes) == set(OFFERED)
        app.theme = "dracula"
        await pilot.pause()
    assert settings.get("theme") == "dracula"
    again = PalazzoApp(GameSetup(seed=1, pace=0))
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.theme == "dracula"
