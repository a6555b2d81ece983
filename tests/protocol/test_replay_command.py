"""`python -m copilot_ui replay FILE`: a recorded stream verified, applied and printed as the thread."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from ag_ui.core import (
    StateDeltaEvent,
    StateSnapshotEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallResultEvent,
    ToolCallStartEvent,
)
from ag_ui.encoder import EventEncoder

import copilot_ui

from ._streams import in_one_run

PROJECT = Path(copilot_ui.__file__).resolve().parents[1]

STREAM = in_one_run(
    StateSnapshotEvent(snapshot={"city": None}),
    TextMessageStartEvent(message_id="m1", role="assistant"),
    TextMessageContentEvent(message_id="m1", delta="Checking "),
    TextMessageContentEvent(message_id="m1", delta="Paris."),
    TextMessageEndEvent(message_id="m1"),
    ToolCallStartEvent(tool_call_id="c1", tool_call_name="get_weather", parent_message_id="m1"),
    ToolCallArgsEvent(tool_call_id="c1", delta='{"city": "Paris"}'),
    ToolCallEndEvent(tool_call_id="c1"),
    ToolCallResultEvent(message_id="r1", tool_call_id="c1", content="21°C"),
    StateDeltaEvent(delta=[{"op": "replace", "path": "/city", "value": "Paris"}]),
)


def replay_command(path):
    return subprocess.run(
        [sys.executable, "-m", "copilot_ui", "replay", str(path)],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        timeout=120,
    )


def write_jsonl(path, events):
    path.write_text("".join(event.model_dump_json(by_alias=True) + "\n" for event in events), encoding="utf-8")
    return path


def write_sse(path, events):
    encoder = EventEncoder()
    path.write_text("".join(encoder.encode(event) for event in events), encoding="utf-8")
    return path


@pytest.mark.parametrize("write", [write_jsonl, write_sse], ids=["jsonl", "sse"])
def test_replay_prints_the_thread_as_camel_case_json(tmp_path, write):
    path = write(tmp_path / f"run.{'jsonl' if write is write_jsonl else 'sse'}", STREAM)

    done = replay_command(path)

    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert printed == {
        "messages": [
            {
                "id": "m1",
                "role": "assistant",
                "content": "Checking Paris.",
                "toolCalls": [
                    {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
                ],
            },
            {"id": "r1", "role": "tool", "content": "21°C", "toolCallId": "c1"},
        ],
        "state": {"city": "Paris"},
    }


def test_jsonl_and_sse_recordings_of_one_stream_print_the_same(tmp_path):
    from_jsonl = replay_command(write_jsonl(tmp_path / "run.jsonl", STREAM))
    from_sse = replay_command(write_sse(tmp_path / "run.sse", STREAM))
    assert from_jsonl.returncode == from_sse.returncode == 0
    assert from_jsonl.stdout == from_sse.stdout


def test_stream_breaking_a_rule_exits_1_naming_the_rule_and_the_event(tmp_path):
    path = tmp_path / "broken.jsonl"
    offending = '{"type":"TEXT_MESSAGE_CONTENT","messageId":"ghost","delta":"boo"}'
    path.write_text('{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n' + offending + "\n", encoding="utf-8")

    done = replay_command(path)

    assert done.returncode == 1
    assert done.stdout == ""
    assert "text-without-start" in done.stderr
    assert "AGUI101" in done.stderr
    assert "event 1" in done.stderr or "event #1" in done.stderr
    assert "TEXT_MESSAGE_CONTENT" in done.stderr
    event_lines = [line for line in done.stderr.splitlines() if "ghost" in line and "{" in line]
    assert any(json.loads(line[line.index("{") :]) == json.loads(offending) for line in event_lines), done.stderr


def test_frame_that_is_not_json_exits_1_showing_the_frame(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text('{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n{"type": broken\n', encoding="utf-8")

    done = replay_command(path)

    assert done.returncode == 1
    assert done.stdout == ""
    assert "not-json" in done.stderr
    assert "AGUI502" in done.stderr
    assert '{"type": broken' in done.stderr
    assert "" not in done.stderr.splitlines(), "no stray blank lines in the report"


def test_recording_with_bytes_that_are_not_utf8_is_decoded_as_a_live_stream_would_be(tmp_path):
    path = tmp_path / "latin1.jsonl"
    lines = [
        b'{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}',
        b'{"type":"TEXT_MESSAGE_START","messageId":"m1"}',
        b'{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"caf\xe9"}',
        b'{"type":"TEXT_MESSAGE_END","messageId":"m1"}',
        b'{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}',
    ]
    path.write_bytes(b"\n".join(lines) + b"\n")

    done = replay_command(path)

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["messages"][0]["content"] == "caf\ufffd"


def test_stream_left_open_exits_1_at_the_end_of_the_stream(tmp_path):
    path = write_jsonl(tmp_path / "cut.jsonl", STREAM[:4])

    done = replay_command(path)

    assert done.returncode == 1
    assert done.stdout == ""
    assert "run-not-terminated" in done.stderr
    assert "AGUI003" in done.stderr


def test_missing_file_is_a_clear_error(tmp_path):
    path = tmp_path / "no-such-recording.jsonl"

    done = replay_command(path)

    assert done.returncode != 0
    assert done.stdout == ""
    assert "no-such-recording.jsonl" in done.stderr
    assert "Traceback" not in done.stderr
    assert "No such file" in done.stderr or "cannot read" in done.stderr
