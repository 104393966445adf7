"""End to end over 127.0.0.1, with real processes: a game resumed from a player's record.

A host is killed mid-game and its data folder deleted (its record is lost; its identity, in the
config folder, is not). Each join saves the record it holds as soon as the host is gone and
says where; the host started again with ``--resume-from`` one join's file takes the game from
it (checked fully first), every join comes back, the game finishes, and every record verifies
and is the same. A file that does not check out, or that is another host's, is refused in one
line and nothing is served.
"""

import re
import shutil
import signal

import pytest

from tests.e2e.test_liveness_e2e import (
    SEATS,
    _free_port,
    _has,
    _host_args,
    _until,
    _verified_and_same,
    game_night,
)
from tests.e2e.test_network_e2e import TIMEOUT, _palazzo

SO_FAR = re.compile(r"the record so far is saved in (\S+) \(")


@pytest.mark.long
def test_a_host_that_lost_its_record_resumes_the_game_from_a_players_record(tmp_path):
    # the host is killed as soon as the game is under way: the seats need no pace
    with game_night(tmp_path, pace="0") as (port, logs, procs, line):
        host = procs[0]
        _until("the game under way", lambda: _has(logs[1], "the seats agreed on a seed"))
        host.send_signal(signal.SIGKILL)
        host.wait(TIMEOUT)
        _until("bot1 saved its record so far",
               lambda: SO_FAR.search(logs[1].read_text()) is not None, procs[1:])
        found = SO_FAR.search(logs[1].read_text())
        assert found is not None
        shutil.rmtree(tmp_path / "p0" / "data")  # the host's record is lost
        again_log = tmp_path / "p0-again.log"
        again = _palazzo([*_host_args(port), "--resume-from", found.group(1)], tmp_path / "p0",
                         again_log)
        procs.append(again)
        for i in SEATS:
            assert procs[i].wait(TIMEOUT) == 0, logs[i].read_text()[-3000:]
        assert again.wait(TIMEOUT) == 0, again_log.read_text()[-3000:]
    said = again_log.read_text()
    assert "taking game " in said and "every one checked from scratch" in said, said[-3000:]
    assert "Traceback" not in said
    for i in SEATS:
        assert "the host is back; the game goes on" in logs[i].read_text()
    _verified_and_same(tmp_path, logs)


@pytest.mark.long
def test_a_players_record_that_does_not_check_out_or_is_another_hosts_is_refused(tmp_path):
    """Garbled bytes in a saved record, and a finished game of another host: one line each,
    naming the file, and no host is started."""
    from tests.e2e.test_network_e2e import play

    (tmp_path / "done").mkdir()
    play(tmp_path / "done", "condottiere", 3, ["--bots", "1", "--open", "--option",
                                               "playing_for_points=6"])
    finished = next((tmp_path / "done" / "p1" / "data" / "palazzo" / "games").glob("*.palazzo"))
    garbled = tmp_path / "garbled.palazzo"
    data = bytearray(finished.read_bytes())
    data[len(data) // 2] ^= 0x01
    garbled.write_bytes(bytes(data))
    for path, words in ((finished, "is over: nothing to resume"),
                        (garbled, "does not check out, nothing was resumed")):
        log = tmp_path / f"{path.stem}.log"
        proc = _palazzo([*_host_args(_free_port()), "--resume-from", str(path)],
                        tmp_path / "other", log)
        assert proc.wait(TIMEOUT) == 2, log.read_text()
        text = log.read_text()
        assert words in text and str(path) in text and "Traceback" not in text, text
        assert "give this line" not in text
