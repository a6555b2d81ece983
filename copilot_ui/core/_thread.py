"""The thread as the run loop keeps it: the AG-UI conversation plus the loop's own bookkeeping.

Everything the loop needs to decide its next step lives here, so that a thread saved while it
waits for a person (or when the server restarts) is resumed by a click, a reload or another
worker: the person's decisions, and the counters of the current turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ag_ui.core import Message

from .. import protocol
from ._decisions import Decision


@dataclass
class TurnBook:
    """Counters and flags of the current turn (from a person's message until the agent is done)."""

    agent_runs: int = 0  # runs of the agent in this turn, the first included
    follow_up_due: bool = False  # every call of the last batch has its result and one wants a follow-up
    batch_wants_follow_up: bool = False
    batch_completed_run: bool = False
    last_call_signature: str | None = None
    same_call_streak: int = 0  # replies in a row that made the same call
    last_call_run: int = 0  # the agent run (of this turn) that made the last call counted
    last_sent_message_id: str | None = None  # the last message of the thread when the agent last ran


class Thread(protocol.Thread):
    """An AG-UI thread with the run loop's bookkeeping."""

    def __init__(self, thread_id: str | None = None, messages: Any = (), state: Any = None) -> None:
        super().__init__(thread_id, messages, state)
        self.decisions: dict[str, Decision] = {}  # by call id (or interrupt id)
        self.turn = TurnBook()

    def start_turn(self) -> None:
        """A person spoke: the counters start again."""
        self.turn = TurnBook()

    def clear(self) -> None:
        """Forget everything: messages, state, decisions, counters."""
        super().clear()
        self.decisions = {}
        self.turn = TurnBook()

    @classmethod
    def from_messages(cls, messages: list[Message], state: Any = None, thread_id: str | None = None) -> Thread:
        """A thread holding these messages."""
        return cls(thread_id, messages, state)
