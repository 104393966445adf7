"""Host and join from the start screen, without the command line: the host form opens the lobby
with the line to give to friends and the computer seats, then the table; the join form says
plainly on the form when no host listens, or when the code is wrong, and stays there."""

import socket

import pytest

from tests.net.test_adapters import serve_on_loopback
from tests.tui.conftest import asking, until
from tests.tui.conftest import screen_text as text
from tui.app import PalazzoApp
from tui.screens.lobby import LobbyScreen
from tui.screens.network import HostScreen, JoinScreen
from tui.screens.start import StartScreen
from tui.setup import GameSetup


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def fill(pilot, selector, value):
    field = pilot.app.screen.query_one(selector)
    field.value = value
    await pilot.pause()


@pytest.mark.long
async def test_host_from_the_start_screen_with_computer_seats(profile):
    app = PalazzoApp(GameSetup())
    port = free_port()
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert "f3 Host" in text(app) and "f4 Join" in text(app)
        await pilot.press("f1")
        assert "f3" in text(app) and "Host a game on the network" in text(app)  # help
        await pilot.press("escape", "f3")
        assert isinstance(app.screen, HostScreen)
        assert "7342" in text(app)  # the default port
        await fill(pilot, "#players", 3)
        await fill(pilot, "#bots", 2)
        await fill(pilot, "#port", str(port))
        await fill(pilot, "#bind", "127.0.0.1")
        await fill(pilot, "#name", "Ada")
        await pilot.click("#go")
        await until(pilot, lambda: f"palazzo join 127.0.0.1:{port} --code " in text(app),
                    "the line to give to friends")
        assert isinstance(app.screen, LobbyScreen)
        await until(pilot, lambda: "bot-2" in text(app), "the computer seats in the lobby")
        await pilot.press("r")
        await until(pilot, lambda: asking(app), "the first question at the table")
        assert "(Ada)" in text(app)


@pytest.mark.long
async def test_join_form_refuses_an_identity_that_is_no_file_nor_profile_name(profile):
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        await fill(pilot, "#address", "127.0.0.1:7342")
        await fill(pilot, "#identity", "two words")
        await pilot.click("#go")
        await until(pilot, lambda: "Cannot go on" in text(app), "the reason on the form")
        assert "profile name" in text(app) and app.focused.id == "identity"
        assert isinstance(app.screen, JoinScreen)


@pytest.mark.long
async def test_join_form_when_nothing_listens_stays_with_the_reason(profile):
    app = PalazzoApp(GameSetup())
    port = free_port()
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.press("f4")
        assert isinstance(app.screen, JoinScreen)
        await pilot.press(*f"127.0.0.1:{port}", "enter")
        assert app.focused.id == "code"  # Enter moves on; it does not join yet
        # the code (none), the identity (the account's key), then the name: join
        await pilot.press("enter", "enter", "enter")
        await until(pilot, lambda: "Cannot go on" in text(app), "the reason on the form")
        assert app.focused.id == "address"  # the field at fault
        assert isinstance(app.screen, JoinScreen)
        assert f"could not reach 127.0.0.1:{port}" in text(app)
        assert "Traceback" not in text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, StartScreen)


@pytest.mark.long
async def test_join_form_with_a_wrong_code(profile):
    from engine.registry import get_game
    from net.session.machines.host_session import HostSession
    from net.wire.identity import Identity

    host = HostSession(Identity.generate(), "medici", get_game("medici").rules.make_config(3, {}),
                       code="ROOK-1234")
    runner, serving, port = await serve_on_loopback(host)
    app = PalazzoApp(GameSetup())
    try:
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.press("f4")
            await fill(pilot, "#address", f"127.0.0.1:{port}")
            await fill(pilot, "#code", "ROOK-9999")
            await pilot.click("#go")
            await until(pilot, lambda: "wrong game code" in text(app), "the refusal on the form")
            assert isinstance(app.screen, JoinScreen)
    finally:
        serving.cancel()


@pytest.mark.long
async def test_host_form_on_a_port_in_use_stays_with_the_reason(profile):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    app = PalazzoApp(GameSetup())
    try:
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.press("f3")
            await fill(pilot, "#port", str(port))
            await fill(pilot, "#bind", "127.0.0.1")
            await pilot.click("#go")
            await until(pilot, lambda: f"cannot listen on port {port}" in text(app),
                        "the reason on the form")
            assert isinstance(app.screen, HostScreen)
            taken.close()  # the port is free again: the same form now hosts
            await pilot.press("ctrl+s")
            await until(pilot, lambda: f"palazzo join 127.0.0.1:{port}" in text(app), "the lobby")
            await pilot.press("q")  # leave the lobby: back to the form, the port closed
            assert isinstance(app.screen, HostScreen)
            await until(pilot, lambda: can_bind(port), "the port to be free")
    finally:
        taken.close()


