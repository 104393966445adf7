"""End to end over 127.0.0.1, with real processes: a flood of strangers while a game is played.

Hundreds of connections that never take a seat (each sends a request before any hello, and is
refused) reach the host during a game of three headless joins: the host's screen gets at most
one line about them (the first; the next summary is a minute later), no player's screen gets
any, and the game ends with the same verified record on every seat."""

import socket
import time

import pytest

from net.wire.rpc import Codec, Request
from tests.e2e.test_liveness_e2e import (
    SEATS,
    _has,
    _until,
    _verified_and_same,
    game_night,
)
from tests.e2e.test_network_e2e import TIMEOUT

FLOOD = 300


def _stranger(port: int, frame: bytes) -> bool:
    """One stranger: a request before any hello, then gone; false once nobody listens."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(frame)
    except ConnectionRefusedError:
        return False
    return True


@pytest.mark.long
def test_a_flood_of_strangers_never_reaches_a_players_screen_and_the_game_ends_verified(tmp_path):
    with game_night(tmp_path, "--option", "playing_for_points=12") as (port, logs, procs, line):
        host = procs[0]
        _until("the game under way", lambda: _has(logs[1], "the seats agreed on a seed"))
        before = logs[0].read_text().count("\n")
        frame = Codec().send(Request(1, "ready", ()))
        started = time.monotonic()
        sent = 0
        while sent < FLOOD and _stranger(port, frame):
            sent += 1
        assert sent >= 100, sent  # most of the flood came while the game was played
        for i in SEATS:
            assert procs[i].wait(TIMEOUT) == 0, logs[i].read_text()[-3000:]
        assert host.wait(TIMEOUT) == 0, logs[0].read_text()[-3000:]
        minutes = int((time.monotonic() - started) // 60)
    host_lines = logs[0].read_text().splitlines()[before:]
    # the first refusal as it is ("ready: say hello first"), then a line a minute counting them
    about = [x for x in host_lines if "say hello first" in x or "without a seat" in x
             or "before its hello" in x or "refus" in x]
    assert 1 <= len(about) <= 1 + minutes, about  # one line a minute, whatever the flood
    for i in SEATS:
        text = logs[i].read_text()
        assert "without a seat" not in text and "say hello first" not in text, text[-3000:]
    _verified_and_same(tmp_path, logs)
