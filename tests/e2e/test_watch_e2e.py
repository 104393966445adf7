"""End to end over 127.0.0.1: a relay-only host with a game code, a headless watcher
(``palazzo watch HOST:PORT --code C --headless``) that comes in before the seats, and three bot
joins as separate processes. The host's log lists the watcher; the watcher follows the game to
its end, prints only the public log (the host's own observer lines, nothing a seat alone saw)
and saves the very record every seat saved, which verifies."""

import hashlib
import re

import pytest

from tests.e2e.test_network_e2e import TIMEOUT, _join_line, _palazzo, _transcript
from tests.e2e.test_one_identity_e2e import _wait_for

HOST_ARGS = ["condottiere", "--players", "3", "--port", "0", "--bind", "127.0.0.1", "--no-seat",
             "--headless", "--option", "hidden_cards", "--no-advertise"]


#: the lines of a headless log that are not the game's own: the host's notes on connections,
#: and the end
NOT_THE_GAME = ("game over", "the game is over", "transcript:", "audit:", "record:", "watcher ", "seat ",
                "connection ", "rematch",
                "waiting for ")  # presence ("waiting for bot3 to acknowledge", on a busy machine)


def _moves(text: str) -> list[str]:
    """The game's log lines in a headless log: from the line naming the seats to the end (the
    watcher names the player after a seat, "Blue (bot2): ...": the name is left out here; the
    table talk, the watcher's "bot1: ..." and the host's "bot1 says: ...", is not the game's
    own)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Condottiere: "))
    return [re.sub(r"^(Red|Blue|Green) \(bot\d\)", r"\1", line) for line in lines[start:]
            if not line.startswith(NOT_THE_GAME)
            and not re.match(r"bot\d(:| says:| is (not )?responding)", line)]


@pytest.mark.long
def test_a_watcher_follows_a_networked_game_to_the_end_and_saves_the_seats_record(tmp_path):
    logs = {i: tmp_path / f"p{i}.log" for i in range(5)}  # 0 the host, 1-3 the seats, 4 the watcher
    host = _palazzo(["host", *HOST_ARGS], tmp_path / "p0", logs[0])
    procs = [host]
    try:
        line = _join_line(logs[0], host)
        code = re.search(r"--code (\S+)", logs[0].read_text()).group(1)
        watcher = _palazzo(["watch", line, "--code", code, "--name", "Wanda", "--headless"],
                           tmp_path / "p4", logs[4])
        procs.append(watcher)
        _wait_for(logs[0], "watcher Wanda", "the host lists the watcher")
        for i in (1, 2, 3):
            talk = ["--say", "good luck, all"] if i == 1 else []
            procs.append(_palazzo(["join", line, "--code", code, "--name", f"bot{i}", "--bot",
                                   "greedy", *talk], tmp_path / f"p{i}", logs[i]))
        for p, i in zip(procs, (0, 4, 1, 2, 3), strict=True):
            assert p.wait(TIMEOUT) == 0, logs[i].read_text()[-2000:]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    said = logs[4].read_text()
    assert "Traceback" not in said and "Traceback" not in logs[0].read_text()
    assert "lobby 1/3" in said and "lobby 3/3" in said and "watching: Wanda" in said
    assert "bot1: good luck, all" in said  # the watcher hears the table talk
    # a move names its seat's player ("Blue (bot2): ..."), never the seat alone
    played = [line for line in said.splitlines() if re.match(r"(Red|Blue|Green)\b", line)]
    assert played and all(re.match(r"(Red|Blue|Green) \(bot\d\)", line) for line in played)
    # the very record every seat saved, read again from scratch and verified
    saved = [_transcript(tmp_path / f"p{i}", logs[i]) for i in (1, 2, 3, 4)]
    assert len({hashlib.sha256(s).hexdigest() for s in saved}) == 1
    assert "audit: verified" in said and "game over" in said
    # what it printed is the public log, line for line the host's (an observer holding no
    # card), from the seats' names to the end
    watched, hosted = _moves(said), _moves(logs[0].read_text())
    assert len(watched) > 20 and watched == hosted
    assert any("face down" in line for line in watched)  # hidden cards were played


@pytest.mark.long
def test_a_watcher_hears_a_seat_drop_and_come_back(tmp_path):
    """A seat killed mid-game and started again: the watcher says "bot2 lost the connection",
    then "bot2 is back", and saves the record every seat saved."""
    from signal import SIGKILL

    logs = {i: tmp_path / f"p{i}.log" for i in range(5)}  # 0 the host, 1-3 the seats, 4 the watcher
    plain = [a for a in HOST_ARGS if a != "hidden_cards"]  # no card face down: no proof of its kind
    plain.remove("--option")
    host = _palazzo(["host", *plain], tmp_path / "p0", logs[0])
    procs = [host]
    try:
        line = _join_line(logs[0], host)
        code = re.search(r"--code (\S+)", logs[0].read_text()).group(1)
        procs.append(_palazzo(["watch", line, "--code", code, "--name", "Wanda", "--headless"],
                              tmp_path / "p4", logs[4]))
        _wait_for(logs[0], "watcher Wanda", "the host lists the watcher")

        def join(i, log):  # at once: the game waits for bot2 while it is away
            return _palazzo(["join", line, "--code", code, "--name", f"bot{i}", "--bot", "greedy"],
                            tmp_path / f"p{i}", log)

        seats = {i: join(i, logs[i]) for i in (1, 2, 3)}
        procs += list(seats.values())
        _wait_for(logs[2], "the seats agreed on a seed", "the game under way")
        seats[2].send_signal(SIGKILL)
        seats[2].wait(TIMEOUT)
        _wait_for(logs[4], "bot2 lost the connection", "the watcher told of the drop")
        logs[2] = tmp_path / "p2-again.log"
        seats[2] = join(2, logs[2])  # the same command again
        procs.append(seats[2])
        for i, p in seats.items():
            assert p.wait(TIMEOUT) == 0, logs[i].read_text()[-2000:]
        assert procs[1].wait(TIMEOUT) == 0, logs[4].read_text()[-2000:]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    said = logs[4].read_text()
    assert said.index("bot2 lost the connection") < said.index("bot2 is back"), said[-2000:]
    saved = [_transcript(tmp_path / f"p{i}", logs[i]) for i in (1, 2, 3, 4)]
    assert len({hashlib.sha256(s).hexdigest() for s in saved}) == 1