def can_bind(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


# -- the host form's fields, as ``palazzo host`` takes them as flags -------------------------------


def cli_settings(argv):
    """The ``HostSettings`` that ``palazzo host`` builds from ``argv``."""
    from unittest import mock

    from tui import cli

    args = cli.build_parser().parse_args(["host", *argv])
    with mock.patch("net.session.commands.play.host_game", side_effect=lambda s, say: s) as host_game:
        cli.cmd_host(args)
    return host_game.call_args.args[0]


async def host_form(pilot):
    await pilot.press("f3")
    assert isinstance(pilot.app.screen, HostScreen)
    return pilot.app.screen


@pytest.mark.long
async def test_host_form_settings_are_the_command_lines(profile):
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(110, 34)) as pilot:
        form = await host_form(pilot)
        s = form.settings()  # the defaults: a seat, a code, no time limit
        assert (s.seat, s.open, s.turn_timeout, s.on_timeout, s.options, s.grace) == (
            True, False, None, "forfeit", {}, 180.0)
        assert s.bot == "normal"  # the start screen's default level
        assert not form.query_one("#on-timeout-row").display  # no limit: nothing to choose after it
        await fill(pilot, "#game", "condottiere")
        await fill(pilot, "#players", 3)
        await pilot.click("#seat")  # relay only
        await fill(pilot, "#bots", 3)  # without a seat, the bots may fill every seat
        await fill(pilot, "#bot", "easy")
        await pilot.click("#opt-hidden_cards")
        await fill(pilot, "#opt-playing_for_points", 30)
        await pilot.click("#open")
        await fill(pilot, "#port", "7400")
        await fill(pilot, "#bind", "127.0.0.1")
        await fill(pilot, "#timeout", 120)
        assert form.query_one("#on-timeout-row").display
        await fill(pilot, "#on-timeout", "bot")
        await fill(pilot, "#grace", 600)
        await fill(pilot, "#name", "Ada")
        await fill(pilot, "#identity", "sister")
        s = form.settings()
    assert s == cli_settings([
        "condottiere", "--players", "3", "--no-seat", "--bots", "3", "--bot", "easy",
        "--option", "hidden_cards", "--option", "playing_for_points=30", "--open",
        "--port", "7400", "--bind", "127.0.0.1", "--turn-timeout", "120",
        "--on-timeout", "program-plays", "--name", "Ada", "--identity", "sister", "--grace", "600",
    ])
    assert s.identity == "sister"
    assert (s.seat, s.open, s.bots, s.bot, s.turn_timeout, s.on_timeout) == (
        False, True, 3, "easy", 120.0, "bot")
    assert s.options == {"hidden_cards": True, "playing_for_points": 30}


@pytest.mark.long
async def test_host_form_options_follow_the_game(profile):
    from engine.registry import get_game

    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(110, 34)) as pilot:
        form = await host_form(pilot)
        for game in ("condottiere", "medici", "condottiere"):
            await fill(pilot, "#game", game)
            shown = {w.id for w in form.query_one("#options").query("*")
                     if w.id and w.id.startswith("opt-")}
            assert shown == {f"opt-{n}" for n in get_game(game).rules.options}
            levels = [v for _, v in form.query_one("#bot")._options]
            assert levels == get_game(game).level_names()  # the levels, no bot kinds (ismcts)
            assert levels[:3] == ["easy", "normal", "hard"]
        await pilot.click("#opt-hidden_cards")
        assert form.settings().options == {"hidden_cards": True}
        await fill(pilot, "#game", "medici")  # a ticked option of another game is gone
        assert "hidden_cards" not in form.settings().options
        assert "Hidden cards" not in text(app)


