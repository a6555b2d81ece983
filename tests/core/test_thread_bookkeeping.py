"""The thread's bookkeeping goes through a store as JSON: a waiting thread resumes after a restart where it stopped."""

from __future__ import annotations

import json
import pickle

from ag_ui.core import Interrupt, Message
from pydantic import TypeAdapter

from copilot_ui.agents import scripts as s
from copilot_ui.core import Approve, AwaitingPerson, QueuedMessage, Thread, tool_from_function

from .conftest import make_loop, reply_with_results, results


def refund(order_id: int) -> str:
    """Refund an order."""
    return f"refunded order {order_id}"


def reloaded(thread: Thread) -> Thread:
    """The thread as a store gives it back: messages and state as AG-UI JSON, bookkeeping as JSON, in a new process."""
    saved = json.loads(json.dumps({"thread": thread.to_json(), "bookkeeping": thread.bookkeeping_json()}))
    messages = TypeAdapter(list[Message]).validate_python(saved["thread"]["messages"])
    restored = Thread(thread.id, messages, saved["thread"]["state"])
    restored.restore_bookkeeping(saved["bookkeeping"])
    return restored


async def test_a_thread_waiting_for_approval_resumes_from_its_bookkeeping_as_json(thread):
    tools = [tool_from_function(refund, approval="always")]
    loop, _, recorder = make_loop(s.tool_calls_reply(("refund", {"order_id": 7}, "c1")), tools=tools, ask_person=True)
    await loop.send(thread, "refund 7")
    (card,) = recorder.of(AwaitingPerson)  # the card the person will click on, after the restart

    restored = reloaded(thread)
    assert restored.awaiting == thread.awaiting
    after_restart, agent, _ = make_loop(reply_with_results(), tools=tools, ask_person=True)
    assert after_restart.decide(restored, "c1", Approve(), card.digest)
    assert (await after_restart.resume(restored)).status == "done"
    assert results(restored) == {"c1": "refunded order 7"}
    assert agent.inputs[0].messages[-1].content == "refunded order 7"


async def test_decisions_interrupts_queued_messages_and_the_turn_survive_the_json(thread):
    interrupt = Interrupt(id="int-1", reason="input_required", message="Which city?")
    loop, _, _ = make_loop(s.interrupt_reply(interrupt), ask_person=True)
    await loop.send(thread, "book a trip")
    thread.queued.append(QueuedMessage("m9", "and a hotel"))
    thread.turn.same_call_streak = 2

    restored = reloaded(thread)
    assert restored.interrupts == thread.interrupts
    assert restored.awaiting == thread.awaiting
    assert restored.queued == [QueuedMessage("m9", "and a hotel")]
    assert restored.turn == thread.turn
    assert restored.decide("int-1", Approve(), thread.awaiting["int-1"].digest) is False  # a question wants an answer


def test_bookkeeping_saved_by_an_older_version_loads():
    thread = Thread()
    thread.restore_bookkeeping({"decisions": {}, "turn": {"agent_runs": 2, "batch_wants_follow_up": True}, "interrupts": []})
    assert thread.turn.agent_runs == 2
    assert thread.awaiting == {} and thread.queued == []


async def test_a_thread_with_its_bookkeeping_pickles(thread):
    tools = [tool_from_function(refund, approval="always")]
    loop, _, _ = make_loop(s.tool_calls_reply(("refund", {"order_id": 7}, "c1")), tools=tools, ask_person=True)
    await loop.send(thread, "refund 7")
    thread.queued.append(QueuedMessage("m2", "quickly"))
    copy = pickle.loads(pickle.dumps(thread))
    assert copy.awaiting == thread.awaiting and copy.queued == thread.queued
    assert copy.bookkeeping_json() == thread.bookkeeping_json()
