"""A run's start on the built-in agent, in-process: CPU from the request to the first piece of text.

Under load the copilot's turns start in bursts (every person's next message comes as the replies before end), so a
run's start is paid fifty times within a second or two. This measures that start where nothing else runs: the
copilot's built-in agent (`LocalAgent`: pydantic-ai's AG-UI adapter) on a `RunAgentInput` as the demo page sends it
(the page's tools, a context of the demo's size, a conversation of 1, 3, 5 and 7 messages), without the page's
tools, and the same pydantic-ai Agent as a plain app calls it (`run_stream`, the anchor of `bench.load --flow
hello`). The demo model answers at once (no pause between words).

- agent_start_copilot_ms, agent_start_copilot_without_tools_ms, agent_start_anchor_ms: the median CPU in milliseconds
  from the call to the first piece of text, over ROUNDS rounds of the four conversations, the three measured in turn.
- ..._loop_turns: how many turns of the event loop the same start waits through. With the page's tools, pydantic-ai
  combines two toolsets (the agent's and the page's), whose set-up it runs in anyio task groups.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable

from ag_ui.core import AssistantMessage, Context, Message, RunAgentInput, Tool, UserMessage

ROUNDS = 40
LENGTHS = (1, 3, 5, 7)  # messages in the conversation the run answers (the person's last message included)
# A context about the size the demo's dashboard sends (1 kB here, 1.3 kB there)
CONTEXT = json.dumps({"theme": "light", "orders": [{"id": f"#{1042 - n}", "city": "Berlin", "total": 120.0} for n in range(20)]})


def run_inputs(tools: list[Tool]) -> list[RunAgentInput]:
    """One request per conversation length: "hello" and the demo's reply, over and over."""
    inputs = []
    for length in LENGTHS:
        messages: list[Message] = []
        for n in range(length):
            if n % 2:
                messages.append(AssistantMessage(id=f"a{n}", content="Hello! I'm the demo copilot."))
            else:
                messages.append(UserMessage(id=f"u{n}", content="hello"))
        context = [Context(description="What the user sees on the dashboard", value=CONTEXT)]
        inputs.append(
            RunAgentInput(
                thread_id=str(uuid.uuid4()),
                run_id=str(uuid.uuid4()),
                state={},
                messages=messages,
                tools=tools,
                context=context,
                forwarded_props={},
            )
        )
    return inputs


Start = Callable[[RunAgentInput], Awaitable[None]]


async def _medians_ms(starts: dict[str, tuple[Start, list[RunAgentInput]]]) -> dict[str, float]:
    """Each start's median CPU, measured in turns (round by round, each start in turn): the machine's drift within a
    minute counts for all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in starts}
    for round_ in range(ROUNDS + 1):
        for name, (start, inputs) in starts.items():
            for run_input in inputs:
                began = time.thread_time()
                await start(run_input)
                if round_:  # (the first warms: imports, schemas)
                    times[name].append(time.thread_time() - began)
    return {name: statistics.median(values) * 1000 for name, values in times.items()}


async def _loop_turns(start: Start, run_input: RunAgentInput) -> int:
    """The turns of the event loop a start waits through (counted by a task that yields once a turn)."""
    turns, done = 0, False

    async def count() -> None:
        nonlocal turns
        while not done:
            await asyncio.sleep(0)
            turns += 1

    counter = asyncio.create_task(count())
    await asyncio.sleep(0)  # (the counter is on its way)
    turns = 0
    await start(run_input)
    done = True
    await counter
    return turns


async def measure() -> dict[str, float]:
    from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, UserPromptPart
    from pydantic_ai.ui import StateDeps

    import copilot_ui.copilot_ui  # noqa: F401  (the demo app: its page's tools)
    from copilot_ui.core import Session
    from copilot_ui.demo.report import AgentReport, demo_backend_tools
    from copilot_ui.demo.script import DASHBOARD
    from copilot_ui.server import DemoScript, Move, builtin_agent, builtin_pydantic_agent, demo_model
    from copilot_ui.state.declarations import copilot

    tools = copilot.toolbox.ag_ui_tools("default", Session(page="/"))
    agent = builtin_agent(demo_model(0.0, script=DASHBOARD), tools=demo_backend_tools(), state_type=AgentReport)

    async def copilot_start(run_input: RunAgentInput) -> None:
        run = agent.run(run_input)
        async for event in run:
            if event.type.value == "TEXT_MESSAGE_CONTENT":
                break
        await run.aclose()

    said = demo_model(0.0, script=DemoScript(reply=lambda _turn: Move(text="Hello! I'm the demo copilot.")))
    anchor = builtin_pydantic_agent(said, tools=demo_backend_tools(), state_type=AgentReport)

    def history(run_input: RunAgentInput) -> list[ModelMessage]:
        return [
            ModelRequest(parts=[UserPromptPart(str(m.content))])
            if m.role == "user"
            else ModelResponse(parts=[TextPart(str(m.content))])
            for m in run_input.messages[:-1]
        ]

    async def anchor_start(run_input: RunAgentInput) -> None:
        prompt = str(run_input.messages[-1].content)
        async with anchor.run_stream(prompt, message_history=history(run_input), deps=StateDeps(AgentReport())) as result:
            async for _delta in result.stream_text(delta=True, debounce_by=None):
                break

    with_tools, without_tools = run_inputs(tools), run_inputs([])
    starts = {
        "agent_start_copilot": (copilot_start, with_tools),
        "agent_start_copilot_without_tools": (copilot_start, without_tools),
        "agent_start_anchor": (anchor_start, without_tools),
    }
    figures = {f"{name}_ms": value for name, value in (await _medians_ms(starts)).items()}
    for name, (start, inputs) in starts.items():
        figures[f"{name}_loop_turns"] = float(statistics.median([await _loop_turns(start, run_input) for run_input in inputs]))
    return figures | {"page_tools": float(len(tools))}


def main() -> None:
    figures = asyncio.run(measure())
    tools = int(figures.pop("page_tools"))
    for name, value in figures.items():
        if name.endswith("_loop_turns"):
            print(f"{name}: {value:.0f}")
        else:
            print(f"{name}: {value:.2f} ms" + (f" ({tools} page tools)" if name == "agent_start_copilot_ms" else ""))


if __name__ == "__main__":
    main()
