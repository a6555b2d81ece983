"""Saves from many worker threads at once (asyncio.to_thread, as the app does) each land whole."""

from __future__ import annotations

import asyncio

from ag_ui.core import AssistantMessage

from copilot_ui.core import Thread

THREADS = 8
TURNS = 5


async def test_threads_saved_at_once_from_worker_threads_each_come_back_whole(store, open_store):
    owners = [f"person-{n % 3}" for n in range(THREADS)]
    threads = [Thread(store.create(owner, agent="default").id) for owner in owners]
    for turn in range(TURNS):
        for n, thread in enumerate(threads):
            thread.add_user_message(f"thread {n}, question {turn}")
            thread.add_message(AssistantMessage(id=f"a-{n}-{turn}", content=f"thread {n}, answer {turn}"))
            thread.state = {"turn": turn, "thread": n}
        saves = (asyncio.to_thread(store.save, owner, thread) for owner, thread in zip(owners, threads, strict=True))
        await asyncio.gather(*saves)

    fresh = open_store()
    for n, (owner, thread) in enumerate(zip(owners, threads, strict=True)):
        loaded = fresh.load(owner, thread.id)
        assert [m.content for m in loaded.messages] == [m.content for m in thread.messages]
        assert len(loaded) == 2 * TURNS
        assert loaded.state == {"turn": TURNS - 1, "thread": n}
    assert sorted(s.message_count for owner in set(owners) for s in fresh.list(owner)) == [2 * TURNS] * THREADS


async def test_reads_and_writes_at_once_never_see_half_a_save(store):
    thread = Thread(store.create("alice", agent="default").id)
    thread.add_user_message("start")
    store.save("alice", thread)

    async def write() -> None:
        for turn in range(20):
            thread.add_user_message(f"question {turn}")
            thread.add_message(AssistantMessage(id=f"a{turn}", content=f"answer {turn}"))
            await asyncio.to_thread(store.save, "alice", thread)

    async def read() -> list[int]:
        counts = []
        for _ in range(20):
            stored = await asyncio.to_thread(store.load_with_notes, "alice", thread.id)
            assert len(stored.thread) == stored.summary.message_count  # the messages and the row agree
            counts.append(len(stored.thread))
        return counts

    _, counts = await asyncio.gather(write(), read())
    assert all(count % 2 == 1 for count in counts)  # a turn's two messages land together
