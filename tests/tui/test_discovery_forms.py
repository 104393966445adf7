"""The join form's Find games at 80x24, with real zeroconf on loopback: a game advertised on the
LAN is listed in full (the game, the seats, the code needed; the host's name, fingerprint and
address), its host name shown as plain text even when it looks like markup; choosing it fills the
host, puts the focus on the code, and the join holds the host to its fingerprint, until the
address is changed by hand; a host whose key is not the fingerprint listed is refused, the form
saying so in full. Where the LAN cannot be searched, the list says why, and Escape
goes back to the form as it was."""


import pytest
from textual.widgets import Input, OptionList

from engine.registry import get_game
from net.session.commands.discovery import Advertiser, Offer
from net.session.machines.host_session import HostSession
from net.wire.identity import Identity
from tests.net.test_adapters import serve_on_loopback
from tests.tui.conftest import screen_text as text
from tests.tui.conftest import until
from tests.tui.test_net_forms import free_port
from tui.app import PalazzoApp
from tui.screens.find import FindGames
from tui.screens.network import JoinScreen
from tui.setup import GameSetup


async def look_until_listed(pilot, fp: str, looks: int = 3) -> None:
    """Let Find games list the game whose key is ``fp``, pressing ``r`` to look again (as its
    hint says) when a look ends without it (other tests' games may be found): a loaded machine
    may answer a multicast query after the browse's two seconds have passed. At most ``looks``
    looks."""
    app = pilot.app

    def listed() -> bool:
        s = app.screen
        return isinstance(s, FindGames) and any(f.fingerprint == fp for f in s.found)

    def looked() -> bool:  # "No game found on the LAN ..." or "2 games found on the LAN:"
        return isinstance(app.screen, FindGames) and "found on the LAN" in text(app)

    for look in range(looks):
        await until(pilot, lambda: listed() or looked(), "a look's end")
        if listed():
            return
        if look + 1 < looks:
            await pilot.press("r")
            await until(pilot, lambda: not looked(), "the look again")
    raise AssertionError(f"{looks} looks did not list the game advertised:\n{text(app)}")


async def test_join_form_finds_a_game_on_the_lan_at_80x24(profile):  # noqa: F811
    fp, port = Identity.generate().fingerprint, free_port()
    advert = Advertiser(Offer("condottiere", 3, 1, "[b]Hosty", fp, True, port, ("127.0.0.1",)),
                        ["127.0.0.1"])
    advert.start()
    assert await advert.registered()
    asked = []
    app = PalazzoApp(GameSetup())
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("f4")
            form = app.screen
            assert isinstance(form, JoinScreen) and "ctrl+f" in text(app)
            form.start = lambda _, request: asked.append(request)
            await pilot.press("ctrl+f")
            await look_until_listed(pilot, fp)
            finder = app.screen
            mine = next(i for i, f in enumerate(finder.found) if f.fingerprint == fp)
            finder.query_one("#games", OptionList).highlighted = mine
            await pilot.pause()
            shown = text(app)
            assert "Condottiere, 1/3 seated, code needed" in shown
            assert f"host [b]Hosty [{fp}] at 127.0.0.1:{port}" in shown  # whole, and no markup
            assert "Escape goes back" in shown
            await pilot.press("enter")
            assert app.screen is form
            assert form.query_one("#address", Input).value == f"127.0.0.1:{port}"
            assert app.focused.id == "code" and fp in text(app)
            await pilot.press("t", "u", "l", "i", "p", "ctrl+s")
            await pilot.pause()
            form.query_one("#address", Input).value = f"127.0.0.1:{port + 1}"
            await pilot.press("ctrl+s")
            await pilot.pause()
    finally:
        await advert.close()
    assert [(r.host, r.port, r.code, r.fingerprint) for r in asked] == [
        ("127.0.0.1", port, "tulip", fp), ("127.0.0.1", port + 1, "tulip", None)]


async def test_find_games_where_the_lan_cannot_be_searched_says_why_at_80x24(profile):  # noqa: F811
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        form = app.screen
        await app.push_screen(FindGames(["203.0.113.9"]))  # no interface of this machine
        await until(pilot, lambda: "Cannot look for games" in text(app), "the reason")
        assert "Cannot look for games on the LAN: [Errno " in text(app)  # the system's reason
        await pilot.press("escape")
        assert app.screen is form and form.query_one("#address", Input).value == ""


@pytest.mark.long
async def test_attack_the_join_form_refuses_a_host_a_forged_advertisement_led_it_to(profile):  # noqa: F811
    host = HostSession(Identity.generate(), "medici", get_game("medici").rules.make_config(3, {}))
    runner, serving, port = await serve_on_loopback(host)
    liar = Identity.generate().fingerprint  # the real host's address, another key's fingerprint
    forged = Advertiser(Offer("medici", 3, 0, "Trusty", liar, False, port, ("127.0.0.1",)),
                        ["127.0.0.1"])
    forged.start()
    assert await forged.registered()
    app = PalazzoApp(GameSetup())
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("f4")
            form = app.screen
            await pilot.press("ctrl+f")
            await look_until_listed(pilot, liar)
            app.screen.dismiss(next(f for f in app.screen.found if f.fingerprint == liar))
            await until(pilot, lambda: app.screen is form, "the form again")
            await pilot.press("ctrl+s")
            await until(pilot, lambda: "Cannot go on" in text(app), "the refusal on the form")
            shown = " ".join(text(app).split())
            assert app.screen is form and "host key check" in shown
            assert host.identity.fingerprint in shown and liar in shown  # both, whole, at 80x24
            assert host.seats == []
    finally:
        await forged.close()
        serving.cancel()
