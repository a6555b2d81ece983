"""Hooks are the one place to intercept a run: they may block, rewrite, replace or stop; a failing hook is contained."""

from __future__ import annotations

import asyncio
import logging

from ag_ui.core import Context, EventType, RunAgentInput

from copilot_ui.agents import scripts as s
from copilot_ui.core import Approve, AwaitingPerson, Block, Hooks, Replace, Rewrite, Stop, tool_from_function

from .conftest import assert_one_result_per_call, make_loop, reply_with_results, results


def transfer(amount: int, to: str) -> str:
    """Transfer money."""
    return f"sent {amount} to {to}"


def one_transfer(amount: int = 50):
    return s.tool_calls_reply(("transfer", {"amount": amount, "to": "bob"}, "c1"))


async def test_a_before_tool_hook_can_block_a_call_with_a_reason(thread):
    hooks = Hooks(before_tool=[lambda call: Block("transfers are frozen") if call.tool_name == "transfer" else None])
    loop, agent, _ = make_loop(one_transfer(), reply_with_results(), tools=[transfer], hooks=hooks)
    await loop.send(thread, "pay bob")
    assert results(thread)["c1"] == "Error: blocked: transfers are frozen"
    assert len(agent.inputs) == 2


async def test_a_before_tool_hook_can_rewrite_the_arguments(thread):
    hooks = Hooks(before_tool=[lambda call: Rewrite({**call.arguments, "amount": min(call.arguments["amount"], 100)})])
    loop, _, _ = make_loop(one_transfer(5000), s.text_reply("ok"), tools=[transfer], hooks=hooks)
    await loop.send(thread, "pay bob")
    assert results(thread)["c1"] == "sent 100 to bob"


async def test_an_after_tool_hook_can_replace_the_result(thread):
    async def redact(call, result):
        return Replace(result.content.replace("bob", "[redacted]"))

    loop, _, _ = make_loop(one_transfer(), s.text_reply("ok"), tools=[transfer], hooks=Hooks(after_tool=[redact]))
    await loop.send(thread, "pay bob")
    assert results(thread)["c1"] == "sent 50 to [redacted]"


async def test_a_tool_hook_that_raises_becomes_the_calls_error_result(thread):
    def broken(call):
        raise RuntimeError("policy service down")

    loop, _, _ = make_loop(one_transfer(), s.text_reply("ok"), tools=[transfer], hooks=Hooks(before_tool=[broken]))
    outcome = await loop.send(thread, "pay bob")
    assert outcome.status == "done"
    assert results(thread)["c1"] == "Error: the before_tool hook failed: RuntimeError: policy service down"


async def test_a_before_tool_hook_can_stop_the_run_and_every_call_still_gets_a_result(thread):
    ran = []

    def log(text: str) -> str:
        """Log."""
        ran.append(text)
        return "logged"

    hooks = Hooks(before_tool=[lambda call: Stop("a transfer needs a manager") if call.tool_name == "transfer" else None])
    loop, agent, _ = make_loop(
        s.tool_calls_reply(("transfer", {"amount": 1, "to": "bob"}, "c1"), ("log", {"text": "x"}, "c2")),
        tools=[transfer, log],
        hooks=hooks,
    )
    outcome = await loop.send(thread, "pay")
    assert outcome.status == "stopped"
    assert outcome.message == "a transfer needs a manager"
    assert ran == []
    assert len(agent.inputs) == 1
    assert_one_result_per_call(thread)


async def test_a_before_run_hook_can_stop_before_any_request(thread):
    loop, agent, _ = make_loop(s.text_reply("never"), hooks=Hooks(before_run=[lambda thread: Stop("outside office hours")]))
    outcome = await loop.send(thread, "hi")
    assert (outcome.status, outcome.message) == ("stopped", "outside office hours")
    assert agent.inputs == []


async def test_a_before_agent_call_hook_can_change_what_is_sent(thread):
    def add_user_profile(run_input: RunAgentInput) -> RunAgentInput:
        return run_input.model_copy(update={"context": [*run_input.context, Context(description="user", value="Ada")]})

    loop, agent, _ = make_loop(s.text_reply("hi Ada"), hooks=Hooks(before_agent_call=[add_user_profile]))
    await loop.send(thread, "hi")
    assert agent.inputs[0].context[-1].value == "Ada"


async def test_a_before_agent_call_hook_can_stop_the_follow_up(thread):
    def only_first(run_input: RunAgentInput) -> Stop | None:
        return Stop("one request per turn") if any(m.role == "tool" for m in run_input.messages) else None

    loop, agent, _ = make_loop(
        one_transfer(), s.text_reply("never"), tools=[transfer], hooks=Hooks(before_agent_call=[only_first])
    )
    outcome = await loop.send(thread, "pay")
    assert outcome.status == "stopped"
    assert len(agent.inputs) == 1
    assert results(thread) == {"c1": "sent 50 to bob"}


async def test_an_after_agent_call_hook_sees_the_thread_after_each_run(thread):
    seen = []
    hooks = Hooks(after_agent_call=[lambda run_input, thread: seen.append(thread.messages[-1].content)])
    loop, _, _ = make_loop(s.text_reply("hello there"), hooks=hooks)
    await loop.send(thread, "hi")
    assert seen == ["hello there"]


