"""Run the agent once, from what the person queued to the reply applied to the thread.

run_agent ─┬─ the person's queued messages join the thread (a new turn starts with them)
           ├─ over the turn limit? → "limit"
           ├─ commit: the page shows what the tools changed before the agent sees it
           ├─ the input (context read fresh; resume for decided interrupts; after a Retry of a reply the
           │  server's stopping cut off, a request to go on from it) → before_agent_call
           ├─ stream: every event verified, applied, translated for subscribers, shown to on_event
           └─ a failure is shown once and answers the run's open calls; a cut-off reply's calls
              are marked; after_agent_call
"""

from __future__ import annotations

import inspect
import logging
from typing import TYPE_CHECKING, Any

from ag_ui.core import BaseEvent, Message, RunAgentInput, UserMessage

from ..agents import AgentAborted, AgentError
from ..protocol import EventPipeline, ProtocolError, new_id
from ._attachments import with_attachment_bytes
from ._calls import describe_error
from ._closing import answer_open_calls
from ._events import AgentEventReceived, AgentRunFinished, AgentRunStarted, ErrorOccurred, UserMessageAdded
from ._hooks import Stop
from ._interrupts import resume_entries, use_up_interrupts
from ._outcome import TurnOutcome
from ._translate import SILENT, finish_reason, translate

if TYPE_CHECKING:
    from ._drive import Drive

logger = logging.getLogger("copilot_ui.core")

# What the agent reads, after the reply it was writing when the server stopped, when the person presses Retry (a
# message of this one run: the thread keeps the reply, and the agent's next one follows it).
GO_ON = (
    "Your last reply was cut off: the server stopped while you were writing it, and the person has read it as far "
    "as it goes. Go on from exactly where it ends, without repeating any of it."
)


async def run_agent(drive: Drive) -> TurnOutcome | None:
    """One run of the agent; None when the drive goes on."""
    thread, loop = drive.thread, drive.loop
    if thread.queued:
        await deliver_queued(drive)
    if thread.turn.agent_runs > loop.limits.max_follow_ups:
        message = (
            f"stopped after {loop.limits.max_follow_ups} follow-up runs in one turn; the agent may be looping. "
            "Send a message to go on."
        )
        await drive.emit(ErrorOccurred(message, "turn_limit"))
        return TurnOutcome("limit", message)
    if loop.commit is not None:
        await loop.commit()
    try:
        run_input = await _build_input(drive)
        verdict = await loop.hooks.call("before_agent_call", run_input)
    except Exception as error:
        logger.exception("preparing the agent's run failed")
        return await failed(drive, f"preparing the agent's run failed: {describe_error(error)}", after=thread.last_message_id())
    if isinstance(verdict, Stop):
        drive.stop(verdict.reason)
        return None
    if isinstance(verdict, RunAgentInput):
        run_input = verdict
    if drive.stopping:
        return None
    return await _stream(drive, run_input)


async def deliver_queued(drive: Drive) -> None:
    """The messages the person wrote during the drive join the thread, in order, and start a new turn."""
    thread = drive.thread
    queued, thread.queued = thread.queued, []
    for message in queued:
        thread.add_user_message(message.text, message.id, message.attachments)
        await drive.emit(UserMessageAdded(message.id, message.text, queued=True))
    thread.start_turn()


async def failed(drive: Drive, message: str, code: str | None = None, *, after: str | None) -> TurnOutcome:
    """The agent's run failed: shown once, its open calls answered, remembered for a retry (from after `after`)."""
    thread = drive.thread
    await drive.emit(ErrorOccurred(message, code))
    calls = [call for call_id in thread.run_tool_call_ids if (call := thread.tool_call(call_id)) is not None]
    await answer_open_calls(thread, drive.emit, "the agent's run failed before this call could run", "error", calls=calls)
    thread.turn.follow_up_due = False
    thread.turn.batch.clear()
    thread.turn.failed, thread.turn.failed_after = message, after
    return TurnOutcome("error", message)


