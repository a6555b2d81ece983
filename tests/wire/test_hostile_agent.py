"""The hostile AG-UI server itself: each command does what it says, in a stream a 1.0 client accepts
(every run goes through EventPipeline, which verifies it), except !http and !badframe, broken by design."""

from __future__ import annotations

import json
import socket

import pytest
from ag_ui.core import Tool

from copilot_ui.agents import AgentHTTPError, HttpAgent, HttpLimits, MalformedFrame
from copilot_ui.protocol import AGUIThread

from ..hostile_agent import SWAP_CALL_ID, UNKNOWN_COMMAND, HostileAgent, start_hostile_agent
from ._runs import apply_run, of_type, outcome, roles, run_input, thread_saying

SHORT_AUTH = "Key ab"  # too short to be a secret: what the server echoes stays readable here
SET_THEME = Tool(
    name="set_theme",
    description="Switch the theme.",
    parameters={"type": "object", "properties": {"mode": {"type": "string"}}, "required": ["mode"]},
)


def agent_for(hostile: HostileAgent) -> HttpAgent:
    return HttpAgent(hostile.url, headers={"Authorization": SHORT_AUTH}, limits=HttpLimits(connect_timeout=5, idle_timeout=5))


async def test_reply_streams_the_text_in_small_pieces(hostile: HostileAgent):
    thread = thread_saying("!reply The weather in Paris is sunny and warm today.")

    events = await apply_run(agent_for(hostile), run_input(thread), thread)

    assert thread.messages[-1].content == "The weather in Paris is sunny and warm today."
    assert [len(event.delta) for event in of_type(events, "TEXT_MESSAGE_CONTENT")] == [20, 20, 5]
    assert outcome(thread).kind == "success"


async def test_placeholders_are_what_the_request_carried(hostile: HostileAgent):
    thread = thread_saying("!reply {auth}|{token}|{auth_b64}|{pad:3}|{url}")

    await apply_run(agent_for(hostile), run_input(thread), thread)

    assert thread.messages[-1].content == f"Key ab|ab|S2V5IGFi|xxx|{hostile.url}"


async def test_reply_slow_waits_between_pieces(hostile: HostileAgent):
    thread = thread_saying("!reply-slow 50 one two three four five six")

    events = await apply_run(agent_for(hostile), run_input(thread), thread)

    assert thread.messages[-1].content == "one two three four five six"
    assert len(of_type(events, "TEXT_MESSAGE_CONTENT")) == 2


async def test_big_sends_exactly_n_characters_on_one_line(hostile: HostileAgent):
    thread = thread_saying("!big 100001")

    events = await apply_run(agent_for(hostile), run_input(thread), thread)

    reply = thread.messages[-1].content
    assert len(reply) == 100_001
    assert "\n" not in reply
    assert len(of_type(events, "TEXT_MESSAGE_CONTENT")) == 26


async def test_lines_sends_n_numbered_lines(hostile: HostileAgent):
    thread = thread_saying("!lines 10000")

    events = await apply_run(agent_for(hostile), run_input(thread), thread)

    lines = thread.messages[-1].content.split("\n")
    assert len(lines) == 10_000
    assert lines[0] == "line 1 of 10000"
    assert lines[-1] == "line 10000 of 10000"
    assert all(len(event.delta) <= 4000 for event in of_type(events, "TEXT_MESSAGE_CONTENT"))


async def test_reasoning_comes_before_the_reply(hostile: HostileAgent):
    thread = thread_saying("!reasoning The person wants the weather.")

    events = await apply_run(agent_for(hostile), run_input(thread), thread)

    assert roles(thread.messages) == ["user", "reasoning", "assistant"]
    assert thread.messages[1].content == "The person wants the weather."
    assert thread.messages[2].content == "done"
    assert [event.type.value for event in events][1:6] == [
        "REASONING_START",
        "REASONING_MESSAGE_START",
        "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_END",
        "REASONING_END",
    ]


async def test_tool_calls_a_page_tool_then_quotes_its_result(hostile: HostileAgent):
    agent = agent_for(hostile)
    thread = thread_saying('!tool set_theme {"mode": "dark"}')

    events = await apply_run(agent, run_input(thread, tools=[SET_THEME]), thread)

    [call] = thread.unanswered_calls()
    assert (call.function.name, json.loads(call.function.arguments)) == ("set_theme", {"mode": "dark"})
    assert len(of_type(events, "TOOL_CALL_ARGS")) > 1  # the arguments come in pieces
    assert outcome(thread).pending_tool_call_ids == [call.id]

    thread.add_tool_result(call.id, "Theme is now dark.")
    await apply_run(agent, run_input(thread, tools=[SET_THEME]), thread)

    assert thread.messages[-1].content == "results: Theme is now dark."


async def test_backend_answers_its_own_call_then_says_ok(hostile: HostileAgent):
    thread = thread_saying('!backend lookup_order {"id": 7} order 7 shipped')

    await apply_run(agent_for(hostile), run_input(thread), thread)

    assert roles(thread.messages) == ["user", "assistant", "tool", "assistant"]
    assert thread.messages[2].content == "order 7 shipped"
    assert thread.messages[-1].content == "ok"
    assert thread.unanswered_calls() == []


async def test_error_ends_the_run_with_run_error(hostile: HostileAgent):
    thread = thread_saying("!error the model is overloaded ({token})")

    await apply_run(agent_for(hostile), run_input(thread), thread)

    assert (outcome(thread).kind, outcome(thread).message) == ("error", "the model is overloaded (ab)")


