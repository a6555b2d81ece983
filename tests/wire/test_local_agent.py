"""LocalAgent: the built-in pydantic-ai agent on the demo model (with the demo dashboard's script), run in process
through pydantic-ai's AG-UI adapter."""

from __future__ import annotations

import asyncio
import json
import warnings
from collections.abc import Awaitable, Callable

import pytest
from ag_ui.core import Context, TextMessageContentEvent, Tool

from copilot_ui.agents import AgentAborted, AgentRun, LocalAgent
from copilot_ui.demo.script import DASHBOARD
from copilot_ui.server import builtin_agent, builtin_pydantic_agent, demo_model

from ._runs import apply_run, of_type, outcome, roles, run_input, thread_saying

SET_THEME = Tool(
    name="set_theme",
    description="Switch the dashboard between light and dark mode",
    parameters={"type": "object", "properties": {"mode": {"type": "string", "enum": ["light", "dark"]}}, "required": ["mode"]},
)
DARK_PAGE = Context(description="The dashboard's settings", value='{"theme": "dark", "density": "compact"}')


@pytest.fixture
def agent() -> LocalAgent:
    return LocalAgent(builtin_pydantic_agent(demo_model(0, script=DASHBOARD)))


async def test_hello_gets_a_reply_streamed_in_many_deltas(agent: LocalAgent):
    thread = thread_saying("hello")

    events = await apply_run(agent, run_input(thread), thread)

    assert len(of_type(events, "TEXT_MESSAGE_CONTENT")) > 5
    assert roles(thread.messages) == ["user", "assistant"]
    assert thread.messages[-1].content.startswith("Hello! I'm the demo copilot")
    assert outcome(thread).kind == "success"


async def test_a_thread_with_state_runs_an_agent_that_takes_none_without_a_warning(agent: LocalAgent):
    thread = thread_saying("hello")
    thread.state = {"orders": ["#1042"]}  # (left by an agent that shared state with the page)

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pydantic-ai warned on every run that it ignored the state
        await apply_run(agent, run_input(thread), thread)

    assert outcome(thread).kind == "success"


async def test_asking_for_dark_mode_ends_the_run_with_a_pending_set_theme_call(agent: LocalAgent):
    thread = thread_saying("switch to dark mode")

    await apply_run(agent, run_input(thread, tools=[SET_THEME]), thread)

    [pending] = outcome(thread).pending_tool_call_ids
    call = thread.tool_call(pending)
    assert call is not None
    assert call.function.name == "set_theme"
    assert json.loads(call.function.arguments) == {"mode": "dark"}
    assert thread.result_of(pending) is None


async def test_page_context_reaches_the_model(agent: LocalAgent):
    thread = thread_saying("switch to dark mode")
    await apply_run(agent, run_input(thread, tools=[SET_THEME]), thread)
    [pending] = outcome(thread).pending_tool_call_ids
    thread.add_tool_result(pending, "theme switched")

    await apply_run(agent, run_input(thread, tools=[SET_THEME], context=[DARK_PAGE]), thread)

    assert roles(thread.messages) == ["user", "assistant", "tool", "assistant"]
    assert thread.messages[-1].content == "Done: theme switched The dashboard now shows the dark theme."


async def test_the_served_agent_sees_the_pages_context_too():
    import asyncio
    import json

    from ag_ui.core import Context

    from copilot_ui.agents import HttpAgent
    from copilot_ui.core import RunLoop, Thread, Toolbox, tool_from_function
    from copilot_ui.server import agui_app, builtin_pydantic_agent, demo_model

    from ._servers import serve_in_thread

    page = {"theme": "light"}

    def set_theme(mode: str) -> str:
        """Switch the theme."""
        page["theme"] = mode
        return f"Theme is now {mode}."

    with serve_in_thread(agui_app(builtin_pydantic_agent(demo_model(0, script=DASHBOARD)))) as url:
        loop = RunLoop(
            HttpAgent(f"{url}/"),
            Toolbox([tool_from_function(set_theme)]),
            context=lambda: [Context(description="What the user sees on the dashboard", value=json.dumps(page))],
        )
        thread = Thread()
        await asyncio.wait_for(loop.send(thread, "switch to dark mode"), 20)
    assert thread.messages[-1].content == "Done: Theme is now dark. The dashboard now shows the dark theme."


class UnhandledErrors:
    """What the event loop reports as unhandled while a test runs (an exception no task retrieved, ...)."""

    def __init__(self) -> None:
        self.reports: list[str] = []

    def __enter__(self) -> UnhandledErrors:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _, context: self.reports.append(str(context.get("exception") or context)))
        return self

    def __exit__(self, *_: object) -> None:
        asyncio.get_running_loop().set_exception_handler(None)


async def _stop_at_third_piece(run: AgentRun, stop: Callable[[], Awaitable[None]], pieces: list[str]) -> None:
    """Read the run into `pieces`; at the third, `stop` it (this task is busy with that piece, not waiting)."""
    async for event in run:
        if isinstance(event, TextMessageContentEvent):
            pieces.append(event.delta)
            if len(pieces) == 3:
                await stop()


@pytest.mark.parametrize("how", ["abort", "aclose"])
async def test_stopping_the_builtin_agent_between_two_pieces_ends_its_run_and_nothing_else(how: str):
    agent = builtin_agent(demo_model(0.005, script=DASHBOARD))
    run = agent.run(run_input(thread_saying("hello")))

    async def stop() -> None:
        if how == "abort":  # Stop pressed while the turn shows a piece
            run.abort()
        else:  # the reader gives up on the run
            await run.aclose()
            raise AgentAborted()

    pieces: list[str] = []
    with UnhandledErrors() as unhandled:
        with pytest.raises(AgentAborted):
            await _stop_at_third_piece(run, stop, pieces)
        # The reader goes on: a run ended in another task would cancel this one (pydantic-ai's cancel scope).
        await asyncio.sleep(0.2)

    assert len(pieces) == 3
    assert unhandled.reports == []
