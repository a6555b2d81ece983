"""The loop runs the tools whose calls have no result and feeds the results back."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel

from copilot_ui.agents import scripts as s
from copilot_ui.core import ToolContext, ToolExecutionEnded, ToolExecutionStarted, tool_from_function

from .conftest import MemoryStates, assert_one_result_per_call, make_loop, reply_with_results, results


async def test_a_frontend_tool_runs_and_the_follow_up_carries_its_result(thread):
    theme = {"mode": "light"}

    async def set_theme(mode: Literal["light", "dark"]) -> str:
        """Switch the theme."""
        theme["mode"] = mode
        return f"Theme is now {mode}."

    loop, agent, _ = make_loop(s.tool_calls_reply(("set_theme", {"mode": "dark"})), reply_with_results(), tools=[set_theme])
    outcome = await loop.send(thread, "switch to dark mode")

    assert outcome.status == "done"
    assert theme["mode"] == "dark"
    assert len(agent.inputs) == 2
    follow_up = agent.inputs[1]
    assert [m.role for m in follow_up.messages] == ["user", "assistant", "tool"]
    assert follow_up.messages[2].content == "Theme is now dark."
    assert thread.messages[-1].content == "Results: Theme is now dark."
    assert_one_result_per_call(thread)


async def test_the_tools_are_offered_to_the_agent_with_their_schema(thread):
    def set_theme(mode: Literal["light", "dark"]) -> str:
        """Switch the theme."""
        return mode

    loop, agent, _ = make_loop(s.text_reply("ok"), tools=[set_theme])
    await loop.send(thread, "hi")
    (offered,) = agent.inputs[0].tools
    assert offered.name == "set_theme"
    assert offered.description == "Switch the theme."
    assert offered.parameters["properties"]["mode"]["enum"] == ["light", "dark"]


async def test_a_call_the_server_already_answered_is_not_run_again(thread):
    ran = []

    def lookup() -> str:
        """Look up."""
        ran.append(1)
        return "local"

    from ag_ui.core import ToolCallResultEvent

    backend = s.run(
        s.tool_call("lookup", {}, call_id="c1"),
        ToolCallResultEvent(message_id="r1", tool_call_id="c1", content="from the server"),
        s.text("The server says hi."),
    )
    loop, agent, _ = make_loop(backend, tools=[lookup])
    outcome = await loop.send(thread, "look it up")

    assert outcome.status == "done"
    assert ran == []
    assert results(thread) == {"c1": "from the server"}
    assert len(agent.inputs) == 1


async def test_empty_or_null_arguments_mean_no_arguments(thread):
    seen = []

    def ping(count: int = 1) -> str:
        """Ping."""
        seen.append(count)
        return "pong"

    loop, _, _ = make_loop(
        s.tool_calls_reply(("ping", "", "a"), ("ping", "null", "b"), ("ping", "  ", "c")),
        s.text_reply("ok"),
        tools=[ping],
    )
    await loop.send(thread, "ping")
    assert seen == [1, 1, 1]
    assert results(thread) == {"a": "pong", "b": "pong", "c": "pong"}


async def test_invalid_json_arguments_become_an_error_result_and_the_handler_is_not_called(thread):
    called = []

    def save(text: str) -> str:
        """Save."""
        called.append(text)
        return "saved"

    loop, agent, _ = make_loop(s.tool_calls_reply(("save", '{"text": "unterminated', "c1")), reply_with_results(), tools=[save])
    outcome = await loop.send(thread, "save it")

    assert called == []
    error = results(thread)["c1"]
    assert error.startswith("Error:")
    assert "save" in error and "not valid JSON" in error
    assert outcome.status == "done"
    assert "not valid JSON" in agent.inputs[1].messages[-1].content  # the agent reads it and can correct itself


async def test_arguments_that_are_not_an_object_are_an_error_naming_the_tool(thread):
    def save(text: str) -> str:
        """Save."""
        return "saved"

    loop, _, _ = make_loop(s.tool_calls_reply(("save", '["a", "b"]', "c1")), s.text_reply("ok"), tools=[save])
    await loop.send(thread, "save")
    assert "arguments of save must be a JSON object, not an array" in results(thread)["c1"]


async def test_schema_violations_list_the_fields_after_the_repair_step(thread):
    def book(seats: int, cabin: Literal["economy", "business"]) -> str:
        """Book."""
        return f"{seats} {cabin}"

    def repair(arguments: dict) -> dict:
        arguments["cabin"] = str(arguments.get("cabin", "")).lower()
        return arguments

    tool = tool_from_function(book, prepare_arguments=repair)
    loop, _, _ = make_loop(
        s.tool_calls_reply(
            ("book", {"seats": 2, "cabin": "BUSINESS"}, "ok"), ("book", {"seats": "many", "cabin": "first"}, "bad")
        ),
        s.text_reply("done"),
        tools=[tool],
    )
    await loop.send(thread, "book")
    outcome = results(thread)
    assert outcome["ok"] == "2 business"  # repaired, then valid
    assert "seats" in outcome["bad"] and "cabin" in outcome["bad"] and outcome["bad"].startswith("Error:")


async def test_an_unknown_tool_is_an_error_that_lists_the_available_tools(thread):
    def search() -> str:
        """Search."""
        return "found"

    def summarize() -> str:
        """Summarize."""
        return "short"

    loop, _, _ = make_loop(s.tool_calls_reply(("translate", {}, "c1")), s.text_reply("sorry"), tools=[search, summarize])
    await loop.send(thread, "translate")
    error = results(thread)["c1"]
    assert "'translate'" in error
    assert "search, summarize" in error


async def test_the_wildcard_tool_takes_calls_no_tool_claims(thread):
    def anything(name: str, arguments: dict) -> str:
        return f"{name} with {arguments}"

    loop, _, _ = make_loop(
        s.tool_calls_reply(("open_door", {"door": 3}, "c1")),
        s.text_reply("ok"),
        tools=[tool_from_function(anything, name="*")],
    )
    await loop.send(thread, "open")
    assert results(thread) == {"c1": "open_door with {'door': 3}"}


async def test_a_handler_that_raises_becomes_an_error_result_and_the_run_goes_on(thread):
    def divide(a: int, b: int) -> float:
        """Divide."""
        return a / b

    loop, agent, _ = make_loop(s.tool_calls_reply(("divide", {"a": 1, "b": 0}, "c1")), reply_with_results(), tools=[divide])
    outcome = await loop.send(thread, "divide")
    assert results(thread)["c1"] == "Error: ZeroDivisionError: division by zero"
    assert outcome.status == "done"
    assert len(agent.inputs) == 2


async def test_an_error_a_tool_means_is_one_line_in_the_log_and_a_bug_shows_its_traceback(thread, caplog):
    def filter_orders(city: str) -> str:
        """Show the orders from a city."""
        if city == "Rome":
            raise ValueError("there are no orders from Rome")
        return city.missing  # type: ignore[attr-defined]

    calls = s.tool_calls_reply(("filter_orders", {"city": "Rome"}, "c1"), ("filter_orders", {"city": "Oslo"}, "c2"))
    loop, _, _ = make_loop(calls, reply_with_results(), tools=[filter_orders])
    with caplog.at_level("INFO", logger="copilot_ui"):
        await loop.send(thread, "filter")
    said = {record.getMessage(): record for record in caplog.records if "filter_orders" in record.getMessage()}
    meant = said["tool filter_orders answered with an error: ValueError: there are no orders from Rome"]
    assert meant.levelname == "INFO" and meant.exc_info is None
    (bug,) = [record for record in said.values() if record.exc_info]
    assert bug.levelname == "WARNING" and bug.exc_info[0] is AttributeError


async def test_return_values_become_text_the_agent_can_read(thread):
    class Weather(BaseModel):
        city: str
        celsius: int

    @dataclass
    class Total:
        amount: float

    def nothing() -> None:
        """Nothing."""

    def text() -> str:
        """Text."""
        return "plain"

    def model() -> Weather:
        """Model."""
        return Weather(city="Paris", celsius=21)

    def data() -> Total:
        """Dataclass."""
        return Total(9.5)

    def mapping() -> dict:
        """Dict."""
        return {"ok": True, "items": [1, 2]}

    loop, _, _ = make_loop(
        s.tool_calls_reply(("nothing", {}, "a"), ("text", {}, "b"), ("model", {}, "c"), ("data", {}, "d"), ("mapping", {}, "e")),
        s.text_reply("ok"),
        tools=[nothing, text, model, data, mapping],
    )
    await loop.send(thread, "go")
    assert results(thread) == {
        "a": "",
        "b": "plain",
        "c": '{"city":"Paris","celsius":21}',
        "d": '{"amount": 9.5}',
        "e": '{"ok": true, "items": [1, 2]}',
    }


async def test_tools_run_in_parallel_by_default(thread):
    both_started = asyncio.Event()
    started = []

    async def first() -> str:
        """First."""
        started.append("first")
        await asyncio.wait_for(both_started.wait(), 2)  # fails if the second never starts meanwhile
        return "one"

    async def second() -> str:
        """Second."""
        started.append("second")
        both_started.set()
        return "two"

    loop, _, _ = make_loop(s.tool_calls_reply(("first", {}, "a"), ("second", {}, "b")), s.text_reply("ok"), tools=[first, second])
    await loop.send(thread, "go")
    assert results(thread) == {"a": "one", "b": "two"}


async def test_a_sequential_tool_is_a_barrier_and_later_calls_see_its_effect(thread):
    log: list[str] = []
    store = {"value": "old"}

    async def read_before() -> str:
        """Read."""
        await asyncio.sleep(0.05)
        log.append("before done")
        return store["value"]

    async def write(value: str) -> str:
        """Write (alone)."""
        log.append("write starts")
        await asyncio.sleep(0.02)
        store["value"] = value
        log.append("write done")
        return "written"

    async def read_after() -> str:
        """Read."""
        log.append("after starts")
        return store["value"]

    loop, _, _ = make_loop(
        s.tool_calls_reply(("read_before", {}, "a"), ("write", {"value": "new"}, "b"), ("read_after", {}, "c")),
        s.text_reply("ok"),
        tools=[read_before, tool_from_function(write, mode="sequential"), read_after],
    )
    await loop.send(thread, "go")
    assert log == ["before done", "write starts", "write done", "after starts"]
    assert results(thread) == {"a": "old", "b": "written", "c": "new"}


async def test_a_concurrency_cap_bounds_the_handlers_running_at_once(thread):
    from copilot_ui.core import LoopLimits

    running = 0
    most = 0

    async def work(n: int) -> str:
        """Work."""
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.01)
        running -= 1
        return str(n)

    calls = [("work", {"n": n}, f"c{n}") for n in range(5)]
    loop, _, _ = make_loop(s.tool_calls_reply(*calls), s.text_reply("ok"), tools=[work], limits=LoopLimits(max_parallel=2))
    await loop.send(thread, "go")
    assert most == 2
    assert len(results(thread)) == 5


async def test_completion_events_follow_completion_but_results_keep_call_order(thread):
    async def slow() -> str:
        """Slow."""
        await asyncio.sleep(0.06)
        return "slow"

    async def fast() -> str:
        """Fast."""
        return "fast"

    loop, agent, recorder = make_loop(
        s.tool_calls_reply(("slow", {}, "a"), ("fast", {}, "b")), reply_with_results(), tools=[slow, fast]
    )
    await loop.send(thread, "go")
    assert [event.call_id for event in recorder.of(ToolExecutionEnded)] == ["b", "a"]
    assert [event.call_id for event in recorder.of(ToolExecutionStarted)] == ["a", "b"]
    tool_messages = [m for m in agent.inputs[1].messages if m.role == "tool"]
    assert [m.tool_call_id for m in tool_messages] == ["a", "b"]
    assert_one_result_per_call(thread)


async def test_a_tool_that_runs_too_long_is_stopped_and_reported(thread):
    cancelled = asyncio.Event()

    async def hang() -> str:
        """Hang."""
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return "never"

    loop, _, _ = make_loop(
        s.tool_calls_reply(("hang", {}, "c1")), s.text_reply("ok"), tools=[tool_from_function(hang, timeout=0.05)]
    )
    outcome = await asyncio.wait_for(loop.send(thread, "go"), 3)
    assert outcome.status == "done"
    assert results(thread)["c1"] == "Error: hang did not finish within 0.05 s and was stopped"
    assert cancelled.is_set()


async def test_a_timeout_error_raised_by_the_tool_itself_is_its_own_error(thread):
    async def fetch() -> str:
        """Fetch."""
        raise TimeoutError("the upstream API timed out")

    loop, _, _ = make_loop(
        s.tool_calls_reply(("fetch", {}, "c1")), s.text_reply("ok"), tools=[tool_from_function(fetch, timeout=5)]
    )
    await loop.send(thread, "go")
    assert results(thread)["c1"] == "Error: TimeoutError: the upstream API timed out"


async def test_sync_handlers_work_too(thread):
    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    loop, _, _ = make_loop(s.tool_calls_reply(("add", {"a": 2, "b": 3}, "c1")), s.text_reply("ok"), tools=[add])
    await loop.send(thread, "add")
    assert results(thread) == {"c1": "5"}


async def test_a_tool_declared_with_state_gets_the_session_state_from_the_page(thread):
    class Dashboard:
        theme = "light"

    async def set_theme(state: Dashboard, mode: str) -> str:
        """Set the theme."""
        state.theme = mode
        return f"Theme is now {mode}."

    states = MemoryStates(Dashboard())
    loop, _, _ = make_loop(
        s.tool_calls_reply(("set_theme", {"mode": "dark"}, "c1")),
        s.text_reply("ok"),
        tools=[tool_from_function(set_theme, state=Dashboard)],
        state_access=states,
    )
    await loop.send(thread, "dark")
    assert states.states[Dashboard].theme == "dark"
    assert states.ran_with == [Dashboard]  # the page decides how (without holding its lock while the tool waits)
    assert states.opened == []


async def test_a_state_tool_outside_the_app_is_an_error_not_a_crash(thread):
    class Dashboard:
        pass

    def set_theme(state: Dashboard, mode: str) -> str:
        """Set."""
        return mode

    loop, _, _ = make_loop(
        s.tool_calls_reply(("set_theme", {"mode": "dark"}, "c1")),
        s.text_reply("ok"),
        tools=[tool_from_function(set_theme, state=Dashboard)],
    )
    outcome = await loop.send(thread, "dark")
    assert outcome.status == "done"
    assert "runs only inside the app" in results(thread)["c1"]


async def test_a_tool_scoped_to_another_agent_is_neither_offered_nor_run(thread):
    ran = []

    def secret() -> str:
        """For the research agent only."""
        ran.append(1)
        return "secret"

    loop, agent, _ = make_loop(
        s.tool_calls_reply(("secret", {}, "c1")), s.text_reply("ok"), tools=[tool_from_function(secret, agent="research")]
    )
    await loop.send(thread, "go")
    assert agent.inputs[0].tools == []
    assert ran == []
    assert "Unknown tool 'secret'" in results(thread)["c1"]


async def test_a_tool_not_available_on_this_page_is_not_offered_and_not_run(thread):
    from copilot_ui.core import Session

    def refund() -> str:
        """Orders page only."""
        return "refunded"

    tool = tool_from_function(refund, available=lambda session: session.page == "/orders")
    loop, agent, _ = make_loop(
        s.tool_calls_reply(("refund", {}, "c1")), s.text_reply("ok"), tools=[tool], session=Session(page="/")
    )
    await loop.send(thread, "refund")
    assert agent.inputs[0].tools == []
    assert "not available here" in results(thread)["c1"]


async def test_a_long_tool_takes_short_blocks_of_state_through_its_context(thread):
    class Dashboard:
        exports = 0

    async def export(context: ToolContext) -> str:
        """A long export that notes itself on the dashboard."""
        await asyncio.sleep(0.01)  # the long part holds nothing
        async with context.state(Dashboard) as dashboard:
            dashboard.exports += 1
        return "exported"

    states = MemoryStates(Dashboard())
    loop, _, _ = make_loop(s.tool_calls_reply(("export", {}, "c1")), s.text_reply("ok"), tools=[export], state_access=states)
    await loop.send(thread, "export")
    assert states.states[Dashboard].exports == 1
    assert states.opened == [Dashboard]


async def test_a_tool_asking_for_state_outside_the_app_gets_a_clear_error(thread):
    class Dashboard:
        pass

    async def export(context: ToolContext) -> str:
        """Export."""
        async with context.state(Dashboard):
            return "never"

    loop, _, _ = make_loop(s.tool_calls_reply(("export", {}, "c1")), s.text_reply("ok"), tools=[export])
    await loop.send(thread, "export")
    assert results(thread)["c1"] == (
        "Error: RuntimeError: export asked for the app's state (Dashboard), which only the app provides: "
        "this run has no StateAccess"
    )
