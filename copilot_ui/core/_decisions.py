"""What a person decided about a call that waited for them: approve (maybe with edited arguments), deny, answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..protocol._json import JSON, JSONObject, is_object


@dataclass(frozen=True)
class Approve:
    """Run the call; with `arguments`, run it with these instead (they are validated again)."""

    arguments: JSONObject | None = None
    """The arguments the person changed, to run with instead (validated again); None: as shown."""


@dataclass(frozen=True)
class Deny:
    """Do not run the call; the agent is told why."""

    reason: str = ""
    """Why, in the person's words: the agent reads it."""


@dataclass(frozen=True)
class Answer:
    """The person's answer to a human-in-the-loop call (or to an agent's question): it becomes the result."""

    value: JSON
    """The answer (any JSON value)."""


Decision = Union[Approve, Deny, Answer]


def decision_json(decision: Decision) -> JSONObject:
    """A decision as a JSON object (for stores)."""
    if isinstance(decision, Approve):
        return {"kind": "approve", "arguments": decision.arguments}
    if isinstance(decision, Deny):
        return {"kind": "deny", "reason": decision.reason}
    return {"kind": "answer", "value": decision.value}


def decision_from_json(saved: JSONObject) -> Decision:
    """The decision decision_json() wrote."""
    kind = saved.get("kind")
    if kind == "approve":
        arguments = saved.get("arguments")
        return Approve(arguments if is_object(arguments) else None)
    if kind == "deny":
        reason = saved.get("reason", "")
        return Deny(reason if isinstance(reason, str) else "")
    return Answer(saved.get("value"))
