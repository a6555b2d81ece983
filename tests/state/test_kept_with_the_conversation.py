"""What the conversation shows of an agent's activities and of a provisional predictive state update is kept with
it in the store: a conversation opened again (another tab, a restart) shows each activity as it was, and the person
can still reject what a prediction wrote."""

from __future__ import annotations

import asyncio
import json

from ag_ui.core import ActivityDeltaEvent, ActivitySnapshotEvent, AssistantMessage, FunctionCall, ToolCall, ToolMessage

from copilot_ui.agents import ScriptedAgent
from copilot_ui.agents import scripts as s
from copilot_ui.core import RunLoop, Thread
from copilot_ui.state import Labels
from copilot_ui.state.turns import Keeper, resumed, written
from copilot_ui.state.view import Conversation
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


def test_a_call_the_agent_ran_itself_and_that_failed_shows_as_failed():
    thread = Thread("thread-1")
    call = FunctionCall(name="erase_notes", arguments="{}")
    thread.add_message(AssistantMessage(id="a1", tool_calls=[ToolCall(id="c1", function=call)]))
    failed = json.dumps({"pydantic_ai": {"outcome": "failed"}})  # what pydantic-ai's AG-UI adapter sends
    thread.add_message(ToolMessage(id="r1", tool_call_id="c1", content="the server stopped", encrypted_value=failed))
    thread.add_message(AssistantMessage(id="a2", tool_calls=[ToolCall(id="c2", function=call)]))
    thread.add_message(ToolMessage(id="r2", tool_call_id="c2", content="erased"))

    cards = [item for item in Conversation.of(thread.id).items(thread) if item["k"] == "t"]
    assert [card["s"] for card in cards] == ["error", "complete"]


def test_a_reply_kept_while_it_streamed_comes_back_with_its_words_then_the_notice(tmp_path):
    async def streaming() -> Thread:
        store = SQLThreadStore(f"sqlite:///{tmp_path / 'threads.db'}")
        keeper = Keeper(store, "alice", "default")
        thread = Thread(store.create("alice", agent="default").id)
        thread.add_user_message("tell me a story", "u1")
        conversation = Conversation.of(thread.id)
        keeper.run_starts(thread, conversation, asyncio.Event().wait)  # the agent runs after the person's message
        thread.add_message(AssistantMessage(id="m1", content=""))
        thread.append_text("m1", "Once upon a time")
        keeper.save(thread, conversation, running=True)  # while it streams: the run's start is still where it was
        thread.append_text("m1", " a keeper")  # (then the server is killed)
        await written(thread.id)
        return thread

    thread = asyncio.run(streaming())
    stored = SQLThreadStore(f"sqlite:///{tmp_path / 'threads.db'}").load_with_notes("alice", thread.id)
    reopened, conversation = resumed(stored, frozenset())
    assert [(m.id, m.content) for m in reopened.messages] == [("u1", "tell me a story"), ("m1", "Once upon a time")]
    shown = conversation.items(reopened)
    assert [item["k"] for item in shown] == ["u", "a", "e"]  # the words, then the notice, with Retry
    assert shown[-1]["retry"] == 1
    assert conversation.text_of(shown[-1]["id"], reopened) == Labels().interrupted
    assert reopened.turn.going_on  # Retry has the agent go on from them
