"""Stored conversations of a given length, and one more turn: what the store's tests and its benchmark measure."""

from __future__ import annotations

from ag_ui.core import AssistantMessage, UserMessage

from copilot_ui.core import Thread
from copilot_ui.store import ThreadStore


def stored_thread(store: ThreadStore, messages: int, owner: str = "alice") -> Thread:
    """A stored thread of questions and answers of about 150 characters each."""
    thread = Thread(store.create(owner, agent="default").id)
    for n in range(messages // 2):
        thread.add_message(UserMessage(id=f"u{n}", content=f"question {n}: " + "lorem ipsum " * 12))
        thread.add_message(AssistantMessage(id=f"a{n}", content=f"answer {n}: " + "dolor sit amet " * 10))
    store.save(owner, thread)
    return thread


def add_turn(thread: Thread, turn: int = 0) -> None:
    """One more question and its answer, not yet saved."""
    thread.add_user_message(f"one more question, number {turn}: " + "lorem ipsum " * 10)
    thread.add_message(AssistantMessage(id=f"reply-{turn}-{len(thread)}", content="one more answer: " + "dolor sit amet " * 10))
