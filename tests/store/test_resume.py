"""A stored thread resumes where it stopped: a call waiting for approval, an interrupt, a decision, the tools' order."""

from __future__ import annotations

from ag_ui.core import AssistantMessage, FunctionCall, Interrupt, ToolCall, ToolCallResultEvent

from copilot_ui.agents import ScriptedAgent
from copilot_ui.agents import scripts as s
from copilot_ui.core import Answer, Approve, RunLoop, Thread, Toolbox, tool_from_function


def refund(order_id: int) -> str:
    """Refund an order."""
    return f"refunded {order_id}"


def tools() -> Toolbox:
    return Toolbox([tool_from_function(refund, approval="always")])


async def test_a_thread_waiting_for_approval_resumes_in_a_new_store(store, open_store):
    thread = Thread(store.create("alice", agent="default").id)
    loop = RunLoop(ScriptedAgent(s.tool_calls_reply(("refund", {"order_id": 7}, "c1"))), tools(), ask_person=True)
    assert (await loop.send(thread, "refund order 7")).status == "waiting"
    store.save("alice", thread)

    restored = open_store().load("alice", thread.id)  # after a restart
    assert [call.id for call in restored.unanswered_calls()] == ["c1"]
    after_restart = RunLoop(ScriptedAgent(s.text_reply("Refunded.")), tools(), ask_person=True)
    assert after_restart.decide(restored, "c1", Approve(), restored.awaiting["c1"].digest)
    assert (await after_restart.resume(restored)).status == "done"
    assert [m.content for m in restored.messages if m.role == "tool"] == ["refunded 7"]
    assert restored.messages[-1].content == "Refunded."


async def test_a_decision_taken_before_the_restart_is_kept(store, open_store):
    thread = Thread(store.create("alice", agent="default").id)
    loop = RunLoop(ScriptedAgent(s.tool_calls_reply(("refund", {"order_id": 7}, "c1"))), tools(), ask_person=True)
    await loop.send(thread, "refund order 7")
    assert loop.decide(
        thread, "c1", Approve({"order_id": 8}), thread.awaiting["c1"].digest
    )  # approved with edited arguments, then the server stops
    store.save("alice", thread)

    restored = open_store().load("alice", thread.id)
    assert restored.decisions == {"c1": Approve({"order_id": 8})}
    assert (await RunLoop(ScriptedAgent(s.text_reply("Done.")), tools(), ask_person=True).resume(restored)).status == "done"
    assert [m.content for m in restored.messages if m.role == "tool"] == ["refunded 8"]


async def test_an_agent_interrupt_waiting_for_a_person_resumes_in_a_new_store(store, open_store):
    interrupt = Interrupt(id="int-1", reason="tool_call", tool_call_id="c1", message="Delete demo.txt?")
    first = s.interrupt_reply(interrupt, body=s.tool_call("delete_file", {"path": "demo.txt"}, call_id="c1"))
    thread = Thread(store.create("alice", agent="default").id)
    assert (await RunLoop(ScriptedAgent(first), ask_person=True).send(thread, "delete demo.txt")).status == "waiting"
    store.save("alice", thread)

    restored = open_store().load("alice", thread.id)
    assert [i.id for i in restored.interrupts] == ["int-1"]
    resumed = s.run(ToolCallResultEvent(message_id="r1", tool_call_id="c1", content="deleted demo.txt"), s.text("Deleted."))
    agent = ScriptedAgent(resumed)
    loop = RunLoop(agent, ask_person=True)
    assert loop.decide(restored, "c1", Approve(), restored.awaiting["c1"].digest)
    assert (await loop.resume(restored)).status == "done"
    assert agent.inputs[0].resume[0].interrupt_id == "int-1"
    assert restored.interrupts == []


def test_the_bookkeeping_comes_back_whole(store, open_store):
    thread = Thread(store.create("alice", agent="default").id)
    thread.add_user_message("plan my trip")
    thread.decisions = {"c1": Approve(), "c2": Answer({"city": "Paris"})}
    thread.turn.agent_runs, thread.turn.same_call_streak, thread.turn.follow_up_due = 3, 2, True
    thread.interrupts = [Interrupt(id="int-9", reason="input_required", message="Which city?")]
    store.save("alice", thread)
    assert open_store().load("alice", thread.id).bookkeeping_json() == thread.bookkeeping_json()


def test_tool_calls_and_their_results_keep_their_order(store, open_store):
    thread = Thread(store.create("alice", agent="default").id)
    thread.add_user_message("look up three orders")
    calls = [ToolCall(id=f"c{n}", function=FunctionCall(name="lookup", arguments=f'{{"order": {n}}}')) for n in range(3)]
    thread.add_message(AssistantMessage(id="calls", content="Looking them up.", tool_calls=calls))
    for call_id in ("c2", "c0", "c1"):  # finished out of order; results stand in call order
        thread.add_tool_result(call_id, f"order of {call_id}", message_id=f"r-{call_id}")
        store.save("alice", thread)
    thread.add_message(AssistantMessage(id="summary", content="All three found."))
    store.save("alice", thread)

    loaded = open_store().load("alice", thread.id)
    assert [m.id for m in loaded.messages][1:] == ["calls", "r-c0", "r-c1", "r-c2", "summary"]
    assert [call.id for call in loaded.messages[1].tool_calls] == ["c0", "c1", "c2"]
    assert [(m.tool_call_id, m.content) for m in loaded.messages if m.role == "tool"] == [
        ("c0", "order of c0"),
        ("c1", "order of c1"),
        ("c2", "order of c2"),
    ]
    assert loaded.unanswered_calls() == []
