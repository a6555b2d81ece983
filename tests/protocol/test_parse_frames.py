"""One frame of a stream to one typed event: parse_event, and how it treats what it does not expect."""

from __future__ import annotations

import json
import logging

import pytest
from ag_ui.core import EventType, TextMessageContentEvent

from copilot_ui.protocol import ProtocolError, Rule, parse_event


def test_camel_case_json_frame_becomes_a_typed_event():
    event = parse_event('{"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hi"}')
    assert isinstance(event, TextMessageContentEvent)
    assert (event.message_id, event.delta) == ("m1", "Hi")


def test_frame_may_be_bytes_or_an_already_decoded_object():
    frame = {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "é"}
    assert parse_event(json.dumps(frame).encode()) == parse_event(frame)


@pytest.mark.parametrize(
    "frame",
    [
        '{"type": "AGUI_PING"}',
        {"type": "ACME_PROGRESS", "percent": 40},
        '{"type": "THINKING_STEP"}',
    ],
    ids=["unknown-type", "vendor-extension", "thinking-like-but-never-an-ag-ui-type"],
)
def test_event_of_unknown_type_is_skipped_with_a_logged_warning(frame, caplog):
    name = frame["type"] if isinstance(frame, dict) else json.loads(frame)["type"]
    with caplog.at_level(logging.WARNING, logger="copilot_ui.protocol"):
        assert parse_event(frame) is None
    assert any(name in record.getMessage() for record in caplog.records)


def test_unknown_fields_of_a_known_event_are_kept():
    event = parse_event('{"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hi", "vendorHint": {"tone": "warm"}}')
    assert event.vendorHint == {"tone": "warm"}
    assert event.model_dump(by_alias=True)["vendorHint"] == {"tone": "warm"}
    assert json.loads(event.model_dump_json(by_alias=True))["vendorHint"] == {"tone": "warm"}


@pytest.mark.parametrize(
    ("frame", "field"),
    [
        ({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": 5}, "delta"),
        ({"type": "TOOL_CALL_START", "toolCallId": "c1"}, "toolCallName"),
        ({"type": "RUN_STARTED", "threadId": "t1", "runId": ["r1"]}, "runId"),
    ],
    ids=["delta-is-a-number", "tool-call-name-missing", "run-id-is-a-list"],
)
def test_known_field_of_the_wrong_type_is_a_schema_error_naming_it(frame, field):
    with pytest.raises(ProtocolError) as caught:
        parse_event(json.dumps(frame))
    assert caught.value.rule is Rule.SCHEMA
    assert caught.value.event_type == frame["type"]
    assert f"{field}:" in str(caught.value)


def test_event_without_a_string_type_is_a_schema_error():
    with pytest.raises(ProtocolError) as caught:
        parse_event('{"messageId": "m1", "delta": "Hi"}')
    assert caught.value.rule is Rule.SCHEMA


@pytest.mark.parametrize(
    "frame",
    ['{"type": broken', "", "data: {}", b"\xff\xfe", "[1, 2]", "42", '"TEXT_MESSAGE_CONTENT"', "null"],
    ids=["broken-json", "empty", "sse-line", "not-utf8", "array", "number", "string", "null"],
)
def test_frame_that_is_not_a_json_object_is_a_not_json_error(frame):
    with pytest.raises(ProtocolError) as caught:
        parse_event(frame)
    assert caught.value.rule is Rule.NOT_JSON


def test_patch_with_an_unknown_operation_is_an_invalid_patch():
    with pytest.raises(ProtocolError) as caught:
        parse_event('{"type": "STATE_DELTA", "delta": [{"op": "merge", "path": "/a", "value": 1}]}')
    assert caught.value.rule is Rule.INVALID_PATCH
    assert caught.value.event_type == EventType.STATE_DELTA.value
