"""The protocol's errors: each is a ``ProtocolError`` carrying the wire code the sender is told
(``docs/protocol.md``, the error table)."""

from net.wire.errors import (
    E_CHEAT,
    E_ILLEGAL,
    HOST,
    CheatDetected,
    LocalProtocolError,
    ProtocolError,
    RemoteProtocolError,
)


def test_a_detected_cheat_is_a_protocol_error_that_tells_the_sender_code_13():
    e = CheatDetected(2, 5, "its seed does not match its commitment")
    assert isinstance(e, ProtocolError)
    assert e.code == E_CHEAT == 13
    assert (e.seat, e.step, e.reason) == (2, 5, "its seed does not match its commitment")
    assert str(e) == "cheat detected: seat 2 at step 5: its seed does not match its commitment"


def test_a_detected_cheat_may_carry_a_more_exact_code_and_names_the_host_as_the_host():
    e = CheatDetected(HOST, "shuffle", "a shuffle proof fails", E_ILLEGAL)
    assert e.code == E_ILLEGAL
    assert str(e) == "cheat detected: the host at shuffle: a shuffle proof fails"


def test_the_other_protocol_errors_default_to_code_1_and_keep_a_given_code():
    assert LocalProtocolError("x").code == RemoteProtocolError("x").code == 1
    assert RemoteProtocolError("x", 4).code == 4
