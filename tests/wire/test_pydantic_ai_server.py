"""HttpAgent against pydantic-ai's own AG-UI server: text, frontend tools, backend tools and state, approvals."""

from __future__ import annotations

import json

from ag_ui.core import AssistantMessage, ResumeEntry, Tool, ToolMessage

from copilot_ui.agents import HttpAgent
from copilot_ui.protocol import AGUIThread

from ._peer import AUTHORIZATION, COUNTER_CALL_ID, DELETE_CALL_ID, FRONTEND_CALL_ID, Peer
from ._runs import apply_run, of_type, outcome, roles, run_input, thread_saying

GET_WEATHER = Tool(
    name="get_weather",
    description="The weather in a city, as the page shows it",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
WEATHER = '{"city":"Paris","forecast":"sunny","tempC":21}'


async def test_streamed_text_becomes_one_assistant_message(peer: Peer):
    thread = thread_saying("hello there, copilot")

    events = await apply_run(peer.agent(), run_input(thread), thread)

    deltas = of_type(events, "TEXT_MESSAGE_CONTENT")
    assert len(deltas) >= 3
    assert len({delta.message_id for delta in deltas}) == 1
    assert roles(thread.messages) == ["user", "assistant"]
    assert thread.messages[-1].content == "Echo: hello there, copilot"
    assert thread.messages[-1].id == deltas[0].message_id
    assert outcome(thread).kind == "success"


async def test_frontend_tool_call_ends_the_run_waiting_for_the_page(peer: Peer):
    thread = thread_saying("what is the weather like?")

    await apply_run(peer.agent(), run_input(thread, tools=[GET_WEATHER]), thread)

    assert outcome(thread).kind == "success"
    assert outcome(thread).pending_tool_call_ids == [FRONTEND_CALL_ID]
    call = thread.tool_call(FRONTEND_CALL_ID)
    assert call is not None
    assert call.function.name == "get_weather"
    assert json.loads(call.function.arguments) == {"city": "Paris"}
    assert thread.result_of(FRONTEND_CALL_ID) is None
    assert roles(thread.messages) == ["user", "assistant"]
    assert thread.owner_of(FRONTEND_CALL_ID) is thread.messages[-1]
    assert thread.messages[-1].content == "Let me look that up."


async def test_tool_result_sent_back_gets_the_final_answer(peer: Peer):
    agent = peer.agent()
    thread = thread_saying("what is the weather like?")
    await apply_run(agent, run_input(thread, tools=[GET_WEATHER]), thread)
    thread.add_tool_result(FRONTEND_CALL_ID, WEATHER)

    await apply_run(agent, run_input(thread, tools=[GET_WEATHER]), thread)

    assert roles(thread.messages) == ["user", "assistant", "tool", "assistant"]
    assert thread.messages[-1].content == f"Result received from get_weather: {WEATHER}"
    assert outcome(thread).pending_tool_call_ids == []
    sent = json.loads(peer.requests[-1].body)["messages"]
    assert [message["role"] for message in sent] == ["user", "assistant", "tool"]
    assert sent[1]["toolCalls"][0]["id"] == sent[2]["toolCallId"] == FRONTEND_CALL_ID
    seen = [(part.tool_call_id, part.tool_name, part.model_response_str()) for part in peer.model.tool_returns()]
    assert seen == [(FRONTEND_CALL_ID, "get_weather", WEATHER)]


async def test_backend_tool_result_and_state_change_arrive_in_the_thread(peer: Peer):
    thread = thread_saying("bump the counter", state={"counter": 41})

    events = await apply_run(peer.agent(), run_input(thread), thread)

    assert [event.type.value for event in events if event.type.value.startswith(("TOOL_CALL_RESULT", "STATE_"))] == [
        "TOOL_CALL_RESULT",
        "STATE_SNAPSHOT",
        "STATE_DELTA",
    ]
    assert thread.state == {"counter": 42, "lastTool": "increment_counter"}
    assert roles(thread.messages) == ["user", "assistant", "tool", "assistant"]
    call_message, result = thread.messages[1], thread.messages[2]
    assert isinstance(call_message, AssistantMessage)
    assert [call.id for call in call_message.tool_calls or ()] == [COUNTER_CALL_ID]
    assert isinstance(result, ToolMessage)
    assert result.tool_call_id == COUNTER_CALL_ID
    assert result.content == "counter is now 42"
    assert thread.messages[-1].content == "Result received from increment_counter: counter is now 42"
    assert outcome(thread).pending_tool_call_ids == []


async def test_tool_needing_approval_ends_the_run_with_an_interrupt(peer: Peer):
    thread = thread_saying("delete my notes")

    await apply_run(peer.agent(), run_input(thread), thread)

    assert outcome(thread).kind == "interrupt"
    [interrupt] = thread.interrupts
    assert interrupt.reason == "tool_call"
    assert interrupt.tool_call_id == DELETE_CALL_ID
    call = thread.tool_call(DELETE_CALL_ID)
    assert call is not None
    assert json.loads(call.function.arguments) == {"path": "notes.txt"}
    assert thread.result_of(DELETE_CALL_ID) is None


async def test_approved_tool_runs_when_the_run_resumes(peer: Peer):
    agent = peer.agent()
    thread = await _waiting_for_approval(agent)

    await apply_run(agent, run_input(thread, resume=[_decision(thread, approved=True)]), thread)

    result = thread.result_of(DELETE_CALL_ID)
    assert result is not None
    assert result.content == "deleted notes.txt"
    assert roles(thread.messages) == ["user", "assistant", "tool", "assistant"]
    assert thread.messages[-1].content == "Result received from delete_file: deleted notes.txt"
    assert thread.interrupts == []
    assert outcome(thread).kind == "success"


async def test_denied_tool_is_reported_back_when_the_run_resumes(peer: Peer):
    agent = peer.agent()
    thread = await _waiting_for_approval(agent)

    await apply_run(agent, run_input(thread, resume=[_decision(thread, approved=False)]), thread)

    result = thread.result_of(DELETE_CALL_ID)
    assert result is not None
    assert "denied" in str(result.content)
    assert "deleted notes.txt" not in thread.messages[-1].content
    assert thread.messages[-1].content == f"Result received from delete_file: {result.content}"
    assert thread.interrupts == []


async def test_request_is_camel_case_json_asking_for_an_event_stream(peer: Peer):
    thread = thread_saying("hello")

    await apply_run(peer.agent(), run_input(thread, tools=[GET_WEATHER]), thread)

    [request] = peer.requests
    assert request.method == "POST"
    assert request.headers["content-type"] == "application/json"
    assert request.headers["accept"] == "text/event-stream"
    body = json.loads(request.body)
    assert body["threadId"] == thread.id
    assert body["protocolVersion"] == "1.0"
    assert body["messages"][0] == {"id": thread.messages[0].id, "role": "user", "content": "hello"}
    assert body["tools"][0]["name"] == "get_weather"
    assert "forwardedProps" in body
    assert not any("_" in key for key in body)


async def test_configured_headers_reach_the_server(peer: Peer):
    thread = thread_saying("hello")

    await apply_run(peer.agent(), run_input(thread), thread)

    [request] = peer.requests
    assert request.headers["authorization"] == AUTHORIZATION


def test_repr_of_an_agent_does_not_reveal_its_headers(peer: Peer):
    agent = peer.agent()

    shown = repr(agent)

    assert peer.url in shown
    assert AUTHORIZATION not in shown
    assert "wire-test-secret" not in shown


async def _waiting_for_approval(agent: HttpAgent) -> AGUIThread:
    thread = thread_saying("delete my notes")
    await apply_run(agent, run_input(thread), thread)
    assert outcome(thread).kind == "interrupt"
    return thread


def _decision(thread: AGUIThread, *, approved: bool) -> ResumeEntry:
    [interrupt] = thread.interrupts
    return ResumeEntry(interrupt_id=interrupt.id, status="resolved", payload={"approved": approved})
