"""The agent's own questions (AG-UI RUN_FINISHED with outcome "interrupt"): shown, decided, resumed.

Each open interrupt is shown to a person under its key (its tool call id, or its own id) with a
digest of what they see: the call's name and arguments, or the interrupt's reason, and its
message. Once every interrupt is decided, the agent runs again and its `resume` carries the
decisions; that run uses them up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ag_ui.core import ResumeEntry

from ..protocol._json import JSONObject
from ._awaiting import Awaiting, interrupt_key
from ._decisions import Answer, Approve, Decision, Deny
from ._events import AwaitingPerson
from ._thread import Thread

if TYPE_CHECKING:
    from ._turn import Turn


def interrupts_decided(turn: Turn) -> bool:
    """Every open interrupt has a decision (with no person to ask, every one counts as denied)."""
    if not turn.loop.ask_person:
        return True
    thread = turn.thread
    return all(_decided(thread, thread.interrupt_shown(interrupt)) for interrupt in thread.interrupts)


async def announce_interrupts(turn: Turn) -> None:
    """Show each undecided interrupt to the person, once per turn; one that changed since it was shown is asked anew."""
    thread = turn.thread
    for interrupt in thread.interrupts:
        shown = thread.interrupt_shown(interrupt)
        before = thread.awaiting.get(shown.key)
        if before is not None and before.digest != shown.digest:
            thread.forget_waiting(shown.key)  # the agent asks something else under the same key now
            turn.announced.discard(shown.key)
        if shown.key in turn.announced or _decided(thread, shown):
            continue
        turn.announced.add(shown.key)
        thread.awaiting[shown.key] = shown
        await turn.emit(
            AwaitingPerson(shown.key, shown.tool_name, shown.arguments, shown.kind, shown.message, interrupt.id, shown.digest)
        )


def resume_entries(turn: Turn) -> list[ResumeEntry] | None:
    """What the next run tells the agent about each of its interrupts."""
    entries: list[ResumeEntry] = []
    for interrupt in turn.thread.interrupts:
        decision = turn.thread.decisions.get(interrupt_key(interrupt))
        if not turn.loop.ask_person:
            decision = Deny("no person could be asked")
        payload = _payload(decision)
        if payload is _CANCELLED:
            entries.append(ResumeEntry(interrupt_id=interrupt.id, status="cancelled"))
        else:
            entries.append(ResumeEntry(interrupt_id=interrupt.id, status="resolved", payload=payload))
    return entries or None


def use_up_interrupts(thread: Thread) -> None:
    """The run that resumes the interrupts answers them: nothing of theirs waits any more."""
    for interrupt in thread.interrupts:
        thread.forget_waiting(interrupt_key(interrupt))
    thread.interrupts = []


def _decided(thread: Thread, now: Awaiting) -> bool:
    """Decided on as the interrupt is now: a decision made on what it said before does not count."""
    if now.key not in thread.decisions:
        return False
    shown = thread.awaiting.get(now.key)
    return shown is None or shown.digest == now.digest  # None: the loop decided for the person


_CANCELLED = object()


def _payload(decision: Decision | None) -> object:  # a JSON payload, or _CANCELLED
    if isinstance(decision, Approve):
        payload: JSONObject = {"approved": True}
        if decision.arguments is not None:
            payload["editedArgs"] = decision.arguments
        return payload
    if isinstance(decision, Deny):
        return {"approved": False, "reason": decision.reason} if decision.reason else {"approved": False}
    if isinstance(decision, Answer):
        return decision.value
    return _CANCELLED
