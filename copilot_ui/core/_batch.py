"""Settle the batch: every call without a result is prepared, then run or answered, and the batch becomes a verdict.

settle ─┬─ prepare each new call once, in call order (remembered by call id for the turn)
        ├─ in call order: apply the person's decisions; answer what needs no run; announce what
        │    waits; start what may run (in parallel; a sequential tool is a barrier: the calls
        │    before it finish first, it runs alone, the calls after it start once it is done)
        ├─ wait until a call ends or something arrives (a decision, a message); again
        └─ finalize: every call answered → "follow_up" or "complete"; or "wait" for a person;
           or "stop"
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ag_ui.core import ToolCall

from ._awaiting import Awaiting
from ._calls import Answered, Prepared, Waiting
from ._closing import NEW_MESSAGE, answer_open_calls
from ._events import AwaitingPerson
from ._execute import start
from ._prepare import decided, prepare
from ._results import record_result
from ._thread import Thread

if TYPE_CHECKING:
    from ._turn import Turn

Verdict = Literal["follow_up", "complete", "wait", "stop"]


@dataclass(frozen=True)
class Remembered:
    """A call's preparation, valid while the call is the same (an agent may re-send a call id changed)."""

    name: str
    arguments: str
    prepared: Prepared

    def is_for(self, call: ToolCall) -> bool:
        return self.name == call.function.name and self.arguments == call.function.arguments


def open_calls(thread: Thread) -> list[ToolCall]:
    """Calls without a result, in call order, except those an agent's interrupt holds (the agent answers them)."""
    calls = thread.unanswered_calls()
    if thread.interrupts:
        held = {interrupt.tool_call_id for interrupt in thread.interrupts}
        calls = [call for call in calls if call.id not in held]
    return calls


async def settle(turn: Turn) -> Verdict:
    """Run or answer the open calls until each has its result, a person must decide, or the run stops."""
    while True:
        turn.wake.clear()  # what arrives from here on is seen: by the next pass, or by the wait below
        if turn.stopping:
            return "stop"
        waiting = await _advance(turn)
        if turn.stopping:
            return "stop"
        if turn.running:
            await _wait_for_change(turn)
        elif not waiting:
            return finalize(turn)
        elif turn.wake.is_set():
            continue  # a decision came while the calls were looked at
        elif turn.thread.queued:  # the person wrote instead of deciding: their message is answered
            skipped = open_calls(turn.thread)
            await answer_open_calls(turn.thread, turn.emit, NEW_MESSAGE, "skipped", calls=skipped)
            for call in skipped:
                turn.forget(call.id)
        else:
            return "wait"


def finalize(turn: Turn) -> Verdict:
    """Every call of the batch has its result: what the results ask becomes the verdict, and the batch closes."""
    book = turn.thread.turn
    wishes = set(book.batch.values())
    book.batch.clear()
    if "complete_run" in wishes:
        return "complete"
    return "follow_up" if "follow_up" in wishes else "complete"


async def _advance(turn: Turn) -> bool:
    """One pass over the open calls: prepare the new, then answer, announce or start each; True if any waits."""
    calls = open_calls(turn.thread)
    for call in calls:
        if turn.stopping or (call.id not in turn.running and not await _remember(turn, call)):
            return False  # after a stop nothing more is prepared, answered or started
    waiting = barrier = False
    for call in calls:
        if turn.stopping:
            return waiting
        remembered = turn.prepared[call.id].prepared
        if call.id in turn.running:
            barrier = barrier or remembered.tool.mode == "sequential"  # type: ignore[union-attr]
            continue
        prepared = await decided(turn, call, remembered)
        if isinstance(prepared, Answered):
            await _answer(turn, call, prepared)
        elif isinstance(prepared, Waiting):
            waiting = True
            await _announce(turn, call, prepared)
        elif barrier:
            continue
        elif prepared.tool.mode == "sequential":
            barrier = True
            if not turn.running:
                start(turn, call, prepared)
        else:
            start(turn, call, prepared)
    return waiting


async def _remember(turn: Turn, call: ToolCall) -> bool:
    """The call's preparation, made once; False when a hook stopped the run while preparing it."""
    remembered = turn.prepared.get(call.id)
    if remembered is not None:
        if remembered.is_for(call):
            return True
        turn.announced.discard(call.id)  # the agent re-sent the call changed: it is a new question
    prepared = await prepare(turn, call)
    if prepared is None:
        return False
    turn.prepared[call.id] = Remembered(call.function.name, call.function.arguments, prepared)
    return True


async def _answer(turn: Turn, call: ToolCall, answered: Answered) -> None:
    await record_result(turn.thread, turn.emit, call, answered.tool, answered.content, answered.is_error, answered.status)
    turn.forget(call.id)


async def _announce(turn: Turn, call: ToolCall, waiting: Waiting) -> None:
    """Ask the person, once per turn: record what waits, as it is shown, and say so."""
    if call.id in turn.announced:
        return
    turn.announced.add(call.id)
    name = call.function.name
    turn.thread.awaiting[call.id] = Awaiting(call.id, waiting.kind, waiting.digest, name, waiting.arguments)
    await turn.emit(AwaitingPerson(call.id, name, waiting.arguments, waiting.kind, digest=waiting.digest))


async def _wait_for_change(turn: Turn) -> None:
    woken = asyncio.ensure_future(turn.wake.wait())
    try:
        await asyncio.wait([*turn.running.values(), woken], return_when=asyncio.FIRST_COMPLETED)
    finally:
        woken.cancel()
