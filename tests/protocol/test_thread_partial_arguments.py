"""A tool call's arguments while they stream: thread.partial_arguments parses them as far as they go."""

from __future__ import annotations

import json

import pytest
from ag_ui.core import ToolCallArgsEvent, ToolCallEndEvent, ToolCallStartEvent

from copilot_ui.protocol import AGUIThread, EventPipeline

from ._streams import run_finished, run_started

STREAMS = [
    pytest.param(
        ['{"city": "Pa', 'ris", "days": ', "3}"],
        [{"city": "Pa"}, {"city": "Paris"}, {"city": "Paris", "days": 3}],
        id="string-then-number",
    ),
    pytest.param(
        ['{"stops": [', '{"name": "Lyon"}, ', '{"name": "Ni', 'ce"}]}'],
        [
            {"stops": []},
            {"stops": [{"name": "Lyon"}]},
            {"stops": [{"name": "Lyon"}, {"name": "Ni"}]},
            {"stops": [{"name": "Lyon"}, {"name": "Nice"}]},
        ],
        id="array-of-objects",
    ),
    pytest.param(
        ["{", '"query"', ': "caf', 'é \\"au lait\\""', "}"],
        [{}, {}, {"query": "caf"}, {"query": 'café "au lait"'}, {"query": 'café "au lait"'}],
        id="key-before-its-value-and-escapes",
    ),
]


def streaming_call():
    thread = AGUIThread()
    pipeline = EventPipeline(thread)
    pipeline.feed(run_started())
    pipeline.feed(ToolCallStartEvent(tool_call_id="c1", tool_call_name="plan_trip"))
    return thread, pipeline


@pytest.mark.parametrize(("deltas", "after_each"), STREAMS)
def test_partial_arguments_follow_every_delta(deltas, after_each):
    thread, pipeline = streaming_call()
    seen = []
    for delta in deltas:
        pipeline.feed(ToolCallArgsEvent(tool_call_id="c1", delta=delta))
        seen.append(thread.partial_arguments("c1"))
    assert seen == after_each


@pytest.mark.parametrize(("deltas", "after_each"), STREAMS)
def test_arguments_are_the_exact_concatenation_and_parse_whole_at_the_end(deltas, after_each):
    thread, pipeline = streaming_call()
    for delta in deltas:
        pipeline.feed(ToolCallArgsEvent(tool_call_id="c1", delta=delta))
    pipeline.feed(ToolCallEndEvent(tool_call_id="c1"))
    pipeline.feed(run_finished())
    assert thread.tool_call("c1").function.arguments == "".join(deltas)
    assert thread.partial_arguments("c1") == json.loads("".join(deltas))


def test_arguments_read_between_deltas_still_join_exactly():
    thread, pipeline = streaming_call()
    for delta in ['{"a"', ": [1,", " 2]}"]:
        pipeline.feed(ToolCallArgsEvent(tool_call_id="c1", delta=delta))
        thread.partial_arguments("c1")
        thread.to_json()
    assert thread.tool_call("c1").function.arguments == '{"a": [1, 2]}'


def test_partial_arguments_are_empty_before_any_argument_arrives():
    thread, _ = streaming_call()
    assert thread.partial_arguments("c1") == {}


def test_partial_arguments_of_an_unknown_call_are_none():
    thread, _ = streaming_call()
    assert thread.partial_arguments("no-such-call") is None
