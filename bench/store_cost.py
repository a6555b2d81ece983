"""What keeping conversations costs: bytes written per turn, time to open a long thread, memory of stored threads.

- Bytes written per turn (a question and its answer) at 10 and at 1,000 prior messages: the values
  handed to the database by the store's writing statements, on a SQLite file; on PostgreSQL (when
  installed) also the write-ahead log the server wrote. The goal: the same at 1,000 as at 10. For
  scale, the size of the whole thread, which the former store rewrote on every save.
- Time of a save at 10 and at 1,000 prior messages (the store serializes the thread to compare).
- The event loop's share of a save made while a reply streams (the copilot makes one a second at most, KEPT_EVERY):
  reading the thread and the view's notes, at 10, 100 and 1,000 prior messages; the write goes to a thread of its own.
- Time to open (load) a stored thread of 1,000 messages, in a new store as after a restart.
- Memory of 50 stored threads of 200 messages: held by the store when none is open (only open
  threads are kept), and with all 50 open (the threads themselves plus what the store remembers).
- Time of a search among 1,000 threads of 20 messages (beside another owner's 1,000): for a word
  said once, in one reply, and for one said nowhere (every message of the owner is read).
"""

from __future__ import annotations

import contextlib
import gc
import json
import shutil
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

from ag_ui.core import AssistantMessage
from sqlalchemy import text

from copilot_ui.state.view import Conversation
from copilot_ui.store import SQLThreadStore
from tests.services import ServiceUnavailable, running_postgres
from tests.store.meter import WriteMeter
from tests.store.threads import add_turn, stored_thread

WORK = Path(__file__).resolve().parent / ".work" / "store"
OWNER = "bench"


def main() -> None:
    with sqlite_store("cost.db") as store:
        for prior in (10, 1_000):
            meter, seconds, whole = turn_cost(store, prior)
            print(f"store_bytes_per_turn_{prior}: {meter.bytes} B")
            print(f"store_rows_per_turn_{prior}: {meter.rows} rows")
            print(f"store_save_time_{prior}: {seconds * 1e3:.2f} ms")
            print(f"store_whole_thread_json_{prior}: {whole} B")
        print(f"store_load_1000_messages: {load_seconds(store.url) * 1e3:.1f} ms")
        for prior in (10, 100, 1_000):
            print(f"store_save_while_streaming_read_{prior}: {streaming_save_read(store, prior) * 1e3:.2f} ms")
    with sqlite_store("search.db") as store:
        print_search_figures(store, "store")
    postgres_figures()
    closed, opened, remembered = memory_of_stored_threads(50, 200)
    print(f"store_memory_50x200_none_open: {closed / 1e3:.0f} KB")
    print(f"store_memory_50x200_all_open: {opened / 1e6:.1f} MB")
    print(f"store_memory_50x200_remembered_by_store: {remembered / 1e3:.0f} KB")


