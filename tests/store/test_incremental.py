"""A save writes what the turn changed, not the conversation: about as much at 1,000 messages as at 10."""

from __future__ import annotations

from ag_ui.core import AssistantMessage, FunctionCall, Interrupt, ToolCall, UserMessage

from copilot_ui.core import Approve, Thread
from copilot_ui.store import ThreadStore
from tests.store.meter import WriteMeter
from tests.store.threads import add_turn, stored_thread


def contents(thread: Thread) -> list[tuple[str, str, object]]:
    return [(m.id, m.role, getattr(m, "content", None)) for m in thread.messages]


def test_a_turn_writes_its_own_messages_not_the_whole_conversation(store):
    short, long = stored_thread(store, 10), stored_thread(store, 1_000)
    written = {}
    for thread in (short, long):
        add_turn(thread)
        with WriteMeter(store.engine) as meter:
            store.save("alice", thread)
        written[len(thread)] = meter
    short_turn, long_turn = written[12], written[1_002]
    assert long_turn.rows <= 3  # the two new messages, the thread's row
    assert long_turn.statements <= 2
    assert long_turn.bytes <= short_turn.bytes + 16  # the same turn costs the same (a longer count aside)
    assert long_turn.bytes < 1_000


def test_saving_an_unchanged_thread_writes_nothing(store):
    thread = stored_thread(store, 100)
    with WriteMeter(store.engine) as meter:
        store.save("alice", thread)
    assert meter.statements == 0


def test_a_tool_result_placed_behind_its_call_moves_only_the_messages_after_it(store, open_store):
    thread = stored_thread(store, 100)
    calls = [ToolCall(id=f"c{n}", function=FunctionCall(name="lookup", arguments=f'{{"n": {n}}}')) for n in range(3)]
    thread.add_message(AssistantMessage(id="calls", tool_calls=calls))
    thread.add_tool_result("c2", "third", message_id="r2")
    store.save("alice", thread)

    thread.add_tool_result("c0", "first", message_id="r0")  # goes before r2, which shifts by one
    with WriteMeter(store.engine) as meter:
        store.save("alice", thread)
    assert meter.rows == 3  # r0 inserted, r2 moved, the thread's row

    loaded = open_store().load("alice", thread.id)
    assert [m.id for m in loaded.messages[-3:]] == ["calls", "r0", "r2"]
    assert [m.id for m in loaded.messages] == [m.id for m in thread.messages]


def test_a_reply_saved_while_streaming_is_rewritten_once_complete(store, open_store):
    thread = stored_thread(store, 100)
    thread.add_message(AssistantMessage(id="live", content=""))
    thread.append_text("live", "The answer is")
    store.save("alice", thread)

    thread.append_text("live", " 42.")
    thread.end_text("live")
    with WriteMeter(store.engine) as meter:
        store.save("alice", thread)
    assert meter.rows == 2  # that message, the thread's row
    assert open_store().load("alice", thread.id).messages[-1].content == "The answer is 42."


def test_an_edited_turn_replaces_the_messages_from_the_edit_on(store, open_store):
    thread = stored_thread(store, 100)
    add_turn(thread, 1)
    add_turn(thread, 2)
    store.save("alice", thread)
    edited = thread.messages[-4]
    thread.remove_messages_from(edited.id)  # the person edits their question of turn 1
    thread.add_user_message("an edited question")
    thread.add_message(AssistantMessage(id="new-reply", content="a new answer"))
    with WriteMeter(store.engine) as meter:
        store.save("alice", thread)
    assert meter.rows <= 7  # four gone, two new, the thread's row

    loaded = open_store().load("alice", thread.id)
    assert contents(loaded) == contents(thread)
    assert len(loaded) == 102


def test_a_store_that_never_saw_the_thread_still_writes_only_the_turn(store, open_store):
    thread = stored_thread(store, 1_000)
    add_turn(thread)
    other = open_store()  # another worker, holding nothing of this thread in memory
    with WriteMeter(other.engine) as meter:
        other.save("alice", thread)
    assert meter.rows <= 3
    assert contents(open_store().load("alice", thread.id)) == contents(thread)


def test_a_save_after_another_worker_wrote_the_thread_stores_exactly_the_thread_given(store, open_store):
    thread = stored_thread(store, 10)
    other = open_store()
    theirs = other.load("alice", thread.id)
    theirs.add_user_message("written by the other worker")
    other.save("alice", theirs)

    add_turn(thread, 7)  # this worker knows nothing of that message
    store.save("alice", thread)
    assert contents(open_store().load("alice", thread.id)) == contents(thread)

    add_turn(thread, 8)  # and goes on writing only its turns
    with WriteMeter(store.engine) as meter:
        store.save("alice", thread)
    assert meter.rows <= 3