async def test_an_on_event_hook_sees_every_event_and_may_stop_the_run(thread):
    seen: list[str] = []

    def watch(event):
        seen.append(event.type.value)
        if event.type is EventType.TOOL_CALL_START:
            return Stop("no tools today")
        return None

    loop, agent, _ = make_loop(one_transfer(), s.text_reply("never"), tools=[transfer], hooks=Hooks(on_event=[watch]))
    outcome = await loop.send(thread, "pay")
    assert outcome.status == "stopped"
    assert seen[:2] == ["RUN_STARTED", "TEXT_MESSAGE_START"]
    assert "TOOL_CALL_START" in seen
    assert "Error" in results(thread)["c1"]
    assert len(agent.inputs) == 1


async def test_an_after_run_hook_hears_how_the_turn_ended(thread):
    ends = []
    loop, _, _ = make_loop(s.text_reply("hi"), hooks=Hooks(after_run=[lambda thread, outcome: ends.append(outcome.status)]))
    await loop.send(thread, "hello")
    assert ends == ["done"]


async def test_a_run_hook_that_raises_ends_the_turn_with_an_error_not_a_crash(thread):
    def broken(thread):
        raise ValueError("audit log unavailable")

    loop, agent, _ = make_loop(s.text_reply("never"), hooks=Hooks(before_run=[broken]))
    outcome = await loop.send(thread, "hi")
    assert outcome.status == "error"
    assert "audit log unavailable" in outcome.message
    assert agent.inputs == []


async def test_hooks_repairs_and_approval_policies_run_once_per_call_even_behind_a_sequential_tool(thread):
    seen: list[str] = []

    async def slow() -> str:
        """Slow."""
        await asyncio.sleep(0.03)
        return "slow"

    def write(value: str) -> str:
        """Write (alone)."""
        return "written"

    def repair(arguments: dict) -> dict:
        seen.append("repair")
        return arguments

    def policy(arguments: dict) -> bool:
        seen.append("policy")
        return False

    hooks = Hooks(before_tool=[lambda call: seen.append(f"before_tool {call.call_id}")])
    tools = [slow, tool_from_function(write, mode="sequential", prepare_arguments=repair, approval=policy)]
    loop, _, _ = make_loop(
        s.tool_calls_reply(("slow", {}, "a"), ("write", {"value": "x"}, "b")), s.text_reply("ok"), tools=tools, hooks=hooks
    )
    await loop.send(thread, "go")  # "write" waits for "slow" to finish: the loop looks at it more than once
    assert sorted(seen) == ["before_tool a", "before_tool b", "policy", "repair"]
    assert results(thread) == {"a": "slow", "b": "written"}


async def test_a_before_tool_hook_runs_before_the_approval_so_the_person_sees_the_rewritten_call(thread):
    hooks = Hooks(before_tool=[lambda call: Rewrite({**call.arguments, "amount": 100})])
    loop, _, recorder = make_loop(
        one_transfer(5000),
        s.text_reply("ok"),
        tools=[tool_from_function(transfer, approval="always")],
        hooks=hooks,
        ask_person=True,
    )
    await loop.send(thread, "pay bob")
    (waiting,) = recorder.of(AwaitingPerson)
    assert waiting.arguments == {"amount": 100, "to": "bob"}
    loop.decide(thread, "c1", Approve(), waiting.digest)
    await loop.resume(thread)
    assert results(thread)["c1"] == "sent 100 to bob"


async def test_a_failing_tool_is_logged_with_its_traceback_and_its_result_shows_only_the_message(thread, caplog):
    def divide(a: int, b: int) -> float:
        """Divide."""
        return a / b

    loop, _, _ = make_loop(s.tool_calls_reply(("divide", {"a": 1, "b": 0}, "c1")), s.text_reply("ok"), tools=[divide])
    with caplog.at_level(logging.WARNING, logger="copilot_ui.core"):
        await loop.send(thread, "divide")
    (logged,) = [record for record in caplog.records if record.exc_info]
    assert logged.exc_info[0] is ZeroDivisionError and "divide" in logged.getMessage()
    assert results(thread)["c1"] == "Error: ZeroDivisionError: division by zero"  # no traceback for people


async def test_a_failing_hook_is_logged_with_its_traceback(thread, caplog):
    def broken(call):
        raise RuntimeError("policy service down")

    loop, _, _ = make_loop(one_transfer(), s.text_reply("ok"), tools=[transfer], hooks=Hooks(before_tool=[broken]))
    with caplog.at_level(logging.WARNING, logger="copilot_ui.core"):
        await loop.send(thread, "pay bob")
    assert any(record.exc_info and record.exc_info[0] is RuntimeError for record in caplog.records)
    assert "Traceback" not in results(thread)["c1"]


async def test_a_hook_that_fails_quoting_a_secret_leaves_the_agent_a_result_without_it(thread, monkeypatch):
    secret = "crm-" + "5f2b9c1e7d" * 3
    monkeypatch.setenv("CRM_API_KEY", secret)

    def check_limits(call):
        raise PermissionError(f"GET https://crm.example/limits?token={secret}: 403")

    loop, agent, _ = make_loop(one_transfer(), reply_with_results(), tools=[transfer], hooks=Hooks(before_tool=[check_limits]))
    await loop.send(thread, "pay bob")
    assert (
        results(thread)["c1"]
        == "Error: the before_tool hook failed: PermissionError: GET https://crm.example/limits?token=[redacted]: 403"
    )
    assert secret not in agent.inputs[-1].model_dump_json()
