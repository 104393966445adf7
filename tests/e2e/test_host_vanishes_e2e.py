"""End to end over 127.0.0.1: a host killed with SIGKILL mid-game (no goodbye) and never
started again. Each headless joiner tries to reach it again for a while (``--give-up``), then says so in one
plain line naming its saved record, "The host at 127.0.0.1:PORT went away; the record so far is
saved in PATH", with no traceback, and exits 5 (``palazzo join --help``: gave up)."""

import signal
from pathlib import Path

import pytest

from tests.e2e.test_network_e2e import TIMEOUT
from tests.e2e.test_one_identity_e2e import _join, _wait_for, hosted


@pytest.mark.long
def test_a_joiner_whose_host_was_killed_says_so_in_one_line_and_exits_5(tmp_path):
    with hosted(tmp_path) as (logs, host, procs, line):
        procs += [_join(tmp_path, line, i, logs[i], extra=["--give-up", "2"]) for i in (1, 2, 3)]
        _wait_for(logs[1], "the seats agreed on a seed", "the game under way")
        host.send_signal(signal.SIGKILL)
        host.wait(TIMEOUT)
        codes = [procs[i].wait(TIMEOUT) for i in (1, 2, 3)]
    assert any("game over" not in logs[i].read_text() for i in (1, 2, 3))  # cut short, somewhere
    address = line  # HOST:PORT, as the join line gives it
    for i, code in zip((1, 2, 3), codes, strict=True):
        text = logs[i].read_text()
        if "game over" in text:  # it had finished before the host was killed
            continue
        assert code == 5, text[-2000:]
        assert "Traceback" not in text and "error:" not in text, text
        last = text.strip().splitlines()[-1]
        head = f"The host at {address} went away; the record so far is saved in "
        assert last.startswith(head), text[-2000:]
        saved = Path(last[len(head):])
        assert saved.is_file() and saved.stat().st_size > 0