@pytest.mark.long
async def test_host_form_keeps_the_seats_consistent(profile):
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(110, 34)) as pilot:
        form = await host_form(pilot)
        await fill(pilot, "#players", 3)

        def offered():
            return [v for _, v in form.query_one("#bots")._options]

        assert offered() == [0, 1, 2]  # with a seat, the others
        await pilot.click("#seat")
        assert offered() == [0, 1, 2, 3]  # relay only: every seat
        await fill(pilot, "#bots", 3)
        await pilot.click("#seat")  # a seat again: one computer seat fewer
        assert offered() == [0, 1, 2] and form.query_one("#bots").value == 2
        assert form.settings().bots == 2


@pytest.mark.long
async def test_host_form_refuses_an_impossible_table(profile, monkeypatch):
    import tui.netgame

    monkeypatch.setattr(tui.netgame, "host_net", lambda s: pytest.fail("hosted"))
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(110, 34)) as pilot:
        form = await host_form(pilot)
        await fill(pilot, "#players", 3)
        bots = form.query_one("#bots")  # as if the list had let through one seat too many
        with bots.prevent(bots.Changed):
            bots.set_options([(str(k), k) for k in range(4)])
            bots.value = 3
        await pilot.press("ctrl+s")
        assert "Cannot go on: 3 computer seats and yours are more than the 3 players" in text(app)
        assert isinstance(app.screen, HostScreen)
        await fill(pilot, "#port", "0")
        await pilot.press("ctrl+s")
        assert "the port must be a number from 1 to 65535" in text(app)
        assert isinstance(app.screen, HostScreen)


@pytest.mark.long
async def test_host_form_at_80x24_every_field_by_tab(profile):
    from engine.registry import get_game

    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(80, 24)) as pilot:
        form = await host_form(pilot)
        await fill(pilot, "#game", "condottiere")  # the game with the most options
        await fill(pilot, "#timeout", 60)  # and the choice after the time limit shown
        options = [f"opt-{n}" for n in get_game("condottiere").rules.options]  # in their order
        fields = ["game", "players", "seat", "bots", "bot", *options, "port", "bind", "open", "advertise",
                  "timeout", "on-timeout", "grace", "hints", "identity", "name", "go"]
        assert options  # the game with the most options has some
        seen = []
        form.query_one("#game").focus()
        await pilot.pause()
        for _ in range(len(fields)):
            w = app.focused
            seen.append(w.id)
            await pilot.pause()
            region = w.region  # on the screen, scrolled into view, inside the 80x24 screen
            assert region.width > 0 and region.height > 0, w.id
            assert form.region.contains_region(region), (w.id, region)
            await pilot.press("tab")
        assert [x for x in seen if x in fields] == fields, seen


@pytest.mark.long
async def test_host_form_relay_only_with_every_seat_a_computer(profile):
    app = PalazzoApp(GameSetup())
    port = free_port()
    async with app.run_test(size=(110, 34)) as pilot:
        await host_form(pilot)
        await fill(pilot, "#players", 3)
        await pilot.click("#seat")
        await fill(pilot, "#bots", 3)
        await fill(pilot, "#bot", "easy")
        await pilot.click("#opt-short_game")
        await fill(pilot, "#port", str(port))
        await fill(pilot, "#bind", "127.0.0.1")
        await pilot.click("#go")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        assert "relay only" in text(app)
        await until(pilot, lambda: "game over" in text(app), "the end of the relayed game", 60)
        assert isinstance(app.screen, LobbyScreen)  # no table: this machine has no seat
        assert app.net.session.table.config.short_game
        assert "bot-3 (easy)" in text(app) and "I am ready" not in text(app)
        await pilot.press("q")
        assert isinstance(app.screen, HostScreen)


@pytest.mark.long
async def test_host_form_open_game_with_a_turn_limit(profile):
    app = PalazzoApp(GameSetup())
    port = free_port()
    async with app.run_test(size=(110, 34)) as pilot:
        await host_form(pilot)
        await fill(pilot, "#players", 3)
        await fill(pilot, "#bots", 2)
        await pilot.click("#open")
        await fill(pilot, "#timeout", 60)
        await fill(pilot, "#on-timeout", "bot")
        await fill(pilot, "#port", str(port))
        await fill(pilot, "#bind", "127.0.0.1")
        await pilot.click("#go")
        await until(pilot, lambda: f"palazzo join 127.0.0.1:{port}" in text(app), "the lobby")
        assert "--code" not in text(app)  # open: no code to give
        host = app.net.host_session
        assert (host.code, host.turn_timeout, host.on_timeout) == (None, 60.0, "bot")
        await pilot.press("r")
        await until(pilot, lambda: asking(app), "the first question at the table")


