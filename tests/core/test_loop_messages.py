"""Nothing the person writes is lost: a message written during a drive goes with the next run, whatever ends it.

A failed run or the turn limit sends it (a new turn, in the same drive); a Stop hands it back unsent
(test_loop_stop); calls that waited for the person are answered "not run" (skipped), and the
message is answered instead.
"""

from __future__ import annotations

import asyncio

from copilot_ui.agents import Pause
from copilot_ui.agents import scripts as s
from copilot_ui.core import ErrorOccurred, LoopLimits, ToolExecutionEnded, UserMessageAdded, tool_from_function

from .conftest import assert_one_result_per_call, make_loop, results


def refund(order_id: int) -> str:
    """Refund an order."""
    return f"refunded order {order_id}"


async def test_a_message_written_during_a_run_that_fails_is_sent_after_the_error(thread):
    failing = s.error_reply("the model provider is overloaded")
    failing.insert(1, Pause(0.05))
    loop, agent, recorder = make_loop(failing, s.text_reply("Sorry, here it is."))
    drive = asyncio.create_task(loop.send(thread, "one"))
    await asyncio.sleep(0.01)
    assert await loop.send(thread, "two") is None
    outcome = await asyncio.wait_for(drive, 2)

    assert [event.message for event in recorder.of(ErrorOccurred)] == ["the model provider is overloaded"]
    assert outcome.status == "done"  # a new turn started with the message, in the same drive
    assert len(agent.inputs) == 2
    assert agent.inputs[1].messages[-1].content == "two"
    assert thread.messages[-1].content == "Sorry, here it is."


async def test_a_message_written_as_the_turn_limit_hits_is_sent_in_a_new_turn(thread):
    def again(n: int) -> str:
        """Again."""
        return "again"

    def calls(run_input):
        return s.tool_calls_reply(("again", {"n": len(run_input.messages)}))

    loop, agent, recorder = make_loop(
        calls, calls, s.text_reply("I stopped."), tools=[again], limits=LoopLimits(max_follow_ups=1)
    )

    async def person_writes_as_the_limit_shows(event):
        recorder(event)
        if isinstance(event, ErrorOccurred):
            assert await loop.send(thread, "stop looping") is None

    loop.emit = person_writes_as_the_limit_shows
    outcome = await asyncio.wait_for(loop.send(thread, "go"), 2)
    assert recorder.of(ErrorOccurred)[0].code == "turn_limit"
    assert outcome.status == "done"
    assert agent.inputs[-1].messages[-1].content == "stop looping"
    assert thread.messages[-1].content == "I stopped."
    assert_one_result_per_call(thread)


async def test_calls_waiting_for_the_person_are_skipped_when_they_write_instead(thread):
    loop, agent, recorder = make_loop(
        s.tool_calls_reply(("refund", {"order_id": 7}, "c1")),
        s.text_reply("OK, no refund."),
        tools=[tool_from_function(refund, approval="always")],
        ask_person=True,
    )
    assert (await loop.send(thread, "refund 7")).status == "waiting"
    outcome = await loop.send(thread, "never mind")

    (ended,) = recorder.of(ToolExecutionEnded)
    assert (ended.call_id, ended.status) == ("c1", "skipped")
    assert results(thread)["c1"] == "Error: not run: the user wrote a new message instead"
    assert [m.role for m in thread.messages] == ["user", "assistant", "tool", "user", "assistant"]  # the card stays
    assert outcome.status == "done"
    assert agent.inputs[1].messages[-1].content == "never mind"
    assert thread.awaiting == {}


async def test_a_message_written_while_calls_wait_skips_them_and_is_answered_in_the_same_turn(thread):
    started = asyncio.Event()

    async def report() -> str:
        """A slow report."""
        started.set()
        await asyncio.sleep(0.05)
        return "report ready"

    loop, agent, recorder = make_loop(
        s.tool_calls_reply(("refund", {"order_id": 7}, "c1"), ("report", {}, "c2")),
        s.text_reply("No refund; here is the report."),
        tools=[tool_from_function(refund, approval="always"), report],
        ask_person=True,
    )
    drive = asyncio.create_task(loop.send(thread, "refund and report"))
    await started.wait()
    assert await loop.send(thread, "forget the refund") is None
    outcome = await asyncio.wait_for(drive, 2)

    assert outcome.status == "done"
    assert {event.call_id: event.status for event in recorder.of(ToolExecutionEnded)} == {"c2": "complete", "c1": "skipped"}
    assert [m.role for m in agent.inputs[1].messages] == ["user", "assistant", "tool", "tool", "user"]
    assert agent.inputs[1].messages[-1].content == "forget the refund"


async def test_the_loop_says_when_each_message_of_the_person_joins_the_thread(thread):
    slow = s.run(s.text("first answer"))
    slow.insert(1, Pause(0.05))
    loop, agent, recorder = make_loop(slow, s.text_reply("second answer"))
    drive = asyncio.create_task(loop.send(thread, "one", message_id="m1"))
    await asyncio.sleep(0.01)
    await loop.send(thread, "two", message_id="m2")
    assert [(e.message_id, e.queued) for e in recorder.of(UserMessageAdded)] == [("m1", False)]  # "two" waits
    await asyncio.wait_for(drive, 2)

    assert [(e.message_id, e.text, e.queued) for e in recorder.of(UserMessageAdded)] == [
        ("m1", "one", False),
        ("m2", "two", True),  # a UI turns "queued" into "sent" here
    ]
    assert [m.id for m in agent.inputs[1].messages if m.role == "user"] == ["m1", "m2"]
