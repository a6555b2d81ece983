"""Helpers for the run-loop tests: a loop over a scripted agent, and checks every test wants."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from ag_ui.core import AssistantMessage, RunAgentInput, ToolMessage

from copilot_ui.agents import ScriptedAgent
from copilot_ui.agents import scripts as s
from copilot_ui.core import LoopEvent, RunLoop, Thread, Tool, Toolbox, tool_from_function


class Recorder:
    """Collects the loop's events."""

    def __init__(self) -> None:
        self.events: list[LoopEvent] = []

    def __call__(self, event: LoopEvent) -> None:
        self.events.append(event)

    def of(self, kind: type) -> list[Any]:
        return [event for event in self.events if isinstance(event, kind)]


def make_loop(*scripts: Any, tools: list[Any] = (), **options: Any) -> tuple[RunLoop, ScriptedAgent, Recorder]:
    """A loop over a scripted agent; tools may be functions or Tool objects."""
    agent = ScriptedAgent(*scripts)
    toolbox = Toolbox([tool if isinstance(tool, Tool) else tool_from_function(tool) for tool in tools])
    recorder = Recorder()
    loop = RunLoop(agent, toolbox, emit=recorder, **options)
    return loop, agent, recorder


class MemoryStates:
    """The session's states in memory: a StateAccess as a UI layer gives it, recording how tools reached them."""

    def __init__(self, *states: Any) -> None:
        self.states = {type(state): state for state in states}
        self.opened: list[type] = []  # short blocks
        self.ran_with: list[type] = []  # handlers of tools declared with state=

    @asynccontextmanager
    async def open(self, state_type: type) -> AsyncIterator[Any]:
        self.opened.append(state_type)
        yield self.states[state_type]

    async def run_with(self, state_type: type, handler: Callable[[Any], Awaitable[Any]]) -> Any:
        self.ran_with.append(state_type)
        return await handler(self.states[state_type])


def reply_with_results(prefix: str = "Results: "):
    """A scripted follow-up that answers by quoting every tool result it was sent."""

    def script(run_input: RunAgentInput) -> list[Any]:
        results = [m.content for m in run_input.messages if m.role == "tool"]
        return s.text_reply(prefix + " | ".join(results))

    return script


def results(thread: Thread) -> dict[str, str]:
    """Call id → result text."""
    return {m.tool_call_id: m.content for m in thread.messages if isinstance(m, ToolMessage)}


def assert_one_result_per_call(thread: Thread) -> None:
    """Principle 2: exactly one result per tool call, placed after its assistant message."""
    messages = thread.messages
    calls = [call.id for m in messages if isinstance(m, AssistantMessage) for call in m.tool_calls or ()]
    answered = Counter(m.tool_call_id for m in messages if isinstance(m, ToolMessage))
    assert set(answered) == set(calls), f"calls {calls} vs results {dict(answered)}"
    assert all(count == 1 for count in answered.values()), dict(answered)
    position = {m.id: index for index, m in enumerate(messages)}
    for index, message in enumerate(messages):
        if isinstance(message, ToolMessage):
            owner = thread.owner_of(message.tool_call_id)
            assert owner is not None and position[owner.id] < index


@pytest.fixture
def thread() -> Thread:
    return Thread()
