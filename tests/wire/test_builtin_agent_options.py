"""The built-in agent with an app's own backend tools and shared-state type: the page's state reaches the tools,
the model sees it, and the tools' state events reach the page while they run."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from ag_ui.core import StateSnapshotEvent
from pydantic import BaseModel
from pydantic_ai import ModelRetry, RunContext, ToolFailed, ToolReturn
from pydantic_ai.messages import ModelMessage, ModelRequest, ToolReturnPart, UserPromptPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel
from pydantic_ai.ui import StateDeps

from copilot_ui.agents import HttpAgent
from copilot_ui.demo.report import AgentReport, demo_backend_tools
from copilot_ui.demo.script import DASHBOARD
from copilot_ui.server import (
    agent_from_environment,
    agui_app,
    builtin_agent,
    builtin_pydantic_agent,
    demo_model,
    emit_state_delta,
)

from ._dashboard import dashboard
from ._runs import apply_run, of_type, run_input, thread_saying
from ._servers import serve_in_thread
from ._timed import arrivals, timed_run


class Notes(BaseModel):
    """An app's shared state."""

    owner: str = ""
    notes: list[str] = []


async def add_note(ctx: RunContext[StateDeps[Notes]], note: str) -> ToolReturn:
    """Add a note to the page's list (the page shows it at once)."""
    ctx.deps.state.notes.append(note)
    return ToolReturn(
        return_value=f"{ctx.deps.state.owner} has {len(ctx.deps.state.notes)} notes",
        metadata=[StateSnapshotEvent(snapshot=ctx.deps.state.model_dump())],
    )


async def count_slowly(ctx: RunContext[StateDeps[Notes]], note: str) -> str:
    """Write a note letter by letter, the page seeing each."""
    for end in range(1, len(note) + 1):
        await emit_state_delta(ctx, [{"op": "add", "path": "/draft", "value": note[:end]}])
        await asyncio.sleep(0.05)
    return "written"


@dataclass
class CallsTheTool:
    """Where a language model would be: calls the tool named in the prompt, then quotes its result."""

    instructions: list[str] = field(default_factory=list)

    async def stream(self, messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str | DeltaToolCalls]:
        self.instructions.append(info.instructions or "")
        last = messages[-1]
        assert isinstance(last, ModelRequest)
        returns = [part for part in last.parts if isinstance(part, ToolReturnPart)]
        if returns:
            yield f"Result: {returns[0].model_response_str()}"
            return
        [prompt] = [part.content for part in last.parts if isinstance(part, UserPromptPart)]
        assert isinstance(prompt, str)
        tool, note = prompt.split(" ", 1)
        yield {0: DeltaToolCall(tool, json.dumps({"note": note}), tool_call_id="call_1")}


async def test_an_apps_backend_tool_reads_the_state_the_page_sent():
    model = CallsTheTool()
    agent = builtin_agent(FunctionModel(stream_function=model.stream), tools=[add_note], state_type=Notes)
    thread = thread_saying("add_note buy milk", state={"owner": "Ada", "notes": ["call Bob"]})

    events = await apply_run(agent, run_input(thread), thread)

    [result] = of_type(events, "TOOL_CALL_RESULT")
    assert result.content == "Ada has 2 notes"
    assert thread.state == {"owner": "Ada", "notes": ["call Bob", "buy milk"]}
    assert thread.messages[-1].content == "Result: Ada has 2 notes"


async def test_the_model_sees_the_shared_state_in_its_instructions():
    model = CallsTheTool()
    agent = builtin_agent(FunctionModel(stream_function=model.stream), tools=[add_note], state_type=Notes)
    thread = thread_saying("add_note buy milk", state={"owner": "Ada", "notes": []})

    await apply_run(agent, run_input(thread), thread)

    first, after_the_tool = model.instructions
    assert '- The state you share with the page (the person may have edited it): {"owner":"Ada","notes":[]}' in first
    assert '{"owner":"Ada","notes":["buy milk"]}' in after_the_tool  # read fresh for each request


async def test_a_tools_state_deltas_reach_the_page_while_it_runs():
    model = CallsTheTool()
    agent = builtin_agent(FunctionModel(stream_function=model.stream), tools=[count_slowly], state_type=Notes)
    thread = thread_saying("count_slowly abc")

    timed = await timed_run(agent, run_input(thread), thread)

    deltas, [result] = arrivals(timed, "STATE_DELTA"), arrivals(timed, "TOOL_CALL_RESULT")
    assert len(deltas) == 3
    assert deltas[-1] - deltas[0] >= 0.08  # sent as the tool wrote, not all at its end
    assert deltas[-1] < result
    assert thread.state == {"draft": "abc"}