def test_the_state_is_written_when_it_changes_only(store, open_store):
    thread = stored_thread(store, 100)
    thread.state = {"rows": list(range(500))}
    store.save("alice", thread)
    add_turn(thread)
    with WriteMeter(store.engine) as meter:
        store.save("alice", thread)
    assert meter.bytes < 1_000  # the big state was not written again
    thread.state["rows"].append(500)
    with WriteMeter(store.engine) as meter:
        store.save("alice", thread)
    assert meter.rows == 1 and meter.bytes > 1_800  # the state, whole
    assert open_store().load("alice", thread.id).state == {"rows": list(range(501))}


def test_a_loaded_thread_is_saved_incrementally_too(store, open_store):
    stored_thread(store, 1_000)
    (summary,) = store.list("alice")
    again = open_store()
    thread = again.load("alice", summary.id)
    add_turn(thread)
    with WriteMeter(again.engine) as meter:
        again.save("alice", thread)
    assert meter.rows <= 3


def test_a_loaded_thread_saved_unchanged_writes_nothing(store, open_store):
    thread = stored_thread(store, 10)
    thread.add_tool_call("lookup", '{"city": "Zürich"}', call_id="c1")
    thread.add_tool_result("c1", "sunny", error=None)
    thread.state = {"city": "Zürich", "temperature": 21.5, "tags": ["a", None, True]}
    thread.decisions = {"c1": Approve({"city": "Bern"})}
    thread.interrupts = [Interrupt(id="int-1", reason="input_required", message="Which day?")]
    store.save("alice", thread, notes=[{"kind": "error", "after": 3}])

    again = open_store()
    loaded = again.load("alice", thread.id)
    with WriteMeter(again.engine) as meter:
        again.save("alice", loaded, notes=[{"kind": "error", "after": 3}])
    assert meter.statements == 0  # what was read back serializes to what was stored


def test_messages_with_repeated_or_very_long_ids_are_kept_in_order(store, open_store):
    thread = Thread(store.create("alice", agent="default").id)
    long_id = "m" * 400
    for n, message_id in enumerate(["same", "same", long_id, "~tilde", "same"]):
        thread.add_message(UserMessage(id=message_id, content=f"message {n}"))
    store.save("alice", thread)
    loaded = open_store().load("alice", thread.id)
    assert [(m.id, m.content) for m in loaded.messages] == [(m.id, m.content) for m in thread.messages]

    thread.add_message(UserMessage(id="same", content="message 5"))
    with WriteMeter(store.engine) as meter:
        store.save("alice", thread)
    assert meter.rows == 2
    assert [m.content for m in open_store().load("alice", thread.id).messages][-1] == "message 5"


def test_a_save_prepared_then_written_later_stores_the_thread_as_it_was_when_prepared(store, open_store):
    # The copilot reads the thread on the event loop and writes it in a worker thread while the next run goes on
    thread = stored_thread(store, 10)
    thread.add_user_message("what is our revenue?", "question")
    thread.add_message(AssistantMessage(id="live", content=""))
    thread.append_text("live", "Revenue is")
    thread.state = {"filter": "Berlin"}
    write = store.prepare_save("alice", thread, notes=[{"kind": "error", "text": "then"}])

    thread.append_text("live", " $48,210.")  # the run goes on before the write
    thread.add_user_message("and last month?", "later")
    thread.state["filter"] = "Paris"
    write()

    kept = open_store().load_with_notes("alice", thread.id)
    assert [m.id for m in kept.thread.messages][-2:] == ["question", "live"]
    assert kept.thread.messages[-1].content == "Revenue is"
    assert kept.thread.state == {"filter": "Berlin"}
    assert kept.notes == [{"kind": "error", "text": "then"}]

    store.save("alice", thread)  # the next save brings the rest, whatever the earlier one left
    kept = open_store().load("alice", thread.id)
    assert [(m.id, getattr(m, "content", None)) for m in kept.messages] == [
        (m.id, getattr(m, "content", None)) for m in thread.messages
    ]
    assert kept.state == {"filter": "Paris"}


def test_a_store_of_the_apps_own_prepares_a_save_from_a_copy_of_the_thread(store, open_store):
    # ThreadStore's own prepare_save, for a store that only implements save
    thread = stored_thread(store, 10)
    thread.add_message(AssistantMessage(id="live", content="Revenue is"))
    thread.state = {"filter": "Berlin"}
    write = ThreadStore.prepare_save(store, "alice", thread)

    thread.append_text("live", " $48,210.")
    thread.state["filter"] = "Paris"
    write()

    kept = open_store().load("alice", thread.id)
    assert kept.messages[-1].content == "Revenue is"
    assert kept.state == {"filter": "Berlin"}
