"""Where a person must decide: approval before a risky tool, a human-in-the-loop answer, an agent's interrupt.

Waiting is a state of the thread: the drive returns "waiting", and a decision resumes it, in the
same drive, in a later one, or after the thread was saved and loaded again.
"""

from __future__ import annotations

import asyncio
import pickle
from typing import Literal

import pytest
from ag_ui.core import Interrupt, ToolCallResultEvent
from pydantic import BaseModel

from copilot_ui.agents import scripts as s
from copilot_ui.core import Answer, Approve, AwaitingPerson, Deny, tool_from_function

from .conftest import assert_one_result_per_call, make_loop, reply_with_results, results


def refund(order_id: int, reason: str = "") -> str:
    """Refund an order."""
    return f"refunded order {order_id}"


def approved_refund():
    return tool_from_function(refund, approval="always")


async def test_a_call_that_needs_approval_waits_and_runs_once_approved(thread):
    loop, agent, recorder = make_loop(
        s.tool_calls_reply(("refund", {"order_id": 7}, "c1")), reply_with_results(), tools=[approved_refund()], ask_person=True
    )
    outcome = await loop.send(thread, "refund order 7")

    assert outcome.status == "waiting"
    (waiting,) = recorder.of(AwaitingPerson)
    assert (waiting.call_id, waiting.kind, waiting.arguments) == ("c1", "approval", {"order_id": 7})
    assert results(thread) == {}
    assert len(agent.inputs) == 1

    assert loop.decide(thread, "c1", Approve(), waiting.digest)  # the digest binds it to the call shown
    outcome = await loop.resume(thread)
    assert outcome.status == "done"
    assert results(thread) == {"c1": "refunded order 7"}
    assert thread.messages[-1].content == "Results: refunded order 7"
    assert_one_result_per_call(thread)


async def test_approval_with_edited_arguments_runs_with_them_after_validating_them_again(thread):
    loop, _, _ = make_loop(
        s.tool_calls_reply(("refund", {"order_id": 7}, "c1"), ("refund", {"order_id": 8}, "c2")),
        s.text_reply("ok"),
        tools=[approved_refund()],
        ask_person=True,
    )
    await loop.send(thread, "refund")
    loop.decide(thread, "c1", Approve(arguments={"order_id": 9}), thread.awaiting["c1"].digest)
    loop.decide(thread, "c2", Approve(arguments={"order_id": "nine"}), thread.awaiting["c2"].digest)
    await loop.resume(thread)
    outcome = results(thread)
    assert outcome["c1"] == "refunded order 9"
    assert outcome["c2"].startswith("Error:") and "order_id" in outcome["c2"]


async def test_a_denied_call_tells_the_agent_why_and_the_agent_continues(thread):
    ran = []

    def delete(path: str) -> str:
        """Delete a file."""
        ran.append(path)
        return "deleted"

    loop, agent, _ = make_loop(
        s.tool_calls_reply(("delete", {"path": "/etc"}, "c1")),
        reply_with_results(),
        tools=[tool_from_function(delete, approval="always")],
        ask_person=True,
    )
    await loop.send(thread, "clean up")
    loop.decide(thread, "c1", Deny("that is the system folder"), thread.awaiting["c1"].digest)
    outcome = await loop.resume(thread)
    assert ran == []
    assert results(thread)["c1"] == "Error: denied by the user: that is the system folder"
    assert outcome.status == "done"
    assert len(agent.inputs) == 2


async def test_an_approval_policy_can_look_at_the_arguments(thread):
    big = tool_from_function(refund, approval=lambda arguments: arguments["order_id"] > 100)
    loop, _, recorder = make_loop(
        s.tool_calls_reply(("refund", {"order_id": 5}, "small"), ("refund", {"order_id": 500}, "large")),
        s.text_reply("ok"),
        tools=[big],
        ask_person=True,
    )
    outcome = await loop.send(thread, "refunds")
    assert outcome.status == "waiting"
    assert results(thread) == {"small": "refunded order 5"}
    assert [event.call_id for event in recorder.of(AwaitingPerson)] == ["large"]


def _raises(arguments: dict) -> bool:
    raise KeyError("amount")


