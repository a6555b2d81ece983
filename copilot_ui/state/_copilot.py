"""CopilotState: the sidebar's conversation in the person's session, and the events that drive the loop.

Sending a message, or deciding on a call that waits for a person, starts a background task that
drives the run loop (copilot_ui.core) over the session's thread. The loop reaches the page through
three doors this module gives it: the view sink (what the person sees), the session's states (for
tools declared with state=), and the context providers (what the agent sees), each used inside
short `async with self` blocks.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import reflex as rx
from ag_ui.core import Context

from ..core import Answer, Approve, Decision, Deny, ErrorOccurred, RunLoop, Session, Thread
from ..protocol import new_id
from ._declarations import copilot
from ._items import ChatItem
from ._live import LiveState
from ._sink import ViewSink

logger = logging.getLogger("copilot_ui.state")


@dataclass
class _ActiveRun:
    loop: RunLoop
    thread: Thread
    sink: ViewSink


# Runs under way, by the browser tab's client token (one process; several workers need a shared store).
_ACTIVE: dict[str, _ActiveRun] = {}


def _running(token: str) -> _ActiveRun | None:
    """The run of this browser tab whose loop is driving now, if any."""
    active = _ACTIVE.get(token)
    return active if active is not None and active.loop.running else None


class CopilotState(rx.State):
    """The conversation shown in the sidebar."""

    items: list[ChatItem] = rx.field(default_factory=list)
    running: bool = False
    _thread: Thread | None = None
    _agent_id: str = "default"

    @rx.event(background=True)
    async def send(self, form: dict[str, Any]) -> None:
        """The person sent a message from the composer."""
        text = str(form.get("message") or "").strip()
        if not text:
            return
        token = self.router.session.client_token
        active = _running(token)
        if active is not None:  # the message goes with the run's next request
            active.sink.queue_user_message(text)
            await active.loop.send(active.thread, text)
            return
        async with self:
            self._agent_id = str(form.get("agent") or "default")
            self.items.append(ChatItem(id=new_id("user-"), kind="user", text=text))
        await self._drive(token, text)

    @rx.event(background=True)
    async def approve(self, call_id: str) -> None:
        """The person approved a call that waited for them."""
        await self._decide(call_id, Approve())

    @rx.event(background=True)
    async def deny(self, call_id: str) -> None:
        """The person denied a call that waited for them."""
        await self._decide(call_id, Deny("the user said no"))

    @rx.event(background=True)
    async def answer(self, form: dict[str, Any]) -> None:
        """The person answered a call that asked for their input."""
        call_id = str(form.get("call_id") or "")
        if call_id:
            await self._decide(call_id, Answer(str(form.get("answer") or "")))

    @rx.event
    async def stop(self) -> None:
        """The person pressed Stop."""
        active = _ACTIVE.get(self.router.session.client_token)
        if active is not None:
            active.loop.abort()

    @rx.event
    async def clear(self) -> None:
        """Start a new conversation."""
        active = _ACTIVE.pop(self.router.session.client_token, None)
        if active is not None:
            active.loop.abort()
        self._thread = Thread()
        self.items = []
        self.running = False
        live = await self.get_state(LiveState)
        live.text, live.tools, live.status = "", [], ""

    async def _decide(self, call_id: str, decision: Decision) -> None:
        token = self.router.session.client_token
        active = _running(token)
        if active is not None:  # the running drive acts on it at once
            active.loop.decide(active.thread, call_id, decision, _shown_digest(active.thread, call_id))
            return
        async with self:
            thread = self._thread
        if thread is None or not thread.decide(call_id, decision, _shown_digest(thread, call_id)):
            return
        await self._drive(token, None)

    async def _drive(self, token: str, text: str | None) -> None:
        """Drive the loop over the session's thread: with a new message, or resuming after a decision."""
        async with self:
            if self._thread is None:
                self._thread = Thread()
            thread = self._thread
            self.running = True
            page = self.router.url.path or "/"
            agent_id = self._agent_id
            live = await self.get_state(LiveState)
            cards = list(live.tools)
        sink = ViewSink(self, thread, cards)
        loop = RunLoop(
            copilot.agent(agent_id),
            copilot.toolbox,
            hooks=copilot.hooks,
            context=self._read_context,
            commit=sink.commit,
            state_access=_SessionStates(self),
            session=Session(page=page),
            emit=sink.emit,
            ask_person=True,
            limits=copilot.limits,
        )
        run = _ACTIVE[token] = _ActiveRun(loop, thread, sink)
        try:
            if text is None:
                await loop.drive(thread)
            else:
                await loop.send(thread, text)
        except Exception as error:  # a bug must not leave the sidebar spinning
            logger.exception("the copilot run failed")
            sink.emit(ErrorOccurred(f"Something went wrong: {error}"))
        finally:
            if _ACTIVE.get(token) is run:
                del _ACTIVE[token]
            await sink.close()
            async with self:
                if self._thread is None or self._thread.id == thread.id:  # still the conversation shown
                    self._thread = thread
                    self.running = False
            if copilot.store is not None:
                await asyncio.to_thread(copilot.store.save, thread)

    async def _read_context(self) -> list[Context]:
        """What the agent sees, read fresh from the page's states for every run."""
        values = []
        async with self:
            for provider in copilot.contexts:
                state = await self.get_state(provider.state) if provider.state is not None else None
                values.append(Context(description=provider.description, value=provider.value(state)))
        return values


def _shown_digest(thread: Thread, call_id: str) -> str:
    # The card does not carry the digest it was shown with yet: the one recorded for the waiting call stands in.
    shown = thread.awaiting.get(call_id)
    return shown.digest if shown is not None else ""


class _SessionStates:
    """The person's own session states, for tools declared with state=."""

    def __init__(self, owner: Any) -> None:
        self._owner = owner

    @asynccontextmanager
    async def open(self, state_type: type) -> AsyncIterator[Any]:
        async with self._owner:
            yield await self._owner.get_state(state_type)

    async def run_with(self, state_type: type, handler: Callable[[Any], Awaitable[Any]]) -> Any:
        # As before the StateAccess change: the handler runs inside one state block (the rewrite removes the lock).
        async with self.open(state_type) as state:
            return await handler(state)
