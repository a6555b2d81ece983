"""What waits for a person, bound to what the person was shown.

A decision counts only for a call that waits for that decision now, as shown, with the arguments
shown. When the loop asks a person, it records the call under its key with a digest of the call's
name and arguments (and, for an agent's interrupt, the message shown); the person's decision
carries that digest back. A call that changed since (an agent re-sending a call id with other
arguments) no longer matches: its old decision is dropped and the person is asked again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Literal

from ag_ui.core import Interrupt, ToolCall

from ..protocol._json import JSONObject
from ._calls import canonical_json, parse_arguments, signature
from ._decisions import Answer, Approve, Decision, Deny

Kind = Literal["approval", "input"]


@dataclass(frozen=True)
class Awaiting:
    """A call (or an agent's interrupt) waiting for a person, as they were shown it."""

    key: str  # the tool call id, or for an interrupt its tool_call_id or its own id
    kind: Kind  # "approval": Approve or Deny; "input": Answer or Deny
    digest: str
    tool_name: str
    arguments: JSONObject
    message: str = ""
    interrupt_id: str | None = None


def call_digest(name: str, arguments: object, message: str = "") -> str:
    """A short digest of a call as shown: its name, its arguments (canonical JSON), and an interrupt's message."""
    return _short_hash(name + "\x00" + canonical_json(arguments) + ("\x00" + message if message else ""))


def digest_of_call(call: ToolCall) -> str:
    """The digest of a tool call as the agent sent it: call_digest of its signature (no message)."""
    return _short_hash(signature(call))


def interrupt_key(interrupt: Interrupt) -> str:
    """The key an interrupt waits under: its tool call's id, or its own."""
    return interrupt.tool_call_id or interrupt.id


def interrupt_as_shown(interrupt: Interrupt, call: ToolCall | None) -> Awaiting:
    """An agent's interrupt as a person is shown it: its call (or its reason), the arguments, its message."""
    name = call.function.name if call is not None else interrupt.reason
    try:
        arguments = parse_arguments(call) if call is not None else {}
    except ValueError:
        arguments = {}
    kind: Kind = "approval" if interrupt.reason in ("tool_call", "confirmation") else "input"
    message = interrupt.message or ""
    return Awaiting(interrupt_key(interrupt), kind, call_digest(name, arguments, message), name, arguments, message, interrupt.id)


def fits(kind: Kind, decision: Decision) -> bool:
    """Whether a decision answers this kind of wait: Approve or Deny an approval, Answer or Deny a question."""
    if isinstance(decision, Deny):
        return True
    return isinstance(decision, Approve) if kind == "approval" else isinstance(decision, Answer)


def _short_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]
