"""Protocol version 3: a program of another version is refused with one line naming both
versions, on either side, before anything of a game is exchanged."""

from net.session.machines.conversation import VERSION, hello_signature
from net.session.machines.peer_session import PeerSession
from net.wire.identity import Identity
from net.wire.rpc import Codec, Notification, Request, Response
from net.wire.transcript import VERSION as ENTRY_VERSION


def test_this_program_speaks_and_writes_version_3():
    assert VERSION == ENTRY_VERSION == 3


def test_a_seat_of_version_3_refuses_a_host_of_version_2_naming_both():
    peer = PeerSession(Identity.generate(), "p")
    host = Identity.generate().public_key
    peer.receive_data(Codec().send(Notification("challenge", ({
        "nonce": bytes(32), "host": host, "version": 2, "game": "medici", "players": 3,
        "code": False},))))
    assert peer.state == "failed"
    assert "the host speaks protocol version 2, this program version 3" in str(peer.error)
    assert not peer.data_to_send()  # no hello went out


def test_a_host_of_version_3_refuses_a_hello_of_version_2_naming_both(make_game):
    g = make_game(3)
    raw, conn = g.add_raw()
    (challenge,) = raw.events()
    fields = challenge.params[0]
    assert fields["version"] == 3
    ident = Identity.generate()
    sig = hello_signature(ident, fields["nonce"], fields["host"])
    g.link.send(conn, Codec().send(Request(1, "hello", ({
        "name": "Old", "key": ident.public_key, "sig": sig, "nonce": bytes(32),
        "version": 2},))))
    (answer,) = [e for e in raw.events() if isinstance(e, Response)]
    assert answer.error is not None
    assert "this host speaks protocol version 3, the program that said hello version 2" \
        in answer.error.message
    assert g.host.seats == []  # nobody was seated


def test_a_seat_says_its_version_in_its_hello(make_game):
    g = make_game(3)
    peer = PeerSession(Identity.generate(), "p")
    g.link.add(peer)
    g.link.pump()
    assert g.host.seats and g.host.seats[0].name == "p"
