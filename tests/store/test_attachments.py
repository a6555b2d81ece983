"""Files people attach are kept with their conversation, for their owner only, and go when the conversation goes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from copilot_ui.core import Thread, attachments_of
from copilot_ui.store import OverLimit, SQLThreadStore

from ..attachment_files import ORDERS_CSV, png


def sent(store: SQLThreadStore, owner: str, *files: tuple[str, str, bytes]) -> Thread:
    """A conversation of `owner` whose first message carries these files, saved."""
    thread = Thread(store.create(owner, agent="default").id)
    uploaded = [store.add_attachment(owner, name, mime, data) for name, mime, data in files]
    attached = store.attach(owner, [attachment.id for attachment in uploaded], thread.id)
    thread.add_user_message("have a look", attachments=attached)
    store.save(owner, thread)
    return thread


def test_a_conversation_comes_back_with_its_files_and_their_bytes(store: SQLThreadStore):
    image = png()
    thread = sent(store, "alice", ("chart.png", "image/png", image), ("orders.csv", "text/csv", ORDERS_CSV))

    loaded = store.load("alice", thread.id)
    chart, orders = attachments_of(loaded.messages[0])
    assert (chart.name, chart.mime_type, chart.size) == ("chart.png", "image/png", len(image))
    assert store.attachment("alice", chart.id) == (chart, image)
    assert store.attachment_bytes("alice", [orders.id]) == {orders.id: ORDERS_CSV}
    assert store.thread_attachments("alice", thread.id) == [chart, orders]


def test_another_owner_cannot_read_nor_take_a_file(store: SQLThreadStore):
    thread = sent(store, "alice", ("chart.png", "image/png", png()))
    (chart,) = store.thread_attachments("alice", thread.id)
    mallory = Thread(store.create("mallory", agent="default").id)
    unsent = store.add_attachment("alice", "notes.txt", "text/plain", b"secret")

    assert store.attachment("mallory", chart.id) is None
    assert store.attachment_bytes("mallory", [chart.id, unsent.id]) == {}
    assert store.attach("mallory", [chart.id, unsent.id], mallory.id) == []
    assert store.remove_unsent("mallory", unsent.id) is False
    assert store.attachment("alice", unsent.id) is not None


def test_a_file_sent_in_one_conversation_is_not_attached_to_another(store: SQLThreadStore):
    first = sent(store, "alice", ("chart.png", "image/png", png()))
    (chart,) = store.thread_attachments("alice", first.id)
    second = store.create("alice", agent="default")

    assert store.attach("alice", [chart.id], second.id) == []
    assert store.attach("alice", [chart.id], first.id) == [chart]  # again in its own: the same file


def test_deleting_a_conversation_deletes_its_files(store: SQLThreadStore):
    thread = sent(store, "alice", ("chart.png", "image/png", png()))
    kept = sent(store, "alice", ("orders.csv", "text/csv", ORDERS_CSV))
    (chart,) = store.thread_attachments("alice", thread.id)

    assert store.delete("alice", thread.id)

    assert store.attachment("alice", chart.id) is None
    assert store.thread_attachments("alice", thread.id) == []
    assert len(store.thread_attachments("alice", kept.id)) == 1


def test_a_conversation_past_its_retention_goes_with_its_files(store: SQLThreadStore):
    thread = sent(store, "anon-1", ("chart.png", "image/png", png()))
    (chart,) = store.thread_attachments("anon-1", thread.id)

    assert store.prune(owner_prefix="anon-", unchanged_since=datetime.now(UTC) + timedelta(seconds=1)) == 1

    assert store.attachment("anon-1", chart.id) is None


def test_files_follow_their_conversations_to_the_person_who_logs_in(store: SQLThreadStore):
    thread = sent(store, "anon-1", ("chart.png", "image/png", png()))
    (chart,) = store.thread_attachments("anon-1", thread.id)

    assert store.move("anon-1", "alice") == 1

    assert store.attachment("alice", chart.id) is not None
    assert store.attachment("anon-1", chart.id) is None


def test_the_bytes_a_conversation_holds_count_its_files_and_the_unsent_ones(store: SQLThreadStore):
    thread = sent(store, "alice", ("a.txt", "text/plain", b"x" * 300))
    store.add_attachment("alice", "b.txt", "text/plain", b"y" * 200)
    store.add_attachment("bob", "c.txt", "text/plain", b"z" * 900)

    assert store.held_bytes("alice", thread.id) == 500
    assert store.held_bytes("alice", "another") == 200


def test_a_conversation_begun_with_files_only_is_named_after_them(store: SQLThreadStore):
    thread = Thread(store.create("alice", agent="default").id)
    uploaded = [store.add_attachment("alice", name, "image/png", png()) for name in ("before.png", "after.png")]
    thread.add_user_message("", attachments=store.attach("alice", [file.id for file in uploaded], thread.id))

    assert store.save("alice", thread).title == "before.png, after.png"


def test_files_are_not_attached_past_the_conversations_limit(store: SQLThreadStore):
    thread = sent(store, "alice", ("a.txt", "text/plain", b"x" * 600))
    # uploaded while the tab named another conversation: the limit holds where files are attached
    first = store.add_attachment("alice", "b.txt", "text/plain", b"y" * 300)
    second = store.add_attachment("alice", "c.txt", "text/plain", b"z" * 200)

    with pytest.raises(OverLimit) as over:
        store.attach("alice", [first.id, second.id], thread.id, max_bytes=1000)

    assert (over.value.limit, over.value.held) == ("conversation", 600)
    assert [file.name for file in store.thread_attachments("alice", thread.id)] == ["a.txt"]  # none of them went
    assert store.attach("alice", [first.id], thread.id, max_bytes=1000) == [first]  # what fits goes
    assert store.held_bytes("alice", thread.id) == 1100  # 900 in the conversation, 200 still unsent


def test_an_upload_is_refused_past_the_unsent_cap_or_the_bytes_held(store: SQLThreadStore):
    for name in ("a.txt", "b.txt"):
        store.add_attachment("alice", name, "text/plain", b"x" * 400, max_unsent=2)

    with pytest.raises(OverLimit) as too_many:
        store.add_attachment("alice", "c.txt", "text/plain", b"x", max_unsent=2)
    with pytest.raises(OverLimit) as too_big:
        store.add_attachment("alice", "d.txt", "text/plain", b"x" * 300, thread_id="t1", max_bytes=1000)

    assert (too_many.value.limit, too_many.value.held) == ("unsent", 2)
    assert (too_big.value.limit, too_big.value.held) == ("conversation", 800)
    assert store.held_bytes("alice", "t1") == 800  # neither was kept


def test_a_conversations_agent_reads_the_bytes_of_its_own_files_only(store: SQLThreadStore):
    first = sent(store, "alice", ("chart.png", "image/png", png()))
    second = sent(store, "alice", ("orders.csv", "text/csv", ORDERS_CSV))
    (chart,) = store.thread_attachments("alice", first.id)
    (orders,) = store.thread_attachments("alice", second.id)
    unsent = store.add_attachment("alice", "notes.txt", "text/plain", b"draft")

    assert store.attachment_bytes("alice", [chart.id, orders.id, unsent.id], second.id) == {orders.id: ORDERS_CSV}
