"""A sans-IO msgpack-rpc codec: bytes in, typed events out; events in, bytes out.

Wire format (msgpack-rpc, one msgpack value per frame, frames back to back on the stream):

* request       ``[0, msgid, method, params]``
* response      ``[1, msgid, error, result]``; ``error`` is nil or ``[code, message]``
* notification  ``[2, method, params]``

Rules of this codec:

* A frame is at most ``FRAME_LIMIT`` bytes; the ``msgpack.Unpacker`` runs with
  ``max_buffer_size`` at that limit, short arrays and maps (``MAX_ARRAY``, ``MAX_MAP``),
  ``raw=False`` (strings are UTF-8), ``strict_map_key=True``, and no extension types at all.
* Values may be nil, bool, int, str, bytes, arrays and maps with str keys. Floats,
  extension types and timestamps are refused.
* ``msgid`` is a uint32, ``method`` a name of 1 to 32 characters ``[a-z_.-]``, ``params`` an array.
* Anything else is a ``RemoteProtocolError`` with its wire code; after one, the connection is
  dead (``receive_data`` refuses more input) and should be closed.
* Sending an event this codec would refuse on receipt is a ``LocalProtocolError``.

Only this module looks inside raw wire lists; the rest of ``net`` sees frozen events.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeAlias, TypeGuard, Union

import msgpack

from net.wire.errors import E_MALFORMED, E_TOO_LARGE, LocalProtocolError, RemoteProtocolError

FRAME_LIMIT = 256 * 1024
READ_SIZE = 4096  # the unpacker's first buffer
MAX_ARRAY = 64
MAX_MAP = 32
MAX_DEPTH = 8

REQUEST, RESPONSE, NOTIFICATION = 0, 1, 2
_METHOD = re.compile(r"[a-z_.-]{1,32}\Z")

#: plain protocol data, as the codec decodes it and ``check_value`` holds a value to (a reader
#: narrows it, ``type(v) is dict`` and the like, before it uses a part of it)
Value: TypeAlias = Union[
    None, bool, int, str, bytes, "list[Value]", "tuple[Value, ...]", "dict[str, Value]"
]
#: a map of named fields, the payload of most messages
Fields: TypeAlias = "dict[str, Value]"


def _refuse_ext(code: int, data: bytes) -> object:
    raise ValueError(f"extension type {code} is not allowed")


_LEAVES = frozenset({type(None), bool, str, bytes})


def check_value(value: object, depth: int = 0) -> None:
    """Raise ``ValueError`` unless ``value`` is plain protocol data (see the module rules)."""
    if depth > MAX_DEPTH:
        raise ValueError("value nested too deeply")
    kind = type(value)
    if kind in _LEAVES:
        return
    if kind is int:
        if not -(1 << 63) <= value < (1 << 64):  # type: ignore[operator]
            raise ValueError("integer out of range")
        return
    inner = depth < MAX_DEPTH  # a leaf one level down needs no call of its own
    if kind is list or kind is tuple:
        if len(value) > MAX_ARRAY:  # type: ignore[arg-type]
            raise ValueError(f"array longer than {MAX_ARRAY}")
        for v in value:  # type: ignore[attr-defined]
            if not (inner and type(v) in _LEAVES):
                check_value(v, depth + 1)
        return
    if kind is dict:
        if len(value) > MAX_MAP:  # type: ignore[arg-type]
            raise ValueError(f"map larger than {MAX_MAP}")
        for k, v in value.items():  # type: ignore[attr-defined]
            if type(k) is not str:
                raise ValueError("map keys must be strings")
            if not (inner and type(v) in _LEAVES):
                check_value(v, depth + 1)
        return
    raise ValueError(f"values of type {kind.__name__} are not allowed")


def is_value(value: object) -> TypeGuard[Value]:
    """Whether ``value`` is plain protocol data (``check_value`` passes it)."""
    try:
        check_value(value)
    except ValueError:
        return False
    return True


def as_value(value: object) -> Value:
    """``value`` itself once it is plain protocol data; ``ValueError`` (``check_value``'s, naming
    what is wrong) when it is not."""
    check_value(value)
    if is_value(value):
        return value
    raise ValueError("not plain protocol data")  # check_value has said why already


@dataclass(frozen=True)
class RpcError:
    """An error carried by a response: ``[code, message]``."""

    code: int
    message: str

    def __post_init__(self) -> None:
        if type(self.code) is not int or type(self.message) is not str:
            raise ValueError("an error is [int code, str message]")


@dataclass(frozen=True)
class Request:
    msgid: int
    method: str
    params: tuple[Value, ...]

    def __post_init__(self) -> None:
        _check_msgid(self.msgid)
        _check_method(self.method)
        _check_params(self.params)


@dataclass(frozen=True)
class Response:
    msgid: int
    error: RpcError | None
    result: Value

    def __post_init__(self) -> None:
        _check_msgid(self.msgid)
        if self.error is not None and not isinstance(self.error, RpcError):
            raise ValueError("a response error is an RpcError or None")
        check_value(self.result)


@dataclass(frozen=True)
class Notification:
    method: str
    params: tuple[Value, ...]

    def __post_init__(self) -> None:
        _check_method(self.method)
        _check_params(self.params)


Event = Request | Response | Notification


def _check_msgid(msgid: object) -> None:
    if type(msgid) is not int or not 0 <= msgid < (1 << 32):
        raise ValueError(f"msgid must be a uint32, not {msgid!r}")


def _check_method(method: object) -> None:
    if type(method) is not str or not _METHOD.match(method):
        raise ValueError(f"bad method name {method!r}")


def _check_params(params: object) -> None:
    if type(params) is not tuple:
        raise ValueError("params must be a tuple")
    check_value(params)


def _msgid(value: Value) -> int:
    _check_msgid(value)
    assert isinstance(value, int)
    return value


def _method(value: Value) -> str:
    _check_method(value)
    assert isinstance(value, str)
    return value


def _event_from_wire(obj: object) -> Event:
    """Turn one decoded frame into an event; ``ValueError`` says what is wrong with it."""
    if type(obj) is not list or not obj or type(obj[0]) is not int:
        raise ValueError("a frame must be an array starting with its type 0, 1 or 2")
    frame = as_value(obj)
    assert type(frame) is list
    kind = frame[0]
    if kind == REQUEST and len(frame) == 4:
        params = frame[3]
        if type(params) is not list:
            raise ValueError("request params must be an array")
        return Request(_msgid(frame[1]), _method(frame[2]), tuple(params))
    if kind == RESPONSE and len(frame) == 4:
        err = frame[2]
        error = None
        if err is not None:
            if type(err) is not list or len(err) != 2:
                raise ValueError("a response error must be [code, message]")
            code, message = err
            if type(code) is not int or type(message) is not str:
                raise ValueError("an error is [int code, str message]")
            error = RpcError(code, message)
        return Response(_msgid(frame[1]), error, frame[3])
    if kind == NOTIFICATION and len(frame) == 3:
        params = frame[2]
        if type(params) is not list:
            raise ValueError("notification params must be an array")
        return Notification(_method(frame[1]), tuple(params))
    raise ValueError(f"frame type {kind!r} with {len(frame)} fields is not msgpack-rpc")


def _event_to_wire(event: Event) -> list[Value]:
    if isinstance(event, Request):
        return [REQUEST, event.msgid, event.method, list(event.params)]
    if isinstance(event, Response):
        err: Value = None if event.error is None else [event.error.code, event.error.message]
        return [RESPONSE, event.msgid, err, event.result]
    if isinstance(event, Notification):
        return [NOTIFICATION, event.method, list(event.params)]
    raise LocalProtocolError(f"not an rpc event: {event!r}")


class Codec:
    """One side of one connection. ``receive_data`` parses; ``send`` encodes."""

    def __init__(self, frame_limit: int = FRAME_LIMIT) -> None:
        self.frame_limit = frame_limit
        #: the largest frame taken from the peer; it may be lowered (the host does for a
        #: connection that has not taken a seat yet), never raised above ``frame_limit``
        self.receive_limit = frame_limit
        self._unpacker = msgpack.Unpacker(
            max_buffer_size=frame_limit,
            # its buffer starts this small and grows with the frames (left out, it would
            # start at the frame limit: 256 KiB for every connection, idle ones too)
            read_size=min(READ_SIZE, frame_limit),
            max_array_len=MAX_ARRAY,
            max_map_len=MAX_MAP,
            max_ext_len=0,
            raw=False,
            strict_map_key=True,
            ext_hook=_refuse_ext,
            use_list=True,
        )
        self._packer = msgpack.Packer(use_bin_type=True)
        self._fed = 0
        self._frame_start = 0
        self.broken: RemoteProtocolError | None = None
        self._next_id = 0

    def next_msgid(self) -> int:
        self._next_id = (self._next_id + 1) % (1 << 32)
        return self._next_id

    def receive_data(self, data: bytes) -> list[Event]:
        """Feed bytes from the peer; return the complete events they finish."""
        return list(self.iter_events(data))

    def iter_events(self, data: bytes) -> Iterator[Event]:
        """Feed bytes from the peer and yield the events they finish, parsing each only when
        it is asked for: a reader that stops early (to close the connection: nothing more of
        it will be read) never pays for the frames it did not take."""
        if self.broken is not None:
            raise self.broken
        view = memoryview(data)
        try:
            while True:
                yield from self._drain()
                if not view:
                    return
                free = self.receive_limit - (self._fed - self._unpacker.tell())
                if free <= 0:
                    raise RemoteProtocolError(
                        f"frame larger than {self.receive_limit} bytes", E_TOO_LARGE
                    )
                chunk = view[:free]
                view = view[free:]
                try:
                    self._unpacker.feed(chunk)
                except msgpack.BufferFull:
                    raise RemoteProtocolError(
                        f"frame larger than {self.receive_limit} bytes", E_TOO_LARGE
                    ) from None
                self._fed += len(chunk)
        except RemoteProtocolError as e:
            self.broken = e
            raise

    def _drain(self) -> Iterator[Event]:
        while True:
            try:
                obj = self._unpacker.unpack()
            except msgpack.OutOfData:
                break
            except Exception as e:  # the unpacker's many ways to refuse bad bytes
                raise RemoteProtocolError(f"malformed frame: {e}", E_MALFORMED) from None
            end = self._unpacker.tell()
            if end - self._frame_start > self.receive_limit:
                raise RemoteProtocolError(f"frame larger than {self.receive_limit} bytes", E_TOO_LARGE)
            self._frame_start = end
            try:
                event = _event_from_wire(obj)
            except ValueError as e:
                raise RemoteProtocolError(f"malformed frame: {e}", E_MALFORMED) from None
            yield event
        if self._unpacker.tell() - self._frame_start > self.receive_limit:
            raise RemoteProtocolError(f"frame larger than {self.receive_limit} bytes", E_TOO_LARGE)

    def send(self, event: Event) -> bytes:
        """Encode one event; ``LocalProtocolError`` if it would be refused on receipt."""
        data: bytes = self._packer.pack(_event_to_wire(event))
        if len(data) > self.frame_limit:
            raise LocalProtocolError(f"frame of {len(data)} bytes exceeds {self.frame_limit}")
        return data
