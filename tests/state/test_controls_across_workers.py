"""A click that reaches a thread's turn on another worker (a queued message, a decision, Stop) counts as taken only when
that worker says it acted on it. A worker that has just died may still get the message from Redis, and a worker whose
turn is over takes nothing: either way the click is acted on where it came, never dropped. A real redis-server; the
other worker is played by a Redis client of the test's."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest
from ag_ui.core import AssistantMessage, FunctionCall, ToolCall
from redis.asyncio import Redis

from copilot_ui.core import Approve, Claim, Thread, claims, decision_json
from copilot_ui.core._awaiting import Awaiting, digest_of_call
from copilot_ui.state.turns import _cluster as cluster
from copilot_ui.state.turns import _remote as remote
from copilot_ui.state.turns import thread_runs
from copilot_ui.store import SQLThreadStore

from ._running_turn import a_running_turn

OTHER = "99999-otherwkr"  # the other worker's id, as it notes the thread it runs


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    await client.flushdb()
    yield client
    await client.aclose()


@pytest.fixture
def this_worker(redis: Redis, monkeypatch: pytest.MonkeyPatch) -> cluster.Cluster:
    """This worker's part in the group, on the test's Redis, as `cluster()` gives it."""
    group = cluster.Cluster(redis)
    monkeypatch.setattr(cluster, "_CLUSTER", group)
    monkeypatch.setattr(cluster, "_CHECKED", True)
    return group


async def other_worker(redis: Redis, answer: str | None) -> tuple[asyncio.Task[None], list[dict[str, object]]]:
    """The other worker, running thread `t-1`: it gets the controls sent to it and says `answer` ("1": acted, "0": its
    turn is over; None: it says nothing, as a worker killed once Redis handed it the message)."""
    await redis.set(cluster._LEASE + "t-1", OTHER, px=cluster.LEASE_MS)
    received: list[dict[str, object]] = []
    subscription = redis.pubsub()
    await subscription.subscribe(cluster._INBOX + OTHER)

    async def work() -> None:
        async for message in subscription.listen():
            if message["type"] == "message":
                control = json.loads(message["data"])
                received.append(control)
                if answer is not None:
                    await redis.rpush(control["acted"], answer)

    return asyncio.ensure_future(work()), received


@pytest.mark.parametrize(("answer", "taken"), [("1", True), ("0", False), (None, False)], ids=["acted", "turn over", "died"])
async def test_a_message_for_the_other_workers_turn_is_taken_only_when_that_worker_says_so(
    redis: Redis, this_worker: cluster.Cluster, monkeypatch: pytest.MonkeyPatch, answer: str | None, taken: bool
):
    monkeypatch.setattr(cluster, "ACTED_WITHIN", 0.5)
    listening, received = await other_worker(redis, answer)
    try:
        assert await remote.queue("t-1", "user-1", "written after the kill") is taken
    finally:
        listening.cancel()
    assert [control["text"] for control in received] == ["written after the kill"]  # it reached the other worker


async def test_a_control_for_a_thread_nobody_runs_now_is_not_taken(redis: Redis, this_worker: cluster.Cluster):
    await redis.set(cluster._LEASE + "t-1", OTHER, px=cluster.LEASE_MS)  # the note of a worker gone: nobody listens
    assert await remote.stop("t-1") is False
    assert await remote.queue("t-2", "user-1", "hello") is False  # no note at all


async def test_this_worker_says_whether_it_acted_on_a_control(redis: Redis, this_worker: cluster.Cluster):
    this_worker.listen()
    try:
        inbox = cluster._INBOX + cluster.worker()
        for _ in range(50):  # (until it listens)
            if await redis.pubsub_numsub(inbox) == [(inbox.encode(), 1)]:
                break
            await asyncio.sleep(0.05)
        control = {"kind": "queue", "id": "user-1", "text": "hello", "thread": "no-turn-here", "acted": "acted:1"}
        await redis.publish(inbox, json.dumps(control))
        assert await redis.blpop(["acted:1"], timeout=5) == (b"acted:1", b"0")  # no turn of that thread runs here
    finally:
        if this_worker._listening is not None:
            this_worker._listening.cancel()


async def test_a_turn_of_this_worker_that_winds_down_takes_no_decision_and_records_none(tmp_path):
    store = SQLThreadStore(f"sqlite:///{tmp_path / 'threads.db'}")
    thread = Thread(store.create("alice", agent="default").id)
    call = ToolCall(id="call-1", function=FunctionCall(name="refund_order", arguments='{"order_id": "1042"}'))
    thread.add_message(AssistantMessage(id="a1", tool_calls=[call]))
    digest = digest_of_call(call)
    thread.awaiting["call-1"] = Awaiting("call-1", "approval", digest, "refund_order", {"order_id": "1042"})
    turn = a_running_turn(store, "alice", thread)  # (its loop runs no turn: it takes nothing more)
    try:
        decide = {"kind": "decide", "call": "call-1", "decision": decision_json(Approve()), "digest": digest}
        assert await remote._act({**decide, "thread": thread.id}) is False
        assert thread.decisions == {}  # the click's worker records it, for the next turn to act on
        assert await remote._act({"kind": "queue", "id": "u2", "text": "and then?", "thread": thread.id}) is False
        assert thread.queued == []
        assert turn.take_decision("call-1", Approve(), digest) is False  # a click on this worker, the same
        assert thread.decisions == {}
    finally:
        thread_runs.leave(turn)
        await thread_runs.hand_over(turn, None)


async def test_the_next_turn_on_the_same_worker_starts_while_the_last_ones_write_lands(
    redis: Redis, this_worker: cluster.Cluster
):
    """A turn that ended keeps the thread noted as this worker's until its last write lands, so that another worker
    never reads the thread without its last words; the next message on this worker does not wait for that write: the
    note passes to its turn, and goes only once both are over. Another worker's note is never taken over."""
    ended = await thread_runs.take("t-1")
    assert isinstance(ended, Claim)
    ended.release()  # the turn is over here (`hand_over`): its last write is on its way, the note stays

    following = await asyncio.wait_for(thread_runs.take("t-1"), 0.2)  # at once: not once the write has landed

    assert isinstance(following, Claim)
    await this_worker.release("t-1")  # the ended turn's write landed (`hand_over` lets go of its note)
    assert await this_worker.worker_running("t-1") == cluster.worker(), "another worker could take the running thread"
    await thread_runs.release(following)
    assert await this_worker.worker_running("t-1") is None

    await redis.set(cluster._LEASE + "t-2", OTHER, px=cluster.LEASE_MS)
    assert not await this_worker.claim("t-2")
    assert isinstance(await thread_runs.take("t-2"), thread_runs.Elsewhere)
    assert claims.holder("t-2") is None, "a thread another worker runs stayed claimed on this one"
    await this_worker.release("t-2")
    assert await this_worker.worker_running("t-2") == OTHER, "this worker deleted another worker's note"
