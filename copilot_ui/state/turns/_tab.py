"""The person's tab as a turn reaches it: the one door from where turns run back to the person's state.

The top layer (`state/_tab.py`) implements it on the tab's CopilotState; a turn, its sink and its
tools use nothing else of the tab. Methods marked "locked" run inside `locked()`: one short block
with the tab's state locked, never awaiting the network.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from reflex.event import Event

from ...core import Thread, TurnOutcome
from ..sink import ViewUpdate
from ..view import Conversation


@dataclass(frozen=True)
class Refused:
    """The conversation cannot start a turn with the agent asked for: the tab shows why (`script` hands it the text)."""

    script: str


class Tab(Protocol):
    """A tab of the person's, for the turns of its conversation."""

    token: str  # the tab's session token (where its turn's browser events go)
    page: str  # the path of its page (what tools are available)
    browser_answer: Any  # the event a browser tool's script answers through (None: no script reaches its browser)
    kept: bool  # the store keeps its conversations (an agent task's thread is in memory only)

    def locked(self) -> AbstractAsyncContextManager[Any]:
        """A short block with the tab's state locked (and loaded, and saved after)."""
        ...

    async def owner(self) -> str:
        """Whose conversations the tab shows (locked)."""
        ...

    async def conversation(self, owner: str) -> tuple[Thread, Conversation]:
        """The tab's thread and its view, as they are now (locked)."""
        ...

    def agent(self, asked: str, thread: Thread, conversation: Conversation) -> str | Refused:
        """The agent a new turn of the conversation talks to (fixed now, if it had none), or why not (locked)."""
        ...

    async def page_state(self, state_type: type) -> Any:
        """One of the page's Reflex states, live (locked)."""
        ...

    async def show(self, shown: ViewUpdate) -> None:
        """Write what a turn's sink shows into the tab's state (it locks the state itself)."""
        ...

    async def send(self, event: Event) -> None:
        """Send a browser event to the tab (a script with a text's pieces): nothing reaches a closed one, nor any once
        the server was asked to stop (what shows is what's kept)."""
        ...

    async def running(self, running: bool, status: str = "", dev: str = "") -> None:
        """Say whether a turn runs for the tab, what it does now, and its dev console's text (it locks itself)."""
        ...

    async def say_running(self, running: bool, status: str = "", dev: str = "") -> None:
        """The same, inside a block the caller has locked (locked)."""
        ...

    async def turn_ended(self, outcome: TurnOutcome | None) -> None:
        """A turn of its thread is over, told before it lets the thread go (None: it failed, and said so)."""
        ...
