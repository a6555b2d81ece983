"""Stop means stop: handlers are cancelled and see it, every call still gets a result, no follow-up."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from copilot_ui.agents import Pause, ScriptedAgent
from copilot_ui.agents import scripts as s
from copilot_ui.core import RunLoop, ToolContext, ToolExecutionStarted, TurnEnded, tool_from_function

from .conftest import Recorder, assert_one_result_per_call, make_loop, results


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
    loop, _, recorder = make_loop(s.run(Pause(0.05), s.text("slow")))
    drive = asyncio.create_task(loop.send(thread, "one"))
    await asyncio.sleep(0.01)
    with pytest.raises(RuntimeError, match="already running"):
        await loop.resume(thread)
    await drive
    assert recorder.of(ToolExecutionStarted) == []


async def test_a_tool_whose_own_code_is_cancelled_ends_as_an_error_not_a_hang(thread):
    async def fetch() -> str:
        """Fetch."""
        inner = asyncio.ensure_future(asyncio.sleep(10))
        inner.cancel()  # a library cancels a task of its own: the tool sees a CancelledError that is not a stop
        return await inner

    loop, agent, _ = make_loop(
        s.tool_calls_reply(("fetch", {}, "c1")), s.text_reply("ok"), tools=[tool_from_function(fetch, timeout=1)]
    )
    outcome = await asyncio.wait_for(loop.send(thread, "go"), 2)  # it used to spin at 100% CPU, forever
    assert outcome.status == "done"
    assert results(thread)["c1"] == "Error: fetch was cancelled by its own code (CancelledError) and did not finish"
    assert len(agent.inputs) == 2  # the agent reads the error and goes on


async def _cancelled_while_a_tool_runs(thread, *after: Any) -> tuple[RunLoop, ScriptedAgent, Recorder]:
    """A turn whose reply calls a tool that runs ("export", c1) and one that waits for approval ("approve_me", c2),
    its task cancelled while the first runs (the app shuts down, or the request that ran it went away); `after`, the
    agent's replies to later runs."""
    started = asyncio.Event()

    async def export(context: ToolContext) -> str:
        """Export."""
        started.set()
        await asyncio.sleep(10)
        return "never"

    def approve_me() -> str:
        """Needs approval."""
        return "approved and done"

    loop, agent, recorder = make_loop(
        s.tool_calls_reply(("export", {}, "c1"), ("approve_me", {}, "c2")),
        *after,
        tools=[export, tool_from_function(approve_me, approval="always")],
        ask_person=True,
    )
    drive = asyncio.create_task(loop.send(thread, "export", message_id="u1"))
    await started.wait()
    drive.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(drive, 2)
    return loop, agent, recorder


async def test_cancelling_the_task_that_drives_aborts_its_tools_and_every_call_gets_a_result(thread):
    loop, agent, recorder = await _cancelled_while_a_tool_runs(thread, s.text_reply("never sent"))
    assert results(thread)["c1"] == "Error: aborted: the run was stopped while this tool ran"
    assert results(thread)["c2"] == "Error: aborted: the run was cancelled before this call ran"  # nobody said no
    assert recorder.of(TurnEnded)[-1].status == "cancelled"  # not a person's Stop: no "Stopped." is shown
    assert len(agent.inputs) == 1
    assert not loop.running
    assert_one_result_per_call(thread)


async def test_after_a_restart_a_call_the_stop_kept_from_running_is_the_agents_to_make_again(thread):
    loop, agent, _ = await _cancelled_while_a_tool_runs(thread, s.tool_calls_reply(("approve_me", {}, "c3")))

    thread.interrupted_after("u1")  # the thread as the restarted server loads it
    assert results(thread) == {"c1": "Error: aborted: the run was stopped while this tool ran"}  # it had started
    assert thread.tool_call("c2") is None  # it never ran: not a call that failed, one that was not made
    assert_one_result_per_call(thread)

    outcome = await asyncio.wait_for(loop.retry(thread), 2)
    sent = agent.inputs[-1]
    assert [call.id for message in sent.messages for call in getattr(message, "tool_calls", None) or ()] == ["c1"]
    assert outcome.status == "waiting"  # the agent asked for it again: the person is asked again
    assert [call.id for call in thread.unanswered_calls()] == ["c3"]


async def test_a_stop_while_a_tool_run_from_a_button_works_means_no_follow_up(thread):
    started = asyncio.Event()

    async def export() -> str:
        """Export."""
        started.set()
        await asyncio.sleep(10)
        return "never"

    loop, agent, _ = make_loop(s.text_reply("never"), tools=[export])
    pressed = asyncio.create_task(loop.run_tool(thread, "export", {}, follow_up="generate"))
    await started.wait()
    loop.abort()
    result = await asyncio.wait_for(pressed, 2)
    assert result == "Error: aborted: the run was stopped while this tool ran"
    assert agent.inputs == []  # Stop wins over the follow-up the button asked for
    assert_one_result_per_call(thread)


async def test_messages_written_during_a_drive_that_is_stopped_come_back_unsent(thread):
    slow = s.run(s.text("thinking about it"))
    slow.insert(1, Pause(5))
    loop, agent, recorder = make_loop(slow, s.text_reply("never"))
    drive = asyncio.create_task(loop.send(thread, "one"))
    await asyncio.sleep(0.01)
    assert await loop.send(thread, "two", message_id="m2") is None  # queued for the next run
    loop.abort()
    outcome = await asyncio.wait_for(drive, 2)

    assert outcome.status == "aborted"
    assert [(message.id, message.text) for message in outcome.returned] == [("m2", "two")]
    assert recorder.of(TurnEnded)[-1].returned == outcome.returned  # the UI puts them back in the message box
    assert [m.content for m in thread.messages if m.role == "user"] == ["one"]
    assert thread.queued == []
    assert len(agent.inputs) == 1


async def test_a_message_sent_while_a_stopped_drive_winds_down_starts_a_drive_of_its_own(thread):
    slow = s.run(s.text("thinking"))
    slow.insert(1, Pause(5))
    loop, agent, _ = make_loop(slow, s.text_reply("here I am"))
    first = asyncio.create_task(loop.send(thread, "one"))
    await asyncio.sleep(0.01)
    loop.abort()
    second = asyncio.create_task(loop.send(thread, "are you there?"))  # written after Stop: sent, not handed back
    assert (await asyncio.wait_for(first, 2)).status == "aborted"
    assert (await asyncio.wait_for(second, 2)).status == "done"
    assert agent.inputs[1].messages[-1].content == "are you there?"
    assert thread.messages[-1].content == "here I am"
