"""End to end over 127.0.0.1: a host that quits mid-game (SIGINT, as Ctrl-C) tells every peer
"the host closed the game", saves its record and exits 0; no traceback reaches a terminal; each
joiner says so in one line and keeps its record."""

import signal

import pytest

from tests.e2e.test_network_e2e import TIMEOUT
from tests.e2e.test_one_identity_e2e import _join, _wait_for, hosted


@pytest.mark.long
def test_a_host_that_quits_tells_every_peer_and_exits_0(tmp_path):
    with hosted(tmp_path) as (logs, host, procs, line):
        procs += [_join(tmp_path, line, i, logs[i]) for i in (1, 2, 3)]
        _wait_for(logs[1], "the seats agreed on a seed", "the game under way")
        host.send_signal(signal.SIGINT)
        assert host.wait(TIMEOUT) == 0, logs[0].read_text()[-2000:]
        codes = [procs[i].wait(TIMEOUT) for i in (1, 2, 3)]
    said = logs[0].read_text()
    assert "the host closed the game; every peer was told" in said and "transcript: " in said
    assert "Traceback" not in said
    for i, code in zip((1, 2, 3), codes, strict=True):
        text = logs[i].read_text()
        if "game over" in text:  # it had finished before the host quit
            continue
        assert code == 1  # the game could not be played (palazzo join --help)
        assert "the host closed the game" in text and "Traceback" not in text, text
        assert "transcript: " in text
