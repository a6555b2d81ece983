"""Driving runs the way the app does: a RunAgentInput out, events in, applied to a thread by EventPipeline."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Sequence
from typing import Any

from ag_ui.core import BaseEvent, Context, Message, ResumeEntry, RunAgentInput, Tool

from copilot_ui.agents import Agent
from copilot_ui.protocol import AGUIThread, EventPipeline, RunOutcome, new_id

RUN_TIMEOUT = 10.0  # seconds: no run of these tests may take longer, whatever the server does


def run_input(
    thread: AGUIThread,
    *,
    tools: Sequence[Tool] = (),
    context: Sequence[Context] = (),
    resume: Sequence[ResumeEntry] | None = None,
) -> RunAgentInput:
    """The next run of a thread, as a 1.0 client sends it: the whole history and the state."""
    return RunAgentInput(
        thread_id=thread.id,
        run_id=new_id("run-"),
        messages=thread.messages,
        state=thread.state,
        tools=list(tools),
        context=list(context),
        forwarded_props={},
        protocol_version="1.0",
        resume=list(resume) if resume is not None else None,
    )


def thread_saying(text: str, *, state: Any = None) -> AGUIThread:
    """A new thread whose person has just said this."""
    thread = AGUIThread(state=state)
    thread.add_user_message(text)
    return thread


async def apply_run(agent: Agent, request: RunAgentInput, thread: AGUIThread) -> list[BaseEvent]:
    """Run the agent and apply every event to the thread as it arrives; returns the events.

    An AgentError propagates; the events before it are in the thread already. A run that takes longer
    than RUN_TIMEOUT fails with TimeoutError.
    """
    pipeline = EventPipeline(thread)
    events: list[BaseEvent] = []
    async with asyncio.timeout(RUN_TIMEOUT):
        async for event in agent.run(request):
            events.append(event)
            pipeline.feed(event)
    pipeline.finish()
    return events


def outcome(thread: AGUIThread) -> RunOutcome:
    """How the thread's last run ended (it must have ended)."""
    assert thread.outcome is not None, "the run did not end with RUN_FINISHED or RUN_ERROR"
    return thread.outcome


def of_type(events: Iterable[BaseEvent], kind: str) -> list[Any]:
    """The events of one type, e.g. "TEXT_MESSAGE_CONTENT"."""
    return [event for event in events if event.type.value == kind]


def roles(messages: Iterable[Message]) -> list[str]:
    """The roles of the messages, in order."""
    return [message.role for message in messages]


def pending_calls(thread: AGUIThread) -> list[tuple[str, dict[str, Any]]]:
    """The calls the page must answer after the last run: (tool, arguments)."""
    calls = [thread.tool_call(call_id) for call_id in outcome(thread).pending_tool_call_ids]
    return [(call.function.name, json.loads(call.function.arguments)) for call in calls if call is not None]


def reply(thread: AGUIThread) -> str:
    """What the agent said last."""
    assert thread.messages[-1].role == "assistant"
    return thread.messages[-1].content or ""
