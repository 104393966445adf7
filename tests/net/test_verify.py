"""Checking a saved transcript on its own: ``net.session.records.verify`` and ``palazzo verify``."""

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from net.session.records.verify import Verdict, read_entries, verify_bytes, verify_file
from net.wire.errors import HOST
from net.wire.identity import Identity
from net.wire.transcript import MAGIC, Entry, Transcript, pack
from tui.cli import main

GAMES = [("medici", 3, {}), ("condottiere", 3, {"hidden_cards": True})]


def play(finished, game="medici", players=3, options=None):
    """An honest finished game of seats named Ada0, Ada1, ... (shared by the run: read only)."""
    g = finished(game, players, options or {})
    assert [p.state for p in g.peers] == ["over"] * players
    return g


@pytest.fixture(scope="module")
def saved(finished):
    """One honest finished game of each kind, as saved bytes."""
    return {game: finished(game, players, options).host.table.transcript.to_bytes()
            for game, players, options in GAMES}


def entries_of(data):
    return read_entries(data)


def rebuild(entries):
    t = Transcript()
    for e in entries:
        t.append(e)
    return t.to_bytes()


# -- honest games ---------------------------------------------------------------------------------


@pytest.mark.long
@pytest.mark.parametrize("game, players, options", GAMES)
def test_an_honest_game_verifies(finished, game, players, options):
    g = play(finished, game, players, options)
    data = g.host.table.transcript.to_bytes()
    v = verify_bytes(data)
    assert v.ok and v.kind == "verified" and v.exit_status == 0
    assert v.text.startswith("verified: ")
    assert v.game == game and v.entries == len(g.host.table.transcript)
    assert all(f"Ada{i}" in v.text for i in range(players))
    assert f"{v.entries} entries" in v.text
    assert g.host.table.result()["text"] in v.text
    # every peer's copy is the same file, and says the same
    assert all(verify_bytes(p.table.transcript.to_bytes()) == v for p in g.peers)


def test_a_forfeited_game_verifies_as_far_as_it_went(make_game, clock):
    g = make_game(3, turn_timeout=30, clock=clock)
    g.add_bot(0, name="Ada")
    g.add_bot(1, name="Bea")
    g.add_bot(2, name="Cy", bot=None)  # never decides
    g.link.pump()
    clock.now += 31
    g.link.pump()
    assert g.host.finished
    v = verify_bytes(g.host.table.transcript.to_bytes())
    assert v.ok and v.kind == "verified" and v.exit_status == 0 and v.seat is None
    assert v.text == ("verified as far as it went: Cy forfeited (no move within 30 seconds); "
                      "one side's record: seats Cy did not sign (Cy forfeited: no move within "
                      "30 seconds)")


def test_verify_file_reads_a_saved_file(saved, tmp_path):
    path = tmp_path / "game.palazzo"
    path.write_bytes(saved["medici"])
    assert verify_file(path).text.startswith("verified:")
    assert verify_file(str(path)).ok
    v = verify_file(tmp_path)  # a folder: unreadable, never a traceback
    assert not v.ok and v.text.startswith("rejected: cannot read the file")


# -- damaged and altered files --------------------------------------------------------------------


