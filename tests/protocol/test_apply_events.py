"""Events applied to a thread: the messages and state a page shows, as the reference client builds them."""

from __future__ import annotations

import copy

import pytest
from ag_ui.core import (
    ActivityDeltaEvent,
    ActivityMessage,
    ActivitySnapshotEvent,
    AssistantMessage,
    CustomEvent,
    FunctionCall,
    Interrupt,
    Message,
    MessagesSnapshotEvent,
    RawEvent,
    ReasoningEncryptedValueEvent,
    ReasoningEndEvent,
    ReasoningMessageChunkEvent,
    ReasoningMessageContentEvent,
    ReasoningMessageEndEvent,
    ReasoningMessageStartEvent,
    ReasoningStartEvent,
    RunAgentInput,
    RunErrorEvent,
    RunFinishedCancelledOutcome,
    RunFinishedInterruptOutcome,
    RunFinishedSuccessOutcome,
    StateDeltaEvent,
    StateSnapshotEvent,
    TextMessageChunkEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCall,
    ToolCallArgsEvent,
    ToolCallChunkEvent,
    ToolCallEndEvent,
    ToolCallResultEvent,
    ToolCallStartEvent,
    UserMessage,
)
from pydantic import TypeAdapter

from copilot_ui.protocol import AGUIThread, EventPipeline, Rule

from ._streams import feed, in_one_run, message_json, rejection, run_finished, run_started


def text(message_id, *deltas, **start_fields):
    return [
        TextMessageStartEvent(message_id=message_id, **start_fields),
        *(TextMessageContentEvent(message_id=message_id, delta=delta) for delta in deltas),
        TextMessageEndEvent(message_id=message_id),
    ]


def tool_call(call_id, name, *deltas, parent=None):
    return [
        ToolCallStartEvent(tool_call_id=call_id, tool_call_name=name, parent_message_id=parent),
        *(ToolCallArgsEvent(tool_call_id=call_id, delta=delta) for delta in deltas),
        ToolCallEndEvent(tool_call_id=call_id),
    ]


def result(call_id, message_id, content="done"):
    return ToolCallResultEvent(message_id=message_id, tool_call_id=call_id, content=content)


def ids_and_roles(thread):
    return [(message.id, message.role) for message in thread.messages]


# Text messages


def test_text_deltas_join_into_one_assistant_message():
    thread = feed(in_one_run(*text("m1", "Hel", "lo, ", "world")))
    assert message_json(thread, "m1") == {"id": "m1", "role": "assistant", "content": "Hello, world"}
    assert len(thread) == 1


def test_text_message_keeps_the_role_and_name_it_started_with():
    thread = feed(in_one_run(*text("m1", "Be brief.", role="system", name="rules")))
    assert message_json(thread, "m1") == {"id": "m1", "role": "system", "content": "Be brief.", "name": "rules"}


def test_text_start_for_an_existing_message_reuses_it():
    thread = feed(in_one_run(*tool_call("c1", "search", "{}", parent="m1"), *text("m1", "Searching.")))
    assert ids_and_roles(thread) == [("m1", "assistant")]
    message = message_json(thread, "m1")
    assert message["content"] == "Searching."
    assert [call["id"] for call in message["toolCalls"]] == ["c1"]


# Tool calls


def test_tool_call_joins_the_assistant_message_named_by_its_parent():
    thread = feed(in_one_run(*text("m1", "Let me look."), *tool_call("c1", "search", '{"q": "x"}', parent="m1")))
    assert ids_and_roles(thread) == [("m1", "assistant")]
    assert message_json(thread, "m1")["toolCalls"] == [
        {"id": "c1", "type": "function", "function": {"name": "search", "arguments": '{"q": "x"}'}}
    ]


def test_tool_call_creates_its_parent_message_when_missing():
    thread = feed(in_one_run(*tool_call("c1", "search", "{}", parent="m9")))
    assert ids_and_roles(thread) == [("m9", "assistant")]
    assert thread.owner_of("c1").id == "m9"


def test_tool_call_without_a_parent_gets_an_assistant_message_of_its_own_id():
    thread = feed(in_one_run(*tool_call("c1", "search", "{}")))
    assert ids_and_roles(thread) == [("c1", "assistant")]


def test_tool_call_whose_parent_is_not_an_assistant_message_gets_one_named_after_the_call():
    thread = feed(in_one_run(*text("u1", "Find x.", role="user"), *tool_call("c1", "search", "{}", parent="u1")))
    assert ids_and_roles(thread) == [("u1", "user"), ("c1", "assistant")]
    assert "toolCalls" not in message_json(thread, "u1")
    assert thread.warnings


