"""End to end over 127.0.0.1: a headless host and three ``palazzo join --bot greedy --rematch 2``
play two games with the same players on the same port; every seat saves both records, which
verify and differ; everyone exits 0 after the second game (``net.session.features.rematch``)."""

import re
from pathlib import Path

import pytest

from net.session.records.verify import verify_bytes
from tests.e2e.test_network_e2e import TIMEOUT, _palazzo
from tests.e2e.test_one_identity_e2e import SHORT, hosted


def _records(log: Path) -> list[bytes]:
    return [Path(p).read_bytes() for p in re.findall(r"transcript: (\S+)", log.read_text())]


@pytest.mark.long
def test_three_joiners_play_a_rematch_and_both_records_verify_and_differ(tmp_path):
    with hosted(tmp_path, SHORT) as (logs, host, procs, line):
        procs += [_palazzo(["join", line, "--name", f"bot{i}", "--bot", "greedy",
                            "--rematch", "2"], tmp_path / f"p{i}", logs[i]) for i in (1, 2, 3)]
        for i in (1, 2, 3):
            assert procs[i].wait(TIMEOUT) == 0, logs[i].read_text()[-2000:]
        assert host.wait(TIMEOUT) == 0, logs[0].read_text()[-2000:]
    said = logs[0].read_text()
    assert "every seat agreed to a rematch: game 2 starts" in said and "Traceback" not in said
    host_records = _records(logs[0])
    assert len(host_records) == 2 and host_records[0] != host_records[1]
    for i in (1, 2, 3):
        text = logs[i].read_text()
        assert "rematch: game 2 with the same players" in text and "Traceback" not in text
        assert text.count("audit: verified") == 2, text
        assert _records(logs[i]) == host_records  # every seat holds the host's two records
    for record in host_records:
        assert verify_bytes(record).ok
