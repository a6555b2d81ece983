"""The ag-ui-validate conformance fixtures replayed through copilot_ui.protocol.replay.

Valid fixtures replay into the thread the stream describes. Invalid fixtures that break a sequence
rule of the reference client are rejected with the fixture's rule code at the fixture's event;
where the reference client deliberately behaves otherwise, the table below says what we promise.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import ag_ui_validate
import jsonpatch
import pytest

from copilot_ui.protocol import ProtocolError, Rule, replay

FIXTURES = Path(ag_ui_validate.__file__).parent / "spec" / "fixtures"
VALID = sorted((FIXTURES / "valid").glob("*.jsonl"))
INVALID = sorted(path for path in (FIXTURES / "invalid").iterdir() if path.is_dir())

# Rejected as ag-ui-validate reports them: the fixture's rule code, at the fixture's event index.
REJECTED_AS_EXPECTED = {
    "AGUI001", "AGUI002", "AGUI003", "AGUI004", "AGUI006", "AGUI007",
    "AGUI101", "AGUI102", "AGUI103", "AGUI106",
    "AGUI201", "AGUI202", "AGUI203",
    "AGUI303",  # an unknown patch op: the STATE_DELTA is not an RFC 6902 patch (rule invalid-patch)
    "AGUI401", "AGUI402",
    "AGUI502", "AGUI504",
    "AGUI601", "AGUI602", "AGUI603", "AGUI604", "AGUI605", "AGUI606",
}  # fmt: skip

# The reference client lets a closed id be opened again; these streams never close the re-opened
# message or call, so the RUN_FINISHED that follows is what breaks a rule.
REJECTED_AT_RUN_FINISHED = {
    "AGUI104": Rule.TEXT_UNTERMINATED,
    "AGUI205": Rule.TOOL_UNTERMINATED,
}

# Findings of ag-ui-validate that the reference client does not treat as errors.
ACCEPTED = {
    "AGUI005": "a late RUN_ERROR after RUN_FINISHED is accepted",
    "AGUI008": "run ids are not compared",
    "AGUI105": "an empty delta is a keep-alive",
    "AGUI204": "arguments are not required to parse when the call ends",
    "AGUI206": "a result may arrive before its call ends",
    "AGUI207": "a result for an unknown call is appended",
    "AGUI208": "an unknown parent gets an assistant message of that id",
    "AGUI301": "a delta may come before any snapshot",
    "AGUI302": "a delta that fails leaves the state unchanged and records a warning",
    "AGUI304": "a snapshot may replace state built from deltas",
    "AGUI305": "shared state is an optional feature",
    "AGUI503": "an unknown event type is skipped with a logged warning",
    "AGUI901": "RAW may wrap anything",
    "AGUI902": "timestamps are optional",
    "AGUI903": "CUSTOM names need no namespace",
}

# Transport checks (framing, content type, timing, connection) that have no recorded stream.
TRANSPORT_ONLY = {"AGUI501", "AGUI505", "AGUI506", "AGUI507", "AGUI508"}


def code_of(fixture: Path) -> str:
    return fixture.name.split("-", 1)[0]


def fixtures_with(codes) -> list[Path]:
    return [fixture for fixture in INVALID if code_of(fixture) in codes]


def events_of(stream: Path) -> list[dict]:
    return [json.loads(line) for line in stream.read_text(encoding="utf-8").splitlines() if line.strip()]


def expected_finding(fixture: Path) -> dict:
    findings = json.loads((fixture / "expected.json").read_text(encoding="utf-8"))
    return next(finding for finding in findings if finding["rule"] == code_of(fixture))


def test_every_invalid_fixture_is_classified_once():
    tables = [REJECTED_AS_EXPECTED, set(REJECTED_AT_RUN_FINISHED), set(ACCEPTED), TRANSPORT_ONLY]
    codes = [code_of(fixture) for fixture in INVALID]
    unclassified = [code for code in codes if not any(code in table for table in tables)]
    assert not unclassified, f"new ag-ui-validate fixtures; say what the client promises for them: {unclassified}"
    twice = [code for code in codes if sum(code in table for table in tables) > 1]
    assert not twice
    assert set().union(*tables) == set(codes), "the table names fixtures that no longer exist"


def test_there_are_valid_fixtures_to_replay():
    assert len(VALID) >= 5


@pytest.mark.parametrize("fixture", fixtures_with(TRANSPORT_ONLY), ids=code_of)
def test_transport_only_fixtures_have_no_stream_to_replay(fixture):
    assert not (fixture / "stream.jsonl").exists()


@pytest.mark.parametrize("stream", VALID, ids=lambda path: path.stem)
def test_valid_fixture_replays_into_the_thread_it_describes(stream):
    thread = replay(stream)
    events = events_of(stream)
    messages = {message["id"]: message for message in thread.to_json()["messages"]}

    texts, arguments_by_call = streamed_texts(events), streamed_arguments(events)
    assert texts or arguments_by_call, "every valid fixture streams a message or a tool call"
    for message_id, text in texts.items():
        assert messages[message_id]["content"] == text

    calls = {call["id"]: call for message in messages.values() for call in message.get("toolCalls", [])}
    for call_id, arguments in arguments_by_call.items():
        assert calls[call_id]["function"]["arguments"] == arguments
        json.loads(arguments)

    for result in (event for event in events if event["type"] == "TOOL_CALL_RESULT"):
        assert messages[result["messageId"]]["role"] == "tool"
        assert messages[result["messageId"]]["toolCallId"] == result["toolCallId"]

    assert thread.state == state_by_oracle(events)
    if any(event["type"] == "STATE_SNAPSHOT" for event in events):
        assert thread.state

    last_finish = [event for event in events if event["type"] == "RUN_FINISHED"][-1]
    assert thread.outcome is not None
    assert thread.outcome.kind == last_finish.get("outcome", {}).get("type", "success")
    assert not thread.warnings


@pytest.mark.parametrize("fixture", fixtures_with(REJECTED_AS_EXPECTED), ids=code_of)
def test_invalid_fixture_is_rejected_with_its_rule_at_its_event(fixture):
    stream = fixture / "stream.jsonl"
    expected = expected_finding(fixture)

    with pytest.raises(ProtocolError) as caught:
        replay(stream)

    error = caught.value
    assert error.rule.code == expected["rule"]
    if expected["rule"] == "AGUI003":  # reported at the end of the stream, after its last event
        assert error.index == len(events_of(stream))
    else:
        assert error.index == expected["eventIndex"]


def test_invalid_patch_document_is_rejected_as_invalid_patch():
    (fixture,) = fixtures_with({"AGUI303"})
    with pytest.raises(ProtocolError) as caught:
        replay(fixture / "stream.jsonl")
    assert caught.value.rule is Rule.INVALID_PATCH
    assert caught.value.event_type == "STATE_DELTA"


@pytest.mark.parametrize("fixture", fixtures_with(REJECTED_AT_RUN_FINISHED), ids=code_of)
def test_reopened_id_never_closed_is_rejected_at_run_finished(fixture):
    stream = fixture / "stream.jsonl"
    events = events_of(stream)
    finish_index = max(index for index, event in enumerate(events) if event["type"] == "RUN_FINISHED")

    with pytest.raises(ProtocolError) as caught:
        replay(stream)

    assert caught.value.rule is REJECTED_AT_RUN_FINISHED[code_of(fixture)]
    assert caught.value.index == finish_index
    assert caught.value.event_type == "RUN_FINISHED"


@pytest.mark.parametrize("fixture", fixtures_with(ACCEPTED), ids=code_of)
def test_fixture_the_reference_client_accepts_replays_cleanly(fixture):
    thread = replay(fixture / "stream.jsonl")
    assert thread.outcome is not None


def test_state_delta_that_fails_leaves_the_state_and_records_a_warning():
    (fixture,) = fixtures_with({"AGUI302"})
    events = events_of(fixture / "stream.jsonl")
    snapshot = next(event["snapshot"] for event in events if event["type"] == "STATE_SNAPSHOT")

    thread = replay(fixture / "stream.jsonl")

    assert thread.state == snapshot
    assert any("STATE_DELTA" in warning for warning in thread.warnings)


def test_unknown_event_type_is_skipped_with_a_logged_warning(caplog):
    (fixture,) = fixtures_with({"AGUI503"})
    with caplog.at_level(logging.WARNING, logger="copilot_ui.protocol"):
        thread = replay(fixture / "stream.jsonl")
    assert thread.outcome is not None
    assert thread.outcome.kind == "success"
    assert any("AGUI_PING" in record.getMessage() for record in caplog.records)


# What the stream says the thread holds, read straight from the events.


def streamed_texts(events) -> dict[str, str]:
    texts: dict[str, str] = {}
    chunk_id = None
    for event in events:
        kind = event["type"]
        if kind in ("TEXT_MESSAGE_START", "REASONING_MESSAGE_START"):
            texts.setdefault(event["messageId"], "")
        elif kind in ("TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT"):
            texts[event["messageId"]] += event["delta"]
        elif kind == "TEXT_MESSAGE_CHUNK":
            chunk_id = event.get("messageId", chunk_id)
            texts[chunk_id] = texts.get(chunk_id, "") + event.get("delta", "")
    return texts


def streamed_arguments(events) -> dict[str, str]:
    arguments: dict[str, str] = {}
    for event in events:
        if event["type"] == "TOOL_CALL_START":
            arguments.setdefault(event["toolCallId"], "")
        elif event["type"] == "TOOL_CALL_ARGS":
            arguments[event["toolCallId"]] += event["delta"]
    return arguments


def state_by_oracle(events):
    state: object = {}
    for event in events:
        if event["type"] == "STATE_SNAPSHOT":
            state = event["snapshot"]
        elif event["type"] == "STATE_DELTA":
            state = jsonpatch.apply_patch(state, event["delta"])
    return state
