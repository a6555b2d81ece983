"""(placeholder until the scrubber lands) Secrets kept out of what people see."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping


class Scrubber:
    """Replaces secrets in text."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self.secrets = sorted({s for s in secrets if len(s) >= 8}, key=len, reverse=True)

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Scrubber:
        ends = ("_API_KEY", "_TOKEN", "_SECRET", "_PASSWORD")
        return cls(value for name, value in environ.items() if name.upper().endswith(ends))

    def with_secrets(self, secrets: Iterable[str]) -> Scrubber:
        return Scrubber([*self.secrets, *secrets])

    def scrub(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "[redacted]")
        return text

    def stream(self) -> StreamScrubber:
        return StreamScrubber(self)


class StreamScrubber:
    """Scrubs text that arrives in pieces."""

    def __init__(self, scrubber: Scrubber) -> None:
        self._scrubber = scrubber
        self._held = ""

    def feed(self, piece: str) -> str:
        text = self._held + piece
        keep = 0
        for secret in self._scrubber.secrets:
            for size in range(min(len(secret) - 1, len(text)), 0, -1):
                if secret.startswith(text[-size:]):
                    keep = max(keep, size)
                    break
        safe, self._held = (text[: len(text) - keep], text[len(text) - keep :]) if keep else (text, "")
        return self._scrubber.scrub(safe)

    def end(self) -> str:
        held, self._held = self._held, ""
        return self._scrubber.scrub(held)
