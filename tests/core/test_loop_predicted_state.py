"""Predictive state in the loop, on hand-made streams: subscribers see the state's key follow a tool's argument
while it streams, and the agent's next run is sent the state as the prediction left it."""

from __future__ import annotations

import asyncio

from ag_ui.core import CustomEvent, RunFinishedSuccessOutcome, StateDeltaEvent, StateSnapshotEvent, ToolCallArgsEvent

from copilot_ui.agents import scripts as s
from copilot_ui.core import Thread

from .conftest import make_loop, reply_with_results

PREDICT = CustomEvent(
    name="PredictState", value=[{"state_key": "document", "tool": "write_document", "tool_argument": "document"}]
)
TEXT = "Rex was a very good dog, and everyone on the street knew it."


def writing(text: str = TEXT):
    call = s.tool_call("write_document", {"document": text}, call_id="call-write", pieces=12)
    return s.run(PREDICT, call, outcome=RunFinishedSuccessOutcome(pending_tool_call_ids=["call-write"]))


async def test_subscribers_see_the_document_grow_while_the_agent_writes_it():
    async def write_document(document: str) -> str:
        """Write the document."""
        return "written"

    thread = Thread(state={"document": "My draft."})
    seen = []
    loop, _, recorder = make_loop(writing(), reply_with_results(), tools=[write_document])
    loop.emit = lambda event: (recorder(event), isinstance(event, ToolCallArgsEvent) and seen.append(thread.state["document"]))
    await asyncio.wait_for(loop.send(thread, "write about Rex"), 5)

    grown = [text for text in dict.fromkeys(seen) if text not in ("", "My draft.")]
    assert len(grown) >= 8  # a piece at a time (the first pieces hold the key, not yet words)
    assert all(TEXT.startswith(text) for text in grown)
    assert grown[-1] == TEXT
    assert thread.state == {"document": TEXT}
    # nothing said STATE_SNAPSHOT or STATE_DELTA: the arguments moved the state
    assert not recorder.of(StateSnapshotEvent) and not recorder.of(StateDeltaEvent)


async def test_the_agents_next_run_is_sent_the_predicted_state():
    async def write_document(document: str) -> str:
        """Write the document."""
        return "written"

    thread = Thread(state={"document": "My draft.", "title": "Rex"})
    loop, agent, _ = make_loop(writing(), reply_with_results(), tools=[write_document])
    await asyncio.wait_for(loop.send(thread, "write about Rex"), 5)

    assert agent.inputs[0].state == {"document": "My draft.", "title": "Rex"}
    assert agent.inputs[1].state == {"document": TEXT, "title": "Rex"}
