"""Predictive state updates (CUSTOM PredictState): a key of the state follows a tool's argument while it streams,
and holds its final value once the call ends. Hand-made streams, as the dojo's predictive-state servers send them."""

from __future__ import annotations

import json
import logging

from ag_ui.core import CustomEvent, RunFinishedEvent, ToolCallArgsEvent, ToolCallChunkEvent, ToolCallEndEvent, ToolCallStartEvent

from copilot_ui.protocol import AGUIThread, EventPipeline

from ._streams import run_started

WRITE_DOCUMENT = [{"state_key": "document", "tool": "write_document", "tool_argument": "document"}]
STORY = ['{"document": "', "Once upon ", "a time, ", "there was ", 'a dog named \\"Rex\\".', '"}']


def predict(value=WRITE_DOCUMENT):
    return CustomEvent(name="PredictState", value=value)


def streamed_call(call_id="c1", name="write_document", pieces=STORY):
    return [
        ToolCallStartEvent(tool_call_id=call_id, tool_call_name=name, parent_message_id="m1"),
        *(ToolCallArgsEvent(tool_call_id=call_id, delta=piece) for piece in pieces),
        ToolCallEndEvent(tool_call_id=call_id),
    ]


def states_while_feeding(events, state=None, key="document"):
    """The state's key after each event (a missing key reads as None), and the thread."""
    thread = AGUIThread(state=state if state is not None else {"document": "My draft."})
    pipeline = EventPipeline(thread)
    seen = []
    for event in events:
        pipeline.feed(event)
        seen.append(thread.state.get(key) if isinstance(thread.state, dict) else thread.state)
    return seen, thread


def test_the_key_follows_the_argument_as_it_streams_then_holds_the_final_value():
    seen, thread = states_while_feeding([run_started(), predict(), *streamed_call()])
    assert seen == [
        "My draft.",
        "My draft.",
        "My draft.",  # the call started: nothing of the argument yet
        "",  # '{"document": "': the argument has begun, with nothing in it yet
        "Once upon ",
        "Once upon a time, ",
        "Once upon a time, there was ",
        'Once upon a time, there was a dog named "Rex".',
        'Once upon a time, there was a dog named "Rex".',
        'Once upon a time, there was a dog named "Rex".',  # the end: the final value
    ]
    assert thread.state == {"document": 'Once upon a time, there was a dog named "Rex".'}


def test_without_a_tool_argument_the_key_follows_the_whole_arguments():
    seen, _ = states_while_feeding(
        [run_started(), predict([{"state_key": "draft", "tool": "write_document"}]), *streamed_call()], key="draft"
    )
    assert seen[-1] == {"document": 'Once upon a time, there was a dog named "Rex".'}
    assert seen[4] == {"document": "Once upon "}


def test_calls_of_other_tools_leave_the_state_alone():
    search = streamed_call("c0", name="search", pieces=['{"document": "not this"}'])
    seen, _ = states_while_feeding([run_started(), predict(), *search, *streamed_call()])
    assert seen[2:5] == ["My draft."] * 3
    assert seen[-1] == 'Once upon a time, there was a dog named "Rex".'


def test_a_call_streamed_in_chunks_predicts_as_well():
    chunks = [
        ToolCallChunkEvent(tool_call_id="c1", tool_call_name="write_document", delta=piece)
        if index == 0
        else ToolCallChunkEvent(delta=piece)
        for index, piece in enumerate(STORY)
    ]
    thread = AGUIThread(state={"document": "My draft."})
    pipeline = EventPipeline(thread)
    for event in [run_started(), predict(), *chunks[:3]]:
        pipeline.feed(event)
    assert thread.state["document"] == "Once upon a time, "
    for event in [*chunks[3:], RunFinishedEvent(thread_id="thread-1", run_id="run-1")]:
        pipeline.feed(event)
    assert thread.state["document"] == 'Once upon a time, there was a dog named "Rex".'


def test_several_keys_may_follow_several_arguments_of_one_call():
    mapping = [
        {"state_key": "title", "tool": "write_document", "tool_argument": "title"},
        {"state_key": "document", "tool": "write_document", "tool_argument": "body"},
    ]
    pieces = ['{"title": "Rex", ', '"body": "A good ', 'dog."}']
    _, thread = states_while_feeding([run_started(), predict(mapping), *streamed_call(pieces=pieces)])
    assert thread.state == {"document": "A good dog.", "title": "Rex"}


def test_a_later_prediction_replaces_the_earlier_mappings():
    other = [{"state_key": "notes", "tool": "write_notes", "tool_argument": "document"}]
    notes = streamed_call("c2", name="write_notes", pieces=['{"document": "Walk Rex."}'])
    _, thread = states_while_feeding([run_started(), predict(), predict(other), *streamed_call(), *notes])
    assert thread.state == {"document": "My draft.", "notes": "Walk Rex."}


def test_a_new_run_starts_without_the_mappings_of_the_last():
    first = streamed_call("c1", pieces=['{"document": "First."}'])
    finished = RunFinishedEvent(thread_id="thread-1", run_id="run-1")
    seen, _ = states_while_feeding([run_started(), predict(), *first, finished, run_started("run-2"), *streamed_call("c2")])
    assert seen[-1] == seen[5] == "First."


def test_arguments_that_never_become_json_leave_the_last_value_that_parsed(caplog):
    with caplog.at_level(logging.WARNING, logger="copilot_ui.protocol"):
        _, thread = states_while_feeding([run_started(), predict(), *streamed_call(pieces=['{"document": "Once"', ", ]"])])
    assert thread.state == {"document": "Once"}
    assert any("not JSON" in record.getMessage() for record in caplog.records)


def test_an_entry_that_is_not_a_mapping_is_skipped_with_a_warning(caplog):
    value = [{"state_key": "document"}, "document", *WRITE_DOCUMENT]
    with caplog.at_level(logging.WARNING, logger="copilot_ui.protocol"):
        seen, _ = states_while_feeding([run_started(), predict(value), *streamed_call()])
    assert seen[-1] == 'Once upon a time, there was a dog named "Rex".'
    assert sum("PredictState: skipping" in record.getMessage() for record in caplog.records) == 2


def test_a_state_that_is_not_an_object_is_left_alone_with_one_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="copilot_ui.protocol"):
        seen, _ = states_while_feeding([run_started(), predict(), *streamed_call()], state=["a", "list"])
    assert all(value == ["a", "list"] for value in seen)
    assert sum("not an object" in record.getMessage() for record in caplog.records) == 1


def test_the_prediction_is_sent_back_with_the_thread():
    _, thread = states_while_feeding([run_started(), predict(), *streamed_call()])
    assert json.loads(json.dumps(thread.to_json()))["state"]["document"].startswith("Once upon a time")
