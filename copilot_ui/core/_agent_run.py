"""Run the agent once, from what the person queued to the reply applied to the thread.

run_agent ─┬─ the person's queued messages join the thread (a new turn starts with them)
           ├─ over the turn limit? → "limit"
           ├─ commit: the page shows what the tools changed before the agent sees it
           ├─ the input (context read fresh; resume for decided interrupts; after a Retry of a reply the
           │  server's stopping cut off, a request to go on from it) → before_agent_call
           ├─ stream: every event verified, applied, passed to subscribers, shown to on_event
           └─ a failure is shown once and answers the run's open calls; a cut-off reply's calls
              are marked; after_agent_call
"""

from __future__ import annotations

import inspect
import logging
from typing import TYPE_CHECKING

from ag_ui.core import BaseEvent, EventType, Message, RunAgentInput, UserMessage

from ..agents import AgentAborted, AgentError
from ..protocol import EventPipeline, ProtocolError, new_id
from ..protocol._json import JSON
from ._attachments import with_attachment_bytes
from ._calls import describe_error
from ._closing import answer_open_calls
from ._events import AgentRunFinished, AgentRunStarted, ErrorOccurred, UserMessageAdded
from ._hooks import Stop
from ._interrupts import resume_entries, use_up_interrupts
from ._outcome import TurnOutcome

if TYPE_CHECKING:
    from ._turn import Turn

logger = logging.getLogger("copilot_ui.core")
# The run's start and end are said by the loop itself (AgentRunStarted/Finished), its error once (ErrorOccurred).
SAID_BY_THE_LOOP = frozenset({EventType.RUN_STARTED, EventType.RUN_FINISHED, EventType.RUN_ERROR})

# What the agent reads, after the reply it was writing when the server stopped, when the person presses Retry (a
# message of this one run: the thread keeps the reply, and the agent's next one follows it).
GO_ON = (
    "Your last reply was cut off: the server stopped while you were writing it, and the person has read it as far "
    "as it goes. Go on from exactly where it ends, without repeating any of it."
)


async def run_agent(turn: Turn) -> TurnOutcome | None:
    """One run of the agent; None when the turn goes on."""
    thread, loop = turn.thread, turn.loop
    if thread.queued:
        await deliver_queued(turn)
    if thread.turn.agent_runs > loop.limits.max_follow_ups:
        message = (
            f"stopped after {loop.limits.max_follow_ups} follow-up runs in one turn; the agent may be looping. "
            "Send a message to go on."
        )
        await turn.emit(ErrorOccurred(message, "turn_limit"))
        return TurnOutcome("limit", message)
    if loop.commit is not None:
        await loop.commit()
    try:
        run_input = await _build_input(turn)
        verdict = await loop.hooks.call("before_agent_call", run_input)
    except Exception as error:
        logger.exception("preparing the agent's run failed")
        return await failed(turn, f"preparing the agent's run failed: {describe_error(error)}", after=thread.last_message_id())
    if isinstance(verdict, Stop):
        turn.stop(verdict.reason)
        return None
    if isinstance(verdict, RunAgentInput):
        run_input = verdict
    if turn.stopping:
        return None
    return await _stream(turn, run_input)


async def deliver_queued(turn: Turn) -> None:
    """The messages the person wrote during the turn join the thread, in order, and start a new turn."""
    thread = turn.thread
    queued, thread.queued = thread.queued, []
    for message in queued:
        thread.add_user_message(message.text, message.id, message.attachments)
        await turn.emit(UserMessageAdded(message.id, message.text, queued=True))
    thread.start_turn()


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


async def _build_input(turn: Turn) -> RunAgentInput:
    loop, thread = turn.loop, turn.thread
    context = loop.context() if loop.context is not None else []
    if inspect.isawaitable(context):
        context = await context
    messages: list[Message] = [message for message in thread.messages if message.role != "activity"]
    if turn.retrying and thread.turn.going_on:
        messages.append(UserMessage(id=new_id("go-on-"), content=GO_ON))
    return RunAgentInput(
        thread_id=thread.id,
        run_id=new_id("run-"),
        messages=await with_attachment_bytes(messages, loop.attachment_bytes),
        tools=loop.toolbox.ag_ui_tools(loop.agent.agent_id, loop.session),
        context=list(context),
        state=thread.state,
        forwarded_props=loop.forwarded_props if loop.forwarded_props is not None else {},
        resume=resume_entries(turn),
        protocol_version="1.0",
    )