async def _build_input(drive: Drive) -> RunAgentInput:
    loop, thread = drive.loop, drive.thread
    context = loop.context() if loop.context is not None else []
    if inspect.isawaitable(context):
        context = await context
    messages: list[Message] = [message for message in thread.messages if message.role != "activity"]
    if drive.retrying and thread.turn.going_on:
        messages.append(UserMessage(id=new_id("go-on-"), content=GO_ON))
    return RunAgentInput(
        thread_id=thread.id,
        run_id=new_id("run-"),
        messages=await with_attachment_bytes(messages, loop.attachment_bytes),
        tools=loop.toolbox.ag_ui_tools(loop.agent.agent_id, loop.session),
        context=list(context),
        state=thread.state,
        forwarded_props=loop.forwarded_props if loop.forwarded_props is not None else {},
        resume=resume_entries(drive),
        protocol_version="1.0",
    )


async def _stream(drive: Drive, run_input: RunAgentInput) -> TurnOutcome | None:
    loop, thread = drive.loop, drive.thread
    before = thread.last_message_id()  # what this run adds comes after it (a retry drops that)
    _begin_run(drive, run_input)
    await drive.emit(AgentRunStarted(run_input.run_id, thread.turn.agent_runs - 1))
    pipeline = EventPipeline(thread)
    failure = None
    agent_run = drive.agent_run = loop.agent.run(run_input)
    try:
        async for event in agent_run:
            for applied in pipeline.feed(event):
                await _observe(drive, applied)
            if drive.stop_reason:
                agent_run.abort()
        if pipeline.run_open or thread.outcome is None:
            pipeline.finish()
    except AgentAborted:
        if not drive.stopping:
            failure = "the agent's run was stopped"
    except (AgentError, ProtocolError, _HookFailed) as error:
        failure = str(error)
    except Exception as error:  # an agent with a bug must not take the loop down
        logger.exception("the agent failed")
        failure = f"the agent failed: {describe_error(error)}"
    finally:
        drive.agent_run = None
        await agent_run.aclose()  # a run left early (a protocol error, a stop) closes its connection now
    if drive.stopping:
        return None
    outcome = thread.outcome
    if failure is not None or outcome is None or outcome.kind == "error":
        message = failure or (outcome.message if outcome else "the agent's run ended without an outcome")
        logger.warning("the agent's run failed: %s", message)
        return await failed(drive, message, outcome.code if outcome else None, after=before)
    _mark_cut_off(drive, outcome.result)
    await drive.emit(AgentRunFinished(run_input.run_id, outcome.kind))
    try:
        verdict = await loop.hooks.call("after_agent_call", run_input, thread)
    except Exception as error:
        logger.exception("an after_agent_call hook failed")
        return await failed(drive, f"the after_agent_call hook failed: {describe_error(error)}", after=before)
    if isinstance(verdict, Stop):
        drive.stop(verdict.reason)
    if outcome.kind == "cancelled":
        drive.stop("the agent cancelled its run")
    return None


def _begin_run(drive: Drive, run_input: RunAgentInput) -> None:
    """The book notes the run; the interrupts its resume answers are used up."""
    thread, turn = drive.thread, drive.thread.turn
    turn.follow_up_due, turn.failed, turn.going_on, drive.retrying = False, None, False, False
    turn.agent_runs += 1
    turn.last_sent_message_id = run_input.messages[-1].id if run_input.messages else None
    if thread.interrupts:
        use_up_interrupts(thread)
    thread.outcome = None


async def _observe(drive: Drive, event: BaseEvent) -> None:
    translated = translate(event, drive.thread)
    if translated is not None:
        await drive.emit(translated)
    elif event.type not in SILENT:
        await drive.emit(AgentEventReceived(event))
    if not drive.loop.hooks.on_event:
        return
    try:
        verdict = await drive.loop.hooks.call("on_event", event)
    except Exception as error:
        logger.exception("an on_event hook failed")
        raise _HookFailed(f"the on_event hook failed: {describe_error(error)}") from error
    if isinstance(verdict, Stop):
        drive.stop(verdict.reason)


def _mark_cut_off(drive: Drive, result: Any) -> None:
    """A reply cut off by the length limit: its calls may be incomplete and are never run."""
    thread = drive.thread
    if finish_reason(result) in ("length", "max_tokens"):
        drive.cut_off.update(call for call in thread.run_tool_call_ids if thread.result_of(call) is None)


class _HookFailed(Exception):
    """A hook raised while the agent's events were being observed."""
