"""The status while the agent says nothing in its open run: "Waiting for the agent… N s" after two seconds, gone at
its next word, never once its run has ended."""

from __future__ import annotations

import asyncio

from ag_ui.core import AssistantMessage, TextMessageContentEvent, TextMessageStartEvent

from copilot_ui.agents import Scrubber
from copilot_ui.core import AgentRunFinished, AgentRunStarted, Event, Thread
from copilot_ui.state.sink import ViewSink, ViewUpdate
from copilot_ui.state.view import Conversation


async def _statuses_after(events: list[Event], *, silence: float, then: list[Event] | None = None) -> list[str]:
    shown: list[str] = []

    async def show(update: ViewUpdate) -> None:
        shown.append(update.status)

    thread = Thread()
    thread.add_message(AssistantMessage(id="msg-1", content=""))
    sink = ViewSink(show, thread, Conversation.of(thread.id), scrubber=Scrubber(), interval=0.0)
    for event in events:
        sink.emit(event)
    await asyncio.sleep(silence)
    for event in then or []:
        sink.emit(event)
    await sink.close()
    return shown


def test_a_silent_agent_shows_how_long_it_has_been_and_its_next_word_clears_it():
    started = AgentRunStarted(run_id="run-1", follow_up=0)
    words: list[Event] = [TextMessageStartEvent(message_id="msg-1"), TextMessageContentEvent(message_id="msg-1", delta="Hi")]
    shown = asyncio.run(_statuses_after([started], silence=2.4, then=words))
    waiting = [status for status in shown if status.startswith("Waiting for the agent…")]
    assert waiting == ["Waiting for the agent… 2 s"]
    assert shown[-1] == ""  # the first word took the waiting status away


def test_no_waiting_status_once_the_agents_run_has_ended():
    events: list[Event] = [AgentRunStarted(run_id="run-1", follow_up=0), AgentRunFinished(run_id="run-1", outcome="finished")]
    shown = asyncio.run(_statuses_after(events, silence=2.4))
    assert not [status for status in shown if status.startswith("Waiting")]
