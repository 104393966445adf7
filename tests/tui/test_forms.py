"""The host and join forms as a person types into them: Enter moves on and goes ahead only from
the last field, the host form keeps its values, the join form takes the host's whole line, and
after an error the focus is on the field at fault."""

from __future__ import annotations

import pytest

import tui.netgame
from tui.app import PalazzoApp
from tui.screens.network import HostScreen, JoinScreen, parse_join_line
from tui.screens.start import StartScreen
from tui.setup import GameSetup


@pytest.fixture
def no_network(monkeypatch):
    """Record what the forms would start instead of starting it."""
    started = []

    def host(settings):
        started.append(settings)
        raise ValueError("not in this test")

    def join(host_, port, code, name, identity=None, host_fingerprint=None):
        started.append((host_, port, code, name))
        raise ValueError("not in this test")

    monkeypatch.setattr(tui.netgame, "host_net", host)
    monkeypatch.setattr(tui.netgame, "join_net", join)
    return started


@pytest.mark.long
async def test_enter_in_a_host_field_moves_on_and_hosts_only_from_the_last(no_network):
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.press("f3")
        form = app.screen
        assert isinstance(form, HostScreen)
        form.query_one("#port").focus()
        await pilot.press("enter")
        assert no_network == [] and app.focused is form.query_one("#bind")
        await pilot.press(*"127.0.0.1", "enter")  # an address typed: still nothing hosted
        assert no_network == [] and app.focused is not form.query_one("#bind")
        form.query_one("#name").focus()
        await pilot.press("enter")  # the last field
        assert len(no_network) == 1 and no_network[0].bind == "127.0.0.1"


@pytest.mark.long
async def test_the_host_form_keeps_its_values_when_you_come_back(no_network):
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.press("f3")
        form = app.screen
        form.query_one("#game").value = "condottiere"
        await pilot.pause()
        form.query_one("#players").value = 5
        await pilot.pause()
        form.query_one("#bots").value = 2
        form.query_one("#bot").value = "hard"
        form.query_one("#opt-hidden_cards").value = True
        form.query_one("#port").value = "7400"
        form.query_one("#bind").value = "10.0.0.2"
        form.query_one("#open").value = True
        form.query_one("#timeout").value = 120
        await pilot.pause()
        form.query_one("#on-timeout").value = "bot"
        form.query_one("#name").value = "Ada"
        await pilot.pause()
        wanted = form.settings()
        await pilot.press("escape")
        assert isinstance(app.screen, StartScreen)
        await pilot.press("f3")
        await pilot.pause()
        again = app.screen
        assert again is not form and isinstance(again, HostScreen)
        assert again.settings() == wanted
        assert again.query_one("#on-timeout-row").display


@pytest.mark.parametrize("line, found", [
    ("palazzo join 192.168.1.20:7342 --code rook-lamp-vine-1234",
     ("192.168.1.20:7342", "rook-lamp-vine-1234")),
    ("  palazzo join [::1]:7342 --code=ROOK-1234 ", ("[::1]:7342", "ROOK-1234")),
    ("palazzo join 10.0.0.5:7000", ("10.0.0.5:7000", None)),
    ("join host.lan:7342 --name Ada --code 'rook lamp vine 1234'", ("host.lan:7342", "rook lamp vine 1234")),
    ("192.168.1.20:7342", None),
    ("palazzo join", None),
])
def test_the_join_line_is_read(line, found):
    assert parse_join_line(line) == found


async def test_the_join_form_takes_the_hosts_whole_line(no_network):
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.press("f4")
        form = app.screen
        assert isinstance(form, JoinScreen)
        form.query_one("#address").insert_text_at_cursor(
            "palazzo join 192.168.1.20:7342 --code rook-lamp-vine-1234")  # as a paste does
        await pilot.pause()
        assert form.query_one("#address").value == "192.168.1.20:7342"
        assert form.query_one("#code").value == "rook-lamp-vine-1234"
        assert app.focused is form.query_one("#name")
        await pilot.press("enter")
        assert no_network == [("192.168.1.20", 7342, "rook-lamp-vine-1234",
                               form.query_one("#name").value)]


async def test_enter_in_the_join_address_moves_to_the_code(no_network):
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.press("f4")
        form = app.screen
        await pilot.press(*"10.0.0.5:7000", "enter")
        assert no_network == [] and app.focused is form.query_one("#code")
        await pilot.press("enter")
        assert no_network == [] and app.focused is form.query_one("#identity")
        await pilot.press("enter")
        assert no_network == [] and app.focused is form.query_one("#name")


async def test_after_a_join_error_the_focus_is_on_the_field_at_fault(no_network):
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.press("f4")
        form = app.screen
        form.query_one("#name").focus()
        await pilot.press("enter")  # no address
        await pilot.pause()
        assert "type the host's address" in str(form.query_one("#error").render())
        assert app.focused is form.query_one("#address")
        # the refusals that come back from the network, on the form
        for reason, fault in (("the host refused: wrong game code (palazzo join HOST:PORT --code "
                               "CODE)", "#code"),
                              ("could not reach 127.0.0.1:7342: connection refused", "#address"),
                              ("the host closed the connection", "#go")):
            form.show_error(reason)
            await pilot.pause()
            assert app.focused is form.query_one(fault), reason


@pytest.mark.long
async def test_after_a_host_error_the_focus_is_on_the_field_at_fault(no_network):
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.press("f3")
        form = app.screen
        form.query_one("#port").value = "0"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "the port must be" in str(form.query_one("#error").render())
        assert app.focused is form.query_one("#port")
        form.show_error("cannot listen on 10.9.9.9:7342: address not available")
        await pilot.pause()
        assert app.focused is form.query_one("#bind")


async def test_the_field_with_the_focus_stands_out():
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.press("f4")
        form = app.screen
        address, code = form.query_one("#address"), form.query_one("#code")
        await pilot.pause()
        assert app.focused is address
        assert address.styles.text_style.bold and not code.styles.text_style.bold
        assert address.styles.background != code.styles.background