def turn_cost(store: SQLThreadStore, prior: int) -> tuple[WriteMeter, float, int]:
    """What saving one turn writes and takes, on a thread of `prior` stored messages (median of 5 turns)."""
    thread = stored_thread(store, prior, OWNER)
    results = []
    for turn in range(5):
        add_turn(thread, turn)
        with WriteMeter(store.engine) as meter:
            started = time.perf_counter()
            store.save(OWNER, thread)
            seconds = time.perf_counter() - started
        results.append((seconds, meter))
    seconds, meter = sorted(results, key=lambda result: result[0])[len(results) // 2]
    return meter, seconds, len(json.dumps(thread.to_json()).encode())


def streaming_save_read(store: SQLThreadStore, prior: int) -> float:
    """Median of 21: what a save made while a reply streams reads on the event loop (the thread, half a reply in
    pieces, and the view's notes), on a thread of `prior` stored messages."""
    thread = stored_thread(store, prior, OWNER)
    thread.add_user_message("one more question")
    thread.add_message(AssistantMessage(id="streaming", content=""))
    conversation = Conversation.of(thread.id)
    conversation.items(thread)  # (every message has its item id, as a shown conversation's view does)
    times = []
    for piece in range(21):
        thread.append_text("streaming", f"word {piece} ")
        started = time.perf_counter()
        store.prepare_save(OWNER, thread, notes=conversation.to_notes())
        times.append(time.perf_counter() - started)
    return sorted(times)[len(times) // 2]


def load_seconds(url: object, messages: int = 1_000) -> float:
    """Best of 5: a new store opening a stored thread of `messages` messages."""
    with SQLThreadStore(url) as store:
        thread_id = stored_thread(store, messages, OWNER).id
    best = float("inf")
    for _ in range(5):
        with SQLThreadStore(url) as store:
            started = time.perf_counter()
            loaded = store.load(OWNER, thread_id)
            best = min(best, time.perf_counter() - started)
            assert len(loaded) == messages
    return best


def postgres_figures() -> None:
    """Bytes per turn (values sent, and the server's write-ahead log) and load time on a throwaway PostgreSQL."""
    try:
        with running_postgres() as server:
            url = server.url(server.create_database())
            with SQLThreadStore(url) as store:
                for prior in (10, 1_000):
                    thread = stored_thread(store, prior, OWNER)
                    add_turn(thread, 0)
                    before = wal_written(store)
                    with WriteMeter(store.engine) as meter:
                        store.save(OWNER, thread)
                    print(f"store_postgres_bytes_per_turn_{prior}: {meter.bytes} B")
                    print(f"store_postgres_wal_per_turn_{prior}: {wal_written(store) - before} B")
            print(f"store_postgres_load_1000_messages: {load_seconds(url) * 1e3:.1f} ms")
            with SQLThreadStore(server.url(server.create_database())) as store:
                print_search_figures(store, "store_postgres")
    except ServiceUnavailable as missing:
        print(f"# PostgreSQL figures skipped: {missing}")


def print_search_figures(store: SQLThreadStore, prefix: str, threads: int = 1_000, messages: int = 20) -> None:
    """Median time of a search among the owner's `threads` threads, for a word said once and for a word said nowhere."""
    for owner in (OWNER, "someone else"):
        for n in range(threads):
            thread = stored_thread(store, messages, owner)
            if owner == OWNER and n == threads // 2:
                thread.add_message(AssistantMessage(id="rare", content="A quokka, of all things."))
                store.save(owner, thread)
    for words, expected, name in (("Quokka", 1, "said_once"), ("platypus", 0, "said_nowhere")):
        times = []
        for _ in range(5):
            started = time.perf_counter()
            found = store.list(OWNER, search=words)
            times.append(time.perf_counter() - started)
            assert len(found) == expected
        print(f"{prefix}_search_{threads}_threads_{name}: {sorted(times)[2] * 1e3:.1f} ms")


def wal_written(store: SQLThreadStore) -> int:
    """Bytes of write-ahead log the PostgreSQL server has written so far."""
    with store.engine.connect() as db:
        return int(db.execute(text("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')")).scalar())


def memory_of_stored_threads(count: int, messages: int) -> tuple[int, int, int]:
    """Bytes traced: with no thread open, with all open, and what the store remembers of the open ones."""
    with sqlite_store("memory.db") as store:
        ids = [stored_thread(store, messages, OWNER).id for _ in range(count)]
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            for thread_id in ids:  # opened and let go, as a person browsing old conversations
                store.load(OWNER, thread_id)
            gc.collect()
            closed = tracemalloc.get_traced_memory()[0] - before
            threads = [store.load(OWNER, thread_id) for thread_id in ids]
            gc.collect()
            opened = tracemalloc.get_traced_memory()[0] - before
            store._written.clear()  # what the store keeps per open thread, to write only what changes
            gc.collect()
            remembered = opened - (tracemalloc.get_traced_memory()[0] - before)
            assert len(threads) == count
        finally:
            tracemalloc.stop()
    return closed, opened, remembered


@contextlib.contextmanager
def sqlite_store(name: str) -> Iterator[SQLThreadStore]:
    """A store on a new SQLite file under bench/.work/store."""
    shutil.rmtree(WORK / name, ignore_errors=True)
    for stale in WORK.glob(f"{name}*"):
        stale.unlink()
    with SQLThreadStore(WORK / name) as store:
        yield store


if __name__ == "__main__":
    main()