def test_tool_call_arguments_append_in_order():
    thread = feed(in_one_run(*tool_call("c1", "search", '{"q"', ': "pa', 'ris"}')))
    assert thread.tool_call("c1").function.arguments == '{"q": "paris"}'


def test_tool_result_follows_its_assistant_message_and_the_results_already_there():
    thread = feed(
        in_one_run(
            *text("m1", "Two lookups."),
            *tool_call("c1", "search", "{}", parent="m1"),
            *tool_call("c2", "search", "{}", parent="m1"),
            *text("m2", "While they run, a note."),
            result("c1", "r1"),
            result("c2", "r2"),
        )
    )
    assert ids_and_roles(thread) == [("m1", "assistant"), ("r1", "tool"), ("r2", "tool"), ("m2", "assistant")]
    assert message_json(thread, "r2") == {"id": "r2", "role": "tool", "content": "done", "toolCallId": "c2"}


def test_tool_result_for_an_unknown_call_is_appended():
    thread = feed(in_one_run(*text("m1", "hi"), result("ghost", "r1")))
    assert ids_and_roles(thread) == [("m1", "assistant"), ("r1", "tool")]


# Chunks


def test_chunks_expand_into_one_message_with_its_tool_call():
    # The example of the reference client's chunks/transform.ts.
    thread = feed(
        [
            run_started(),
            TextMessageChunkEvent(message_id="m1", delta="Hel"),
            TextMessageChunkEvent(delta="lo"),
            ToolCallChunkEvent(tool_call_id="c1", tool_call_name="f", parent_message_id="m1", delta='{"a":'),
            ToolCallChunkEvent(delta="1}"),
            run_finished(),
        ]
    )
    assert thread.to_json()["messages"] == [
        {
            "id": "m1",
            "role": "assistant",
            "content": "Hello",
            "toolCalls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a":1}'}}],
        }
    ]


def test_chunk_events_reach_subscribers_as_start_content_and_end():
    pipeline = EventPipeline(AGUIThread())
    pipeline.feed(run_started())
    first = pipeline.feed(TextMessageChunkEvent(message_id="m1", delta="Hel"))
    second = pipeline.feed(TextMessageChunkEvent(delta="lo"))
    closing = pipeline.feed(run_finished())
    assert [event.type.value for event in first] == ["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"]
    assert [event.type.value for event in second] == ["TEXT_MESSAGE_CONTENT"]
    assert [event.type.value for event in closing] == ["TEXT_MESSAGE_END", "RUN_FINISHED"]


@pytest.mark.parametrize(
    "first_chunk",
    [
        TextMessageChunkEvent(delta="hi"),
        ToolCallChunkEvent(tool_call_name="f", delta="{}"),
        ToolCallChunkEvent(tool_call_id="c1", delta="{}"),
        ReasoningMessageChunkEvent(delta="hm"),
    ],
    ids=["text-without-message-id", "tool-without-call-id", "tool-without-name", "reasoning-without-message-id"],
)
def test_first_chunk_without_its_id_is_a_protocol_error(first_chunk):
    error = rejection([run_started(), first_chunk])
    assert error.rule is Rule.CHUNK_WITHOUT_ID
    assert error.index == 1


def test_reasoning_chunks_build_a_reasoning_message():
    thread = feed(
        in_one_run(
            ReasoningMessageChunkEvent(message_id="r1", delta="Think"),
            ReasoningMessageChunkEvent(delta="ing."),
            *text("m1", "Answer."),
        )
    )
    assert thread.to_json()["messages"] == [
        {"id": "r1", "role": "reasoning", "content": "Thinking."},
        {"id": "m1", "role": "assistant", "content": "Answer."},
    ]


# Reasoning


def test_reasoning_events_build_a_reasoning_message():
    thread = feed(
        in_one_run(
            ReasoningStartEvent(message_id="span-1"),
            ReasoningMessageStartEvent(message_id="r1", role="reasoning"),
            ReasoningMessageContentEvent(message_id="r1", delta="The user "),
            ReasoningMessageContentEvent(message_id="r1", delta="said hi."),
            ReasoningMessageEndEvent(message_id="r1"),
            ReasoningEndEvent(message_id="span-1"),
        )
    )
    assert thread.to_json()["messages"] == [{"id": "r1", "role": "reasoning", "content": "The user said hi."}]


