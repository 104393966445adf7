"""End to end over 127.0.0.1, with real processes: a joiner killed with SIGKILL and started
again with the same command comes back (every other peer says "bot2 lost the connection",
then "bot2 is back") and the game completes with one verified record; one killed for good, or
one that quits with Ctrl-C, forfeits after the host's --grace, and every other peer exits 6
(one side's record: the forfeited seat did not sign) with a record that verifies "as far as it
went"."""

import hashlib
import signal

import pytest

from tests.e2e.test_network_e2e import TIMEOUT, _transcript
from tests.e2e.test_one_identity_e2e import HOST_ARGS, _join, _wait_for, hosted


def _records(tmp_path, logs, seats):
    saved = [_transcript(tmp_path / f"p{i}", logs[i]) for i in seats]
    assert len({hashlib.sha256(s).hexdigest() for s in saved}) == 1
    return saved[0]


@pytest.mark.long
def test_a_joiner_killed_and_started_again_comes_back_and_the_game_verifies(tmp_path):
    with hosted(tmp_path) as (logs, host, procs, line):
        procs += [_join(tmp_path, line, i, logs[i]) for i in (1, 2, 3)]
        _wait_for(logs[2], "the seats agreed on a seed", "the game under way")
        procs[2].send_signal(signal.SIGKILL)
        procs[2].wait(TIMEOUT)
        _wait_for(logs[1], "bot2 lost the connection", "the others told of the drop")
        logs[2] = tmp_path / "p2b.log"
        procs[2] = _join(tmp_path, line, 2, logs[2])  # the same command again
        for i in (1, 2, 3):
            assert procs[i].wait(TIMEOUT) == 0, logs[i].read_text()[-2000:]
        assert host.wait(TIMEOUT) == 0, logs[0].read_text()[-2000:]
    _records(tmp_path, logs, (1, 2, 3))
    for i in (1, 3):
        said = logs[i].read_text()
        assert said.index("bot2 lost the connection") < said.index("bot2 is back")
        assert "audit: verified (" in said
    assert "audit: verified (" in logs[2].read_text()
    assert all("Traceback" not in logs[i].read_text() for i in range(4))


def _ends_by_forfeit(tmp_path, logs, host, procs, reason):
    for i in (1, 3):
        assert procs[i].wait(TIMEOUT) == 6, logs[i].read_text()[-2000:]  # palazzo join --help
    assert host.wait(TIMEOUT) == 0, logs[0].read_text()[-2000:]
    _records(tmp_path, logs, (1, 3))
    for i in (1, 3):
        said = logs[i].read_text()
        assert f"game over: bot2 forfeited ({reason})" in said, said[-2000:]
        assert f"audit: verified as far as it went: bot2 forfeited ({reason})" in said
        assert f"record: one side's record: seats bot2 did not sign (bot2 forfeited: {reason})" \
            in said
        assert "Traceback" not in said
    assert "Traceback" not in logs[0].read_text()


@pytest.mark.long
def test_a_joiner_killed_for_good_forfeits_after_the_grace(tmp_path):
    with hosted(tmp_path, [*HOST_ARGS, "--grace", "3"]) as (logs, host, procs, line):
        procs += [_join(tmp_path, line, i, logs[i]) for i in (1, 2, 3)]
        _wait_for(logs[2], "the seats agreed on a seed", "the game under way")
        procs[2].send_signal(signal.SIGKILL)
        procs[2].wait(TIMEOUT)
        _ends_by_forfeit(tmp_path, logs, host, procs, "bot2 did not come back within 3 seconds")
        assert "bot2 lost the connection" in logs[1].read_text()


@pytest.mark.long
def test_a_joiner_that_quits_with_ctrl_c_has_left_and_forfeits_after_the_grace(tmp_path):
    with hosted(tmp_path, [*HOST_ARGS, "--grace", "3"]) as (logs, host, procs, line):
        procs += [_join(tmp_path, line, i, logs[i]) for i in (1, 2, 3)]
        _wait_for(logs[2], "the seats agreed on a seed", "the game under way")
        procs[2].send_signal(signal.SIGINT)
        assert procs[2].wait(TIMEOUT) == 1, logs[2].read_text()[-2000:]
        said = logs[2].read_text()
        assert "you left the game; the host and the other players were told" in said
        assert "transcript: " in said and "Traceback" not in said
        _ends_by_forfeit(tmp_path, logs, host, procs, "bot2 did not come back within 3 seconds")
        assert "bot2 left" in logs[1].read_text() and "bot2 left" in logs[3].read_text()
