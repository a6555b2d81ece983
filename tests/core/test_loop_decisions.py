"""A decision counts only for a call that awaits that decision now, as shown, with the arguments shown.

Each waiting call is announced with a digest of its name and arguments; a decision carries it back.
A decision that does not fit is refused (False, and a warning in the log), never raised; a call the
agent changed since the person saw it is asked about again and never runs on an old approval.
"""

from __future__ import annotations

import asyncio
import logging

from ag_ui.core import AssistantMessage, FunctionCall, Interrupt, MessagesSnapshotEvent, ToolCall, UserMessage

from copilot_ui.agents import scripts as s
from copilot_ui.core import Answer, Approve, AwaitingPerson, Deny, call_digest, tool_from_function

from .conftest import make_loop, results

ran: list[int] = []


def refund(order_id: int) -> str:
    """Refund an order."""
    ran.append(order_id)
    return f"refunded order {order_id}"


def waiting_refund(*more_scripts):
    ran.clear()
    return make_loop(
        s.tool_calls_reply(("refund", {"order_id": 7}, "c1")),
        *more_scripts,
        tools=[tool_from_function(refund, approval="always")],
        ask_person=True,
    )


def calls_changed_to(order_id: int, thread) -> list:
    """The thread's messages as an agent's snapshot would re-send them: call c1 with other arguments, no result."""
    user, assistant = thread.messages[0], thread.messages[1]
    changed = ToolCall(id="c1", function=FunctionCall(name="refund", arguments=f'{{"order_id": {order_id}}}'))
    return [UserMessage(id=user.id, content=user.content), AssistantMessage(id=assistant.id, tool_calls=[changed])]


async def test_the_person_is_shown_a_digest_of_the_call_and_the_loop_records_what_waits(thread):
    loop, _, recorder = waiting_refund()
    await loop.send(thread, "refund 7")
    (waiting,) = recorder.of(AwaitingPerson)
    assert waiting.digest == call_digest("refund", {"order_id": 7})
    shown = thread.awaiting["c1"]
    assert (shown.kind, shown.tool_name, shown.arguments, shown.digest) == ("approval", "refund", {"order_id": 7}, waiting.digest)


async def test_a_decision_on_a_call_that_does_not_exist_yet_does_not_count(thread, caplog):
    loop, _, _ = waiting_refund()
    with caplog.at_level(logging.WARNING, logger="copilot_ui.core"):
        assert not loop.decide(thread, "c1", Approve(), call_digest("refund", {"order_id": 7}))
    assert "nothing waits" in caplog.text
    await loop.send(thread, "refund 7")
    assert thread.decisions == {}  # the early click did not approve the call that came later


async def test_a_second_decision_on_the_same_call_does_not_count(thread):
    loop, _, _ = waiting_refund(s.text_reply("ok"))
    await loop.send(thread, "refund 7")
    digest = thread.awaiting["c1"].digest
    assert loop.decide(thread, "c1", Deny("no"), digest)
    assert not loop.decide(thread, "c1", Approve(), digest)  # a late click on the other button
    await loop.resume(thread)
    assert ran == []
    assert "denied by the user: no" in results(thread)["c1"]


async def test_a_decision_on_a_finished_call_does_not_count(thread):
    loop, _, _ = waiting_refund(s.text_reply("ok"))
    await loop.send(thread, "refund 7")
    digest = thread.awaiting["c1"].digest
    loop.decide(thread, "c1", Approve(), digest)
    await loop.resume(thread)
    assert thread.awaiting == {} and thread.decisions == {}  # used up when the call got its result
    assert not loop.decide(thread, "c1", Approve(), digest)
    assert ran == [7]


async def test_a_decision_of_the_wrong_kind_or_with_another_digest_does_not_count(thread):
    loop, _, _ = waiting_refund()
    await loop.send(thread, "refund 7")
    digest = thread.awaiting["c1"].digest
    assert not loop.decide(thread, "c1", Answer("yes"), digest)  # an answer is not an approval
    assert not loop.decide(thread, "c1", Approve(), call_digest("refund", {"order_id": 8}))
    assert not loop.decide(thread, "c1", Approve(), "")
    assert thread.decisions == {}


