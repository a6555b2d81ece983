"""Predictive state updates against the AG-UI project's own example server for them (the dojo's
server-starter-all-features, /predictive_state_updates), replayed from its recording over HTTP: the shared
state's document grows while the agent writes it, holds the final text, and goes back to the agent."""

from __future__ import annotations

import asyncio
import itertools
import json

from ag_ui.core import ToolCallArgsEvent

from copilot_ui.agents import HttpAgent
from copilot_ui.core import Answer, AwaitingPerson, RunLoop, Thread, Toolbox, tool_from_function

from ..agui_recordings import RECORDINGS, recorded_frames
from ..hostile_agent import HostileAgent

TURN_TIMEOUT = 20.0
RECORDING = "server_starter/predictive_state_updates"
STORY = json.loads(
    "".join(
        json.loads(data)["delta"]
        for _, data in recorded_frames(RECORDINGS / f"{RECORDING}.sse")
        if json.loads(data).get("type") == "TOOL_CALL_ARGS" and json.loads(data)["delta"] != "{}"
    )
)["document"]


def document_tools() -> Toolbox:
    async def write_document_local(document: str) -> str:
        """Write the document."""
        return "Document written."

    def confirm_changes() -> None:
        """Ask the person whether to keep the changes."""

    return Toolbox([tool_from_function(write_document_local), tool_from_function(confirm_changes, kind="human")])


async def test_the_document_grows_in_the_state_as_the_dojo_server_writes_it_then_goes_back_with_the_follow_up(
    hostile: HostileAgent,
):
    seen_documents: list[str] = []
    waiting: list[AwaitingPerson] = []
    thread = Thread(state={"document": "My draft."})

    def watch(event: object) -> None:
        if isinstance(event, ToolCallArgsEvent):
            seen_documents.append(thread.state["document"])
        elif isinstance(event, AwaitingPerson):
            waiting.append(event)

    loop = RunLoop(HttpAgent(hostile.url), document_tools(), ask_person=True, emit=watch)
    outcome = await asyncio.wait_for(loop.send(thread, f"!replay {RECORDING} 0.1"), TURN_TIMEOUT)

    assert outcome.status == "waiting"
    assert STORY.startswith("Once upon a time, there was a dog named")
    growing = [document for document in dict.fromkeys(seen_documents) if document not in ("My draft.", "")]
    assert len(growing) >= 15  # one more word at a time, as the server wrote them
    assert all(STORY.startswith(document) for document in growing)
    assert all(len(before) < len(after) for before, after in itertools.pairwise(growing))
    assert thread.state["document"] == STORY

    (question,) = waiting
    assert question.tool_name == "confirm_changes"
    assert loop.decide(thread, question.call_id, Answer({"accepted": True}), question.digest)
    outcome = await asyncio.wait_for(loop.resume(thread), TURN_TIMEOUT)

    assert outcome.status == "done"
    assert thread.messages[-1].content == "Ok!"
    follow_up = hostile.requests[-1].run_input
    assert follow_up.state == {"document": STORY}
    assert json.loads(follow_up.messages[-1].content) == {"accepted": True}
