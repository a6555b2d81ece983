"""The app's Reflex states and events without a server or a browser: Reflex's own event processor, run in a thread.

Events go through the processor a served app uses (hydration, the page's on_load, background tasks
and their `async with self`, chained events), on an in-memory state manager. What would reach the
browser is recorded instead: the state changes and the browser-side events (scripts, focus).
A sync caller (a test) waits for what an event started, everything it chained included.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import reflex as rx
from reflex.istate.manager.token import BaseStateToken
from reflex.state import StateUpdate
from reflex_base.event import Event
from reflex_base.event.processor import BaseStateEventProcessor
from reflex_base.registry import RegistrationContext

from ..state.turns import without_browser

T = TypeVar("T")
S = TypeVar("S", bound=rx.State)


class Browser:
    """What a browser would have been sent: the browser-side events (`_call_script`, focus, ...) per tab. It runs no
    script: a script that waits for its value (a browser tool's) is told at once that there is no browser."""

    def __init__(self) -> None:
        self.events: dict[str, list[Event]] = {}

    async def emit_update(self, update: StateUpdate, token: str) -> None:
        """(Reflex's event namespace, as the processor calls it.)"""
        events = update.events or []
        self.events.setdefault(token, []).extend(events)
        if any(event.name == "_call_script" and event.payload.get("callback") for event in events):
            without_browser(token)


class HeadlessApp:
    """The Reflex app of this process, running its events in a thread of its own."""

    def __init__(self) -> None:
        _ensure_app()
        self.browser = Browser()
        self._loop = asyncio.new_event_loop()
        context = contextvars.copy_context()  # Reflex's registration context (the app's states and handlers) comes along
        self._thread = threading.Thread(target=context.run, args=(self._loop.run_forever,), daemon=True, name="headless-app")
        self._thread.start()
        # Reflex names its socket.io namespace here; the processor only calls emit_update, which Browser has.
        self._processor = BaseStateEventProcessor().configure(event_namespace=self.browser)  # pyright: ignore[reportArgumentType]
        self._stopping = asyncio.Event()
        started = threading.Event()
        self._lifetime = asyncio.run_coroutine_threadsafe(self._run(started), self._loop)
        started.wait()

    def call(self, work: Coroutine[object, None, T], timeout: float | None = None) -> T:
        """Run a coroutine on the app's loop and wait for its value."""
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(timeout)

    async def dispatch(self, token: str, event: Any, router_data: dict[str, object]) -> asyncio.Future[list[object]]:
        """Enqueue an event (an EventHandler, an EventSpec, or a list of them) from a tab (on the app's loop); a
        future done once it and what it chained are over."""
        futures = [
            await self._processor.enqueue(token, one, None)
            for one in Event.from_event_type(event if isinstance(event, list) else [event], router_data=router_data)
        ]
        return asyncio.gather(*(future.wait_all() for future in futures))

    async def state(self, token: str, state_type: type[S]) -> S:
        """A tab's state of this type, as it is now (on the app's loop)."""
        manager = self._processor._root_context.state_manager  # type: ignore[union-attr]
        root = await manager.get_state(BaseStateToken(ident=token, cls=state_type))
        return await root.get_state(state_type)

    async def until(self, done: Callable[[], bool], pending: list[asyncio.Future[list[object]]], seconds: float) -> None:
        """Wait (on the app's loop) until every one of `pending` is over or `done()` holds (something waits for the
        person); TimeoutError after `seconds`. The last of `pending` is the step's own event: when `done()` held
        before it, it is not over until that event is (a decision on what waited). An event that failed raises here."""
        own = pending[-1]
        async with asyncio.timeout(seconds):
            if done():
                await asyncio.wait([own])
            while not all(future.done() for future in pending) and not done():  # noqa: ASYNC110 - done() is a plain predicate
                await asyncio.sleep(0.01)
        for future in pending:
            if future.done():
                future.result()

    def close(self) -> None:
        """Stop the processor, cancel what still runs, and end the thread."""
        try:
            self._loop.call_soon_threadsafe(self._stopping.set)
            self._lifetime.result(10)
        finally:
            self.call(_cancel_the_rest(), timeout=10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
            self._loop.close()

    async def _run(self, started: threading.Event) -> None:
        """The processor's life: started and stopped in one task (Reflex sets its root context in that task's)."""
        async with self._processor:
            started.set()
            await self._stopping.wait()


def _ensure_app() -> None:
    """Reflex processes events for a registered App: the app module's, or a bare one when no module made one."""
    if RegistrationContext.get()._app is None:
        rx.App()


async def _cancel_the_rest() -> None:
    tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
