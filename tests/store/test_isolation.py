"""One owner never reaches another's threads, not even by their ids: someone else's thread looks like no thread."""

from __future__ import annotations

import pytest

from copilot_ui.core import Thread
from copilot_ui.store import ThreadNotFound


@pytest.fixture
def alices_thread(store) -> Thread:
    thread = Thread(store.create("alice", agent="default").id)
    thread.add_user_message("my salary is confidential")
    store.save("alice", thread)
    return thread


def failure(action) -> tuple[type, str]:
    with pytest.raises(ThreadNotFound) as raised:
        action()
    return type(raised.value), str(raised.value)


def test_another_owner_lists_none_of_my_threads(store, alices_thread):
    assert store.list("bob") == []
    assert store.list("bob", search="salary", include_archived=True) == []


def test_another_owner_cannot_open_my_thread_by_its_id(store, alices_thread):
    assert store.load("bob", alices_thread.id) is None
    assert store.load_with_notes("bob", alices_thread.id) is None


def test_another_owner_cannot_change_my_thread_and_is_told_what_a_missing_thread_tells(store, alices_thread):
    as_if_missing = (ThreadNotFound, str(ThreadNotFound(alices_thread.id)))
    guessed = Thread(alices_thread.id)  # bob's own thread object, under the id he guessed
    guessed.add_user_message("overwritten")
    assert failure(lambda: store.save("bob", guessed)) == as_if_missing
    assert failure(lambda: store.rename("bob", alices_thread.id, "mine now")) == as_if_missing
    assert failure(lambda: store.archive("bob", alices_thread.id)) == as_if_missing
    assert store.delete("bob", alices_thread.id) is False

    (summary,) = store.list("alice")
    assert (summary.title, summary.archived, summary.message_count) == ("my salary is confidential", False, 1)
    assert [m.content for m in store.load("alice", alices_thread.id).messages] == ["my salary is confidential"]


def test_two_owners_may_hold_the_same_thread_id_without_meeting(store, alices_thread):
    store.create("bob", agent="default", thread_id=alices_thread.id)
    bobs = Thread(alices_thread.id)
    bobs.add_user_message("bob's own words")
    store.save("bob", bobs)
    store.rename("bob", alices_thread.id, "Bob's")

    assert [m.content for m in store.load("alice", alices_thread.id).messages] == ["my salary is confidential"]
    assert [m.content for m in store.load("bob", alices_thread.id).messages] == ["bob's own words"]
    assert store.delete("bob", alices_thread.id) is True
    assert store.load("alice", alices_thread.id) is not None
