# The part of msgpack's interface palazzo uses, typed: a decoded value is an ``object`` its
# reader narrows (msgpack ships no type information of its own).
from collections.abc import Callable, Iterator

class UnpackException(Exception): ...
class BufferFull(UnpackException): ...
class OutOfData(UnpackException): ...

class Packer:
    def __init__(self, *, use_bin_type: bool = ...) -> None: ...
    def pack(self, obj: object) -> bytes: ...

class Unpacker:
    def __init__(
        self,
        file_like: object = ...,
        *,
        read_size: int = ...,
        use_list: bool = ...,
        raw: bool = ...,
        strict_map_key: bool = ...,
        object_pairs_hook: Callable[[list[tuple[object, object]]], object] | None = ...,
        ext_hook: Callable[[int, bytes], object] = ...,
        max_buffer_size: int = ...,
        max_array_len: int = ...,
        max_map_len: int = ...,
        max_ext_len: int = ...,
    ) -> None: ...
    def feed(self, next_bytes: bytes | memoryview) -> None: ...
    def unpack(self) -> object: ...
    def read_map_header(self) -> int: ...
    def tell(self) -> int: ...
    def __iter__(self) -> Iterator[object]: ...
    def __next__(self) -> object: ...

def packb(o: object, *, use_bin_type: bool = ...) -> bytes: ...
def unpackb(
    packed: bytes,
    *,
    raw: bool = ...,
    strict_map_key: bool = ...,
    object_pairs_hook: Callable[[list[tuple[object, object]]], object] | None = ...,
    ext_hook: Callable[[int, bytes], object] = ...,
    max_array_len: int = ...,
    max_map_len: int = ...,
    max_ext_len: int = ...,
) -> object: ...
