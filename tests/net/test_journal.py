"""A seat's journal on disk: the files it writes, what a new program reads back, and what it
never lets happen (two entries for one place, a nonce in two games)."""

import msgpack
import pytest

from net.session.records.journal import Journal, journal_dir
from net.wire.errors import LocalProtocolError
from net.wire.identity import Identity
from net.wire.transcript import Entry, genesis

GAME = bytes(range(16))
HEAD = b"h" * 32


def entry(ident, seq, **extra):
    return Entry.sign(ident, {"game": GAME, "seq": seq, "prev": genesis(GAME), "author": 0,
                              "kind": "act", **extra})


def test_the_files_are_as_documented_and_a_new_program_reads_them_back(tmp_path):
    me = Identity.generate()
    j = Journal.for_identity(me.public_key, tmp_path)
    assert j.folder == tmp_path / me.public_key.hex()
    nonce, spare = b"n" * 32, b"s" * 32
    j.contribute(nonce)
    j.contribute(spare)
    assert (j.folder / "nonces" / nonce.hex()).read_bytes() == b""
    j.bind(nonce, GAME, HEAD)
    assert (j.folder / "nonces" / nonce.hex()).read_bytes() == GAME + HEAD
    e = entry(me, 3, n=1)
    j.write(GAME, e)
    assert msgpack.unpackb((j.folder / GAME.hex() / "3").read_bytes()) == [e.body, e.sig]
    assert not [p for p in j.folder.rglob("*") if p.name.endswith(".tmp")]

    again = Journal.for_identity(me.public_key, tmp_path)  # the program restarted
    assert again.entry(GAME, 3) == e and again.entry(GAME, 4) is None
    assert again.live(nonce, GAME, HEAD) is None
    assert again.live(spare, GAME, HEAD) is None  # contributed, in no game yet
    assert not again.finished(GAME)
    again.finish(GAME)
    assert (j.folder / GAME.hex() / "finished").exists()
    assert Journal.for_identity(me.public_key, tmp_path).finished(GAME)
    assert "finished" in again.live(nonce, GAME, HEAD)


def test_a_second_entry_for_one_place_is_never_written(tmp_path):
    me = Identity.generate()
    j = Journal.for_identity(me.public_key, tmp_path)
    first = entry(me, 2, n=1)
    j.write(GAME, first)
    j.write(GAME, first)  # the same entry again: nothing changes
    with pytest.raises(LocalProtocolError, match="already signed another entry"):
        j.write(GAME, entry(me, 2, n=2))
    assert Journal.for_identity(me.public_key, tmp_path).entry(GAME, 2) == first


@pytest.mark.parametrize("folder", [None, "files"])
def test_which_starts_are_this_seats_live_games(folder, tmp_path):
    j = Journal(None if folder is None else tmp_path)
    mine, other_game = b"m" * 32, b"o" * 16
    assert "does not carry a nonce this seat contributed" in j.live(mine, GAME, HEAD)
    j.contribute(mine)
    j.bind(mine, GAME, HEAD)
    assert j.live(mine, GAME, HEAD) is None
    assert "nonce of another game" in j.live(mine, other_game, HEAD)
    assert "another start" in j.live(mine, GAME, b"x" * 32)
    with pytest.raises(LocalProtocolError):
        j.bind(mine, other_game, HEAD)


def test_the_journal_lives_under_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    key = Identity.generate().public_key
    assert journal_dir() == tmp_path / "palazzo" / "journal"
    assert Journal.for_identity(key).folder == tmp_path / "palazzo" / "journal" / key.hex()
