"""Everything observable leaves the loop as an event, so a UI only has to subscribe: the agent's AG-UI events as they
came, and the loop's own."""

from __future__ import annotations

import asyncio

from ag_ui.core import (
    CustomEvent,
    ReasoningMessageContentEvent,
    ReasoningMessageEndEvent,
    ReasoningMessageStartEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
)

from copilot_ui.agents import scripts as s
from copilot_ui.core import (
    AgentRunFinished,
    AgentRunStarted,
    ToolContext,
    ToolExecutionEnded,
    ToolExecutionStarted,
    ToolProgress,
    TurnEnded,
    TurnStarted,
    UserMessageAdded,
)

from .conftest import make_loop


async def test_a_turn_with_a_tool_emits_the_events_a_ui_needs_in_order(thread):
    async def weather(city: str, context: ToolContext) -> str:
        """Weather."""
        context.progress(0.5, "asking the weather service")
        return "sunny"

    tool_reply = s.run(
        s.text("Checking.", message_id="m1"),
        s.tool_call("weather", {"city": "Paris"}, call_id="c1", parent_message_id="m1", pieces=3),
    )
    loop, _, recorder = make_loop(tool_reply, s.text_reply("It is sunny.", pieces=2), tools=[weather])
    await loop.send(thread, "weather?")

    kinds = [type(event) for event in recorder.events]
    assert kinds == [
        TurnStarted,
        UserMessageAdded,
        AgentRunStarted,
        TextMessageStartEvent,
        TextMessageContentEvent,
        TextMessageEndEvent,
        ToolCallStartEvent,
        ToolCallArgsEvent,
        ToolCallArgsEvent,
        ToolCallArgsEvent,
        ToolCallEndEvent,
        AgentRunFinished,
        ToolExecutionStarted,
        ToolProgress,
        ToolExecutionEnded,
        AgentRunStarted,
        TextMessageStartEvent,
        TextMessageContentEvent,
        TextMessageContentEvent,
        TextMessageEndEvent,
        AgentRunFinished,
        TurnEnded,
    ]
    assert recorder.of(UserMessageAdded)[0].text == "weather?"
    assert recorder.of(AgentRunStarted)[1].follow_up == 1
    assert recorder.of(ToolProgress)[0].fraction == 0.5
    assert recorder.of(ToolProgress)[0].message == "asking the weather service"
    assert "".join(event.delta for event in recorder.of(TextMessageContentEvent)) == "Checking.It is sunny."


async def test_partial_arguments_can_be_read_after_every_delta(thread):
    seen = []
    loop, _, _ = make_loop(s.run(s.tool_call("search", '{"query": "red shoes"}', call_id="c1", pieces=4)))

    def watch(event):
        if isinstance(event, ToolCallArgsEvent):
            seen.append(thread.partial_arguments("c1"))

    loop.emit = watch
    await loop.send(thread, "search")
    assert seen[-1] == {"query": "red shoes"}
    assert any(value not in ({}, {"query": "red shoes"}) for value in seen)  # a half-written value was visible


async def test_progress_after_the_call_finished_is_ignored(thread):
    kept: list[ToolContext] = []

    async def quick(context: ToolContext) -> str:
        """Quick."""
        kept.append(context)
        return "done"

    loop, _, recorder = make_loop(s.tool_calls_reply(("quick", {}, "c1")), s.text_reply("ok"), tools=[quick])
    await loop.send(thread, "go")
    kept[0].progress(0.9, "too late")
    await asyncio.sleep(0)
    assert recorder.of(ToolProgress) == []


async def test_custom_and_raw_events_reach_subscribers(thread):
    custom = s.run(CustomEvent(name="acme:confetti", value={"count": 3}), s.text("Yay"))
    loop, _, recorder = make_loop(custom)
    await loop.send(thread, "celebrate")
    received = recorder.of(CustomEvent)
    assert [(event.name, event.value) for event in received] == [("acme:confetti", {"count": 3})]


async def test_a_subscriber_that_fails_does_not_break_the_run(thread):
    def broken(event):
        raise RuntimeError("ui gone")

    loop, _, _ = make_loop(s.text_reply("still answered"))
    loop.emit = broken
    outcome = await loop.send(thread, "hi")
    assert outcome.status == "done"
    assert thread.messages[-1].content == "still answered"


async def test_each_tool_end_event_says_how_the_call_ended(thread):
    def fails() -> str:
        """Fails."""
        raise RuntimeError("nope")

    def works() -> str:
        """Works."""
        return "fine"

    loop, _, recorder = make_loop(
        s.tool_calls_reply(("fails", {}, "a"), ("works", {}, "b")), s.text_reply("ok"), tools=[fails, works]
    )
    await loop.send(thread, "go")
    ended = {event.call_id: (event.is_error, event.status) for event in recorder.of(ToolExecutionEnded)}
    assert ended == {"a": (True, "error"), "b": (False, "complete")}


async def test_progress_reaches_subscribers_before_the_call_ends(thread):
    seen: list[str] = []

    async def slow_subscriber(event):
        if isinstance(event, ToolProgress):
            await asyncio.sleep(0.02)  # a UI that writes each update somewhere, and takes its time
        seen.append(type(event).__name__)

    async def export(context: ToolContext) -> str:
        """Export."""
        context.progress(0.5, "half way")
        return "exported"

    loop, _, _ = make_loop(s.tool_calls_reply(("export", {}, "c1")), s.text_reply("ok"), tools=[export])
    loop.emit = slow_subscriber
    await loop.send(thread, "export")
    assert seen.index("ToolProgress") < seen.index("ToolExecutionEnded")


async def test_reasoning_reaches_subscribers_as_its_own_events(thread):
    thinking = [
        ReasoningMessageStartEvent(message_id="r1", role="reasoning"),
        ReasoningMessageContentEvent(message_id="r1", delta="The user wants "),
        ReasoningMessageContentEvent(message_id="r1", delta="a greeting."),
        ReasoningMessageEndEvent(message_id="r1"),
    ]
    loop, _, recorder = make_loop(s.run(thinking, s.text("Hello!")))
    await loop.send(thread, "hi")
    assert [event.message_id for event in recorder.of(ReasoningMessageStartEvent)] == ["r1"]
    assert "".join(event.delta for event in recorder.of(ReasoningMessageContentEvent)) == "The user wants a greeting."
    assert [event.message_id for event in recorder.of(ReasoningMessageEndEvent)] == ["r1"]
    assert not recorder.of(TextMessageContentEvent)[0].delta.startswith("The user")  # reasoning is not the reply
    assert thread.message("r1").content == "The user wants a greeting."
