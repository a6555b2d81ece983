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

    assert loop.decide(thread, DELETE_CALL_ID, Approve(), waiting.digest)
    outcome = await asyncio.wait_for(loop.resume(thread), TURN_TIMEOUT)
    assert outcome.status == "done"
    resumed = json.loads(peer.requests[-1].body)
    assert resumed["resume"][0]["payload"] == {"approved": True}
    result = thread.result_of(DELETE_CALL_ID)
    assert result is not None and "deleted notes.txt" in result.content
    assert thread.messages[-1].role == "assistant"


async def test_a_run_the_loop_stops_midway_closes_its_connection_at_once(misbehaving):
    from ag_ui.core import EventType

    from copilot_ui.agents import HttpAgent
    from copilot_ui.core import Hooks, Stop

    run_ids = []
    hooks = Hooks(
        before_agent_call=[lambda run_input: run_ids.append(run_input.run_id)],
        on_event=[lambda event: Stop("seen enough") if event.type is EventType.TEXT_MESSAGE_CONTENT else None],
    )
    loop = RunLoop(HttpAgent(misbehaving.url("/held")), Toolbox(), hooks=hooks)
    outcome = await asyncio.wait_for(loop.send(Thread(), "hi"), TURN_TIMEOUT)

    assert outcome.status == "stopped"
    await asyncio.wait_for(misbehaving.hung_up[run_ids[0]].wait(), 2)  # the server saw the client hang up


async def test_a_run_that_fails_midway_closes_its_connection_at_once(misbehaving):
    from ag_ui.core import EventType

    from copilot_ui.agents import HttpAgent
    from copilot_ui.core import Hooks

    run_ids = []

    def broken_subscriber(event):
        if event.type is EventType.TEXT_MESSAGE_CONTENT:
            raise RuntimeError("the audit hook crashed")

    hooks = Hooks(before_agent_call=[lambda run_input: run_ids.append(run_input.run_id)], on_event=[broken_subscriber])
    loop = RunLoop(HttpAgent(misbehaving.url("/held")), Toolbox(), hooks=hooks)
    outcome = await asyncio.wait_for(loop.send(Thread(), "hi"), TURN_TIMEOUT)

    assert outcome.status == "error"
    assert "the on_event hook failed: RuntimeError: the audit hook crashed" in outcome.message
    await asyncio.wait_for(misbehaving.hung_up[run_ids[0]].wait(), 2)


async def test_runs_of_a_remote_agent_read_the_certificate_authorities_once_not_at_every_run(peer: Peer, ca_bundle_reads):
    agent = peer.agent()
    for _ in range(3):
        thread = Thread()
        outcome = await asyncio.wait_for(RunLoop(agent, Toolbox()).send(thread, "hello"), TURN_TIMEOUT)
        assert outcome.status == "done"
        assert thread.messages[-1].role == "assistant"
    assert len(ca_bundle_reads) <= 1
