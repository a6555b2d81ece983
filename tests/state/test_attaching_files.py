"""Sending a message attaches its files to the conversation: within the conversation's limit, checked as they are
attached, and a message that cannot take its files is not sent, with the reason in words."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from copilot_ui.core import AttachmentRules
from copilot_ui.state import Labels, copilot
from copilot_ui.state.declarations import attached, attachment_ids, attachment_store
from copilot_ui.store import SQLThreadStore


@pytest.fixture
def store(tmp_path) -> Iterator[SQLThreadStore]:
    store = SQLThreadStore(tmp_path / "threads.db")
    before = copilot.store, copilot.attachments, copilot.labels
    copilot.store, copilot.attachments = store, AttachmentRules(max_conversation_bytes=1000)
    try:
        yield store
    finally:
        copilot.store, copilot.attachments, copilot.labels = before
        store.close()


def test_files_past_the_conversations_limit_are_refused_in_words(store: SQLThreadStore):
    thread = store.create("alice", agent="default").id
    first = attachment_store().add_attachment("alice", "a.txt", "text/plain", b"x" * 700)
    asyncio.run(attached("alice", [first.id], thread))
    second = attachment_store().add_attachment("alice", "b.txt", "text/plain", b"y" * 400)

    taken = asyncio.run(attached("alice", [second.id], thread))

    assert taken.files == ()
    assert taken.refusal == (
        "The message was not sent: its files would take this conversation past its limit of 1 KB of files "
        "(it holds 700 bytes). Remove some, or start a new conversation."
    )
    assert [file.name for file in store.thread_attachments("alice", thread)] == ["a.txt"]


def test_a_message_whose_files_cannot_all_be_attached_is_not_sent(store: SQLThreadStore):
    thread = store.create("alice", agent="default").id
    mine = attachment_store().add_attachment("alice", "chart.png", "image/png", b"png")
    before_logout = attachment_store().add_attachment("anon-1", "orders.csv", "text/csv", b"a,b")
    named = {mine.id: "chart.png", before_logout.id: "orders.csv", "att-gone": "notes.txt"}

    taken = asyncio.run(attached("alice", named, thread))

    assert taken.files == ()
    assert taken.refusal == (
        "The message was not sent: orders.csv, notes.txt are no longer here for you (files not sent within a day "
        "are forgotten, and logging out leaves them behind). Attach them again, then send."
    )
    assert store.thread_attachments("alice", thread) == []
    assert store.attachment("alice", mine.id) is None  # the composer no longer shows it: forgotten with the message


def test_a_message_not_sent_is_said_in_the_apps_words(store: SQLThreadStore):
    copilot.labels = Labels(not_sent_file_gone="Le message n'est pas parti : {names} n'est plus là. Joignez-le à nouveau.")
    thread = store.create("alice", agent="default").id

    taken = asyncio.run(attached("alice", {"att-gone": "{limit}.csv"}, thread))

    assert taken.refusal == "Le message n'est pas parti : {limit}.csv n'est plus là. Joignez-le à nouveau."


def test_the_composer_names_its_files_for_the_reason(store: SQLThreadStore):
    form = {"attachments": "att-1,att-2", "attachment_names": '["chart.png", "line\\nbreak.csv"]'}

    assert attachment_ids(form) == {"att-1": "chart.png", "att-2": "linebreak.csv"}
    assert attachment_ids({"attachments": "att-1", "attachment_names": "not json"}) == {"att-1": "a file"}