@pytest.mark.parametrize("policy", [_raises, lambda arguments: None, lambda arguments: "no", lambda arguments: 0])
async def test_an_approval_policy_that_fails_or_answers_no_true_or_false_asks_the_person(thread, policy):
    loop, _, recorder = make_loop(
        s.tool_calls_reply(("refund", {"order_id": 5}, "c1")),
        s.text_reply("ok"),
        tools=[tool_from_function(refund, approval=policy)],
        ask_person=True,
    )
    outcome = await loop.send(thread, "refund order 5")
    assert outcome.status == "waiting"
    assert [(event.call_id, event.kind) for event in recorder.of(AwaitingPerson)] == [("c1", "approval")]
    assert results(thread) == {}  # not run unasked


async def test_with_no_person_to_ask_a_call_needing_approval_is_denied(thread):
    ran = []

    def wipe() -> str:
        """Wipe."""
        ran.append(1)
        return "wiped"

    loop, _, _ = make_loop(
        s.tool_calls_reply(("wipe", {}, "c1")), s.text_reply("ok"), tools=[tool_from_function(wipe, approval="always")]
    )
    outcome = await loop.send(thread, "wipe")
    assert outcome.status == "done"
    assert ran == []
    assert "denied by the user: no person could be asked" in results(thread)["c1"]


async def test_calls_that_need_no_person_are_not_held_back_by_one_that_waits(thread):
    def lookup(order_id: int) -> str:
        """Look an order up."""
        return f"order {order_id} is paid"

    loop, agent, _ = make_loop(
        s.tool_calls_reply(("refund", {"order_id": 7}, "c1"), ("lookup", {"order_id": 7}, "c2")),
        reply_with_results(),
        tools=[approved_refund(), lookup],
        ask_person=True,
    )
    outcome = await loop.send(thread, "refund 7")
    assert outcome.status == "waiting"
    assert results(thread) == {"c2": "order 7 is paid"}  # ran, and is in the thread while c1 waits
    assert len(agent.inputs) == 1  # no follow-up until every call has its result

    loop.decide(thread, "c1", Approve(), thread.awaiting["c1"].digest)
    await loop.resume(thread)
    assert [m.tool_call_id for m in agent.inputs[1].messages if m.role == "tool"] == ["c1", "c2"]


async def test_a_decision_made_while_other_tools_run_is_acted_on_in_the_same_turn(thread):
    gate = asyncio.Event()

    async def slow_report() -> str:
        """A slow report."""
        await asyncio.wait_for(gate.wait(), 2)
        return "report ready"

    loop, agent, recorder = make_loop(
        s.tool_calls_reply(("refund", {"order_id": 7}, "c1"), ("slow_report", {}, "c2")),
        reply_with_results(),
        tools=[approved_refund(), slow_report],
        ask_person=True,
    )
    drive = asyncio.create_task(loop.send(thread, "refund and report"))
    while not recorder.of(AwaitingPerson):
        await asyncio.sleep(0.005)
    loop.decide(thread, "c1", Approve(), thread.awaiting["c1"].digest)
    await asyncio.sleep(0.02)
    assert results(thread).get("c1") == "refunded order 7"  # approved and run while c2 still runs
    gate.set()
    outcome = await asyncio.wait_for(drive, 2)
    assert outcome.status == "done"
    assert len(agent.inputs) == 2


async def test_a_human_in_the_loop_call_takes_the_persons_answer_as_its_result(thread):
    def confirm_plan(steps: list[str]) -> None:
        """Ask the user to confirm the plan."""

    tool = tool_from_function(confirm_plan, kind="human")
    loop, agent, recorder = make_loop(
        s.tool_calls_reply(("confirm_plan", {"steps": ["a", "b"]}, "c1")), reply_with_results(), tools=[tool], ask_person=True
    )
    outcome = await loop.send(thread, "plan it")
    assert outcome.status == "waiting"
    assert recorder.of(AwaitingPerson)[0].kind == "input"

    loop.decide(thread, "c1", Answer({"approved": True, "steps": ["a"]}), thread.awaiting["c1"].digest)
    await loop.resume(thread)
    assert results(thread)["c1"] == '{"approved": true, "steps": ["a"]}'
    assert agent.inputs[1].messages[-1].role == "tool"


