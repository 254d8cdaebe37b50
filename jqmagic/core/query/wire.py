"""The worker's wire format: frames of an 8-byte little-endian length, then the bytes.

A request is one JSON frame; a reply is a JSON header frame, then one frame holding the
result texts back to back (the header's ``sizes`` says where each ends).
"""

from __future__ import annotations

import struct
from typing import BinaryIO

_HEADER = struct.Struct("<Q")


def write_frame(stream: BinaryIO, data: bytes) -> None:
    stream.write(_HEADER.pack(len(data)))
    stream.write(data)


def _read_exact(stream: BinaryIO, n: int) -> bytes:
    chunks, left = [], n
    while left:
        chunk = stream.read(left)
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_frame(stream: BinaryIO) -> bytes:
    (size,) = _HEADER.unpack(_read_exact(stream, _HEADER.size))
    return _read_exact(stream, size)