@pytest.mark.long
@pytest.mark.parametrize("game", ["medici", "condottiere"])
def test_a_flipped_byte_anywhere_never_verifies(saved, game):
    data = saved[game]
    positions = [0, 5, len(MAGIC), len(MAGIC) + 3, len(MAGIC) + 40, len(data) // 3,
                 len(data) // 2, 2 * len(data) // 3, len(data) - 70, len(data) - 1]
    for pos in positions:
        for mask in (0x01, 0x80, 0xFF):
            bad = bytearray(data)
            bad[pos] ^= mask
            v = verify_bytes(bytes(bad))
            assert not v.ok, (pos, mask, v)
            assert v.kind in ("rejected", "cheat", "incomplete", "cut-off", "not-a-record"), (pos, v)
            assert "\n" not in v.text


def test_a_changed_byte_in_an_entry_breaks_its_signature(saved):
    data = saved["medici"]
    bad = bytearray(data)
    bad[-1] ^= 1  # inside the last entry's signature
    v = verify_bytes(bytes(bad))
    n = len(entries_of(data)) - 1
    assert v.kind == "rejected" and v.seat is None and v.step == n
    assert v.text == f"rejected: entry {n}: signature check: bad signature for its author"


@pytest.mark.parametrize("game", ["medici", "condottiere"])
def test_truncation_is_a_cut_off_record_never_a_cheat(saved, game):
    data = saved[game]
    for n in [1, 10, len(MAGIC), len(MAGIC) + 1, len(MAGIC) + 50, len(data) // 4, len(data) // 2,
              2 * len(data) // 3, len(data) - 65, len(data) - 1]:
        v = verify_bytes(data[:n])
        assert not v.ok and v.kind in ("cut-off", "incomplete") and v.exit_status == 4, (n, v)
        assert v.text.startswith(("cut off: ", "incomplete: ")), (n, v)
    assert verify_bytes(data[: len(data) // 2]).text.startswith(
        "cut off: the file stops in the middle of entry ")
    assert verify_bytes(data[: len(MAGIC)]).text == "cut off: the transcript holds no entries"
    assert verify_bytes(data[:5]).text == "cut off: the file stops inside its header"


@pytest.mark.parametrize("data, words", [
    (b"", "not a record: the file is empty"),
    (random.Random(1).randbytes(4096), "not a record: not a palazzo transcript"),
    (b"palazzo transcript v2\n", "not a record: not a palazzo transcript"),
    (b'{"format": "palazzo-local-game"}', "not a record: not a palazzo transcript"),
])
def test_files_that_are_not_transcripts_say_so(data, words):
    v = verify_bytes(data)
    assert not v.ok and v.kind == "not-a-record" and v.seat is None and v.exit_status == 5
    assert v.text == words


@pytest.mark.parametrize("data, words", [
    (MAGIC + b"\xc4\xff" + bytes(10), "cut off: the file stops in the middle of entry 0"),
])
def test_a_file_cut_in_its_first_entry_is_cut_off(data, words):
    v = verify_bytes(data)
    assert v.kind == "cut-off" and v.exit_status == 4 and v.text == words


@pytest.mark.parametrize("data, words", [
    (MAGIC + b"\x92" + random.Random(2).randbytes(4096), "rejected: entry 0"),
    (MAGIC + b"\x92\xa1a\xa1b", "rejected: entry 0: an entry is"),
    (MAGIC + b"\x81\xa1a\x02", "rejected: entry 0: not a [body, signature] pair"),
    (MAGIC + b"\xc7\x01\x05x", "rejected: entry 0: unreadable bytes"),
    (MAGIC + b"\x91" * 5000, "rejected: entry 0"),
])
def test_altered_transcripts_are_rejected(data, words):
    v = verify_bytes(data)
    assert not v.ok and v.kind == "rejected" and v.seat is None and v.exit_status == 3
    assert v.text.startswith(words), v.text


@pytest.mark.parametrize("game", ["medici", "condottiere"])
def test_a_record_cut_short_is_incomplete(saved, game):
    entries = entries_of(saved[game])
    for keep in (1, 3, len(entries) // 2, len(entries) - 1):
        v = verify_bytes(rebuild(entries[:keep]))
        assert not v.ok and v.kind == "incomplete" and v.exit_status == 4, (keep, v)
        assert v.text.startswith(f"incomplete: the record stops at entry {keep - 1} in phase "), v
        assert v.entries == keep


def test_a_start_that_names_no_host_key_is_rejected(saved):
    entries = entries_of(saved["medici"])
    host = Identity.generate()
    fields = {k: v for k, v in entries[0].fields.items() if k not in ("v", "host")}
    start = Entry.sign(host, fields)
    assert verify_bytes(rebuild([start])).text == "rejected: entry 0: the start names no host key"
    # a start whose host field is not its signer's key fails the signature
    other = Entry.sign(host, {**fields, "host": Identity.generate().public_key})
    assert verify_bytes(rebuild([other])).text == "rejected: entry 0: signature check: bad signature for its author"
    # a record that does not begin with the host's start
    seat = Entry.sign(Identity.generate(), {**fields, "author": 0, "kind": "seed-commit"})
    assert verify_bytes(rebuild([seat])).text == (
        "rejected: entry 0: the record does not begin with the host's start")


# -- cheats ---------------------------------------------------------------------------------------


def signed_game(finished, game="medici", options=None):
    """A finished game whose every key the test holds: the host's and each seat's."""
    g = play(finished, game, 3, options)
    keys = {-1: g.host.identity} | {p.table.me: p.identity for p in g.peers}
    return g, keys


def forge(g, keys, seq, author, kind, **extra):
    """The honest entries before ``seq``, then one signed by ``author`` (it really signed it)."""
    entries = g.host.table.transcript.entries[:seq]
    t = Transcript()
    for e in entries:
        t.append(e)
    fields = {"game": g.host.table.game_id, "seq": seq, "prev": t.head, "author": author,
              "kind": kind, **extra}
    t.append(Entry.sign(keys[author], fields))
    return t.to_bytes()


def test_a_seed_that_does_not_open_its_commitment_names_its_author(finished):
    g, keys = signed_game(finished)
    seq = next(e.seq for e in g.host.table.transcript.entries if e.kind == "seed-open")
    data = forge(g, keys, seq, 0, "seed-open", value=b"\x01" * 32, salt=b"\x02" * 32)
    v = verify_bytes(data)
    assert not v.ok and v.kind == "cheat" and v.exit_status == 3
    assert v.seat == 0 and v.step == seq
    assert v.text == f"cheat: Ada0 (seat 0) at entry {seq}: its seed does not match its commitment"


def test_a_host_entry_out_of_place_names_the_host(finished):
    g, keys = signed_game(finished)
    data = forge(g, keys, 1, -1, "end", openings=b"\x90")
    v = verify_bytes(data)
    assert v.kind == "cheat" and v.seat == -1 and v.step == 1
    assert v.text.startswith("cheat: the host at entry 1: ")


def test_a_seat_writing_out_of_turn_is_named(finished):
    g, keys = signed_game(finished)
    t = g.host.table.transcript.entries
    seq = next(e.seq for e in t if e.kind == "seed-commit")
    data = forge(g, keys, seq, 2, "seed-commit", commit=b"\x00" * 32)
    v = verify_bytes(data)
    assert v.kind == "cheat" and v.seat == 2
    assert v.text == f"cheat: Ada2 (seat 2) at entry {seq}: out of turn: seat 0 must write now"


def test_a_shuffle_that_fails_its_proof_is_named_at_its_entry(finished):
    """A seat's shuffle with its first two masked cards swapped, signed by that seat: the
    verifier refuses it at that entry, naming the seat and the check the proof failed."""
    g, keys = signed_game(finished)
    entry = next(e for e in g.host.table.transcript.entries
                 if e.kind == "deck" and e.fields["msgs"][0]["type"] == "deck/shuffle")
    msgs = [dict(m) for m in entry.fields["msgs"]]
    cards = msgs[0]["cards"]
    msgs[0]["cards"] = cards[64:128] + cards[:64] + cards[128:]
    fields = {k: v for k, v in entry.fields.items()
              if k not in ("game", "seq", "prev", "author", "kind", "v")}
    data = forge(g, keys, entry.seq, entry.author, "deck", **dict(fields, msgs=msgs))
    v = verify_bytes(data)
    assert not v.ok and v.kind == "cheat" and v.seat == entry.author and v.step == entry.seq
    assert v.text == (f"cheat: Ada{entry.author} (seat {entry.author}) at entry {entry.seq}: "
                      "shuffle: t1: permutation commitment product")
def test_a_shuffle_with_a_point_that_is_no_point_is_named_at_its_entry(finished):
    """verify leaves a shuffle's points to its proof's check, before the deal: a masked card
    that is no point of the group, signed by its seat, is named at that entry, as a seat names
    it when the entry comes."""
    g, keys = signed_game(finished)
    entry = next(e for e in g.host.table.transcript.entries
                 if e.kind == "deck" and e.fields["msgs"][0]["type"] == "deck/shuffle")
    msgs = [dict(m) for m in entry.fields["msgs"]]
    cards = msgs[0]["cards"]
    msgs[0]["cards"] = cards[:96] + (2).to_bytes(32, "little") + cards[128:]  # card 1, C2
    fields = {k: v for k, v in entry.fields.items()
              if k not in ("game", "seq", "prev", "author", "kind", "v")}
    v = verify_bytes(forge(g, keys, entry.seq, entry.author, "deck", **dict(fields, msgs=msgs)))
    assert not v.ok and v.kind == "cheat" and v.seat == entry.author and v.step == entry.seq
    assert v.text == (f"cheat: Ada{entry.author} (seat {entry.author}) at entry {entry.seq}: "
                      "shuffle: format: masked card 1: not the encoding of a ristretto255 point")


def test_a_bad_shuffle_is_named_before_a_fault_found_after_it(finished):
    """verify takes a shuffle once its points are checked and checks the chain's proofs
    together before the deal: a bad proof followed by an entry that breaks the chain is still
    named first, at its own entry, as when each proof was checked at once."""
    g, keys = signed_game(finished)
    entries = g.host.table.transcript.entries
    entry = next(e for e in entries
                 if e.kind == "deck" and e.fields["msgs"][0]["type"] == "deck/shuffle")
    msgs = [dict(m) for m in entry.fields["msgs"]]
    proof = bytearray(msgs[0]["proof"])
    proof[-32] ^= 1  # a response changed: every point valid, the proof false
    msgs[0]["proof"] = bytes(proof)
    fields = {k: v for k, v in entry.fields.items()
              if k not in ("game", "seq", "prev", "author", "kind", "v")}
    data = forge(g, keys, entry.seq, entry.author, "deck", **dict(fields, msgs=msgs))
    after = entries[entry.seq + 1]  # the honest next entry: its chain is now broken
    v = verify_bytes(data + pack([after.body, after.sig]))
    assert not v.ok and v.kind == "cheat" and v.seat == entry.author and v.step == entry.seq
    assert v.entries == entry.seq
    assert v.text.startswith(f"cheat: Ada{entry.author} (seat {entry.author}) at entry "
                             f"{entry.seq}: shuffle: ")


def _resigned(g, keys, entry, **changes):
    """The honest record up to ``entry``, then ``entry`` with ``changes``, signed by its author."""
    header = ("v", "game", "seq", "prev", "author", "kind")
    fields = {k: v for k, v in entry.fields.items() if k not in header}
    return forge(g, keys, entry.seq, entry.author, entry.kind, **{**fields, **changes})


@pytest.mark.parametrize("game, options", [("medici", {}), ("condottiere", {"hidden_cards": True})])
def test_verify_checks_every_proof_and_move_again_from_scratch(finished, game, options):
    """Nothing is left for the end: verify reads the record as an observer that trusts nothing,
    and names at its entry a move, a share or a face-down card that its author signed but that
    the seats would have refused, as they did when it came."""
    g, keys = signed_game(finished, game, options)
    entries = g.host.table.transcript.entries
    rules = g.host.table.rules
    # a card shown as another card than the one its open proves
    shown = next(e for e in entries if e.kind == "act" and "open" in e.fields
                 and e.fields["action"].get("card", -1) >= 1)
    other = {**shown.fields["action"], "card": shown.fields["action"]["card"] - 1}
    # a decryption share that is not the seat's
    dealt = next(e for e in entries if e.kind == "deck" and e.fields["msgs"][0]["type"] == "deck/shares")
    msg = dict(dealt.fields["msgs"][0])
    msg["shares"] = bytes(reversed(msg["shares"][:32])) + msg["shares"][32:]
    cases = [(shown, {"action": other}), (dealt, {"msgs": [msg, *dealt.fields["msgs"][1:]]})]
    if game == "condottiere":  # a card played face down without its proof that it may be
        down = next(e for e in entries if "kind_proof" in e.fields)
        cases.append((down, {"kind_proof": bytes(len(down.fields["kind_proof"]))}))
    for entry, changes in cases:
        v = verify_bytes(_resigned(g, keys, entry, **changes))
        assert not v.ok and v.kind == "cheat" and v.exit_status == 3, v.text
        assert (v.seat, v.step) == (entry.author, entry.seq), v.text
        assert v.text.startswith(f"cheat: Ada{entry.author} (seat {entry.author}) at entry {entry.seq}")
    assert rules.name == game and verify_bytes(g.host.table.transcript.to_bytes()).ok


def test_an_end_entry_reveals_nothing_and_the_record_verifies(saved):
    """An end is each seat's signature on the record before it: it carries nothing of the deck,
    and verify checks the whole game without any secret."""
    for data in saved.values():
        ends = [e for e in entries_of(data) if e.kind == "end"]
        assert len(ends) == 3
        assert all(set(e.fields) == {"v", "game", "seq", "prev", "author", "kind"} for e in ends)
        assert verify_bytes(data).kind == "verified"


def test_names_from_the_file_cannot_break_the_line(finished):
    # the host refuses such a name in the lobby, and every reader refuses a start that
    # carries one, as the host's own table would: the name never reaches the line
    g, keys = signed_game(finished)
    start = g.host.table.transcript.entries[0]
    fields = {k: v for k, v in start.fields.items() if k != "v"}
    fields["seats"] = [dict(s) for s in fields["seats"]]
    fields["seats"][2]["name"] = "Eve\nverified: all\x1b[2J"
    t = Transcript()
    t.append(Entry.sign(keys[-1], fields))
    t.append(Entry.sign(keys[2], {"game": fields["game"], "seq": 1, "prev": t.head, "author": 2,
                                  "kind": "seed-commit", "commit": b"\0" * 32}))
    v = verify_bytes(t.to_bytes())
    assert v.kind == "cheat" and "\n" not in v.text and "\x1b" not in v.text
    assert v.seat == HOST and v.step == 0
    assert "printable characters" in v.text and "Eve" not in v.text


# -- random damage never crashes ------------------------------------------------------------------


@pytest.mark.long
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_random_mutations_never_crash(saved, data):
    original = saved[data.draw(st.sampled_from(["medici", "condottiere"]))]
    b = bytearray(original)
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["flip", "set", "cut", "insert", "delete"]))
        pos = data.draw(st.integers(0, max(len(b) - 1, 0)))
        if op == "flip" and b:
            b[pos] ^= data.draw(st.integers(1, 255))
        elif op == "set" and b:
            b[pos] = data.draw(st.integers(0, 255))
        elif op == "cut":
            del b[pos:]
        elif op == "insert":
            b[pos:pos] = data.draw(st.binary(min_size=1, max_size=8))
        elif op == "delete":
            del b[pos:pos + data.draw(st.integers(1, 8))]
    v = verify_bytes(bytes(b))
    assert isinstance(v, Verdict) and "\n" not in v.text
    assert v.text.split(":")[0] in ("verified", "verified as far as it went", "rejected", "cheat",
                                    "incomplete", "cut off", "not a record")
    if bytes(b) != original:
        assert not v.ok


# -- the command line -----------------------------------------------------------------------------


@pytest.fixture
def files(saved, tmp_path):
    honest = tmp_path / "honest.palazzo"
    honest.write_bytes(saved["medici"])
    tampered = tmp_path / "tampered.palazzo"
    bad = bytearray(saved["condottiere"])
    bad[len(bad) // 2] ^= 0x10
    tampered.write_bytes(bytes(bad))
    short = tmp_path / "short.palazzo"
    short.write_bytes(rebuild(entries_of(saved["medici"])[:5]))
    return honest, tampered, short


def test_cli_an_honest_file_verifies(files, capsys):
    honest, _, _ = files
    assert main(["verify", str(honest)]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("verified: ") and out.out.count("\n") == 1 and not out.err


def test_cli_a_tampered_file_is_status_3_without_a_traceback(files, capsys):
    _, tampered, _ = files
    assert main(["verify", str(tampered)]) == 3
    out = capsys.readouterr()
    assert out.out.startswith("rejected: ") and "Traceback" not in out.out + out.err


def test_cli_an_incomplete_file_is_status_4(files, capsys):
    _, _, short = files
    assert main(["verify", str(short)]) == 4
    assert capsys.readouterr().out.startswith("incomplete: the record stops at entry 4")


def test_cli_a_cut_off_file_is_status_4_and_random_bytes_status_5(files, tmp_path, capsys):
    honest, _, _ = files
    data = honest.read_bytes()
    cut = tmp_path / "cut.palazzo"
    cut.write_bytes(data[: 2 * len(data) // 3])
    junk = tmp_path / "junk"
    junk.write_bytes(random.Random(3).randbytes(3000))
    assert main(["verify", str(cut)]) == 4
    assert capsys.readouterr().out.startswith("cut off: the file stops in the middle of entry ")
    assert main(["verify", str(junk)]) == 5
    out = capsys.readouterr()
    assert out.out == "not a record: not a palazzo transcript\n" and not out.err
    assert main(["verify", str(junk), str(cut)]) == 4
    capsys.readouterr()


def test_cli_verify_help_names_every_exit_status(capsys):
    with pytest.raises(SystemExit):
        main(["verify", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in ("0 every file verified", "3 a cheat", "4 a record cut off", "5 a file that is not"):
        assert words in text


def test_cli_several_files_name_each_and_the_worst_wins(files, capsys):
    honest, tampered, short = files
    assert main(["verify", str(honest), str(short)]) == 4
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{honest}: verified: ") and lines[1].startswith(f"{short}: incomplete")
    assert main(["verify", str(short), str(tampered), str(honest)]) == 3
    assert len(capsys.readouterr().out.splitlines()) == 3


def test_cli_quiet_only_sets_the_status(files, capsys):
    honest, tampered, _ = files
    assert main(["verify", "--quiet", str(honest)]) == 0
    assert main(["verify", "--quiet", str(tampered)]) == 3
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""


def test_cli_a_missing_file_is_a_usage_error(files, tmp_path, capsys):
    honest, _, _ = files
    missing = tmp_path / "nope.palazzo"
    assert main(["verify", str(honest), str(missing)]) == 2
    out = capsys.readouterr()
    assert out.err == f"palazzo verify: no such file: {missing}\n" and out.out == ""
    assert main(["verify"]) == 2  # no file at all
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.long
def test_the_console_script_verifies(files):
    honest, tampered, _ = files
    script = Path(sys.executable).with_name("palazzo")
    if not script.exists():
        pytest.skip("no palazzo console script next to this Python")
    ok = subprocess.run([str(script), "verify", str(honest)], capture_output=True, text=True,
                        timeout=120)
    assert ok.returncode == 0 and ok.stdout.startswith("verified: ")
    bad = subprocess.run([str(script), "verify", str(tampered)], capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 3 and "Traceback" not in bad.stdout + bad.stderr
    assert bad.stdout.startswith("rejected: ")