class TaskStep(BaseModel):
    description: str
    status: Literal["enabled", "disabled"] = "enabled"


async def test_a_questions_answer_function_gets_typed_arguments_and_a_typed_answer(thread):
    seen = []

    async def generate_task_steps(steps: list[TaskStep], answer: dict[str, bool]) -> list[str]:
        """Propose steps; the person keeps some."""
        seen.append((steps, answer))
        return [step.description for step in steps if answer.get(step.description)]

    tool = tool_from_function(generate_task_steps, kind="human")
    assert "answer" not in tool.parameters["properties"]  # the agent does not give it
    steps = [{"description": "Pick a date"}, {"description": "Write the post"}]
    loop, _, _ = make_loop(
        s.tool_calls_reply(("generate_task_steps", {"steps": steps}, "c1")), s.text_reply("ok"), tools=[tool], ask_person=True
    )
    await loop.send(thread, "plan it")
    form = {"Pick a date": "on", "Write the post": "off"}  # a form's checkboxes, ticked and unticked
    assert loop.decide(thread, "c1", Answer(form), thread.awaiting["c1"].digest)
    await loop.resume(thread)

    ((typed_steps, typed_answer),) = seen
    assert [step.description for step in typed_steps] == ["Pick a date", "Write the post"]
    assert typed_answer == {"Pick a date": True, "Write the post": False}
    assert results(thread)["c1"] == '["Pick a date"]'


async def test_an_answer_that_does_not_fit_becomes_an_error_result_quoting_it(thread):
    def rate_it(item: str, answer: int) -> str:
        """Ask for a score."""
        return f"{item}: {answer}/5"

    loop, _, _ = make_loop(
        s.tool_calls_reply(("rate_it", {"item": "lunch"}, "c1")),
        s.text_reply("ok"),
        tools=[tool_from_function(rate_it, kind="human")],
        ask_person=True,
    )
    await loop.send(thread, "rate")
    loop.decide(thread, "c1", Answer("great"), thread.awaiting["c1"].digest)
    await loop.resume(thread)
    result = results(thread)["c1"]
    assert result.startswith("Error: the person's answer could not be used")
    assert "the answer to rate_it does not fit its type" in result and "they answered: great" in result


async def test_only_questions_without_a_typed_answer_or_with_a_text_one_take_text():
    def ask(question: str) -> None:
        """Ask."""

    def name_it(question: str, answer: str) -> str:
        """Ask for a name."""
        return answer.title()

    def choose(options: list[str], answer: dict[str, bool]) -> list[str]:
        """Choose."""
        return [option for option in options if answer.get(option)]

    takes_text = {f.__name__: tool_from_function(f, kind="human").takes_text_answer for f in (ask, name_it, choose)}
    assert takes_text == {"ask": True, "name_it": True, "choose": False}


async def test_a_human_in_the_loop_call_with_no_person_to_ask_is_an_error(thread):
    def confirm_plan(steps: list[str]) -> None:
        """Confirm."""

    loop, _, _ = make_loop(
        s.tool_calls_reply(("confirm_plan", {"steps": []}, "c1")),
        s.text_reply("ok"),
        tools=[tool_from_function(confirm_plan, kind="human")],
    )
    await loop.send(thread, "plan")
    assert "needs a person's answer" in results(thread)["c1"]


async def test_a_thread_waiting_for_approval_resumes_after_being_saved_and_loaded(thread):
    loop, _, _ = make_loop(
        s.tool_calls_reply(("refund", {"order_id": 7}, "c1")), reply_with_results(), tools=[approved_refund()], ask_person=True
    )
    assert (await loop.send(thread, "refund")).status == "waiting"

    restored = pickle.loads(pickle.dumps(thread))  # a restart, a reload, another worker
    fresh_loop, fresh_agent, _ = make_loop(reply_with_results(), tools=[approved_refund()], ask_person=True)
    fresh_loop.decide(restored, "c1", Approve(), restored.awaiting["c1"].digest)
    outcome = await fresh_loop.resume(restored)
    assert outcome.status == "done"
    assert results(restored) == {"c1": "refunded order 7"}
    assert fresh_agent.inputs[0].messages[-1].content == "refunded order 7"