async def _stream(turn: Turn, run_input: RunAgentInput) -> TurnOutcome | None:
    loop, thread = turn.loop, turn.thread
    before = thread.last_message_id()  # what this run adds comes after it (a retry drops that)
    _begin_run(turn, run_input)
    await turn.emit(AgentRunStarted(run_input.run_id, thread.turn.agent_runs - 1))
    pipeline = EventPipeline(thread)
    failure = None
    agent_run = turn.agent_run = loop.agent.run(run_input)
    try:
        async for event in agent_run:
            for applied in pipeline.feed(event):
                await _observe(turn, applied)
            if turn.stop_reason:
                agent_run.abort()
        if pipeline.run_open or thread.outcome is None:
            pipeline.finish()
    except AgentAborted:
        if not turn.stopping:
            failure = "the agent's run was stopped"
    except (AgentError, ProtocolError, _HookFailed) as error:
        failure = str(error)
    except Exception as error:  # an agent with a bug must not take the loop down
        logger.exception("the agent failed")
        failure = f"the agent failed: {describe_error(error)}"
    finally:
        turn.agent_run = None
        await agent_run.aclose()  # a run left early (a protocol error, a stop) closes its connection now
    if turn.stopping:
        return None
    outcome = thread.outcome
    if failure is not None or outcome is None or outcome.kind == "error":
        message = failure or (outcome.message if outcome else "the agent's run ended without an outcome")
        logger.warning("the agent's run failed: %s", message)
        return await failed(turn, message, outcome.code if outcome else None, after=before)
    _mark_cut_off(turn, outcome.result)
    await turn.emit(AgentRunFinished(run_input.run_id, outcome.kind))
    try:
        verdict = await loop.hooks.call("after_agent_call", run_input, thread)
    except Exception as error:
        logger.exception("an after_agent_call hook failed")
        return await failed(turn, f"the after_agent_call hook failed: {describe_error(error)}", after=before)
    if isinstance(verdict, Stop):
        turn.stop(verdict.reason)
    if outcome.kind == "cancelled":
        turn.stop("the agent cancelled its run")
    return None


def _begin_run(turn: Turn, run_input: RunAgentInput) -> None:
    """The book notes the run; the interrupts its resume answers are used up."""
    thread, book = turn.thread, turn.thread.turn
    book.follow_up_due, book.failed, book.going_on, turn.retrying = False, None, False, False
    book.agent_runs += 1
    book.last_sent_message_id = run_input.messages[-1].id if run_input.messages else None
    if thread.interrupts:
        use_up_interrupts(thread)
    thread.outcome = None


async def _observe(turn: Turn, event: BaseEvent) -> None:
    if event.type not in SAID_BY_THE_LOOP:
        await turn.emit(event)
    if not turn.loop.hooks.on_event:
        return
    try:
        verdict = await turn.loop.hooks.call("on_event", event)
    except Exception as error:
        logger.exception("an on_event hook failed")
        raise _HookFailed(f"the on_event hook failed: {describe_error(error)}") from error
    if isinstance(verdict, Stop):
        turn.stop(verdict.reason)


def finish_reason(result: JSON) -> str | None:
    """The reason a reply ended, as a RUN_FINISHED result may carry it ("length" when it was cut off)."""
    if isinstance(result, dict):
        for key in ("finishReason", "finish_reason", "stopReason", "stop_reason"):
            if isinstance(reason := result.get(key), str):
                return reason
    return None


def _mark_cut_off(turn: Turn, result: JSON) -> None:
    """A reply cut off by the length limit: its calls may be incomplete and are never run."""
    thread = turn.thread
    if finish_reason(result) in ("length", "max_tokens"):
        turn.cut_off.update(call for call in thread.run_tool_call_ids if thread.result_of(call) is None)


class _HookFailed(Exception):
    """A hook raised while the agent's events were being observed."""
