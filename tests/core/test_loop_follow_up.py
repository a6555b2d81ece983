"""When the agent runs again, what it is sent, and the bounds that keep it from spinning forever."""

from __future__ import annotations

import asyncio

from ag_ui.core import (
    AssistantMessage,
    Context,
    FunctionCall,
    RunErrorEvent,
    RunFinishedSuccessOutcome,
    TextMessageStartEvent,
    ToolCall,
)

from copilot_ui.agents import AgentError, Pause
from copilot_ui.agents import scripts as s
from copilot_ui.core import GO_ON, ErrorOccurred, LoopLimits, Thread, tool_from_function

from .conftest import assert_one_result_per_call, make_loop, reply_with_results, results


def note(text: str) -> str:
    """Take a note."""
    return f"noted {text}"


async def test_no_follow_up_when_every_call_says_so(thread):
    quiet = tool_from_function(note, follow_up=False)
    loop, agent, _ = make_loop(s.tool_calls_reply(("note", {"text": "a"}, "c1"), ("note", {"text": "b"}, "c2")), tools=[quiet])
    outcome = await loop.send(thread, "note")
    assert outcome.status == "done"
    assert len(agent.inputs) == 1
    assert results(thread) == {"c1": "noted a", "c2": "noted b"}


async def test_one_call_wanting_a_follow_up_is_enough(thread):
    def shout(text: str) -> str:
        """Shout."""
        return text.upper()

    loop, agent, _ = make_loop(
        s.tool_calls_reply(("note", {"text": "a"}, "c1"), ("shout", {"text": "b"}, "c2")),
        s.text_reply("ok"),
        tools=[tool_from_function(note, follow_up=False), shout],
    )
    await loop.send(thread, "go")
    assert len(agent.inputs) == 2


async def test_a_tool_that_completes_the_run_ends_it_when_it_succeeds(thread):
    def finish(summary: str) -> str:
        """Hand over the final answer."""
        return summary

    loop, agent, _ = make_loop(
        s.tool_calls_reply(("finish", {"summary": "all done"}, "c1")), tools=[tool_from_function(finish, completes_run=True)]
    )
    outcome = await loop.send(thread, "finish up")
    assert outcome.status == "done"
    assert len(agent.inputs) == 1


async def test_a_run_completing_tool_that_fails_lets_the_agent_try_again(thread):
    def finish(summary: str) -> str:
        """Hand over the final answer."""
        raise ValueError("summary too short")

    loop, agent, _ = make_loop(
        s.tool_calls_reply(("finish", {"summary": "x"}, "c1")),
        s.text_reply("I'll write more."),
        tools=[tool_from_function(finish, completes_run=True)],
    )
    await loop.send(thread, "finish up")
    assert len(agent.inputs) == 2


async def test_the_page_commits_before_the_context_is_read_for_the_follow_up(thread):
    page = {"theme": "light", "shown": "light"}
    order: list[str] = []

    async def set_theme(mode: str) -> str:
        """Set the theme."""
        page["theme"] = mode
        order.append("tool")
        return f"Theme is now {mode}."

    async def commit() -> None:
        page["shown"] = page["theme"]
        order.append("commit")

    async def context() -> list[Context]:
        order.append("context")
        return [Context(description="what the page shows", value=page["shown"])]

    def follow_up(run_input):
        order.append("request")
        return s.text_reply(f"The page shows {run_input.context[0].value}.")

    loop, agent, _ = make_loop(
        s.tool_calls_reply(("set_theme", {"mode": "dark"}, "c1")), follow_up, tools=[set_theme], commit=commit, context=context
    )
    await loop.send(thread, "dark mode")
    assert order == ["commit", "context", "tool", "commit", "context", "request"]
    assert agent.inputs[0].context[0].value == "light"
    assert thread.messages[-1].content == "The page shows dark."


async def test_every_run_gets_the_context_afresh(thread):
    count = {"reads": 0}

    def context() -> list[Context]:
        count["reads"] += 1
        return [Context(description="reads", value=str(count["reads"]))]

    loop, agent, _ = make_loop(s.text_reply("a"), s.text_reply("b"), context=context)
    await loop.send(thread, "one")
    await loop.send(thread, "two")
    assert [run.context[0].value for run in agent.inputs] == ["1", "2"]


