"""An AG-UI server older than 1.0 reasons with THINKING_* events: over HTTP, the person sees its reasoning as
reasoning (before, those events were skipped and the thought was lost)."""

from __future__ import annotations

import asyncio

from ag_ui.core import ReasoningMessageContentEvent, ReasoningMessageEndEvent, ReasoningMessageStartEvent

from copilot_ui.agents import HttpAgent
from copilot_ui.core import RunLoop, Thread, Toolbox

from ..hostile_agent import HostileAgent

TURN_TIMEOUT = 20.0


async def test_an_older_servers_thinking_reaches_the_person_as_reasoning_before_the_reply(hostile: HostileAgent):
    seen = []
    thread = Thread()
    loop = RunLoop(HttpAgent(hostile.url), Toolbox(), emit=seen.append)

    outcome = await asyncio.wait_for(loop.send(thread, "!thinking The person wants the weather in Paris."), TURN_TIMEOUT)

    assert outcome.status == "done"
    assert [(message.role, message.content) for message in thread.messages[1:]] == [
        ("reasoning", "The person wants the weather in Paris."),
        ("assistant", "done"),
    ]
    (started,) = [event for event in seen if isinstance(event, ReasoningMessageStartEvent)]
    deltas = [event for event in seen if isinstance(event, ReasoningMessageContentEvent)]
    assert len(deltas) == 5  # streamed as it came, in pieces of 8 characters
    assert {event.message_id for event in deltas} == {started.message_id}
    assert [event.message_id for event in seen if isinstance(event, ReasoningMessageEndEvent)] == [started.message_id]
