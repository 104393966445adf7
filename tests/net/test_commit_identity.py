"""Known-answer vectors and behaviour of commitments and identities."""

import hashlib
import os
import stat
import struct

from net.session.machines.commit import commit, new_salt, opens
from net.wire.identity import Identity, fingerprint, verify

GAME = bytes(16)
SALT = bytes(range(32))


def card_value(card: int) -> bytes:
    """A card as a value to commit to: a signed 2-byte big-endian number (as the vectors were
    made)."""
    return struct.pack(">h", card)


def test_commitment_known_answer():
    c = commit(b"card", GAME, 2, b"hide/1", card_value(37), SALT)
    assert c.hex() == "189f7c0d751a8a635b04dfafbedef89e4023072eb24fc99545381c130ab3b17e"
    # the same construction spelled out: length-prefixed fields under the domain tag
    fields = [b"palazzo/commit/v1", b"card", GAME, struct.pack(">i", 2), b"hide/1",
              struct.pack(">h", 37), SALT]
    assert c == hashlib.sha256(b"".join(struct.pack(">I", len(f)) + f for f in fields)).digest()
    seed = commit(b"seed", bytes.fromhex("00112233445566778899aabbccddeeff"), 0, b"seed",
                  b"\x07" * 32, b"\xff" * 32)
    assert seed.hex() == "6479e1fb94c800b1d68b2113ed890d13d56409b68c7a3f59e21b2b2c97d33afc"


def test_a_commitment_opens_only_with_its_own_card_salt_seat_slot_and_game():
    salt = new_salt()
    c = commit(b"card", GAME, 1, b"top/0", card_value(12), salt)
    assert opens(c, b"card", GAME, 1, b"top/0", card_value(12), salt)
    assert not opens(c, b"card", GAME, 1, b"top/0", card_value(13), salt)
    assert not opens(c, b"card", GAME, 1, b"top/0", card_value(12), new_salt())
    assert not opens(c, b"card", GAME, 2, b"top/0", card_value(12), salt)
    assert not opens(c, b"card", GAME, 1, b"top/1", card_value(12), salt)
    assert not opens(c, b"card", b"\x01" * 16, 1, b"top/0", card_value(12), salt)
    assert not opens(c, b"seed", GAME, 1, b"top/0", card_value(12), salt)
    assert not opens(c, b"card", GAME, 1, b"top/0", card_value(12), salt[:31])


def test_length_prefixes_keep_fields_apart():
    a = commit(b"card", GAME, 0, b"ab", b"c", SALT)
    b = commit(b"card", GAME, 0, b"a", b"bc", SALT)
    assert a != b


def test_ed25519_rfc8032_vector_1():
    ident = Identity(bytes.fromhex(
        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
    assert ident.public_key.hex() == (
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
    sig = ident.sign(b"", b"")
    assert sig.hex() == (
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
        "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
    assert verify(ident.public_key, b"", b"", sig)


def test_signatures_are_bound_to_their_tag_and_key():
    a, b = Identity.generate(), Identity.generate()
    sig = a.sign(b"tag/", b"message")
    assert verify(a.public_key, b"tag/", b"message", sig)
    assert not verify(a.public_key, b"other/", b"message", sig)
    assert not verify(b.public_key, b"tag/", b"message", sig)
    assert not verify(a.public_key, b"tag/", b"message!", sig)
    assert not verify(a.public_key[:31], b"tag/", b"message", sig)


def test_the_profile_key_is_made_once_private_and_reused(tmp_path):
    first = Identity.load_or_create(tmp_path)
    again = Identity.load_or_create(tmp_path)
    assert first.public_key == again.public_key
    mode = stat.S_IMODE(os.stat(tmp_path / "identity.key").st_mode)
    assert mode == 0o600
    assert Identity.load_or_create(tmp_path / "other").public_key != first.public_key


def test_the_default_folder_follows_xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    ident = Identity.load_or_create()
    assert (tmp_path / "palazzo" / "identity.key").read_bytes()
    assert ident.fingerprint == fingerprint(ident.public_key)
    assert len(ident.fingerprint) == 19 and ident.fingerprint.count("-") == 3