async def test_the_follow_ups_of_a_turn_are_bounded(thread):
    def again() -> str:
        """Again."""
        return "once more"

    def always_calls(run_input):
        return s.tool_calls_reply(("again", {"n": len(run_input.messages)}))

    loop, agent, recorder = make_loop(*[always_calls] * 10, tools=[again], limits=LoopLimits(max_follow_ups=3))
    outcome = await loop.send(thread, "go")
    assert outcome.status == "limit"
    assert "3 follow-up runs" in outcome.message
    assert len(agent.inputs) == 4
    assert recorder.of(ErrorOccurred)[-1].code == "turn_limit"
    assert_one_result_per_call(thread)


async def test_the_same_call_repeated_is_flagged_and_then_stopped(thread):
    def lookup(order_id: int) -> str:
        """Look up."""
        return "pending"

    same = [s.tool_calls_reply(("lookup", {"order_id": 1})) for _ in range(6)]
    loop, agent, _ = make_loop(*same, tools=[lookup])
    outcome = await loop.send(thread, "check")
    answers = [m.content for m in thread.messages if m.role == "tool"]
    assert answers[:2] == ["pending", "pending"]
    assert "same arguments 3 times in a row" in answers[2] and "looping" in answers[2]
    assert outcome.status == "stopped"
    assert "kept calling lookup" in outcome.message
    assert len(agent.inputs) == 4
    assert_one_result_per_call(thread)


async def test_the_same_call_twice_in_one_reply_is_not_a_loop(thread):
    loop, _, _ = make_loop(
        s.tool_calls_reply(*[("note", {"text": "x"}, f"c{i}") for i in range(4)]), s.text_reply("ok"), tools=[note]
    )
    await loop.send(thread, "go")
    assert set(results(thread).values()) == {"noted x"}


async def test_calls_from_a_reply_cut_off_by_the_length_limit_are_never_run(thread):
    ran = []

    def save(text: str) -> str:
        """Save."""
        ran.append(text)
        return "saved"

    cut = s.run(
        s.tool_call("save", '{"text": "the whole story"}', call_id="c1"),
        outcome=RunFinishedSuccessOutcome(pending_tool_call_ids=["c1"]),
    )
    cut[-1].result = {"finishReason": "length"}
    loop, agent, _ = make_loop(cut, reply_with_results(), tools=[save])
    await loop.send(thread, "save the story")
    assert ran == []
    assert "cut off" in results(thread)["c1"]
    assert len(agent.inputs) == 2  # so the agent can send the call again, complete


async def test_calls_of_a_failed_run_get_an_error_and_the_turn_ends(thread):
    ran = []

    def save(text: str) -> str:
        """Save."""
        ran.append(text)
        return "saved"

    failed = [
        *s.run(s.tool_call("save", {"text": "a"}, call_id="c1"))[:-1],
        RunErrorEvent(message="the model provider is overloaded", code="overloaded"),
    ]
    loop, agent, recorder = make_loop(failed, tools=[save])
    outcome = await loop.send(thread, "save")
    assert outcome.status == "error"
    assert outcome.message == "the model provider is overloaded"
    assert ran == []
    assert "the agent's run failed" in results(thread)["c1"]
    assert recorder.of(ErrorOccurred)[0].code == "overloaded"
    assert len(agent.inputs) == 1


async def test_an_agent_that_fails_mid_stream_keeps_what_it_already_said(thread):
    broken = [*s.run(s.text("Here is the first half", message_id="m1"))[:-2], AgentError("the connection was cut")]
    loop, _, _ = make_loop(broken)
    outcome = await loop.send(thread, "tell me")
    assert outcome.status == "error"
    assert "the connection was cut" in outcome.message
    assert thread.message("m1").content == "Here is the first half"


async def test_an_agent_breaking_the_protocol_ends_the_turn_with_the_rule_named(thread):
    bad = s.run(TextMessageStartEvent(message_id="m1"), TextMessageStartEvent(message_id="m1"))
    loop, _, _ = make_loop(bad)
    outcome = await loop.send(thread, "hi")
    assert outcome.status == "error"
    assert "text-already-open" in outcome.message


async def test_a_run_that_says_nothing_is_not_repeated(thread):
    loop, agent, _ = make_loop(s.run(), s.text_reply("never sent"))
    outcome = await loop.send(thread, "hello?")
    assert outcome.status == "done"
    assert len(agent.inputs) == 1


