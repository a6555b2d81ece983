"""Whether a text gives a secret away: the checks every ring's secret tests share."""

from __future__ import annotations

import base64
import binascii
import re

_BASE64_RUN = re.compile(r"[A-Za-z0-9+/\-_]+")


def leaks(text: str, secret: str, *, chars: int = 15, window: int = 6) -> list[str]:
    """How the text gives the secret away, if it does: a piece of `chars` characters of it, as written, or
    `window` consecutive bytes of it read by decoding any stretch of the text as base64 (either alphabet,
    any alignment). Empty when the text gives nothing away."""
    found = [
        f"{secret[start : start + chars]!r} as written"
        for start in range(max(1, len(secret) - chars + 1))
        if secret[start : start + chars] in text
    ]
    data = secret.encode()
    pieces = {data[start : start + window] for start in range(len(data) - window + 1)}
    for decoded in _base64_readings(text):
        found += [f"{piece!r} in base64" for piece in pieces if piece in decoded]
    return found


def _base64_readings(text: str) -> list[bytes]:
    readings = []
    for run in _BASE64_RUN.findall(text):
        standard = run.replace("-", "+").replace("_", "/")
        for start in range(4):
            chunk = standard[start:]
            chunk = chunk[: len(chunk) - len(chunk) % 4]
            try:
                readings.append(base64.b64decode(chunk, validate=True))
            except binascii.Error:
                continue
    return readings
