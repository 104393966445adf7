"""Records of protocol version 2 still verify under version 3: a game saved by a version 2
program (``data/medici_3_v2.palazzo``, made before version 3) reads as it did, and a change to
it is still caught."""

from pathlib import Path

from net.session.records.verify import verify_bytes
from net.wire.transcript import MAGIC, Entry, record_unpacker

RECORD = (Path(__file__).resolve().parent / "data" / "medici_3_v2.palazzo").read_bytes()


def _entries(data: bytes) -> list[Entry]:
    unpacker = record_unpacker(len(data))
    unpacker.feed(data[len(MAGIC):])
    return [Entry.parse(body, sig) for body, sig in unpacker]


def test_a_version_2_record_still_verifies():
    verdict = verify_bytes(RECORD)
    assert verdict.kind == "verified", verdict.text
    assert verdict.entries == 143
    assert {e.version for e in _entries(RECORD)} == {2}


def test_a_changed_version_2_record_is_still_caught():
    entries = _entries(RECORD)
    i = len(entries) // 2
    wrong = bytearray(RECORD)
    at = RECORD.index(entries[i].sig)
    wrong[at] ^= 1  # one bit of one signature
    verdict = verify_bytes(bytes(wrong))
    assert not verdict.ok and verdict.kind == "rejected", verdict.text
