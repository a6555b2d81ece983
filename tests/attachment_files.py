"""Files a person attaches in the tests: a real PNG image of a chosen size and a small CSV of orders."""

from __future__ import annotations

import struct
import zlib

ORDERS_CSV = b"id,city,total\n1042,Berlin,120.50\n1043,Paris,80.00\n1044,London,42.10\n"  # a header and 3 rows


def png(width: int = 106, height: int = 106) -> bytes:
    """A real PNG image (grey, stored uncompressed): 34 KB at the default 106x106."""
    raw = b"".join(b"\x00" + b"\x80\x80\x80" * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 0)) + chunk(b"IEND", b"")