async def test_a_new_message_instead_of_an_answer_closes_the_waiting_call_and_goes_on(thread):
    loop, agent, _ = make_loop(
        s.tool_calls_reply(("refund", {"order_id": 7}, "c1")),
        s.text_reply("ok, no refund"),
        tools=[approved_refund()],
        ask_person=True,
    )
    await loop.send(thread, "refund 7")
    outcome = await loop.send(thread, "never mind")
    assert outcome.status == "done"
    assert "wrote a new message instead" in results(thread)["c1"]
    assert [m.role for m in agent.inputs[1].messages] == ["user", "assistant", "tool", "user"]
    assert_one_result_per_call(thread)


async def test_an_agent_interrupt_waits_for_approval_and_the_next_run_resumes_it(thread):
    interrupt = Interrupt(id="int-1", reason="tool_call", tool_call_id="c1", message="Delete demo.txt?")
    first = s.interrupt_reply(interrupt, body=s.tool_call("delete_file", {"path": "demo.txt"}, call_id="c1"))
    resumed = s.run(ToolCallResultEvent(message_id="r1", tool_call_id="c1", content="deleted demo.txt"), s.text("Deleted."))
    loop, agent, recorder = make_loop(first, resumed, ask_person=True)

    outcome = await loop.send(thread, "delete demo.txt")
    assert outcome.status == "waiting"
    (waiting,) = recorder.of(AwaitingPerson)
    assert (waiting.call_id, waiting.interrupt_id, waiting.message) == ("c1", "int-1", "Delete demo.txt?")
    assert results(thread) == {}  # a backend tool: not run here

    assert loop.decide(thread, "c1", Approve(), waiting.digest)
    outcome = await loop.resume(thread)
    assert outcome.status == "done"
    (entry,) = agent.inputs[1].resume
    assert (entry.interrupt_id, entry.status, entry.payload) == ("int-1", "resolved", {"approved": True})
    assert results(thread) == {"c1": "deleted demo.txt"}
    assert thread.interrupts == []


async def test_a_denied_interrupt_is_resumed_as_not_approved_with_the_reason(thread):
    interrupt = Interrupt(id="int-1", reason="tool_call", tool_call_id="c1")
    loop, agent, _ = make_loop(
        s.interrupt_reply(interrupt, body=s.tool_call("delete_file", {}, call_id="c1")),
        s.run(ToolCallResultEvent(message_id="r1", tool_call_id="c1", content="not deleted"), s.text("Kept it.")),
        ask_person=True,
    )
    await loop.send(thread, "delete")
    loop.decide(thread, "c1", Deny("I need it"), thread.awaiting["c1"].digest)
    await loop.resume(thread)
    assert agent.inputs[1].resume[0].payload == {"approved": False, "reason": "I need it"}


async def test_with_no_person_to_ask_an_interrupt_is_resumed_as_denied(thread):
    interrupt = Interrupt(id="int-1", reason="tool_call", tool_call_id="c1")
    loop, agent, _ = make_loop(
        s.interrupt_reply(interrupt, body=s.tool_call("delete_file", {}, call_id="c1")),
        s.run(ToolCallResultEvent(message_id="r1", tool_call_id="c1", content="not deleted"), s.text("ok")),
    )
    outcome = await loop.send(thread, "delete")
    assert outcome.status == "done"
    assert agent.inputs[1].resume[0].payload["approved"] is False


async def test_an_interrupt_asking_for_input_takes_the_answer_as_the_resume_payload(thread):
    interrupt = Interrupt(id="int-9", reason="input_required", message="Which city?")
    loop, agent, recorder = make_loop(s.interrupt_reply(interrupt), s.text_reply("Booked Paris."), ask_person=True)
    await loop.send(thread, "book a trip")
    assert recorder.of(AwaitingPerson)[0].kind == "input"
    loop.decide(thread, "int-9", Answer({"city": "Paris"}), thread.awaiting["int-9"].digest)
    await loop.resume(thread)
    assert agent.inputs[1].resume[0].payload == {"city": "Paris"}
