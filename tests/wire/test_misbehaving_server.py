"""HttpAgent against servers that break: each failure is a typed error that says what happened, raised in
time, and every event received before it has reached the thread."""

from __future__ import annotations

import asyncio

import pytest

from copilot_ui.agents import (
    AgentHTTPError,
    AgentUnreachable,
    HttpAgent,
    HttpLimits,
    IdleTimeout,
    LimitExceeded,
    MalformedFrame,
    StreamEnded,
    WrongContentType,
)
from copilot_ui.protocol import AGUIThread

from ._misbehaving import TEXT_BEFORE_FAILURE, MisbehavingServer
from ._runs import apply_run, roles, run_input, thread_saying
from ._servers import closed_port, unanswering_port

QUICK = HttpLimits(connect_timeout=0.5, idle_timeout=0.5)
PATIENT = HttpLimits(connect_timeout=0.5, idle_timeout=30)  # a limit, not the idle timeout, must end these runs
HANG_UP_TIMEOUT = 2.0


async def test_stream_cut_mid_reply_raises_stream_ended_and_keeps_the_text_so_far(misbehaving: MisbehavingServer):
    agent = HttpAgent(misbehaving.url("/dies-mid-stream"), limits=QUICK)
    thread = thread_saying("hi")

    with pytest.raises(StreamEnded, match="ended before RUN_FINISHED, after 4 events") as failure:
        await apply_run(agent, run_input(thread), thread)

    assert failure.value.events_received == 4
    assert f"the agent at {misbehaving.host}" in str(failure.value)
    assert "/dies-mid-stream" not in str(failure.value)  # the person sees the host, not the URL
    assert roles(thread.messages) == ["user", "assistant"]
    assert thread.messages[-1].content == TEXT_BEFORE_FAILURE


async def test_stream_closed_without_run_finished_raises_stream_ended(misbehaving: MisbehavingServer):
    agent = HttpAgent(misbehaving.url("/ends-without-finishing"), limits=QUICK)
    thread = thread_saying("hi")

    with pytest.raises(StreamEnded, match="ended before RUN_FINISHED, after 4 events"):
        await apply_run(agent, run_input(thread), thread)

    assert thread.messages[-1].content == TEXT_BEFORE_FAILURE
    assert thread.outcome is None


async def test_frame_that_is_not_json_raises_malformed_frame_after_the_valid_events(misbehaving: MisbehavingServer):
    agent = HttpAgent(misbehaving.url("/garbage-frame"), limits=QUICK)
    thread = thread_saying("hi")

    with pytest.raises(MalformedFrame, match=r"malformed frame after 4 events.*not valid JSON.*not json"):
        await apply_run(agent, run_input(thread), thread)

    assert thread.messages[-1].content == TEXT_BEFORE_FAILURE
    assert thread.outcome is None  # the RUN_FINISHED after the garbage is not taken


async def test_error_status_raises_agent_http_error_quoting_the_body(misbehaving: MisbehavingServer):
    agent = HttpAgent(misbehaving.url("/server-error"), limits=QUICK)
    thread = thread_saying("hi")

    with pytest.raises(AgentHTTPError, match="answered HTTP 500: Internal Server Error") as failure:
        await apply_run(agent, run_input(thread), thread)

    assert failure.value.status == 500
    assert failure.value.body_start == "Internal Server Error: KeyError 'model' in run_agent"
    assert roles(thread.messages) == ["user"]


async def test_answer_that_is_not_an_event_stream_raises_wrong_content_type(misbehaving: MisbehavingServer):
    agent = HttpAgent(misbehaving.url("/json-answer"), limits=QUICK)
    thread = thread_saying("hi")

    with pytest.raises(WrongContentType, match=r"'application/json' instead of text/event-stream") as failure:
        await apply_run(agent, run_input(thread), thread)

    assert failure.value.content_type == "application/json"
    assert "this is a REST endpoint" in str(failure.value)
    assert roles(thread.messages) == ["user"]


async def test_silence_after_the_headers_raises_idle_timeout_and_hangs_up(misbehaving: MisbehavingServer):
    agent = HttpAgent(misbehaving.url("/silent-after-headers"), limits=QUICK)
    thread = thread_saying("hi")
    request = run_input(thread)

    with pytest.raises(IdleTimeout, match=r"sent nothing for 0.5 s") as failure:
        await apply_run(agent, request, thread)

    assert failure.value.seconds == 0.5
    await asyncio.wait_for(misbehaving.hung_up[request.run_id].wait(), HANG_UP_TIMEOUT)


