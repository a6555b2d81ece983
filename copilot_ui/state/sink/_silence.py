"""The agent's silence while its run is open: after a while the status says how long it has been."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

WAITING_AFTER = 2.0  # seconds without a word from the agent before the status says how long it has been


class Silence:
    """Since when the agent has said nothing in its open run; every second past `WAITING_AFTER`, `say` is told."""

    def __init__(self, say: Callable[[int], None]) -> None:
        self._say = say
        self._since: float | None = None
        self._ticker: asyncio.Task[None] | None = None

    @property
    def run_open(self) -> bool:
        """Whether the agent's run is open (and the silence counted)."""
        return self._since is not None

    def run_opened(self) -> None:
        self._since = time.monotonic()
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.ensure_future(self._tick())

    def spoke(self) -> None:
        if self._since is not None:
            self._since = time.monotonic()

    def run_closed(self) -> None:
        self._since = None

    def stop(self) -> None:
        self._since = None
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            if self._since is not None and (waited := time.monotonic() - self._since) >= WAITING_AFTER:
                self._say(int(waited))
