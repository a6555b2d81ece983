"""The run loop's bookkeeping of a thread as JSON: what a thread waiting for a person needs to resume.

The core's Thread is getting `bookkeeping_json()` / `restore_bookkeeping(saved)`; where it has them
they are used, and the fallback below (decisions, turn counters, open interrupts) goes with the
merge. Everything is JSON: nothing stored is pickled.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ag_ui.core import Interrupt

from ..core import Answer, Approve, Decision, Deny, Thread, TurnBook


def bookkeeping_of(thread: Thread) -> dict[str, Any]:
    """The thread's bookkeeping, as a JSON object."""
    if hasattr(thread, "bookkeeping_json"):
        return thread.bookkeeping_json()
    return {
        "decisions": {key: _decision_json(decision) for key, decision in thread.decisions.items()},
        "turn": dataclasses.asdict(thread.turn),
        "interrupts": [interrupt.model_dump(mode="json", by_alias=True) for interrupt in thread.interrupts],
    }


def restore_bookkeeping(thread: Thread, saved: dict[str, Any]) -> None:
    """Put saved bookkeeping back into a thread."""
    if hasattr(thread, "restore_bookkeeping"):
        thread.restore_bookkeeping(saved)
        return
    thread.decisions = {key: _decision(value) for key, value in saved.get("decisions", {}).items()}
    thread.turn = TurnBook(**saved.get("turn", {}))
    thread.interrupts = [Interrupt.model_validate(value) for value in saved.get("interrupts", [])]


def _decision_json(decision: Decision) -> dict[str, Any]:
    if isinstance(decision, Approve):
        return {"kind": "approve", "arguments": decision.arguments}
    if isinstance(decision, Deny):
        return {"kind": "deny", "reason": decision.reason}
    return {"kind": "answer", "value": decision.value}


def _decision(saved: dict[str, Any]) -> Decision:
    kind = saved.get("kind")
    if kind == "approve":
        return Approve(saved.get("arguments"))
    if kind == "deny":
        return Deny(saved.get("reason", ""))
    return Answer(saved.get("value"))
