"""The audit at the end of a networked game: every entry was checked as it arrived, and the whole
record is read again from scratch, as ``palazzo verify`` reads a saved file."""

import copy

from net.session.commands.hosting import end_audit
from net.wire.transcript import Entry


def test_the_audit_at_the_end_reads_the_whole_record_again_and_says_so(played):
    table = played.peers[0].table
    said: list[str] = []
    assert end_audit(table, said.append)
    assert said == ["audit: verified (every signature, proof and move checked as it arrived, and "
                    "the whole record again from scratch)", "record: agreed by all 3 seats"]


def test_a_record_that_does_not_read_again_fails_the_audit_at_the_end(played):
    table = copy.copy(played.peers[0].table)
    table.transcript = copy.copy(table.transcript)
    entries = list(table.transcript.entries)
    last = entries[-1]
    entries[-1] = Entry(last.body, bytes(64), last.fields)  # its signature gone
    table.transcript.entries = entries
    said: list[str] = []
    assert not end_audit(table, said.append)
    assert said[0].startswith("audit: the record does not check out: rejected: entry "), said