def test_encrypted_value_lands_on_its_tool_call():
    thread = feed(
        in_one_run(
            *tool_call("c1", "search", "{}", parent="m1"),
            ReasoningEncryptedValueEvent(subtype="tool-call", entity_id="c1", encrypted_value="opaque-1"),
        )
    )
    assert message_json(thread, "m1")["toolCalls"][0]["encryptedValue"] == "opaque-1"
    assert "encryptedValue" not in message_json(thread, "m1")


def test_encrypted_value_lands_on_its_message():
    thread = feed(
        in_one_run(
            ReasoningMessageStartEvent(message_id="r1", role="reasoning"),
            ReasoningMessageContentEvent(message_id="r1", delta="hm"),
            ReasoningMessageEndEvent(message_id="r1"),
            ReasoningEncryptedValueEvent(subtype="message", entity_id="r1", encrypted_value="opaque-2"),
        )
    )
    assert message_json(thread, "r1")["encryptedValue"] == "opaque-2"


# State


def test_state_snapshot_replaces_the_state():
    thread = feed(in_one_run(StateSnapshotEvent(snapshot={"a": 1, "b": [1]}), StateSnapshotEvent(snapshot={"c": True})))
    assert thread.state == {"c": True}


@pytest.mark.parametrize(
    ("operation", "after"),
    [
        pytest.param(
            {"op": "add", "path": "/tags/1", "value": "b"},
            {"title": "Pasta", "tags": ["a", "b", "c"], "meta": {"n": 1}},
            id="add",
        ),
        pytest.param({"op": "remove", "path": "/meta/n"}, {"title": "Pasta", "tags": ["a", "c"], "meta": {}}, id="remove"),
        pytest.param(
            {"op": "replace", "path": "/title", "value": "Soup"},
            {"title": "Soup", "tags": ["a", "c"], "meta": {"n": 1}},
            id="replace",
        ),
        pytest.param(
            {"op": "move", "from": "/meta/n", "path": "/n"}, {"title": "Pasta", "tags": ["a", "c"], "meta": {}, "n": 1}, id="move"
        ),
        pytest.param(
            {"op": "copy", "from": "/tags/0", "path": "/tags/-"},
            {"title": "Pasta", "tags": ["a", "c", "a"], "meta": {"n": 1}},
            id="copy",
        ),
        pytest.param(
            {"op": "test", "path": "/title", "value": "Pasta"},
            {"title": "Pasta", "tags": ["a", "c"], "meta": {"n": 1}},
            id="test",
        ),
    ],
)
def test_state_delta_applies_a_json_patch_operation(operation, after):
    before = {"title": "Pasta", "tags": ["a", "c"], "meta": {"n": 1}}
    thread = feed(in_one_run(StateSnapshotEvent(snapshot=before), {"type": "STATE_DELTA", "delta": [operation]}))
    assert thread.state == after
    assert not thread.warnings


