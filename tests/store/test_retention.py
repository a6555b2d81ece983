"""Nothing left behind: anonymous owners' conversations past their retention are pruned, a browser's conversations
move to the person who logs in on it, and a deleted conversation leaves no message and no state behind."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import func, select, update

import copilot_ui
from copilot_ui.store import ANONYMOUS_OWNER, SQLThreadStore
from copilot_ui.store._schema import messages, threads

from .threads import stored_thread

ANONYMOUS, PERSON = ANONYMOUS_OWNER + "browser-1", "user:ada"


def age(store: SQLThreadStore, thread_id: str, days: float) -> None:
    """As if the thread last changed that many days ago."""
    with store.engine.begin() as db:
        db.execute(update(threads).where(threads.c.id == thread_id).values(updated_at=datetime.now(UTC) - timedelta(days=days)))


def rows(store: SQLThreadStore, table) -> int:
    with store.engine.connect() as db:
        return db.scalar(select(func.count()).select_from(table))


def test_pruning_forgets_anonymous_conversations_unchanged_past_their_retention(store):
    old, recent = stored_thread(store, 4, owner=ANONYMOUS), stored_thread(store, 4, owner=ANONYMOUS)
    an_accounts = stored_thread(store, 4, owner=PERSON)
    age(store, old.id, 31)
    age(store, an_accounts.id, 400)

    pruned = store.prune(owner_prefix=ANONYMOUS_OWNER, unchanged_since=datetime.now(UTC) - timedelta(days=30))

    assert pruned == 1
    assert [summary.id for summary in store.list(ANONYMOUS)] == [recent.id]
    assert store.load(ANONYMOUS, old.id) is None
    assert store.load(PERSON, an_accounts.id) is not None  # a person with an account keeps theirs
    assert rows(store, messages) == 8  # the pruned conversation's messages went with it


def test_pruning_a_long_backlog_forgets_all_of_it_in_chunks(store):
    made = [stored_thread(store, 2, owner=f"{ANONYMOUS_OWNER}{n}") for n in range(520)]
    with store.engine.begin() as db:
        db.execute(update(threads).values(updated_at=datetime.now(UTC) - timedelta(days=60)))

    assert store.prune(owner_prefix=ANONYMOUS_OWNER, unchanged_since=datetime.now(UTC) - timedelta(days=30)) == len(made)
    assert rows(store, threads) == rows(store, messages) == 0


def test_a_browsers_conversations_move_to_the_person_who_logs_in_on_it(store):
    first, second = stored_thread(store, 4, owner=ANONYMOUS), stored_thread(store, 2, owner=ANONYMOUS)
    theirs = stored_thread(store, 2, owner=PERSON)

    assert store.move(ANONYMOUS, PERSON) == 2
    assert store.list(ANONYMOUS) == []
    assert {summary.id for summary in store.list(PERSON)} == {first.id, second.id, theirs.id}
    assert len(store.load(PERSON, first.id).messages) == 4
    assert store.move(ANONYMOUS, PERSON) == 0  # once


def test_a_deleted_conversation_leaves_no_message_and_no_state(store):
    thread = stored_thread(store, 6, owner=PERSON)
    thread.state = {"report": "a draft the agent wrote"}
    store.save(PERSON, thread)

    assert store.delete(PERSON, thread.id)
    assert rows(store, messages) == rows(store, threads) == 0


def test_the_prune_command_prunes_the_stores_anonymous_conversations_past_the_retention(tmp_path):
    path = tmp_path / "threads.db"
    with SQLThreadStore(path) as store:
        old, recent = stored_thread(store, 2, owner=ANONYMOUS), stored_thread(store, 2, owner=ANONYMOUS)
        age(store, old.id, 8)
    project = Path(copilot_ui.__file__).resolve().parents[1]
    env = {**os.environ, "COPILOT_RETENTION_DAYS": "7"}
    command = [sys.executable, "-m", "copilot_ui", "threads", "prune", "--store", str(path)]
    done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=120, check=False)

    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Pruned 1 conversation of anonymous owners unchanged for 7 days")
    with SQLThreadStore(path) as store:
        assert [summary.id for summary in store.list(ANONYMOUS)] == [recent.id]


def test_the_prune_command_refuses_a_retention_that_is_not_a_number_of_days(tmp_path):
    command = [sys.executable, "-m", "copilot_ui", "threads", "prune", "--store", str(tmp_path / "t.db")]
    env = {**os.environ, "COPILOT_RETENTION_DAYS": "a month"}
    project = Path(copilot_ui.__file__).resolve().parents[1]
    done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2
    assert "COPILOT_RETENTION_DAYS must be a number of days, not 'a month'" in done.stderr
