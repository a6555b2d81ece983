"""Stop means stop: handlers are cancelled and see it, every call still gets a result, no follow-up."""

from __future__ import annotations

import asyncio

from copilot_ui.agents import Pause
from copilot_ui.agents import scripts as s
from copilot_ui.core import ToolContext, ToolExecutionStarted, TurnEnded, tool_from_function

from .conftest import assert_one_result_per_call, make_loop, results


async def test_stopping_cancels_running_handlers_and_answers_every_call(thread):
    seen = {"signal": False, "cancelled": False}
    started = asyncio.Event()

    async def long_export(context: ToolContext) -> str:
        """Export everything."""
        started.set()
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            seen["signal"] = context.is_cancelled
            seen["cancelled"] = True
            raise
        return "exported"

    def approve_me() -> str:
        """Needs approval."""
        return "never"

    loop, agent, recorder = make_loop(
        s.tool_calls_reply(("long_export", {}, "c1"), ("approve_me", {}, "c2")),
        s.text_reply("never sent"),
        tools=[long_export, tool_from_function(approve_me, approval="always")],
        ask_person=True,
    )
    drive = asyncio.create_task(loop.send(thread, "export"))
    await started.wait()
    loop.abort()
    outcome = await asyncio.wait_for(drive, 2)

    assert outcome.status == "aborted"
    assert seen == {"signal": True, "cancelled": True}
    assert results(thread)["c1"].startswith("Error: aborted")
    assert results(thread)["c2"].startswith("Error: aborted")
    assert len(agent.inputs) == 1  # no follow-up after a stop
    assert recorder.of(TurnEnded)[-1].status == "aborted"
    assert_one_result_per_call(thread)


async def test_stopping_while_the_agent_streams_keeps_what_it_said_and_runs_nothing(thread):
    ran = []

    def save() -> str:
        """Save."""
        ran.append(1)
        return "saved"

    streaming = s.run(s.text("Let me think about", message_id="m1"), s.tool_call("save", {}, call_id="c1"))
    streaming.insert(3, Pause(5))  # the agent goes quiet after some text
    loop, agent, _ = make_loop(streaming, tools=[save])
    drive = asyncio.create_task(loop.send(thread, "think"))
    while thread.message("m1") is None or not thread.message("m1").content:
        await asyncio.sleep(0.005)
    loop.abort()
    outcome = await asyncio.wait_for(drive, 2)
    assert outcome.status == "aborted"
    assert thread.message("m1").content.startswith("Let me")
    assert ran == []
    assert len(agent.inputs) == 1


async def test_calls_waiting_for_a_person_are_closed_when_the_person_stops(thread):
    def approve_me() -> str:
        """Needs approval."""
        return "never"

    loop, _, _ = make_loop(
        s.tool_calls_reply(("approve_me", {}, "c1")), tools=[tool_from_function(approve_me, approval="always")], ask_person=True
    )
    assert (await loop.send(thread, "go")).status == "waiting"
    await loop.cancel_waiting(thread)
    assert "the user stopped the run" in results(thread)["c1"]
    assert_one_result_per_call(thread)


async def test_a_result_whose_conversation_was_cleared_meanwhile_is_written_nowhere(thread):
    async def slow() -> str:
        """Slow."""
        thread.clear()  # the person started a new conversation while the tool ran
        await asyncio.sleep(0.01)
        return "late result"

    loop, agent, recorder = make_loop(s.tool_calls_reply(("slow", {}, "c1")), s.text_reply("never"), tools=[slow])
    outcome = await loop.send(thread, "go")
    assert outcome.status == "done"
    assert thread.messages == []
    assert len(agent.inputs) == 1  # and no follow-up for it
    (ended,) = [event for event in recorder.events if getattr(event, "status", None) == "dropped"]
    assert ended.call_id == "c1"


async def test_a_result_for_a_thread_that_was_switched_away_stays_out_of_the_new_one(thread):
    from copilot_ui.core import Thread

    other = Thread()
    other.add_user_message("a different conversation")
    started = asyncio.Event()
    release = asyncio.Event()

    async def slow() -> str:
        """Slow."""
        started.set()
        await release.wait()
        return "late result"

    loop, _, _ = make_loop(s.tool_calls_reply(("slow", {}, "c1")), s.text_reply("ok"), tools=[slow])
    drive = asyncio.create_task(loop.send(thread, "go"))
    await started.wait()
    release.set()
    await asyncio.wait_for(drive, 2)
    assert [m.role for m in other.messages] == ["user"]
    assert results(thread) == {"c1": "late result"}


async def test_a_second_drive_on_a_busy_loop_is_refused_clearly(thread):
    import pytest

    loop, _, recorder = make_loop(s.run(Pause(0.05), s.text("slow")))
    drive = asyncio.create_task(loop.send(thread, "one"))
    await asyncio.sleep(0.01)
    with pytest.raises(RuntimeError, match="already driving"):
        await loop.drive(thread)
    await drive
    assert recorder.of(ToolExecutionStarted) == []
