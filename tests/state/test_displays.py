"""A card's texts made in Python (`display=`): from the arguments as they stream and the result, from what the thread
keeps (so a conversation reopened from the store shows the same), and the raw values when the app's function fails."""

from __future__ import annotations

import logging

import pytest
import reflex as rx
from ag_ui.core import AssistantMessage, FunctionCall, ToolCall, ToolMessage

from copilot_ui.core import Thread
from copilot_ui.state import copilot
from copilot_ui.state.view import Conversation, LiveMarks
from copilot_ui.store import SQLThreadStore


def budget_texts(arguments: dict, result: dict | None) -> dict[str, str]:
    texts = {"amount": f"€{arguments['amount']:,}"} if isinstance(arguments.get("amount"), int) else {}
    if result is not None:
        texts["left"] = f"€{result['left']:,}"
    return texts


def budget_card(call) -> rx.Component:
    return rx.text(call.display_value("amount"))


@pytest.fixture
def drawn(monkeypatch):
    """The app draws set_budget's calls, its texts made by budget_texts (the app's copilot, put back after)."""
    monkeypatch.setitem(copilot.renderers, "set_budget", budget_card)
    monkeypatch.setitem(copilot.displays, "set_budget", budget_texts)
    return Conversation.of("thread-1", frozenset({"set_budget"}))


def a_call(thread: Thread, arguments: str, call_id: str = "c1") -> None:
    call = ToolCall(id=call_id, function=FunctionCall(name="set_budget", arguments=arguments))
    thread.add_message(AssistantMessage(id=f"a-{call_id}", tool_calls=[call]))


def card(conversation: Conversation, thread: Thread, marks: LiveMarks | None = None) -> dict:
    return next(item for item in conversation.items(thread, marks) if item["k"] == "t")


def test_the_texts_follow_the_arguments_while_they_stream(drawn):
    thread = Thread("thread-1")
    a_call(thread, '{"trip": "Kyoto", "amount": 4200, "no')  # cut off mid-stream
    assert card(drawn, thread, LiveMarks(arguments={"c1"}))["dv"] == {"amount": "€4,200"}


def test_the_texts_come_back_from_the_store_as_they_were_shown(drawn, tmp_path):
    store = SQLThreadStore(f"sqlite:///{tmp_path / 'threads.db'}")
    thread = Thread(store.create("alice", agent="default").id)
    a_call(thread, '{"trip": "Kyoto", "amount": 4200}')
    thread.add_message(ToolMessage(id="r1", tool_call_id="c1", content='{"left": 800}'))
    shown = card(drawn, thread)
    assert shown["dv"] == {"amount": "€4,200", "left": "€800"}
    store.save("alice", thread, notes=drawn.to_notes())

    stored = SQLThreadStore(f"sqlite:///{tmp_path / 'threads.db'}").load_with_notes("alice", thread.id)
    reopened = Conversation.from_notes(thread.id, stored.notes, frozenset({"set_budget"}))
    assert card(reopened, stored.thread) == shown


def test_a_display_function_that_fails_shows_the_raw_values_and_is_logged_once(monkeypatch, caplog):
    def broken(arguments: dict, result: object) -> dict[str, str]:
        return {"amount": f"€{arguments['amount'] / 0}"}

    monkeypatch.setitem(copilot.renderers, "set_budget", budget_card)
    monkeypatch.setitem(copilot.displays, "set_budget", broken)
    conversation, thread = Conversation.of("thread-2", frozenset({"set_budget"})), Thread("thread-2")
    a_call(thread, '{"trip": "Kyoto", "amount": 4200}')
    a_call(thread, '{"trip": "Lisbon", "amount": 900}', "c2")
    with caplog.at_level(logging.ERROR, logger="copilot_ui"):
        cards = [item for item in conversation.items(thread) if item["k"] == "t"]
    assert [item["dv"] for item in cards] == [{"trip": "Kyoto", "amount": "4200"}, {"trip": "Lisbon", "amount": "900"}]
    assert [record.getMessage() for record in caplog.records] == [
        "the display function of set_budget failed; its card shows the raw values"
    ]
