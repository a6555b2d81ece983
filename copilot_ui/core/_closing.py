"""Closing: the one way open calls are answered for a reason, the end of a turn, a failed run of the agent.

Every call gets exactly one result, whatever ends it: the person wrote instead of deciding
("skipped"), stopped the run, or the agent's run failed before the call could run. Open agent
interrupts are denied in the person's name for the same reason, so the next run resumes them.

A turn ends in `close`: after a stop, running tools are cancelled (each records its "aborted"
result), every open call is answered, no follow-up is left due, and the messages the person wrote
meanwhile are returned, not sent; then after_run hooks hear the outcome and TurnEnded says it.

A failed run is shown once and remembered (`failed`); a Retry drops what it added (`drop_failed_run`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ag_ui.core import ToolCall

from ._awaiting import interrupt_key
from ._decisions import Deny
from ._events import ErrorOccurred, TurnEnded
from ._outcome import TurnOutcome
from ._results import Notify, Status, record_result
from ._thread import NOT_RUN_WHEN_STOPPED, Thread

if TYPE_CHECKING:
    from ._turn import Turn

logger = logging.getLogger("copilot_ui.core")

NEW_MESSAGE = "the user wrote a new message instead"


async def answer_open_calls(
    thread: Thread,
    notify: Notify,
    reason: str,
    status: Status,
    *,
    prefix: str = "not run",
    calls: Iterable[ToolCall] | None = None,
) -> None:
    """Answer every call without a result (or those of `calls`) for this reason; open interrupts are denied for it."""
    for call in list(thread.unanswered_calls() if calls is None else calls):
        if thread.result_of(call.id) is None:
            await record_result(thread, notify, call, None, f"{prefix}: {reason}", True, status)
    if calls is None:
        for interrupt in thread.interrupts:
            key = interrupt_key(interrupt)
            if key not in thread.decisions:
                thread.decide_for_person(key, Deny(reason))


async def close(turn: Turn, outcome: TurnOutcome) -> TurnOutcome:
    """End the turn: after a stop nothing is left running or open; the outcome is heard and announced."""
    turn.accepting = False  # from here a message the person sends starts a turn of its own
    thread = turn.thread
    if outcome.status in ("aborted", "cancelled", "stopped"):
        await cancel_running(turn)
        if outcome.status == "aborted":
            await answer_open_calls(thread, turn.emit, "the user stopped the run", "aborted", prefix="aborted")
        elif outcome.status == "cancelled":
            await answer_open_calls(thread, turn.emit, NOT_RUN_WHEN_STOPPED, "aborted", prefix="aborted")
        else:
            await answer_open_calls(thread, turn.emit, outcome.message, "aborted")
        thread.turn.follow_up_due = False
        thread.turn.batch.clear()
        outcome = dataclasses.replace(outcome, returned=tuple(thread.queued))
        thread.queued = []
    try:
        await turn.loop.hooks.call("after_run", thread, outcome)
    except Exception:
        logger.exception("an after_run hook failed")
    await turn.emit(TurnEnded(thread.id, outcome.status, outcome.message, outcome.returned))
    return outcome


async def cancel_running(turn: Turn) -> None:
    """Cancel the running handlers and wait until each recorded its result."""
    stop_running(turn)
    if turn.running:
        await asyncio.gather(*turn.running.values(), return_exceptions=True)


def stop_running(turn: Turn) -> None:
    """Signal and cancel each running handler, once: a second cancel would cut the recording of its result."""
    for call_id, task in list(turn.running.items()):
        context = turn.contexts.get(call_id)
        if context is not None:
            context.cancelled.set()
        if task.cancelling() == 0:
            task.cancel()


async def failed(turn: Turn, message: str, code: str | None = None, *, after: str | None) -> TurnOutcome:
    """The agent's run failed: shown once, its open calls answered, remembered for a retry (from after `after`)."""
    thread = turn.thread
    await turn.emit(ErrorOccurred(message, code))
    calls = [call for call_id in thread.run_tool_call_ids if (call := thread.tool_call(call_id)) is not None]
    await answer_open_calls(thread, turn.emit, "the agent's run failed before this call could run", "error", calls=calls)
    thread.turn.follow_up_due = False
    thread.turn.batch.clear()
    thread.turn.failed, thread.turn.failed_after = message, after
    return TurnOutcome("error", message)


def drop_failed_run(turn: Turn) -> None:
    """A retry: what the failed run added goes, so that the agent runs again on the same messages."""
    thread, after = turn.thread, turn.thread.turn.failed_after
    messages = thread.messages
    start = 0 if after is None else next((i + 1 for i, m in enumerate(messages) if m.id == after), len(messages))
    if start < len(messages):
        thread.remove_messages_from(messages[start].id)
    turn.retrying = True
