"""Several workers: a click handled by one reaches the run of a thread that another worker runs.

With Reflex's Redis state manager (REDIS_URL) an app runs several backend workers, and a person's
clicks land on whichever holds their tab's connection. Each turn is noted in Redis under its
thread (`copilot_ui:drive:<thread>` = the worker, kept alive by a heartbeat, gone when the turn
ends or its worker dies). A Stop, a decision, a queued message or a request for texts that finds
no local turn looks that note up and is published to the worker named there, which acts on its
turn as if the click had come to it, and says whether it did: a worker that has just died, or whose
turn is over, takes nothing, and the click is then acted on where it came. Browser tools' answers go
to every worker; the one waiting takes it. Without Redis there is one worker, and nothing here runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

logger = logging.getLogger("copilot_ui.state")

LEASE_MS = 15_000  # a turn's note lives this long unless its worker renews it
RENEW_EVERY = 5.0
ACTED_WITHIN = 5.0  # seconds a control waits for the other worker to say it acted on it
_LEASE = "copilot_ui:drive:"  # (the key operators find in the docs: kept)
_INBOX = "copilot_ui:worker:"
_EVERYONE = "copilot_ui:everyone"
_ACTED = "copilot_ui:acted:"  # a list per control sent, where its worker says whether it acted on it
CROSSED = "copilot_ui:crossed"  # a Redis hash: controls handed to another worker, by kind

# (one request: the note is deleted only while it still names this worker, not once another worker has taken it)
_DELETE_IF_OURS = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

Handler = Callable[[dict[str, Any]], Awaitable[bool]]  # whether this worker acted on the control


def worker() -> str:
    """This worker's id, `<process id>-<random>`: made in the worker itself (workers are forked from a process that
    imported this module), so that a worker respawned under the same process id is another; the process id tells the
    people who run the app which process runs a conversation."""
    global _WORKER
    if _WORKER is None or _WORKER[0] != os.getpid():
        _WORKER = (os.getpid(), f"{os.getpid()}-{uuid.uuid4().hex[:8]}")
    return _WORKER[1]


_WORKER: tuple[int, str] | None = None


class Cluster:
    """This worker's part in a group of workers sharing Redis."""

    def __init__(self, redis: Any) -> None:
        self._redis = redis
        self._listening: asyncio.Task[None] | None = None
        self._leases: dict[str, asyncio.Task[None]] = {}  # thread id → the renewal of this worker's lease on it
        self._holders: dict[str, int] = {}  # thread id → the claims of this worker that hold its lease

    def listen(self) -> None:
        """Act on the controls sent to this worker (or to every worker) with the handler given to `on_message`."""
        if self._listening is None or self._listening.done():
            self._listening = asyncio.ensure_future(self._listen())

    async def claim(self, thread_id: str) -> bool:
        """Note that this worker runs the thread (False: another worker does). A lease this worker holds already (its
        last turn's write is on its way) passes to the new turn: other workers wait for both, this worker's writes
        land in order."""
        self.listen()  # (a worker running a thread takes the controls other workers send for it)
        if thread_id not in self._leases:
            if not await self._redis.set(_LEASE + thread_id, worker(), nx=True, px=LEASE_MS):
                return False
            self._leases[thread_id] = asyncio.ensure_future(self._renew(thread_id))
        self._holders[thread_id] = self._holders.get(thread_id, 0) + 1
        return True

    async def release(self, thread_id: str) -> None:
        """A claim is over: the note goes once no claim of this worker holds it (if it is still this worker's)."""
        holders = self._holders.get(thread_id, 0) - 1
        if holders > 0:
            self._holders[thread_id] = holders
            return
        self._holders.pop(thread_id, None)
        lease = self._leases.pop(thread_id, None)
        if lease is not None:
            lease.cancel()
        with contextlib.suppress(Exception):
            await self._redis.eval(_DELETE_IF_OURS, 1, _LEASE + thread_id, worker())

    async def worker_running(self, thread_id: str) -> str | None:
        """The worker running this thread now, if any."""
        value = await self._redis.get(_LEASE + thread_id)
        return value.decode() if isinstance(value, bytes) else value

    async def send(self, thread_id: str, control: dict[str, Any]) -> bool:
        """Hand a control to the worker running the thread: whether it acted on it (False: no other worker runs the
        thread, or the one named did not act within ACTED_WITHIN seconds: it died, or its turn was over)."""
        running = await self.worker_running(thread_id)
        if running is None or running == worker():
            return False
        acted = _ACTED + uuid.uuid4().hex
        sent = {**control, "thread": thread_id, "acted": acted}
        if not await self._redis.publish(_INBOX + running, json.dumps(sent)):
            return False
        said = await self._redis.blpop([acted], timeout=ACTED_WITHIN)
        if said is None or said[1] not in (b"1", "1"):
            return False
        with contextlib.suppress(Exception):  # how many controls crossed workers, by kind: for the people who run the app
            await self._redis.hincrby(CROSSED, str(control.get("kind")), 1)
        return True

    async def tell_everyone(self, control: dict[str, Any]) -> None:
        """A control for whichever worker can use it (a browser tool's answer)."""
        await self._redis.publish(_EVERYONE, json.dumps(control))

    async def _renew(self, thread_id: str) -> None:
        while True:
            await asyncio.sleep(RENEW_EVERY)
            with contextlib.suppress(Exception):
                await self._redis.set(_LEASE + thread_id, worker(), xx=True, px=LEASE_MS)

    async def _listen(self) -> None:
        while True:  # a lost connection to Redis is taken up again
            try:
                subscription = self._redis.pubsub()
                await subscription.subscribe(_INBOX + worker(), _EVERYONE)
                async for message in subscription.listen():
                    if message.get("type") != "message" or _handler is None:
                        continue
                    control, acted = json.loads(message["data"]), False
                    try:
                        acted = await _handler(control)
                    except Exception:
                        logger.exception("a control from another worker failed")
                    if control.get("acted"):  # the sender waits to know
                        with contextlib.suppress(Exception):
                            await self._redis.rpush(control["acted"], "1" if acted else "0")
                            await self._redis.expire(control["acted"], int(ACTED_WITHIN) * 2)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("listening to the other workers failed; listening again")
                await asyncio.sleep(1)


_CLUSTER: Cluster | None = None
_CHECKED = False
_handler: Handler | None = None


def on_message(handler: Handler) -> None:
    """What this worker does with a control another worker sends it (given once, by `_remote`)."""
    global _handler
    _handler = handler


def cluster() -> Cluster | None:
    """This worker's cluster when the app runs on Redis (None with one worker)."""
    global _CLUSTER, _CHECKED
    if not _CHECKED:
        _CHECKED = True
        from reflex.utils import prerequisites

        redis = prerequisites.get_redis()
        _CLUSTER = Cluster(redis) if redis is not None else None
    return _CLUSTER
