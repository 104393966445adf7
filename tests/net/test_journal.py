"""A seat's journal on disk: the files it writes, what a new program reads back, and what it
never lets happen (two entries for one place, a nonce in two games)."""

import msgpack
import pytest

from net.session.records.journal import Journal, file_check, journal_dir
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
    name = f"nonces/{nonce.hex()}"
    assert (j.folder / name).read_bytes() == file_check(name, b"")
    j.bind(nonce, GAME, HEAD)
    assert (j.folder / name).read_bytes() == GAME + HEAD + file_check(name, GAME + HEAD)
    e = entry(me, 3, n=1)
    j.write(GAME, e)
    data = (j.folder / GAME.hex() / "3").read_bytes()
    assert msgpack.unpackb(data[:-16]) == [e.body, e.sig]
    assert data[-16:] == file_check(f"{GAME.hex()}/3", data[:-16])
    assert all(p.stat().st_mode & 0o077 == 0 for p in j.folder.rglob("*") if p.is_file())
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


def _flip(path, at=-20):
    data = bytearray(path.read_bytes())
    data[at] ^= 1
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", ["cut", "flip"])
def test_a_damaged_file_is_taken_as_missing_and_listed_never_as_another_game(damage, tmp_path):
    me = Identity.generate()
    j = Journal.for_identity(me.public_key, tmp_path)
    nonce = b"n" * 32
    j.contribute(nonce)
    j.bind(nonce, GAME, HEAD)
    j.write(GAME, entry(me, 3, n=1))
    for name in (f"nonces/{nonce.hex()}", f"{GAME.hex()}/3"):
        path = j.folder / name
        if damage == "cut":
            path.write_bytes(path.read_bytes()[:-7])
        else:
            _flip(path)
    again = Journal.for_identity(me.public_key, tmp_path)
    assert again.lost(nonce) and again.entry(GAME, 3) is None
    assert sorted(again.damaged) == sorted([f"nonces/{nonce.hex()}", f"{GAME.hex()}/3"])
    assert not j.lost(nonce)  # the program that wrote it still knows


@pytest.mark.parametrize("folder", [None, "files"])
def test_a_games_secrets_are_kept_apart_and_erased_at_its_end(folder, tmp_path):
    me = Identity.generate()
    j = Journal(None if folder is None else tmp_path / me.public_key.hex())
    j.keep_secret(GAME, "deck", {"secret": b"x" * 32})
    assert j.secret(GAME, "deck") == {"secret": b"x" * 32}
    assert j.secret(GAME, "seed") is None
    if folder:
        sealed = (j.folder / GAME.hex() / "secret-deck").read_bytes()
        assert b"x" * 32 not in sealed  # encrypted under the game's key, kept in keys/
        assert (j.folder / "keys" / GAME.hex()).exists()
        again = Journal(j.folder)
        assert again.secret(GAME, "deck") == {"secret": b"x" * 32}
    j.erase_secrets(GAME)
    assert j.secret(GAME, "deck") is None
    if folder:
        assert not (j.folder / "keys" / GAME.hex()).exists()
        assert not (j.folder / GAME.hex() / "secret-deck").exists()
        assert Journal(j.folder).secret(GAME, "deck") is None


def test_the_last_message_number_signed_survives_a_restart(tmp_path):
    me = Identity.generate()
    j = Journal.for_identity(me.public_key, tmp_path)
    ctx = b"c" * 32
    assert j.talk_used(ctx) == 0
    j.use_talk(ctx, 3)
    j.use_talk(ctx, 2)  # never back
    assert Journal.for_identity(me.public_key, tmp_path).talk_used(ctx) == 3


def test_a_finished_game_is_never_followed_again_even_if_its_nonce_file_is_lost():
    j = Journal()
    j.finish(GAME)
    nonce = b"q" * 32
    assert j.lost(nonce)
    assert "finished" in j.live(nonce, GAME, HEAD)
    with pytest.raises(LocalProtocolError):
        j.bind(nonce, GAME, HEAD)