async def test_http_answers_with_that_status_and_body(hostile: HostileAgent):
    thread = thread_saying("!http 418 I am a teapot")

    with pytest.raises(AgentHTTPError) as failure:
        await apply_run(agent_for(hostile), run_input(thread), thread)

    assert (failure.value.status, failure.value.body_start) == (418, "I am a teapot")


async def test_ids_holds_the_header_in_a_valid_run(hostile: HostileAgent):
    thread = thread_saying("!ids")

    await apply_run(agent_for(hostile), run_input(thread), thread)

    assert thread.messages[1].id == f"msg-{SHORT_AUTH}"
    assert thread.messages[1].tool_calls[0].id == f"call-{SHORT_AUTH}"
    assert thread.messages[2].id == f"result-{SHORT_AUTH}"
    assert outcome(thread).kind == "success"


async def test_badframe_sends_a_frame_that_is_not_json(hostile: HostileAgent):
    thread = thread_saying("!badframe here is {auth}")

    with pytest.raises(MalformedFrame, match=r"not valid JSON.*here is Key ab"):
        await apply_run(agent_for(hostile), run_input(thread), thread)


async def test_hang_says_nothing_for_that_long(hostile: HostileAgent):
    agent = HttpAgent(hostile.url, limits=HttpLimits(idle_timeout=0.3))
    thread = thread_saying("!hang 0.1")

    events = await apply_run(agent, run_input(thread), thread)

    assert [event.type.value for event in events] == ["RUN_STARTED", "RUN_FINISHED"]


async def test_snapshot_swap_gives_the_answered_call_other_arguments_and_no_result(hostile: HostileAgent):
    agent = agent_for(hostile)
    thread = thread_saying('!snapshot-swap set_theme {"mode": "light"} {"mode": "dark"}')

    await apply_run(agent, run_input(thread, tools=[SET_THEME]), thread)
    assert json.loads(thread.tool_call(SWAP_CALL_ID).function.arguments) == {"mode": "light"}
    thread.add_tool_result(SWAP_CALL_ID, "Theme is now light.")
    events = await apply_run(agent, run_input(thread, tools=[SET_THEME]), thread)

    assert [event.type.value for event in events] == ["RUN_STARTED", "MESSAGES_SNAPSHOT", "RUN_FINISHED"]
    assert json.loads(thread.tool_call(SWAP_CALL_ID).function.arguments) == {"mode": "dark"}
    assert thread.result_of(SWAP_CALL_ID) is None
    assert [call.id for call in thread.unanswered_calls()] == [SWAP_CALL_ID]


async def test_snapshot_swap_swaps_once(hostile: HostileAgent):
    agent = agent_for(hostile)
    thread = thread_saying('!snapshot-swap set_theme {"mode": "light"} {"mode": "dark"}')
    await apply_run(agent, run_input(thread), thread)
    thread.add_tool_result(SWAP_CALL_ID, "Theme is now light.")
    await apply_run(agent, run_input(thread), thread)

    thread.add_tool_result(SWAP_CALL_ID, "Theme is now dark.")  # a client that ran B without asking
    await apply_run(agent, run_input(thread), thread)

    assert thread.messages[-1].content == "results: Theme is now dark."


@pytest.mark.parametrize("said", ["hello there", "!nonsense 1 2 3", "!"])
async def test_anything_else_gets_a_short_reply(hostile: HostileAgent, said: str):
    thread = thread_saying(said)

    await apply_run(agent_for(hostile), run_input(thread), thread)

    assert thread.messages[-1].content == UNKNOWN_COMMAND


async def test_a_malformed_argument_is_answered_in_a_reply(hostile: HostileAgent):
    thread = thread_saying("!backend lookup not-json")

    await apply_run(agent_for(hostile), run_input(thread), thread)

    assert thread.messages[-1].content.startswith("hostile agent: bad argument for !backend: expected JSON arguments")


async def test_every_request_is_recorded_with_its_path_headers_and_input(hostile: HostileAgent):
    agent = HttpAgent(f"{hostile.url}agents/helper/run", headers={"Authorization": SHORT_AUTH, "X-Team": "wire"})
    thread = thread_saying("!reply hi")
    request = run_input(thread)

    await apply_run(agent, request, thread)

    [received] = hostile.requests
    assert received.path == "/agents/helper/run"
    assert (received.headers["authorization"], received.headers["x-team"]) == (SHORT_AUTH, "wire")
    assert received.run_input is not None
    assert (received.run_input.run_id, received.run_input.messages[0].content) == (request.run_id, "!reply hi")


def test_it_starts_on_the_port_asked_for_and_stops():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    hostile = start_hostile_agent(port)
    try:
        assert (hostile.port, hostile.url) == (port, f"http://127.0.0.1:{port}/")
    finally:
        hostile.stop()
    with socket.socket() as again:
        assert again.connect_ex(("127.0.0.1", port)) != 0  # nothing listens any more


async def test_the_person_following_up_after_a_reply_gets_a_new_answer(hostile: HostileAgent):
    agent = agent_for(hostile)
    thread = AGUIThread()
    for said in ("!reply first", "!reply second"):
        thread.add_user_message(said)
        await apply_run(agent, run_input(thread), thread)

    assert [message.content for message in thread.messages if message.role == "assistant"] == ["first", "second"]