@pytest.mark.parametrize(
    "failing_patch",
    [
        [
            {"op": "replace", "path": "/title", "value": "Soup"},
            {"op": "add", "path": "/tags/-", "value": "d"},
            {"op": "remove", "path": "/meta/n"},
            {"op": "remove", "path": "/missing"},
        ],
        [
            {"op": "add", "path": "/tags/0", "value": "z"},
            {"op": "move", "from": "/meta", "path": "/moved"},
            {"op": "test", "path": "/title", "value": "Soup"},
        ],
    ],
    ids=["add-replace-remove", "with-move-and-test"],
)
def test_state_delta_that_fails_part_way_leaves_the_state_as_it_was(failing_patch):
    before = {"title": "Pasta", "tags": ["a", "c"], "meta": {"n": 1}}
    thread = feed(
        in_one_run(
            StateSnapshotEvent(snapshot=copy.deepcopy(before)),
            {"type": "STATE_DELTA", "delta": failing_patch},
            {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/after", "value": True}]},
        )
    )
    assert thread.state == {**before, "after": True}
    assert len(thread.warnings) == 1
    assert "STATE_DELTA" in thread.warnings[0]


def test_state_delta_may_replace_the_whole_state():
    thread = feed(
        in_one_run(StateSnapshotEvent(snapshot={"a": 1}), StateDeltaEvent(delta=[{"op": "replace", "path": "", "value": [1]}]))
    )
    assert thread.state == [1]


# Messages snapshot


def test_messages_snapshot_is_authoritative():
    thread = AGUIThread(
        messages=[
            UserMessage(id="u1", content="Plan my day."),
            AssistantMessage(id="m1", content="Draft"),
            ActivityMessage(id="a1", activity_type="plan", content={"step": 1}),
            AssistantMessage(id="local-only", content="gone after the snapshot"),
        ]
    )
    snapshot = [
        UserMessage(id="u1", content="Plan my day."),
        AssistantMessage(id="m1", content="Final plan"),
        AssistantMessage(id="m2", content="Anything else?"),
    ]
    feed(in_one_run(MessagesSnapshotEvent(messages=snapshot)), thread)
    assert [(message.id, message.content) for message in thread.messages] == [
        ("u1", "Plan my day."),
        ("m1", "Final plan"),
        ("a1", {"step": 1}),
        ("m2", "Anything else?"),
    ]


def test_messages_snapshot_with_activity_decides_the_activity_messages_too():
    thread = AGUIThread(messages=[ActivityMessage(id="a1", activity_type="plan", content={"step": 1})])
    snapshot = [ActivityMessage(id="a2", activity_type="plan", content={"step": 2})]
    feed(in_one_run(MessagesSnapshotEvent(messages=snapshot)), thread)
    assert [message.id for message in thread.messages] == ["a2"]


def test_messages_snapshot_replaces_tool_calls_and_their_results():
    thread = feed(in_one_run(*tool_call("c1", "search", "{}", parent="m1")))
    snapshot = [
        AssistantMessage(id="m1", tool_calls=[ToolCall(id="c2", function=FunctionCall(name="fetch", arguments="{}"))]),
    ]
    feed(in_one_run(MessagesSnapshotEvent(messages=snapshot)), thread)
    assert thread.tool_call("c1") is None
    assert thread.tool_call("c2").function.name == "fetch"
    assert [call.id for call in thread.unanswered_calls()] == ["c2"]


# Activities


def test_activity_snapshot_creates_an_activity_message():
    thread = feed(in_one_run(ActivitySnapshotEvent(message_id="a1", activity_type="plan", content={"steps": ["search"]})))
    assert message_json(thread, "a1") == {
        "id": "a1",
        "role": "activity",
        "activityType": "plan",
        "content": {"steps": ["search"]},
    }


def test_activity_snapshot_replaces_its_content_by_default():
    thread = feed(
        in_one_run(
            ActivitySnapshotEvent(message_id="a1", activity_type="plan", content={"steps": ["search"]}),
            ActivitySnapshotEvent(message_id="a1", activity_type="plan", content={"done": True}),
        )
    )
    assert message_json(thread, "a1")["content"] == {"done": True}
    assert len(thread) == 1


def test_activity_snapshot_with_replace_false_keeps_the_content():
    thread = feed(
        in_one_run(
            ActivitySnapshotEvent(message_id="a1", activity_type="plan", content={"steps": ["search"]}),
            ActivitySnapshotEvent(message_id="a1", activity_type="plan", content={"done": True}, replace=False),
        )
    )
    assert message_json(thread, "a1")["content"] == {"steps": ["search"]}


def test_activity_delta_patches_the_activity_content():
    thread = feed(
        in_one_run(
            ActivitySnapshotEvent(message_id="a1", activity_type="plan", content={"steps": ["search"]}),
            {
                "type": "ACTIVITY_DELTA",
                "messageId": "a1",
                "activityType": "plan",
                "patch": [{"op": "add", "path": "/steps/-", "value": "summarise"}],
            },
        )
    )
    assert message_json(thread, "a1")["content"] == {"steps": ["search", "summarise"]}


def test_activity_delta_that_fails_keeps_the_content():
    thread = feed(
        in_one_run(
            ActivitySnapshotEvent(message_id="a1", activity_type="plan", content={"steps": ["search"]}),
            ActivityDeltaEvent(
                message_id="a1",
                activity_type="plan",
                patch=[{"op": "add", "path": "/steps/-", "value": "x"}, {"op": "remove", "path": "/nope"}],
            ),
        )
    )
    assert message_json(thread, "a1")["content"] == {"steps": ["search"]}
    assert thread.warnings


# Runs


def test_run_started_input_adds_the_messages_the_thread_does_not_have():
    thread = AGUIThread(messages=[UserMessage(id="u1", content="Hi")])
    run_input = RunAgentInput(
        thread_id="thread-1",
        run_id="run-1",
        messages=[UserMessage(id="u1", content="Hi (as the agent saw it)"), UserMessage(id="u2", content="And then?")],
    )
    feed([run_started(input=run_input), run_finished()], thread)
    assert [(message.id, message.content) for message in thread.messages] == [("u1", "Hi"), ("u2", "And then?")]


def test_run_finished_success_names_the_pending_calls_the_agent_lists():
    thread = feed(
        [
            run_started(),
            *tool_call("c1", "confirm", "{}"),
            *tool_call("c2", "confirm", "{}"),
            run_finished(outcome=RunFinishedSuccessOutcome(pending_tool_call_ids=["c2"])),
        ]
    )
    assert thread.outcome.kind == "success"
    assert thread.outcome.pending_tool_call_ids == ["c2"]


def test_run_finished_success_without_a_list_pends_the_runs_unanswered_calls():
    thread = AGUIThread()
    feed(in_one_run(*tool_call("old", "confirm", "{}")), thread)  # a call of an earlier run
    feed(
        in_one_run(*tool_call("c1", "search", "{}"), result("c1", "r1"), *tool_call("c2", "confirm", "{}")),
        thread,
    )
    assert thread.outcome.kind == "success"
    assert thread.outcome.pending_tool_call_ids == ["c2"]


def test_run_finished_with_an_interrupt_opens_the_interrupts():
    interrupt = Interrupt(id="i1", reason="confirmation", message="Delete 3 files?")
    thread = feed([run_started(), run_finished(outcome=RunFinishedInterruptOutcome(interrupts=[interrupt]))])
    assert thread.outcome.kind == "interrupt"
    assert [item.id for item in thread.interrupts] == ["i1"]


def test_next_finished_run_closes_the_interrupts():
    interrupt = Interrupt(id="i1", reason="confirmation")
    thread = feed([run_started(), run_finished(outcome=RunFinishedInterruptOutcome(interrupts=[interrupt]))])
    feed([run_started("run-2"), run_finished("run-2")], thread)
    assert thread.interrupts == []


def test_run_finished_cancelled():
    thread = feed([run_started(), run_finished(outcome=RunFinishedCancelledOutcome())])
    assert thread.outcome.kind == "cancelled"


def test_run_error_is_the_outcome_with_its_message():
    thread = feed([run_started(), *text("m1", "Working"), RunErrorEvent(message="rate limited", code="429")])
    assert thread.outcome.kind == "error"
    assert thread.outcome.message == "rate limited"
    assert thread.outcome.code == "429"
    assert thread.message("m1").content == "Working"


# Events that only inform


@pytest.mark.parametrize(
    "event",
    [CustomEvent(name="acme.PredictState", value={"key": "doc"}), RawEvent(event={"kind": "checkpoint"}, source="langgraph")],
    ids=["custom", "raw"],
)
def test_custom_and_raw_reach_subscribers_and_leave_the_thread_alone(event):
    thread = AGUIThread()
    pipeline = EventPipeline(thread)
    for before in [run_started(), StateSnapshotEvent(snapshot={"a": 1}), *text("m1", "hi")]:
        pipeline.feed(before)
    unchanged = thread.to_json()

    assert pipeline.feed(event) == (event,)
    assert thread.to_json() == unchanged


# Events are read, not changed


def test_applying_a_stream_leaves_its_events_as_they_arrived():
    events = in_one_run(
        StateSnapshotEvent(snapshot={"items": []}),
        StateDeltaEvent(delta=[{"op": "add", "path": "/items/-", "value": {"n": 1}}]),
        ActivitySnapshotEvent(message_id="a1", activity_type="plan", content={"steps": []}),
        ActivityDeltaEvent(message_id="a1", activity_type="plan", patch=[{"op": "add", "path": "/steps/-", "value": "x"}]),
    )
    arrived = [event.model_dump() for event in events]

    first, second = feed(events), feed(events)
    first.state["items"].append("changed on the page")

    assert [event.model_dump() for event in events] == arrived
    assert second.state == {"items": [{"n": 1}]}
    assert message_json(second, "a1")["content"] == {"steps": ["x"]}


# The thread as JSON


def test_thread_to_json_gives_camel_case_agui_messages_and_the_state():
    thread = feed(
        in_one_run(
            *text("u1", "Weather in Paris?", role="user"),
            *tool_call("c1", "get_weather", '{"city": "Paris"}', parent="m1"),
            result("c1", "r1", "21°C"),
            StateSnapshotEvent(snapshot={"unit": "C"}),
        )
    )
    as_json = thread.to_json()
    assert as_json["state"] == {"unit": "C"}
    assert as_json["messages"][1]["toolCalls"][0]["function"] == {"name": "get_weather", "arguments": '{"city": "Paris"}'}
    assert as_json["messages"][2] == {"id": "r1", "role": "tool", "content": "21°C", "toolCallId": "c1"}
    # What it gives is what an AG-UI agent accepts back, message for message.
    assert TypeAdapter(list[Message]).validate_python(as_json["messages"]) == thread.messages
