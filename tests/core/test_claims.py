"""One driver per thread: a second drive of the same thread id is refused, wherever it comes from.

Two clicks, two tabs or two RunLoop objects never both drive one conversation; a message or a
decision made elsewhere reaches the drive that holds the thread.
"""

from __future__ import annotations

import asyncio

import pytest

from copilot_ui.agents import Pause
from copilot_ui.agents import scripts as s
from copilot_ui.core import Approve, AwaitingPerson, Thread, ThreadBusy, claims, tool_from_function

from .conftest import make_loop, results


def slow_reply(text: str, seconds: float = 0.05) -> list:
    reply = s.run(s.text(text))
    reply.insert(1, Pause(seconds))
    return reply


async def test_two_loops_resuming_one_thread_with_the_same_approval_run_the_handler_once(thread):
    ran = []

    async def refund(order_id: int) -> str:
        """Refund an order."""
        ran.append(order_id)
        await asyncio.sleep(0.02)
        return "refunded"

    tools = [tool_from_function(refund, approval="always")]
    first, _, _ = make_loop(
        s.tool_calls_reply(("refund", {"order_id": 7}, "c1")), s.text_reply("done"), tools=tools, ask_person=True
    )
    second, _, _ = make_loop(s.text_reply("done"), tools=tools, ask_person=True)
    await first.send(thread, "refund 7")
    digest = thread.awaiting["c1"].digest
    assert first.decide(thread, "c1", Approve(), digest)
    assert not second.decide(thread, "c1", Approve(), digest)  # the same click, twice: the second does not count

    outcomes = await asyncio.gather(first.resume(thread), second.resume(thread), return_exceptions=True)
    assert ran == [7]
    assert [type(outcome).__name__ for outcome in outcomes] == ["TurnOutcome", "ThreadBusy"]
    assert results(thread) == {"c1": "refunded"}


async def test_a_second_drive_of_the_same_thread_id_is_refused_even_through_another_thread_object(thread):
    driving, _, _ = make_loop(slow_reply("slow"))
    other, other_agent, _ = make_loop(s.text_reply("never"))
    drive = asyncio.create_task(driving.send(thread, "one"))
    await asyncio.sleep(0.01)

    same_conversation = Thread(thread.id)  # loaded again from a store, say
    with pytest.raises(ThreadBusy, match=thread.id):
        await other.resume(same_conversation)
    assert (await drive).status == "done"
    assert other_agent.inputs == []


async def test_a_claim_taken_before_any_await_holds_the_thread_until_released(thread):
    loop, agent, _ = make_loop(s.text_reply("hi"))
    claim = claims.claim(thread.id)  # synchronous: taken before the event handler's first await
    assert claim is not None and claims.claim(thread.id) is None
    other, _, _ = make_loop(s.text_reply("never"))
    with pytest.raises(ThreadBusy):
        await other.resume(thread)

    assert (await loop.send(thread, "hello", claim=claim)).status == "done"
    assert claims.holder(thread.id) is claim  # who claimed, releases
    claim.release()
    assert claims.holder(thread.id) is None
    assert len(agent.inputs) == 1


async def test_the_thread_is_free_again_however_the_drive_ends(thread):
    loop, _, _ = make_loop(s.error_reply("overloaded"), slow_reply("slow", 5))
    assert (await loop.send(thread, "one")).status == "error"
    assert claims.holder(thread.id) is None

    drive = asyncio.create_task(loop.send(thread, "two"))
    await asyncio.sleep(0.01)
    assert claims.holder(thread.id) is not None
    drive.cancel()
    with pytest.raises(asyncio.CancelledError):
        await drive
    assert claims.holder(thread.id) is None


async def test_a_message_sent_through_another_loop_goes_to_the_drive_that_holds_the_thread(thread):
    driving, agent, _ = make_loop(slow_reply("first answer"), s.text_reply("second answer"))
    elsewhere, elsewhere_agent, _ = make_loop()
    drive = asyncio.create_task(driving.send(thread, "one"))
    await asyncio.sleep(0.01)
    assert await elsewhere.send(Thread(thread.id), "two") is None  # another tab, another Thread object
    await asyncio.wait_for(drive, 2)
    assert [m.content for m in agent.inputs[1].messages if m.role == "user"] == ["one", "two"]
    assert elsewhere_agent.inputs == []


async def test_a_decision_made_through_another_loop_reaches_the_running_turn(thread):
    gate = asyncio.Event()

    async def report() -> str:
        """A slow report."""
        await asyncio.wait_for(gate.wait(), 2)
        return "report ready"

    def refund(order_id: int) -> str:
        """Refund an order."""
        return f"refunded {order_id}"

    tools = [tool_from_function(refund, approval="always"), report]
    driving, _, recorder = make_loop(
        s.tool_calls_reply(("refund", {"order_id": 7}, "c1"), ("report", {}, "c2")),
        s.text_reply("ok"),
        tools=tools,
        ask_person=True,
    )
    elsewhere, _, _ = make_loop(tools=tools, ask_person=True)
    drive = asyncio.create_task(driving.send(thread, "refund and report"))
    while not recorder.of(AwaitingPerson):
        await asyncio.sleep(0.005)
    assert elsewhere.decide(Thread(thread.id), "c1", Approve(), recorder.of(AwaitingPerson)[0].digest)
    await asyncio.sleep(0.02)
    assert results(thread).get("c1") == "refunded 7"  # run by the drive that holds the thread, at once
    gate.set()
    assert (await asyncio.wait_for(drive, 2)).status == "done"


async def test_a_waiter_that_gives_up_does_not_end_the_wait_of_the_others(thread):
    claim = claims.claim(thread.id)
    assert claim is not None
    impatient = asyncio.create_task(claim.wait_released())
    patient = asyncio.create_task(claim.wait_released())
    await asyncio.sleep(0)
    impatient.cancel()
    await asyncio.sleep(0)
    assert not patient.done()  # still waiting: the thread is still held
    claim.release()
    await asyncio.wait_for(patient, 1)
    assert claims.holder(thread.id) is None and claim.ended().done()