async def test_a_message_sent_during_a_run_goes_after_the_tool_results_with_the_next_run(thread):
    started = asyncio.Event()

    async def slow_search(query: str) -> str:
        """Search."""
        started.set()
        await asyncio.sleep(0.05)
        return f"results for {query}"

    loop, agent, _ = make_loop(
        s.tool_calls_reply(("slow_search", {"query": "shoes"}, "c1"), ("slow_search", {"query": "hats"}, "c2")),
        s.text_reply("Here you go."),
        tools=[slow_search],
    )
    drive = asyncio.create_task(loop.send(thread, "search shoes and hats"))
    await started.wait()
    assert await loop.send(thread, "only red ones, please") is None  # queued
    await asyncio.wait_for(drive, 2)
    follow_up = agent.inputs[1].messages
    assert [m.role for m in follow_up] == ["user", "assistant", "tool", "tool", "user"]
    assert follow_up[-1].content == "only red ones, please"
    assert results(thread) == {"c1": "results for shoes", "c2": "results for hats"}


async def test_a_message_sent_while_the_agent_streams_goes_with_the_next_run(thread):
    slow_reply = s.run(s.text("first answer"))
    slow_reply.insert(1, Pause(0.05))
    loop, agent, _ = make_loop(slow_reply, s.text_reply("second answer"))
    drive = asyncio.create_task(loop.send(thread, "one"))
    await asyncio.sleep(0.01)
    await loop.send(thread, "two")
    await asyncio.wait_for(drive, 2)
    assert len(agent.inputs) == 2
    assert [m.content for m in agent.inputs[1].messages if m.role == "user"] == ["one", "two"]
    assert thread.messages[-1].content == "second answer"


async def test_a_tool_run_from_code_is_recorded_with_its_result_and_asks_no_one(thread):
    loop, agent, _ = make_loop(tools=[note])
    result = await loop.run_tool(thread, "note", {"text": "from a button"})
    assert result == "noted from a button"
    (assistant, tool) = thread.messages
    assert assistant.tool_calls[0].function.name == "note"
    assert tool.content == "noted from a button"
    assert agent.inputs == []


async def test_a_tool_run_from_code_can_ask_the_agent_to_comment(thread):
    loop, agent, _ = make_loop(reply_with_results("Comment: "), tools=[note])
    await loop.run_tool(thread, "note", {"text": "x"}, follow_up="generate")
    assert len(agent.inputs) == 1
    assert thread.messages[-1].content == "Comment: noted x"


async def test_a_tool_run_from_code_can_send_a_message_with_the_follow_up(thread):
    loop, agent, _ = make_loop(s.text_reply("Sure."), tools=[note])
    await loop.run_tool(thread, "note", {"text": "x"}, follow_up="Summarize my notes")
    assert [m.role for m in agent.inputs[0].messages] == ["assistant", "tool", "user"]
    assert agent.inputs[0].messages[-1].content == "Summarize my notes"


async def test_running_an_unknown_tool_from_code_says_which_tools_exist(thread):
    import pytest

    loop, _, _ = make_loop(tools=[note])
    with pytest.raises(KeyError, match="note"):
        await loop.run_tool(thread, "nope", {})


async def test_a_call_cut_short_by_a_failing_stream_gets_exactly_one_error_result(thread):
    from ag_ui.core import ToolCallArgsEvent, ToolCallStartEvent

    ran = []

    def save(text: str) -> str:
        """Save."""
        ran.append(text)
        return "saved"

    broken = [
        *s.run()[:1],
        ToolCallStartEvent(tool_call_id="c1", tool_call_name="save"),
        ToolCallArgsEvent(tool_call_id="c1", delta='{"text": "half'),
        AgentError("the stream broke"),
    ]
    loop, _, _ = make_loop(broken, tools=[save])
    outcome = await loop.send(thread, "save")
    assert outcome.status == "error"
    assert ran == []
    assert "the agent's run failed" in results(thread)["c1"]
    assert_one_result_per_call(thread)


async def test_resuming_a_thread_with_nothing_to_do_sends_nothing(thread):
    loop, agent, _ = make_loop(s.text_reply("hi"))
    assert (await loop.resume(thread)).status == "done"  # empty thread
    await loop.send(thread, "hello")
    assert (await loop.resume(thread)).status == "done"  # the agent already answered
    assert len(agent.inputs) == 1


async def test_repeated_identical_calls_to_an_unknown_tool_are_stopped_at_the_detection_threshold(thread):
    loop, agent, _ = make_loop(*[s.tool_calls_reply(("translate", {"text": "hi"})) for _ in range(10)])
    outcome = await loop.send(thread, "translate")
    assert outcome.status == "stopped"  # it used to run the agent 26 times, until the turn limit
    assert "kept calling translate" in outcome.message
    assert len(agent.inputs) == 4
    assert_one_result_per_call(thread)


