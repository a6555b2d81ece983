"""The agent's own questions (AG-UI RUN_FINISHED with outcome "interrupt"): shown, decided, resumed.

Each open interrupt is shown to a person under its key (its tool call id, or its own id) with a
digest of what they see: the call's name and arguments, or the interrupt's reason, and its
message. Once every interrupt is decided, the agent runs again and its `resume` carries the
decisions; that run uses them up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ag_ui.core import Interrupt, ResumeEntry

from ._awaiting import Awaiting, interrupt_as_shown
from ._decisions import Answer, Approve, Decision, Deny
from ._events import AwaitingPerson
from ._thread import Thread

if TYPE_CHECKING:
    from ._drive import Drive


def interrupt_key(interrupt: Interrupt) -> str:
    """The key an interrupt waits under: its tool call's id, or its own."""
    return interrupt.tool_call_id or interrupt.id


def interrupts_decided(drive: Drive) -> bool:
    """Every open interrupt has a decision (with no person to ask, every one counts as denied)."""
    if not drive.loop.ask_person:
        return True
    return all(_decided(drive.thread, interrupt) for interrupt in drive.thread.interrupts)


async def announce_interrupts(drive: Drive) -> None:
    """Show each undecided interrupt to the person, once per drive; one that changed since it was shown is asked anew."""
    thread = drive.thread
    for interrupt in thread.interrupts:
        shown = _as_shown(thread, interrupt)
        before = thread.awaiting.get(shown.key)
        if before is not None and before.digest != shown.digest:
            thread.forget_waiting(shown.key)  # the agent asks something else under the same key now
            drive.announced.discard(shown.key)
        if shown.key in drive.announced or _decided(thread, interrupt):
            continue
        drive.announced.add(shown.key)
        thread.awaiting[shown.key] = shown
        await drive.emit(
            AwaitingPerson(shown.key, shown.tool_name, shown.arguments, shown.kind, shown.message, interrupt.id, shown.digest)
        )


def resume_entries(drive: Drive) -> list[ResumeEntry] | None:
    """What the next run tells the agent about each of its interrupts."""
    entries = []
    for interrupt in drive.thread.interrupts:
        decision = drive.thread.decisions.get(interrupt_key(interrupt))
        if not drive.loop.ask_person:
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


def _as_shown(thread: Thread, interrupt: Interrupt) -> Awaiting:
    return interrupt_as_shown(interrupt, thread.tool_call(interrupt.tool_call_id) if interrupt.tool_call_id else None)


def _decided(thread: Thread, interrupt: Interrupt) -> bool:
    """Decided on as it is now: a decision made on what the interrupt said before does not count."""
    key = interrupt_key(interrupt)
    if key not in thread.decisions:
        return False
    shown = thread.awaiting.get(key)
    return shown is None or shown.digest == _as_shown(thread, interrupt).digest  # None: the loop decided for the person


_CANCELLED = object()


def _payload(decision: Decision | None) -> Any:
    if isinstance(decision, Approve):
        payload: dict[str, Any] = {"approved": True}
        if decision.arguments is not None:
            payload["editedArgs"] = decision.arguments
        return payload
    if isinstance(decision, Deny):
        return {"approved": False, "reason": decision.reason} if decision.reason else {"approved": False}
    if isinstance(decision, Answer):
        return decision.value
    return _CANCELLED
