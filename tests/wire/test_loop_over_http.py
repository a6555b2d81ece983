"""The run loop against a real AG-UI server over HTTP: the frontend tool runs here, the follow-up carries its result."""

from __future__ import annotations

import asyncio
import json

from copilot_ui.core import Approve, AwaitingPerson, RunLoop, Thread, Toolbox, tool_from_function

from ._peer import DELETE_CALL_ID, FRONTEND_CALL_ID, Peer

TURN_TIMEOUT = 20.0


async def test_a_frontend_tool_called_by_a_remote_agent_runs_here_and_its_result_goes_back(peer: Peer):
    asked = []

    async def get_weather(city: str) -> dict:
        """The weather in a city."""
        asked.append(city)
        return {"city": city, "forecast": "sunny", "celsius": 21}

    thread = Thread()
    loop = RunLoop(peer.agent(), Toolbox([tool_from_function(get_weather)]))
    outcome = await asyncio.wait_for(loop.send(thread, "what is the weather in Paris?"), TURN_TIMEOUT)

    assert outcome.status == "done"
    assert asked == ["Paris"]
    first, follow_up = (json.loads(request.body) for request in peer.requests if request.method == "POST")
    assert [tool["name"] for tool in first["tools"]] == ["get_weather"]
    sent = follow_up["messages"]
    assert [message["role"] for message in sent] == ["user", "assistant", "tool"]
    assert sent[1]["toolCalls"][0]["id"] == FRONTEND_CALL_ID
    assert json.loads(sent[2]["content"]) == {"city": "Paris", "forecast": "sunny", "celsius": 21}
    answer = thread.messages[-1]
    assert answer.role == "assistant"
    assert answer.content.startswith("Result received from get_weather:")
    assert "sunny" in answer.content


async def test_a_remote_agents_approval_interrupt_waits_for_a_person_and_resumes_over_http(peer: Peer):
    seen = []
    thread = Thread()
    loop = RunLoop(peer.agent(), Toolbox(), ask_person=True, emit=seen.append)

    outcome = await asyncio.wait_for(loop.send(thread, "please delete notes.txt"), TURN_TIMEOUT)
    assert outcome.status == "waiting"
    (waiting,) = [event for event in seen if isinstance(event, AwaitingPerson)]
    assert waiting.call_id == DELETE_CALL_ID
    assert waiting.kind == "approval"

    loop.decide(thread, DELETE_CALL_ID, Approve())
    outcome = await asyncio.wait_for(loop.drive(thread), TURN_TIMEOUT)
    assert outcome.status == "done"
    resumed = json.loads(peer.requests[-1].body)
    assert resumed["resume"][0]["payload"] == {"approved": True}
    result = thread.result_of(DELETE_CALL_ID)
    assert result is not None and "deleted notes.txt" in result.content
    assert thread.messages[-1].role == "assistant"
