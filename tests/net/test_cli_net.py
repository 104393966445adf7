"""The host and join commands: argument errors are one clear line and status 2."""

import pytest

from tui.cli import main


@pytest.mark.parametrize("argv, words", [
    (["host", "medici", "--players", "3", "--headless", "--port", "x"], "whole number"),
    (["host", "chess", "--players", "4", "--headless"], "unknown game"),
    (["host", "medici", "--players", "5", "--headless"], "3 or 4 players"),
    (["host", "medici", "--players", "3", "--bots", "3", "--headless"], "local seats"),
    (["host", "medici", "--players", "3", "--headless", "--bot", "oracle"], "unknown bot"),
    (["host", "medici", "--players", "3", "--headless", "--turn-timeout", "0"], "positive"),
    (["host", "medici", "--players", "3", "--headless", "--on-timeout", "nap"],
     "one of end-game, program-plays"),
    (["join", "127.0.0.1:7342", "--bot", "oracle"], "unknown bot"),
    (["join", "127.0.0.1:99999", "--bot", "greedy"], "not a HOST:PORT"),
    (["join", "127.0.0.1:7342", "--bot", "greedy", "--identity", "no good"], "profile name"),
    (["host", "medici", "--players", "3", "--headless", "--identity", "x" * 33], "profile name"),
])
def test_bad_arguments_are_refused_in_one_line(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


@pytest.mark.parametrize("name, wire", [("end-game", "forfeit"), ("program-plays", "bot"),
                                        ("forfeit", "forfeit"), ("bot", "bot")])
def test_the_on_timeout_choices_say_what_they_do_and_the_old_names_stay_hidden(name, wire, capsys):
    from tui.cli import build_parser

    parser = build_parser()
    args = parser.parse_args(["host", "medici", "--players", "3", "--on-timeout", name])
    assert args.on_timeout == wire
    assert parser.parse_args(["host", "medici", "--players", "3"]).on_timeout == "forfeit"
    with pytest.raises(SystemExit):
        parser.parse_args(["host", "--help"])
    shown = capsys.readouterr().out
    assert "{end-game,program-plays}" in shown and "bot}" not in shown


def test_a_join_that_reaches_nobody_fails_clearly(capsys, tmp_path, monkeypatch):
    import socket

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    with socket.socket() as s:  # a port that was free a moment ago and has no listener
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert main(["join", f"127.0.0.1:{port}", "--bot", "greedy"]) == 1
    assert "error: could not reach 127.0.0.1" in capsys.readouterr().out


def _closing_server(greeting=b""):
    """A server on 127.0.0.1 that says ``greeting`` and closes each connection at once, as a
    host with no room does; it counts the connections."""
    import socket
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    seen = []

    def serve():
        while True:
            try:
                c, _ = srv.accept()
            except OSError:
                return
            seen.append(1)
            if greeting:
                c.sendall(greeting)
            c.close()

    threading.Thread(target=serve, daemon=True).start()
    return srv, seen


@pytest.mark.parametrize("says", [False, True])
def test_a_join_against_a_host_that_keeps_closing_gives_up_with_status_5(says, capsys, tmp_path,
                                                                         monkeypatch):
    import functools

    import net.session.commands.play as play
    from net.wire.errors import E_BUSY
    from net.wire.rpc import Codec, Notification

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setattr(play, "PeerRunner", functools.partial(play.PeerRunner, retry_delay=0.001))
    note = Codec().send(Notification("error", ({"code": E_BUSY, "message": "no room"},)))
    srv, seen = _closing_server(note if says else b"")
    try:
        port = srv.getsockname()[1]
        assert main(["join", f"127.0.0.1:{port}", "--bot", "greedy"]) == 5
    finally:
        srv.close()
    out = capsys.readouterr().out.splitlines()
    assert len(seen) == 6  # the first try and 5 retries, then no more
    errors = [line for line in out if line.startswith("error:")]
    why = "the host says: no room" if says else f"127.0.0.1:{port} closed the connection"
    assert errors == [f"error: gave up after 6 tries to join 127.0.0.1:{port}: {why}"]


def test_join_help_documents_its_exit_status(capsys):
    with pytest.raises(SystemExit):
        main(["join", "--help"])
    out = capsys.readouterr().out
    assert "exit status:" in out and "5  gave up" in out and "3  a cheat" in out
    assert "4  this player is already at the table" in out and "--identity" in out
