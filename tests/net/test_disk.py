"""A disk that fails mid-game ends nobody's game and blames nobody: the host and the seats keep
what they could not write in memory, every screen is told "cannot save: <reason>", and all of it
is written once the disk allows. A data folder that cannot be written is refused before a lobby,
in one line naming it."""

import errno
import os

import pytest

from net.session.records.disk import check_writable
from net.session.records.journal import Journal
from net.session.records.resume import HostRecord

from .test_resume import _recorded_game
from .test_session import _steps_until


@pytest.fixture
def profile(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


class FullDisk:
    """A fault-injecting writer: ``os.write`` to the files under ``folder`` fails with ENOSPC
    while ``full`` (one byte of each write gets through first, as on a disk that fills up)."""

    def __init__(self, monkeypatch, folder):
        self.folder = str(folder)
        self.full = False
        self.refused = 0
        write, replace = os.write, os.replace

        def faulty_write(fd, data):
            if self.full and os.readlink(f"/proc/self/fd/{fd}").startswith(self.folder):
                self.refused += 1
                if len(data) > 1:
                    write(fd, bytes(data[:1]))  # a torn write, then the error
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return write(fd, data)

        def faulty_replace(src, dst, *a, **kw):
            if self.full and str(dst).startswith(self.folder):
                self.refused += 1
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return replace(src, dst, *a, **kw)

        monkeypatch.setattr(os, "write", faulty_write)
        monkeypatch.setattr(os, "replace", faulty_replace)


@pytest.mark.long
def test_a_full_disk_mid_game_keeps_the_game_going_and_writes_everything_later(
        make_game, tmp_path, monkeypatch):
    g, record = _recorded_game(make_game, tmp_path, steps=10)
    disk = FullDisk(monkeypatch, tmp_path)
    told = []
    g.host.disk_trouble = lambda text, told=told, send=g.host.disk_trouble: (told.append(text),
                                                                            send(text))
    disk.full = True
    _steps_until(g, 30)
    assert disk.refused > 0
    assert told == ["cannot save: no space left on device"]
    assert g.host.trouble == "cannot save: no space left on device"
    assert all(p.error is None and p.state == "playing" for p in g.peers)
    assert all(p.host_trouble == "cannot save: no space left on device" for p in g.peers)
    notes = [e.data for e in g.peers[0].events if e.kind == "note"]
    assert "the host cannot save: no space left on device" in notes
    held = len(HostRecord(record.folder).entries())
    assert held < len(g.host.table.transcript)  # the rest is in memory only
    disk.full = False
    g.link.deliver(g.host.tick())  # the next tick writes it all
    g.link.pump()
    assert told[-1] == ""
    assert all(p.host_trouble == "" for p in g.peers)
    assert [e.body for e in HostRecord(record.folder).entries()] == \
        [e.body for e in g.host.table.transcript.entries]
    g.link.pump()
    assert g.host.finished
    assert [p.state for p in g.peers] == ["over"] * 4
    assert [e.body for e in HostRecord(record.folder).entries()] == \
        [e.body for e in g.host.table.transcript.entries]
    assert (record.folder / "finished").exists()


def test_a_seats_journal_on_a_full_disk_keeps_the_seat_playing(tmp_path, monkeypatch):
    from net.wire.identity import Identity

    disk = FullDisk(monkeypatch, tmp_path)
    journal = Journal.for_identity(Identity.generate().public_key, base=tmp_path)
    disk.full = True
    nonce = os.urandom(32)
    journal.contribute(nonce)  # not on the disk: in memory, and said
    assert journal.trouble.text == "cannot save: no space left on device"
    assert journal.live(nonce, b"g" * 16, b"h" * 32) is None
    disk.full = False
    journal.contribute(os.urandom(32))  # the next write writes both
    assert journal.trouble.text == ""
    again = Journal(journal.folder)
    assert again.live(nonce, b"g" * 16, b"h" * 32) is None


def test_a_folder_that_cannot_be_written_is_refused_in_one_line_naming_it(tmp_path):
    (tmp_path / "afile").write_text("x")
    folder = tmp_path / "afile" / "data" / "palazzo"
    with pytest.raises(ValueError) as e:
        check_writable(folder)
    assert str(folder) in str(e.value) and "\n" not in str(e.value)
    assert check_writable(tmp_path / "fine") == tmp_path / "fine"
    assert list((tmp_path / "fine").iterdir()) == []  # the probe is gone
