"""The cost of a predictive state update (PredictState): a key of the state follows a tool's argument per delta.

A document of 10 KB and one of 100 KB are streamed as the argument of a mapped tool in 5-character
deltas, and the same deltas of a tool no PredictState maps, for comparison. Each delta parses the
arguments so far (pydantic_core's partial JSON), so the cost per delta grows with the document.
"""

from __future__ import annotations

import json
import time

from ag_ui.core import CustomEvent, RunStartedEvent, ToolCallArgsEvent, ToolCallEndEvent, ToolCallStartEvent

from copilot_ui.protocol import AGUIThread, EventPipeline

PIECE = 5
MAPPING = [{"state_key": "document", "tool": "write_document", "tool_argument": "document"}]


def microseconds_per_delta(size: int, tool: str) -> float:
    document = ("Rex was a very good dog. " * (size // 25 + 1))[:size]
    raw = json.dumps({"document": document})
    deltas = [raw[start : start + PIECE] for start in range(0, len(raw), PIECE)]
    events = [
        CustomEvent(name="PredictState", value=MAPPING),
        ToolCallStartEvent(tool_call_id="c1", tool_call_name=tool, parent_message_id="m1"),
        *(ToolCallArgsEvent(tool_call_id="c1", delta=delta) for delta in deltas),
        ToolCallEndEvent(tool_call_id="c1"),
    ]
    best = float("inf")
    for _ in range(3):
        thread = AGUIThread(state={"document": ""})
        pipeline = EventPipeline(thread)
        pipeline.feed(RunStartedEvent(thread_id="t", run_id="r"))
        started = time.perf_counter()
        for event in events:
            pipeline.feed(event)
        best = min(best, time.perf_counter() - started)
        assert tool != "write_document" or thread.state["document"] == document
    return best / len(deltas) * 1e6


def main() -> None:
    for size, label in ((10_000, "10kb"), (100_000, "100kb")):
        print(f"predicted_delta_{label}: {microseconds_per_delta(size, 'write_document'):.2f} us")
        print(f"unpredicted_delta_{label}: {microseconds_per_delta(size, 'search'):.2f} us")