@pytest.mark.long
async def test_host_form_offers_the_coach_off_by_default_and_its_tick_allows_hints(profile):
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(110, 34)) as pilot:
        form = await host_form(pilot)
        assert "coach" in " ".join(str(w.label) for w in form.query("#hints")).lower()
        assert form.settings().allow_hints is False  # as `palazzo host` without --allow-hints
        await fill(pilot, "#hints", True)
        assert form.settings().allow_hints is True
        assert form.values()["hints"] is True  # kept when the form is opened again


# -- an unfinished game of this host: asked about, never entered silently --------------------------


def _abandoned_lobby(port):
    """A lobby this host opened, left by a program that died: its record, unlocked."""
    from net.session.commands.hosting import HostSettings, _hosted

    settings = HostSettings("medici", 3, {}, port=port, bind="127.0.0.1", turn_timeout=60.0)
    _, code, _, _, record = _hosted(settings, lambda line: None)
    record.unlock()  # the program is gone
    return code


@pytest.mark.long
@pytest.mark.parametrize("choice", ["n", "r"])
async def test_host_form_asks_whether_to_resume_an_unfinished_game_or_host_a_new_one(profile,
                                                                                    choice):
    from tui.screens.modals import ResumeOrNew

    port = free_port()
    old = _abandoned_lobby(port)
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.press("f3")
        await fill(pilot, "#players", 3)
        await fill(pilot, "#port", str(port))
        await fill(pilot, "#bind", "127.0.0.1")
        await pilot.click("#go")
        await until(pilot, lambda: isinstance(app.screen, ResumeOrNew), "the question")
        asked = app.screen.text
        assert "an open lobby of Court of the Medici" in asked and " for 3" in asked and old in asked
        assert "turn limit 60 s" in asked
        await pilot.press(choice)
        await until(pilot, lambda: f"palazzo join 127.0.0.1:{port} --code " in text(app),
                    "the lobby")
        assert (f"--code {old}" in text(app)) == (choice == "r")
        await pilot.press("q")  # leave the lobby: it is closed, nothing left to resume
        assert isinstance(app.screen, HostScreen)
        await until(pilot, lambda: can_bind(port), "the port to be free")
        from net.session.commands.hosting import HostSettings, pending

        await until(pilot, lambda: pending(HostSettings("medici", 3, {})) is None,
                    "the lobby left to be closed for good")
        await pilot.press("ctrl+s")  # so the form hosts at once, asking nothing
        await until(pilot, lambda: f"palazzo join 127.0.0.1:{port} --code " in text(app),
                    "a new lobby")
        assert f"--code {old}" not in text(app)


@pytest.mark.long
async def test_host_form_offers_a_players_record_when_the_hosts_own_is_damaged(profile):
    """A record that lost its game (its entries garbled) is said damaged, and the question
    offers to take the game from a player's record; a file that does not check out is refused
    on the form in one line, and nothing is hosted."""
    from net.session.records.resume import hosting_dir
    from tui.screens.modals import ResumeOrNew

    port = free_port()
    _abandoned_lobby(port)
    (folder,) = list(hosting_dir().iterdir())
    (folder / "game").write_bytes(bytes(range(16)))  # a game had started in it ...
    (folder / "entries").write_bytes(b"\xc1" * 100)  # ... and its entries are lost
    bad = profile / "garbled.palazzo"
    bad.write_bytes(b"PALAZZO" + b"\xc1" * 50)
    app = PalazzoApp(GameSetup())
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.press("f3")
        await fill(pilot, "#players", 3)
        await fill(pilot, "#port", str(port))
        await fill(pilot, "#bind", "127.0.0.1")
        await pilot.click("#go")
        await until(pilot, lambda: isinstance(app.screen, ResumeOrNew), "the question")
        asked = app.screen.text
        assert "Its record is damaged: its entries file does not begin as a host record" in asked
        assert "A player's record of the game can take its place" in asked
        await fill(pilot, "#record-file", str(bad))
        await pilot.click("#from")
        await until(pilot, lambda: isinstance(app.screen, HostScreen), "back on the form")
        await until(pilot, lambda: "nothing was resumed" in text(app), "the refusal")
        # the notice wraps where the path (a temporary folder) ends: read it as one line
        said = " ".join(text(app).replace("│", " ").split())
        assert "garbled.palazzo does not check out, nothing was resumed" in said
        assert "Cannot go on" in said
