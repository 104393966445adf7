"""A player's identity: an Ed25519 key pair kept in the user's configuration folder.

Rules:

* The key lives in ``$XDG_CONFIG_HOME/palazzo/identity.key`` (default
  ``~/.config/palazzo/identity.key``): the 32-byte private seed, file mode 0600, made on first use.
* One key is one player. A second player on one account (two programs at one table) takes an
  identity of its own (``--identity``, ``identity_path``): a file (a name with a ``/`` or ending
  in ``.key``: the file is made there on first use) or a profile name (letters, digits, ``-`` and
  ``_``, at most 32): ``$XDG_CONFIG_HOME/palazzo/identities/NAME.key``. Anything else is a
  ``ValueError`` naming the rule. ``load_or_create(spec=...)`` loads or makes it.
* Every signature covers a domain tag followed by the message, so a signature made for one
  purpose can never be replayed for another (``sign(tag, message)``).
* A public key from outside is checked before anything is verified with it (``check_public_key``):
  the canonical 32-byte encoding of a point of the prime-order subgroup of edwards25519, as every
  honestly made key is. The identity and the other points of small order are refused (with one
  of them a single fixed signature verifies for every message, so anyone could write in that
  key's name), and so are non-canonical encodings and points with a small-order component.
  The verdict on the last ``KEY_MEMO`` keys is remembered: a game's few keys are checked once,
  not again for every entry and proof verified with them.
* ``verify`` is strict: the key is checked as above, and libsodium's verification (through
  PyNaCl) refuses a signature whose ``R`` is of small order or whose ``S`` is not below the group
  order, so one message has one valid signature per key.
* A fingerprint is the first 8 bytes of SHA-256 of the public key, as four groups of four hex
  digits (``3f2a-91bc-07de-5a11``): short enough to read aloud in a lobby.
* Nothing but signatures comes from the identity key: no secret of a game is derived from it
  or sealed under it (a game's secrets live in the seat's journal and are erased at its end:
  ``net.session.records.journal``), so whoever later gets the key opens no card of a past game.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from nacl import bindings as _na
from nacl.exceptions import BadSignatureError
from nacl.exceptions import RuntimeError as _NaclRuntimeError

KEY_FILE = "identity.key"
PROFILES = "identities"
_PROFILE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
PUBLIC_KEY_SIZE = 32
SIGNATURE_SIZE = 64
KEY_MEMO = 256  # keys whose check is remembered


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "palazzo"


def identity_path(spec: str | None = None) -> Path:
    """Where the identity ``spec`` names lives: ``None`` or ``""`` the account's own key, a
    file path (with a ``/`` or ending in ``.key``), or a profile name under the config folder."""
    if not spec:
        return config_dir() / KEY_FILE
    if "/" in spec or spec.endswith(".key"):
        return Path(spec).expanduser()
    if len(spec) > 32 or not set(spec) <= _PROFILE_CHARS:
        raise ValueError(f"identity {spec!r}: a file (with a / or ending in .key) or a profile "
                         "name of at most 32 letters, digits, - and _")
    return config_dir() / PROFILES / f"{spec}.key"


def fingerprint(public_key: bytes) -> str:
    h = hashlib.sha256(public_key).hexdigest()[:16]
    return "-".join(h[i : i + 4] for i in range(0, 16, 4))


class InvalidKey(ValueError):
    """Bytes that are not an acceptable Ed25519 public key; the message names the check."""


_IDENTITY = bytes([1]) + bytes(31)
_P = 2**255 - 19


@functools.lru_cache(maxsize=KEY_MEMO)
def _valid_point(public_key: bytes) -> bool:
    """libsodium's check: the canonical encoding of a point of the prime-order subgroup, not
    of small order."""
    return bool(_na.crypto_core_ed25519_is_valid_point(public_key))


def check_public_key(public_key: object) -> bytes:
    """``public_key`` if it is an acceptable Ed25519 public key, else ``InvalidKey`` saying which
    check it fails: its size, a non-canonical encoding, not a curve point, a point of small
    order, or a point outside the prime-order subgroup."""
    if type(public_key) is not bytes or len(public_key) != PUBLIC_KEY_SIZE:
        raise InvalidKey(f"Ed25519 key check: a public key is {PUBLIC_KEY_SIZE} bytes")
    if _valid_point(public_key):
        return public_key
    if int.from_bytes(public_key, "little") & (2**255 - 1) >= _P:
        raise InvalidKey("Ed25519 key check: a non-canonical encoding")
    try:
        eight = public_key
        for _ in range(3):
            eight = _na.crypto_core_ed25519_add(eight, eight)
    except _NaclRuntimeError:
        raise InvalidKey("Ed25519 key check: not the encoding of a curve point") from None
    if eight == _IDENTITY:
        raise InvalidKey("Ed25519 key check: a point of small order")
    raise InvalidKey("Ed25519 key check: a point outside the prime-order subgroup")


def is_valid_key(public_key: object) -> bool:
    """Whether ``check_public_key`` takes ``public_key``."""
    return type(public_key) is bytes and len(public_key) == PUBLIC_KEY_SIZE \
        and _valid_point(public_key)


def verify(public_key: bytes, tag: bytes, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is ``public_key``'s signature of ``tag || message``, strictly: the
    key must pass ``check_public_key`` and the signature libsodium's checks."""
    if not is_valid_key(public_key) or type(signature) is not bytes \
            or len(signature) != SIGNATURE_SIZE:
        return False
    try:
        _na.crypto_sign_open(signature + tag + message, public_key)
    except (BadSignatureError, ValueError, TypeError):
        return False
    return True


class Identity:
    """A private key and what follows from it."""

    def __init__(self, seed: bytes) -> None:
        if len(seed) != 32:
            raise ValueError("an identity seed is 32 bytes")
        # imported here: what only checks signatures (``palazzo verify``) never needs them
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        self._key = Ed25519PrivateKey.from_private_bytes(seed)
        raw = serialization.Encoding.Raw
        self.public_key: bytes = self._key.public_key().public_bytes(raw, serialization.PublicFormat.Raw)

    @classmethod
    def generate(cls) -> Identity:
        return cls(os.urandom(32))

    @classmethod
    def load_or_create(cls, folder: Path | None = None, spec: str | None = None) -> Identity:
        """The profile's identity, made and saved on first use: the key in ``folder``, or the
        one ``spec`` names (``identity_path``), by default the account's."""
        path = folder / KEY_FILE if folder is not None else identity_path(spec)
        folder = path.parent
        if path.is_dir():
            raise ValueError(f"{path} is a folder, not a palazzo identity key")
        if path.exists():
            seed = path.read_bytes()
            if len(seed) != 32:
                raise ValueError(f"{path} is not a palazzo identity key (expected 32 bytes)")
            return cls(seed)
        folder.mkdir(parents=True, exist_ok=True)
        seed = os.urandom(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(seed)
        return cls(seed)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    def sign(self, tag: bytes, message: bytes) -> bytes:
        return self._key.sign(tag + message)

    def __repr__(self) -> str:
        return f"<Identity {self.fingerprint}>"
