"""What a run knows about where it happens (the session) and what a tool handler is given (its context)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Session:
    """The page and the flags a run happens under; tools use it to say whether they are available."""

    page: str = "/"
    flags: frozenset[str] = frozenset()
    data: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


@dataclass
class ToolContext:
    """Given to a tool handler that asks for it (a parameter annotated ToolContext)."""

    call_id: str
    tool_name: str
    session: Session
    cancelled: asyncio.Event = field(default_factory=asyncio.Event)
    _report: Callable[[float | None, str], None] | None = field(default=None, repr=False)

    def progress(self, fraction: float | None = None, message: str = "") -> None:
        """Show how far the tool has come (fraction 0..1, or None when unknown) and what it does now.

        Updates after the call has finished are ignored.
        """
        if self._report is not None:
            self._report(None if fraction is None else min(1.0, max(0.0, float(fraction))), message)

    @property
    def is_cancelled(self) -> bool:
        """The run was stopped: a long tool should stop too."""
        return self.cancelled.is_set()
