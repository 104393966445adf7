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
    (["host", "medici", "--players", "3", "--headless", "--on-timeout", "nap"], "invalid choice"),
    (["join", "127.0.0.1:7342", "--bot", "oracle"], "unknown bot"),
    (["join", "127.0.0.1:99999", "--bot", "greedy"], "not a HOST:PORT"),
])
def test_bad_arguments_are_refused_in_one_line(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_a_join_that_reaches_nobody_fails_clearly(capsys, tmp_path, monkeypatch):
    import socket

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    with socket.socket() as s:  # a port that was free a moment ago and has no listener
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert main(["join", f"127.0.0.1:{port}", "--bot", "greedy"]) == 1
    assert "error: could not reach 127.0.0.1" in capsys.readouterr().out
