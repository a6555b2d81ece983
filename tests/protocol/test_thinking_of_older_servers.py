"""THINKING_* events of servers older than AG-UI 1.0: read as the reasoning they stand for, as the reference
client's compatibility boundary reads them (REASONING_*), instead of being skipped."""

from __future__ import annotations

import json
import logging

import pytest
from ag_ui.core import EventType

from copilot_ui.protocol import EventParser, Rule, parse_event, replay

from ._streams import feed, rejection

THOUGHT = [
    {"type": "THINKING_START", "title": "Looking at the sales"},
    {"type": "THINKING_TEXT_MESSAGE_START"},
    {"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": "Berlin sold "},
    {"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": "the most."},
    {"type": "THINKING_TEXT_MESSAGE_END"},
    {"type": "THINKING_END"},
]
REPLY = [
    {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Berlin leads."},
    {"type": "TEXT_MESSAGE_END", "messageId": "m1"},
]


def older_run(*events):
    return [
        {"type": "RUN_STARTED", "threadId": "thread-1", "runId": "run-1"},
        *events,
        {"type": "RUN_FINISHED", "threadId": "thread-1", "runId": "run-1"},
    ]


def test_a_thought_of_an_older_server_becomes_a_reasoning_message_before_the_reply():
    thread = feed([json.dumps(frame) for frame in older_run(*THOUGHT, *REPLY)])
    messages = thread.to_json()["messages"]
    assert [(message["role"], message["content"]) for message in messages] == [
        ("reasoning", "Berlin sold the most."),
        ("assistant", "Berlin leads."),
    ]


def test_each_thinking_event_is_read_as_its_reasoning_event():
    parser = EventParser()
    events = [parser.parse(frame) for frame in THOUGHT]
    assert [event.type for event in events] == [
        EventType.REASONING_START,
        EventType.REASONING_MESSAGE_START,
        EventType.REASONING_MESSAGE_CONTENT,
        EventType.REASONING_MESSAGE_CONTENT,
        EventType.REASONING_MESSAGE_END,
        EventType.REASONING_END,
    ]
    span, message = events[0].message_id, events[1].message_id
    assert span != message
    assert {event.message_id for event in events[1:5]} == {message}
    assert events[5].message_id == span
    assert events[1].role == "reasoning"
    assert [event.delta for event in events[2:4]] == ["Berlin sold ", "the most."]


def test_a_second_thought_gets_ids_of_its_own():
    parser = EventParser()
    first = [parser.parse(frame) for frame in THOUGHT]
    second = [parser.parse(frame) for frame in THOUGHT]
    assert first[1].message_id != second[1].message_id
    thread = feed([json.dumps(frame) for frame in older_run(*THOUGHT, *THOUGHT)])
    assert [message["content"] for message in thread.to_json()["messages"]] == ["Berlin sold the most."] * 2


def test_the_thinking_events_keep_their_other_fields_and_lose_the_title():
    event = parse_event({"type": "THINKING_START", "title": "Looking", "timestamp": 1700000000000, "rawEvent": {"a": 1}})
    assert event.type is EventType.REASONING_START
    assert (event.timestamp, event.raw_event) == (1700000000000, {"a": 1})
    assert "title" not in event.model_dump(by_alias=True)


def test_the_translation_is_logged_once_per_stream(caplog):
    parser = EventParser()
    with caplog.at_level(logging.WARNING, logger="copilot_ui.protocol"):
        for frame in THOUGHT:
            parser.parse(frame)
    assert len([record for record in caplog.records if "before 1.0" in record.getMessage()]) == 1


def test_thinking_content_without_an_opener_names_nothing_opened_and_is_rejected():
    error = rejection(older_run({"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": "hm"}))
    assert error.rule is Rule.REASONING_WITHOUT_START
    assert error.index == 1


def test_a_thinking_event_with_a_field_of_the_wrong_type_is_a_schema_error_naming_it():
    error = rejection(older_run({"type": "THINKING_TEXT_MESSAGE_START"}, {"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": 5}))
    assert error.rule is Rule.SCHEMA
    assert error.event_type == "THINKING_TEXT_MESSAGE_CONTENT"
    assert "delta:" in str(error)


def test_a_recorded_stream_of_an_older_server_replays_with_its_reasoning(tmp_path):
    recording = tmp_path / "older.sse"
    recording.write_text("".join(f"data: {json.dumps(frame)}\n\n" for frame in older_run(*THOUGHT, *REPLY)))
    thread = replay(recording)
    assert thread.to_json()["messages"][0] == {
        "id": thread.messages[0].id,
        "role": "reasoning",
        "content": "Berlin sold the most.",
    }


@pytest.mark.parametrize("frame", [{"type": "THINKING_START"}, {"type": "THINKING_END"}])
def test_parse_event_alone_reads_a_thinking_frame_too(frame):
    assert parse_event(json.dumps(frame)).type.value.startswith("REASONING_")
