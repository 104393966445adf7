"""A game resumed from a player's record (``net.session.records.adopt``): taken only when it is
this host's game, checks out entry by entry and is not over; the host's own damaged record of
the game is set aside; the players come back to the resumed host and the game ends verified."""

import pytest

from net.session.records.adopt import adopt, save_so_far
from net.session.records.resume import HostRecord, resume_session, unfinished
from net.wire.identity import Identity

from .test_resume import _come_back, _recorded_game


def _players_file(g, _tmp_path):
    """The record one player holds so far, saved as a seat saves it when its host is gone."""
    return save_so_far(g.peers[1].table)


@pytest.fixture
def profile(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


@pytest.mark.long
def test_a_host_resumes_from_a_players_record_and_the_game_ends_verified(make_game, profile):
    g, own = _recorded_game(make_game, profile / "hosting", steps=30, game="condottiere")
    path = _players_file(g, profile)
    (own.folder / "entries").write_bytes(b"garbage")  # the host's own record is damaged
    record, line = adopt(g.host.identity, path, {"grace": 30.0}, base=profile / "hosting")
    assert f"from the player's record {path}" in line and "checked from scratch" in line
    assert own.aside  # one record per game: the damaged one is set aside
    assert [r.folder for r in unfinished(g.host.identity.public_key, profile / "hosting")
            if not r.aside] == [record.folder]
    assert record.settings["grace"] == 30.0 and record.settings["players"] == 4
    host = resume_session(g.host.identity, HostRecord(record.folder))
    assert len(host.table.transcript) == len(g.peers[1].table.transcript)
    _come_back(g, host).pump()
    assert host.finished
    assert all(p.table.result()["verdict"] == "verified" for p in g.peers)
    assert len(g.transcripts()) == 1


def test_attack_a_players_record_of_another_hosts_game_is_refused(make_game, profile):
    g, _ = _recorded_game(make_game, profile / "hosting", steps=30)
    path = _players_file(g, profile)
    with pytest.raises(ValueError, match="was hosted with another key"):
        adopt(Identity.generate(), path, {}, base=profile / "hosting")


@pytest.mark.long
def test_attack_a_players_record_with_an_entry_changed_is_refused(make_game, profile):
    g, _ = _recorded_game(make_game, profile / "hosting", steps=30)
    path = _players_file(g, profile)
    data = bytearray(path.read_bytes())
    data[-70] ^= 0x01  # inside the last entry's signature or body
    path.write_bytes(bytes(data))
    before = sorted((profile / "hosting").iterdir())
    with pytest.raises(ValueError, match="does not check out, nothing was resumed"):
        adopt(g.host.identity, path, {}, base=profile / "hosting")
    assert sorted((profile / "hosting").iterdir()) == before  # nothing made


@pytest.mark.long
def test_a_whole_own_record_that_holds_as_much_is_not_replaced_by_a_players(make_game, profile):
    """The same ``--resume-from`` command run again after the host resumed (and went on) does
    not go back to the player's older copy: the host's own whole record is kept."""
    g, own = _recorded_game(make_game, profile / "hosting", steps=30)
    path = _players_file(g, profile)
    with pytest.raises(ValueError, match="own record of game .* is whole"):
        adopt(g.host.identity, path, {}, base=profile / "hosting")
    assert not own.aside