async def test_without_a_state_type_the_model_is_not_shown_a_state():
    model = CallsTheTool()
    agent = builtin_agent(FunctionModel(stream_function=model.stream), tools=[count_slowly])
    thread = thread_saying("hello there")

    await apply_run(agent, run_input(thread), thread)

    assert all("The state you share with the page" not in text for text in model.instructions)


async def test_the_served_demo_agent_writes_the_report_into_the_pages_state():
    served = builtin_pydantic_agent(demo_model(0, script=DASHBOARD), tools=demo_backend_tools(0), state_type=AgentReport)
    thread = thread_saying("draft a weekly report")

    with serve_in_thread(agui_app(served, deps=lambda: StateDeps(AgentReport()))) as url:
        events = await apply_run(HttpAgent(f"{url}/"), run_input(thread, context=dashboard()), thread)

    assert len(of_type(events, "STATE_DELTA")) >= 3
    assert "Revenue this month is $48,210" in thread.state["report"]
    assert thread.messages[-1].content == "The weekly report draft is in the Report draft panel."


async def test_the_agent_from_the_environment_takes_the_same_options(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("COPILOT_AGENT_URL", raising=False)
    monkeypatch.delenv("COPILOT_MODEL", raising=False)
    agent = agent_from_environment(tools=demo_backend_tools(0), state_type=AgentReport, demo_script=DASHBOARD)
    thread = thread_saying("draft a weekly report")

    await apply_run(agent, run_input(thread, context=dashboard()), thread)

    assert "Revenue this month is $48,210" in thread.state["report"]


SETTINGS_KEY = "sk-live-" + "Rt7" * 9


async def rates_settings(ctx: RunContext[StateDeps[Notes]], note: str) -> str:
    """What the rates service is configured with."""
    return f"GET https://rates.example/v1?key={SETTINGS_KEY} for {note}"


async def test_a_backend_tools_result_reaches_the_model_and_the_thread_without_a_secret(monkeypatch):
    monkeypatch.setenv("RATES_API_KEY", SETTINGS_KEY)
    model = CallsTheTool()
    agent = builtin_agent(FunctionModel(stream_function=model.stream), tools=[rates_settings], state_type=Notes)
    thread = thread_saying("rates_settings EUR", state={"owner": "Ada", "notes": []})

    events = await apply_run(agent, run_input(thread), thread)

    [result] = of_type(events, "TOOL_CALL_RESULT")
    assert result.content == "GET https://rates.example/v1?key=[redacted] for EUR"
    assert thread.messages[-1].content == "Result: GET https://rates.example/v1?key=[redacted] for EUR"  # the model's


@pytest.mark.parametrize("signal", [ModelRetry, ToolFailed])
async def test_a_backend_tools_retry_or_failure_reaches_the_model_and_the_thread_without_a_secret(monkeypatch, signal):
    async def rates_refused(ctx: RunContext[StateDeps[Notes]], note: str) -> str:
        """Asks the model to try again, or tells it the call failed, quoting the request the service refused."""
        raise signal(f"GET https://rates.example/v1?key={SETTINGS_KEY}&note={note} answered 401")

    monkeypatch.setenv("RATES_API_KEY", SETTINGS_KEY)
    model = CallsTheTool()
    agent = builtin_agent(FunctionModel(stream_function=model.stream), tools=[rates_refused], state_type=Notes)
    thread = thread_saying("rates_refused EUR", state={"owner": "Ada", "notes": []})

    await apply_run(agent, run_input(thread), thread)

    said = thread.messages[-1].content  # the model quotes what it was told
    assert "GET https://rates.example/v1?key=[redacted]&note=EUR answered 401" in said
    assert SETTINGS_KEY not in said


async def test_a_backend_tools_exception_ends_the_run_with_an_error_without_a_secret(monkeypatch):
    async def fetch_rates(ctx: RunContext[StateDeps[Notes]], note: str) -> str:
        """Fails as a client library does, quoting the request."""
        raise ConnectionError(f"GET https://rates.example/v1?key={SETTINGS_KEY}&note={note}: connection refused")

    monkeypatch.setenv("RATES_API_KEY", SETTINGS_KEY)
    agent = builtin_agent(FunctionModel(stream_function=CallsTheTool().stream), tools=[fetch_rates], state_type=Notes)
    thread = thread_saying("fetch_rates EUR", state={"owner": "Ada", "notes": []})

    events = await apply_run(agent, run_input(thread), thread)

    [error] = of_type(events, "RUN_ERROR")
    assert "connection refused" in error.message and "key=[redacted]" in error.message
    assert thread.outcome is not None and SETTINGS_KEY not in thread.outcome.message
