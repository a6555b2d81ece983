"""Replaying a recorded AG-UI stream from a file: `.jsonl` (one event a line) or `.sse` (as sent)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ._apply import EventPipeline
from ._sse import SSEFrames
from ._thread import AGUIThread


def read_frames(path: str | Path) -> Iterator[str]:
    """The frames of a recording: lines of a .jsonl file, or the data of each event of an .sse file."""
    path = Path(path)
    with path.open(encoding="utf-8", errors="replace") as file:  # decoded as httpx decodes a live stream
        if path.suffix.lower() in (".sse", ".txt", ".eventstream"):
            frames = SSEFrames()
            for text in file:
                yield from frames.feed(text)
            yield from frames.close()
            return
        for line in file:
            if line.strip():
                yield line


def replay(path: str | Path, thread: AGUIThread | None = None) -> AGUIThread:
    """Verify and apply a recorded stream to a thread (a new, empty one by default)."""
    thread = thread if thread is not None else AGUIThread()
    pipeline = EventPipeline(thread)
    for frame in read_frames(path):
        pipeline.feed_frame(frame)
    pipeline.finish()
    return thread