async def test_repeated_identical_calls_with_invalid_arguments_are_stopped_too(thread):
    loop, agent, _ = make_loop(*[s.tool_calls_reply(("note", '{"text": "unterminated')) for _ in range(10)], tools=[note])
    outcome = await loop.send(thread, "note")
    assert outcome.status == "stopped"
    assert len(agent.inputs) == 4


async def test_a_failed_agent_run_shows_its_error_once(thread):
    loop, _, recorder = make_loop([*s.run()[:1], RunErrorEvent(message="the model provider is overloaded", code="busy")])
    await loop.send(thread, "hi")
    assert [(event.message, event.code) for event in recorder.of(ErrorOccurred)] == [("the model provider is overloaded", "busy")]


async def test_retry_runs_the_failed_step_again_on_the_same_messages(thread):
    broken = [*s.run(s.text("Here is the first half", message_id="m1"))[:-2], AgentError("the connection was cut")]
    loop, agent, _ = make_loop(broken, s.text_reply("Here is all of it."))
    assert (await loop.send(thread, "tell me")).status == "error"

    outcome = await loop.retry(thread)
    assert outcome.status == "done"
    assert [m.id for m in agent.inputs[1].messages] == [m.id for m in agent.inputs[0].messages]  # the user message once
    assert [(m.role, m.content) for m in thread.messages] == [("user", "tell me"), ("assistant", "Here is all of it.")]


async def test_retry_of_a_run_with_calls_drops_their_not_run_results_and_runs_the_agent_again(thread):
    failing = [*s.run(s.tool_call("note", {"text": "a"}, call_id="c1"))[:-1], RunErrorEvent(message="overloaded")]
    loop, _agent, _ = make_loop(failing, s.tool_calls_reply(("note", {"text": "a"}, "c2")), s.text_reply("noted"), tools=[note])
    await loop.send(thread, "note a")
    assert "the agent's run failed" in results(thread)["c1"]

    assert (await loop.retry(thread)).status == "done"
    assert results(thread) == {"c2": "noted a"}
    assert_one_result_per_call(thread)


async def test_retry_when_nothing_failed_is_refused_clearly(thread):
    import pytest

    loop, agent, _ = make_loop(s.text_reply("fine"))
    await loop.send(thread, "hi")
    with pytest.raises(RuntimeError, match="nothing to retry"):
        await loop.retry(thread)
    assert len(agent.inputs) == 1


def cut_off_mid_reply() -> Thread:
    """A thread as the store kept it when the server stopped: a reply half written, a call whose arguments had not
    all come, after the person's message."""
    thread = Thread()
    thread.add_user_message("tell me a story", "u1")
    thread.add_message(AssistantMessage(id="m1", content="Once upon a time a keeper"))
    call = ToolCall(id="c1", function=FunctionCall(name="note", arguments='{"text": "a li'))
    thread.add_message(AssistantMessage(id="m2", tool_calls=[call]))
    thread.interrupted_after("u1")
    return thread


async def test_retry_after_the_server_stopped_mid_reply_keeps_the_words_and_asks_the_agent_to_go_on():
    thread = cut_off_mid_reply()
    assert [(m.id, m.content) for m in thread.messages] == [("u1", "tell me a story"), ("m1", "Once upon a time a keeper")]
    loop, agent, _ = make_loop(s.text_reply(" counted the ships.", message_id="m3"))

    assert (await loop.retry(thread)).status == "done"
    sent = agent.inputs[0].messages
    assert [m.id for m in sent[:2]] == ["u1", "m1"]  # the words the person read, as the agent wrote them
    assert (sent[2].role, sent[2].content) == ("user", GO_ON)  # then the request to go on, for this run only
    assert [(m.id, m.content) for m in thread.messages] == [
        ("u1", "tell me a story"),
        ("m1", "Once upon a time a keeper"),
        ("m3", " counted the ships."),
    ]


async def test_retry_after_the_server_stopped_before_the_agent_said_anything_runs_it_again():
    thread = Thread()
    thread.add_user_message("tell me a story", "u1")
    thread.interrupted_after("u1")
    loop, agent, _ = make_loop(s.text_reply("Once upon a time."))

    assert (await loop.retry(thread)).status == "done"
    assert [m.id for m in agent.inputs[0].messages] == ["u1"]
    assert [m.content for m in thread.messages] == ["tell me a story", "Once upon a time."]