async def test_an_approval_given_before_the_agent_changed_the_call_is_dropped_and_the_person_asked_again(thread):
    loop, _, recorder = waiting_refund(s.text_reply("ok"))
    await loop.send(thread, "refund 7")
    old = thread.awaiting["c1"].digest
    assert loop.decide(thread, "c1", Approve(), old)
    thread.replace_messages(calls_changed_to(8, thread))  # the agent's snapshot: same call id, other arguments

    assert not loop.decide(thread, "c1", Approve(), old)  # a click on the old card counts no more
    outcome = await loop.resume(thread)
    assert outcome.status == "waiting"
    assert ran == []
    asked_again = recorder.of(AwaitingPerson)[-1]
    assert (asked_again.arguments, asked_again.digest) == ({"order_id": 8}, call_digest("refund", {"order_id": 8}))

    assert loop.decide(thread, "c1", Approve(), asked_again.digest)
    await loop.resume(thread)
    assert ran == [8]


async def test_an_approved_call_that_comes_back_with_other_arguments_asks_again_and_never_runs_on_the_old_approval(thread):
    def resend_changed(run_input):
        return s.run(MessagesSnapshotEvent(messages=calls_changed_to(8, thread)))

    loop, _, recorder = waiting_refund(resend_changed, s.text_reply("ok"))
    await loop.send(thread, "refund")
    loop.decide(thread, "c1", Approve(), thread.awaiting["c1"].digest)
    outcome = await loop.resume(thread)

    assert ran == [7]  # once, as approved; not again with 8
    assert outcome.status == "waiting"
    assert [event.arguments for event in recorder.of(AwaitingPerson)] == [{"order_id": 7}, {"order_id": 8}]


async def test_a_human_in_the_loop_answer_counts_only_as_an_answer_to_the_question_shown(thread):
    def confirm_plan(steps: list[str]) -> None:
        """Ask the user to confirm the plan."""

    loop, _, recorder = make_loop(
        s.tool_calls_reply(("confirm_plan", {"steps": ["a", "b"]}, "c1")),
        s.text_reply("ok"),
        tools=[tool_from_function(confirm_plan, kind="human")],
        ask_person=True,
    )
    await loop.send(thread, "plan it")
    (question,) = recorder.of(AwaitingPerson)
    assert not loop.decide(thread, "c1", Approve(), question.digest)  # a question wants an answer
    assert not loop.decide(thread, "c1", Answer("yes"), call_digest("confirm_plan", {"steps": ["a"]}))
    assert loop.decide(thread, "c1", Answer("yes"), question.digest)
    await loop.resume(thread)
    assert results(thread)["c1"] == "yes"


async def test_an_interrupt_that_now_says_something_else_needs_a_new_decision(thread):
    first = Interrupt(id="int-1", reason="confirmation", message="Delete demo.txt?")
    loop, agent, recorder = make_loop(s.interrupt_reply(first), s.text_reply("Deleted."), ask_person=True)
    await loop.send(thread, "delete demo.txt")
    (asked,) = recorder.of(AwaitingPerson)
    assert loop.decide(thread, "int-1", Approve(), asked.digest)

    thread.interrupts = [Interrupt(id="int-1", reason="confirmation", message="Delete every file?")]
    outcome = await loop.resume(thread)
    assert outcome.status == "waiting"
    assert len(agent.inputs) == 1  # not resumed on the approval given to another question
    asked_again = recorder.of(AwaitingPerson)[-1]
    assert (asked_again.message, asked_again.digest != asked.digest) == ("Delete every file?", True)


async def test_a_skipped_call_that_the_agent_sends_again_is_asked_about_again(thread):
    started = asyncio.Event()

    async def report() -> str:
        """A slow report."""
        started.set()
        await asyncio.sleep(0.03)
        return "report ready"

    def resend_without_the_skipped_result(run_input):
        kept = [m for m in run_input.messages if not (m.role == "tool" and m.tool_call_id == "c1")]
        return s.run(MessagesSnapshotEvent(messages=kept))

    ran.clear()
    loop, _, recorder = make_loop(
        s.tool_calls_reply(("refund", {"order_id": 7}, "c1"), ("report", {}, "c2")),
        resend_without_the_skipped_result,
        tools=[tool_from_function(refund, approval="always"), report],
        ask_person=True,
    )
    drive = asyncio.create_task(loop.send(thread, "refund and report"))
    await started.wait()
    await loop.send(thread, "actually, wait")  # c1 is skipped; the agent answers with c1 open again
    outcome = await asyncio.wait_for(drive, 2)

    assert outcome.status == "waiting"
    assert [event.call_id for event in recorder.of(AwaitingPerson)] == ["c1", "c1"]
    assert thread.awaiting["c1"].digest == recorder.of(AwaitingPerson)[-1].digest  # a click on the card counts
    assert ran == []
