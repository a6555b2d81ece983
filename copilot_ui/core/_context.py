"""Where a run happens (the session), what a tool handler is given (its context), and how it reaches the app's state.

A tool never holds the session's state across its own waiting: a tool declared with `state=` runs
through StateAccess.run_with (the UI layer decides how its changes reach the session without
locking it while the handler waits), and a long tool without `state=` takes short blocks with
`async with context.state(SomeState) as state:` when it needs to read or change something.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

S = TypeVar("S")  # a state class of the app
R = TypeVar("R")


@dataclass(frozen=True)
class Session:
    """The page and the flags a run happens under; tools use it to say whether they are available."""

    page: str = "/"
    """The route of the page the person is on (`/orders`): what `available=` predicates look at."""
    flags: frozenset[str] = frozenset()
    """Flags for `available=` predicates (the copilot's Reflex binding sets none; an integrator's RunLoop may)."""
    data: dict[str, Any] = field(default_factory=dict[str, Any], hash=False, compare=False)
    """Anything else an integrator gives the run's tools."""


class StateAccess(Protocol):
    """How tools reach the session's state (the UI layer provides it)."""

    def open(self, state_type: type[S]) -> AbstractAsyncContextManager[S]:
        """A short block with the session's state of this type, changeable inside it."""
        ...

    async def run_with(self, state_type: type[S], handler: Callable[[S], Awaitable[R]]) -> R:
        """Run a tool handler that takes this state; its changes reach the session.

        The session is not locked while the handler waits.
        """
        ...


@dataclass
class ToolContext:
    """Given to a tool handler that asks for it (a parameter annotated ToolContext)."""

    call_id: str
    """The agent's id of this call."""
    tool_name: str
    """The tool's name."""
    session: Session
    """The page and flags the run happens under."""
    cancelled: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the run is stopped; a long tool may wait on it (the handler's task is cancelled too)."""
    _report: Callable[[float | None, str], None] | None = field(default=None, repr=False)
    _state_access: StateAccess | None = field(default=None, repr=False)

    def progress(self, fraction: float | None = None, message: str = "") -> None:
        """Show how far the tool has come (fraction 0..1, or None when unknown) and what it does now.

        Subscribers get it before the call's end; updates after the call has finished are ignored.
        """
        if self._report is not None:
            self._report(None if fraction is None else min(1.0, max(0.0, float(fraction))), message)

    def state(self, state_type: type[S]) -> AbstractAsyncContextManager[S]:
        """A short block with the session's state of this type: `async with context.state(Dashboard) as state:`.

        Keep the block short (no network inside it): the session may be locked while it is open.
        """
        if self._state_access is None:
            raise RuntimeError(
                f"{self.tool_name} asked for the app's state ({state_type.__name__}), which only the app provides: "
                "this run has no StateAccess"
            )
        return self._state_access.open(state_type)

    @property
    def is_cancelled(self) -> bool:
        """The run was stopped: a long tool should stop too."""
        return self.cancelled.is_set()
