"""What the conversation shows of an agent's activities and of a provisional predictive state update is kept with
it in the store: a conversation opened again (another tab, a restart) shows each activity as it was, and the person
can still reject what a prediction wrote."""

from __future__ import annotations

import asyncio

from ag_ui.core import ActivityDeltaEvent, ActivitySnapshotEvent

from copilot_ui.agents import ScriptedAgent
from copilot_ui.agents import scripts as s
from copilot_ui.core import RunLoop, Thread
from copilot_ui.state._view import Conversation
from copilot_ui.store import SQLThreadStore

PLAN = ActivitySnapshotEvent(message_id="plan-1", activity_type="plan", content={"steps": ["Find the orders"], "done": 0})
STEP = ActivityDeltaEvent(
    message_id="plan-1",
    activity_type="plan",
    patch=[{"op": "add", "path": "/steps/-", "value": "Refund them"}, {"op": "replace", "path": "/done", "value": 1}],
)


def test_an_activity_comes_back_from_the_store_as_the_agent_last_changed_it(tmp_path):
    database = f"sqlite:///{tmp_path / 'threads.db'}"
    store = SQLThreadStore(database)
    thread = Thread(store.create("alice", agent="default").id)
    agent = ScriptedAgent(s.run(PLAN, s.text("Planning.")), s.run(STEP, s.text("One step done.")))
    loop = RunLoop(agent)
    conversation = Conversation.of(thread.id)
    asyncio.run(loop.send(thread, "plan the refunds"))
    shown_then = conversation.items(thread)
    store.save("alice", thread, notes=conversation.to_notes())
    asyncio.run(loop.send(thread, "go on"))
    shown = conversation.items(thread)
    store.save("alice", thread, notes=conversation.to_notes())

    stored = SQLThreadStore(database).load_with_notes("alice", thread.id)  # as after a restart
    reopened = Conversation.from_notes(thread.id, stored.notes)
    assert reopened.items(stored.thread) == shown
    activity = next(item for item in shown if item["k"] == "v")
    assert activity == next(item for item in shown_then if item["k"] == "v")  # the same item, changed in place
    assert reopened.text_of(activity["id"], stored.thread) == conversation.text_of(activity["id"], thread)
    assert '"Refund them"' in reopened.text_of(activity["id"], stored.thread)


def test_a_provisional_prediction_is_kept_with_the_conversation():
    conversation = Conversation.of("thread-1")
    conversation.predicted_from = {"document": ["My draft."], "title": []}
    conversation.predicted_calls = ["call-write"]

    reopened = Conversation.from_notes("thread-1", conversation.to_notes())

    assert reopened.predicted_from == {"document": ["My draft."], "title": []}
    assert reopened.predicted_calls == ["call-write"]
