"""Server-sent events to AG-UI frames, with a bound on the size of a frame.

Lines and fields are decoded by httpx-sse's decoders; this module adds what they leave out: a
frame (or an unterminated line) larger than the limit is an error instead of a growing buffer,
so a server that never ends a frame cannot exhaust memory.
"""

from __future__ import annotations

from collections.abc import Iterator

from httpx_sse._decoders import SSEDecoder, SSELineDecoder

from ..errors import FrameTooLarge

DEFAULT_MAX_FRAME_CHARS = 10_000_000  # the reference client's bound on an unterminated frame


class SSEFrames:
    """Feed text as it arrives; get the data of each complete event."""

    def __init__(self, max_frame_chars: int = DEFAULT_MAX_FRAME_CHARS) -> None:
        self.max_frame_chars = max_frame_chars
        self._lines = SSELineDecoder()
        self._events = SSEDecoder()
        self._unterminated = 0  # characters of a line not ended yet
        self._frame = 0  # characters of the lines of the frame being read

    def feed(self, text: str) -> Iterator[str]:
        """The data of every event completed by this text."""
        lines = self._lines.decode(text)
        if not lines:
            self._unterminated += len(text)
        else:
            buffered = self._lines.buffer
            self._unterminated = len(buffered[0]) if buffered else 0
        for line in lines:
            self._frame += len(line)
            event = self._events.decode(line)
            if not line:  # a blank line ends the frame, even one of comments only (a keep-alive)
                self._frame = 0
            if event is not None and event.data:
                yield event.data
        if self._unterminated + self._frame > self.max_frame_chars:
            raise FrameTooLarge(self.max_frame_chars)

    def close(self) -> Iterator[str]:
        """The data of a last event the stream did not end with a blank line."""
        for line in (*self._lines.flush(), ""):
            event = self._events.decode(line)
            if event is not None and event.data:
                yield event.data
