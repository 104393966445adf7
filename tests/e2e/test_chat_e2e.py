"""End to end over 127.0.0.1: a joiner says messages as soon as it is seated, more than the rate
limit lets through; the others hear those within the limit, the joiner is told "slow down" for
the rest, the game goes on, and every peer's record carries the messages and verifies."""

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from net.session.features.chat import BURST, SLOW_DOWN
from tests.e2e.test_network_e2e import TIMEOUT, _env, _palazzo, _transcript
from tests.e2e.test_one_identity_e2e import SHORT, _join, hosted

TALK = [f"offer {i}: I pass if you pass" for i in range(BURST + 2)]


@pytest.mark.long
def test_talk_under_and_over_the_limit_reaches_every_record(tmp_path):
    with hosted(tmp_path, SHORT) as (logs, host, procs, line):
        args = ["join", line, "--name", "talker", "--bot", "greedy"]
        for text in TALK:
            args += ["--say", text]
        procs.append(_palazzo(args, tmp_path / "p1", logs[1]))
        procs += [_join(tmp_path, line, i, logs[i]) for i in (2, 3)]
        for i in (1, 2, 3):
            assert procs[i].wait(TIMEOUT) == 0, logs[i].read_text()[-2000:]
        assert host.wait(TIMEOUT) == 0, logs[0].read_text()[-2000:]
    assert not any("Traceback" in log.read_text() for log in logs.values())
    heard, over = TALK[:BURST], TALK[BURST:]
    talker = logs[1].read_text()
    for text in over:
        assert f"not said: {text}: {SLOW_DOWN}" in talker
    for i in (2, 3):
        said = logs[i].read_text()
        assert all(f"talker: {text}" in said for text in heard), said[-2000:]
        assert not any(text in said for text in over)
    assert all(f"talker says: {text}" in logs[0].read_text() for text in heard)
    saved = [_transcript(tmp_path / f"p{i}", logs[i]) for i in (1, 2, 3)]
    assert len({hashlib.sha256(s).hexdigest() for s in saved}) == 1
    record = tmp_path / "record.palazzo"
    record.write_bytes(saved[0])
    out = subprocess.run([sys.executable, "-m", "tui", "verify", str(record)],
                         env=_env(tmp_path / "v"), capture_output=True, text=True,
                         cwd=Path(__file__).parents[2], timeout=TIMEOUT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"{BURST} messages of table talk" in out.stdout