async def test_silence_before_the_headers_raises_idle_timeout_and_hangs_up(misbehaving: MisbehavingServer):
    agent = HttpAgent(misbehaving.url("/silent-before-headers"), limits=QUICK)
    thread = thread_saying("hi")
    request = run_input(thread)

    with pytest.raises(IdleTimeout, match=r"sent nothing for 0.5 s"):
        await apply_run(agent, request, thread)

    await asyncio.wait_for(misbehaving.hung_up[request.run_id].wait(), HANG_UP_TIMEOUT)


async def test_frame_larger_than_the_limit_raises_limit_exceeded_without_waiting_for_its_end(misbehaving: MisbehavingServer):
    misbehaving.huge_frame_chars = 5_000
    agent = HttpAgent(misbehaving.url("/huge-frame"), limits=HttpLimits(idle_timeout=30, max_frame_chars=1_000))
    thread = thread_saying("hi")
    request = run_input(thread)

    with pytest.raises(LimitExceeded, match="sent an event frame larger than 1,000 characters; the run was stopped") as failure:
        await apply_run(agent, request, thread)

    assert f"the agent at {misbehaving.host} sent" in str(failure.value)
    assert thread.interrupts == []
    assert thread.outcome is None
    await asyncio.wait_for(misbehaving.hung_up[request.run_id].wait(), HANG_UP_TIMEOUT)


async def test_more_events_than_the_limit_raises_limit_exceeded_keeping_those_received(misbehaving: MisbehavingServer):
    agent = HttpAgent(misbehaving.url("/event-flood"), limits=HttpLimits(idle_timeout=30, max_events_per_run=10))
    thread = thread_saying("hi")
    request = run_input(thread)

    with pytest.raises(LimitExceeded, match="more than 10 events in one run"):
        await apply_run(agent, request, thread)

    assert thread.messages[-1].content == "a" * 8  # RUN_STARTED, TEXT_MESSAGE_START, then 8 deltas
    await asyncio.wait_for(misbehaving.hung_up[request.run_id].wait(), HANG_UP_TIMEOUT)


async def test_refused_connection_raises_agent_unreachable_saying_so():
    thread = thread_saying("hi")

    with closed_port() as port:
        url = f"http://127.0.0.1:{port}/"
        with pytest.raises(AgentUnreachable, match=r"connection refused\. Is the server running") as failure:
            await apply_run(HttpAgent(url, limits=QUICK), run_input(thread), thread)

    assert failure.value.host == f"127.0.0.1:{port}"
    assert roles(thread.messages) == ["user"]


async def test_connection_never_accepted_raises_agent_unreachable_after_the_connect_timeout():
    with unanswering_port() as port:
        agent = HttpAgent(f"http://127.0.0.1:{port}/", limits=QUICK)
        thread = thread_saying("hi")

        with pytest.raises(AgentUnreachable, match=r"no connection within 0.5 s"):
            await apply_run(agent, run_input(thread), thread)


async def test_url_without_a_scheme_raises_agent_unreachable_saying_so():
    agent = HttpAgent("127.0.0.1:8000/agent", limits=QUICK)
    thread = thread_saying("hi")

    with pytest.raises(
        AgentUnreachable, match=r"at 127\.0\.0\.1:8000: Request URL is missing an 'http://' or 'https://' protocol\. Is"
    ):
        await apply_run(agent, run_input(thread), thread)


async def test_errors_never_show_credentials_written_in_the_agent_url(misbehaving):
    with closed_port() as port:
        refused = HttpAgent(f"http://ada:s3cret-pass@127.0.0.1:{port}/run?api_key=k3y-12345678")
        with pytest.raises(AgentUnreachable) as unreachable:
            await apply_run(refused, run_input(thread_saying("hi")), AGUIThread())
    failing = HttpAgent(misbehaving.url("/server-error").replace("http://", "http://ada:s3cret-pass@") + "?api_key=k3y-12345678")
    with pytest.raises(AgentHTTPError) as answered:
        await apply_run(failing, run_input(thread_saying("hi")), AGUIThread())
    for error in (unreachable.value, answered.value):
        assert "s3cret-pass" not in str(error)
        assert "k3y-12345678" not in str(error)
        assert "127.0.0.1" in str(error)
    assert "s3cret-pass" not in repr(failing)
