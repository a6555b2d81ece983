"""How a turn ended, as its caller gets it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ._thread import QueuedMessage

Status = Literal["done", "waiting", "stopped", "aborted", "cancelled", "error", "limit"]


@dataclass(frozen=True)
class TurnOutcome:
    """How a turn ended: done, waiting for a person, stopped (by a hook or loop detection), aborted (Stop), cancelled
    (the task running it was: the server stops), error, limit.

    `returned`: the messages the person wrote during a turn that was stopped; not sent, they go back
    into the message box.
    """

    status: Status
    message: str = ""
    returned: tuple[QueuedMessage, ...] = ()
