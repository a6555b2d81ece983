"""CopilotState: the conversation of a tab, and the events that drive the loop over it.

Sending a message, deciding on a waiting call, Retry: each starts (or reaches) the one drive of
the tab's thread (`_drives`). A drive runs the loop (copilot_ui.core) in a task of its own and
shows what happens through its sink; the background event that started it yields the browser
events the sink produces (the pieces of the texts being written), until the drive is over.

Everything the browser sends is untrusted: an agent is one of the configured ones, a decision
names a card by its item id and the digest of what the person was shown (the core refuses any
other), and a message is only text. No handler can leave the copilot stuck in "running".
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import reflex as rx
from ag_ui.core import Context

from ..core import Answer, Approve, Decision, Deny, ErrorOccurred, Session, Thread
from ._compat import RunLoop
from ..protocol import new_id
from . import _drives as drives
from ._declarations import copilot
from ._live import LiveState
from ._session_states import SessionStates
from ._sink import ViewSink
from ._view import Conversation

logger = logging.getLogger("copilot_ui.state")

WINDOW = 40  # items the browser holds before the person scrolls up: each change of the list resends them
DENIED_WITHOUT_REASON = "the user said no"


class CopilotState(rx.State):
    """The conversation shown in the copilot (a window of its most recent items)."""

    items: list[dict[str, Any]] = rx.field(default_factory=list)
    older: list[dict[str, Any]] = rx.field(default_factory=list)  # earlier items the person scrolled up to
    has_older: bool = False
    _thread: Thread | None = None
    _conversation: Conversation | None = None
    _agent_id: str = ""
    _older_from: int = -1  # index of the first item in `older` (-1: none loaded)

    # The person's events

    @rx.event(background=True)
    async def send(self, form: dict[str, Any]) -> AsyncIterator[Any]:
        """The person sent a message from the composer."""
        text = str(form.get("message") or "").strip()
        if not text:
            return
        message_id = new_id("user-")
        agent_id = str(form.get("agent") or "")

        async def send_it(drive: drives.Drive) -> Any:
            return await drive.loop.send(drive.thread, text, message_id=message_id)

        def join(drive: drives.Drive) -> None:  # a drive is under way: the message goes with its next run
            drive.sink.queue_user_message(message_id, text)
            drive.loop.queue(drive.thread, text, message_id=message_id)

        async for event in self._work(send_it, join=join, agent_id=agent_id):
            yield event

    @rx.event(background=True)
    async def approve(self, item_id: str, digest: str, arguments: dict[str, Any] | None = None) -> AsyncIterator[Any]:
        """The person approved the call they were shown (with edited arguments, where the tool allows it)."""
        async for event in self._decide(item_id, digest, Approve(arguments=arguments or None)):
            yield event

    @rx.event(background=True)
    async def deny(self, item_id: str, digest: str, reason: str = "") -> AsyncIterator[Any]:
        """The person said no to the call they were shown; the agent reads their reason."""
        async for event in self._decide(item_id, digest, Deny(str(reason).strip() or DENIED_WITHOUT_REASON)):
            yield event

    @rx.event(background=True)
    async def respond(self, item_id: str, digest: str, value: Any) -> AsyncIterator[Any]:
        """The person answered a question (a human-in-the-loop card): the value becomes the call's result."""
        async for event in self._decide(item_id, digest, Answer(value)):
            yield event

    @rx.event(background=True)
    async def answer(self, form: dict[str, Any]) -> AsyncIterator[Any]:
        """The default question card's form: its answer is text."""
        item_id, digest = str(form.get("item") or ""), str(form.get("digest") or "")
        async for event in self._decide(item_id, digest, Answer(str(form.get("answer") or ""))):
            yield event

    @rx.event(background=True)
    async def retry(self) -> AsyncIterator[Any]:
        """Retry after an error: the failed step runs again."""

        async def retry_it(drive: drives.Drive) -> Any:
            return await drive.loop.retry(drive.thread)

        async for event in self._work(retry_it):
            yield event

    @rx.event(background=True)
    async def stop(self) -> None:
        """The person pressed Stop: the drive of this tab's thread stops now."""
        async with self:
            thread = self.get_value("_thread")
        drive = drives.running(thread.id) if thread is not None else None
        if drive is not None:
            drive.loop.abort()

    @rx.event(background=True)
    async def clear(self) -> None:
        """Start a new conversation (a run of the old one stops)."""
        async with self:
            old = self.get_value("_thread")
            self._thread, self._conversation, self._agent_id = Thread(), Conversation(), ""
            self.items, self.older, self.has_older, self._older_from = [], [], False, -1
            live = await self.get_state(LiveState)
            live.running, live.status = False, ""
        drive = drives.running(old.id) if old is not None else None
        if drive is not None:
            drive.loop.abort()

    @rx.event(background=True)
    async def need_texts(self, tids: list[str]) -> AsyncIterator[Any]:
        """The tab lacks these texts (it reloaded, reconnected, or scrolled to older items): hand them over."""
        async with self:
            thread, conversation = self.get_value("_thread"), self.get_value("_conversation")
        if thread is None or conversation is None or not isinstance(tids, list):
            return
        drive = drives.running(thread.id)
        scrubber = copilot.scrubber()
        texts: dict[str, list[Any]] = {}
        for tid in tids[:200]:
            if not isinstance(tid, str):
                continue
            so_far = drive.sink.text_so_far(tid) if drive is not None else None
            if so_far is not None:  # being written: exactly what was sent, so that later pieces follow it
                texts[tid] = [so_far[0], so_far[1]]
                continue
            source = drive.thread if drive is not None else thread
            whole = (drive.sink.conversation if drive is not None else conversation).text_of(tid, source)
            if whole is not None:
                texts[tid] = [drive.sink.seq_of(tid) if drive is not None else 0, scrubber.scrub(whole)]
        if texts:
            yield rx.call_script(f"__cuiS({json.dumps(texts, ensure_ascii=False)})")

    @rx.event
    def load_older(self) -> None:
        """The person scrolled to the top: show the items before those shown."""
        thread, conversation = self.get_value("_thread"), self.get_value("_conversation")
        if thread is None or conversation is None:
            return
        items = conversation.items(thread)
        first_shown = self._older_from if self._older_from >= 0 else max(len(items) - WINDOW, 0)
        self._older_from = max(first_shown - WINDOW, 0)
        self._show(items)

    # Driving

    async def _decide(self, item_id: str, digest: str, decision: Decision) -> AsyncIterator[Any]:
        async def resume(drive: drives.Drive) -> Any:
            return await drive.loop.drive(drive.thread, claim=drive.claim)

        def record(thread: Thread, conversation: Conversation, drive: drives.Drive | None) -> bool:
            """True when the decision was taken and a new drive must act on it."""
            call_id = conversation.call_of(str(item_id))
            if call_id is None:
                logger.warning("a decision named no card of this conversation (%r); ignored", item_id)
                return False
            if drive is not None:  # the running drive acts on it at once
                drive.loop.decide(drive.thread, call_id, decision, str(digest))
                return False
            return thread.decide(call_id, decision, str(digest))

        async for event in self._work(resume, record=record):
            yield event

    async def _work(
        self,
        work: Callable[[drives.Drive], Awaitable[Any]],
        *,
        join: Callable[[drives.Drive], None] | None = None,
        record: Callable[[Thread, Conversation, drives.Drive | None], bool] | None = None,
        agent_id: str = "",
    ) -> AsyncIterator[Any]:
        """Start the drive of this tab's thread doing `work`, or hand the request to the drive already running."""
        drive, refused = None, ""
        for _ in range(20):
            async with self:
                thread, conversation = self._current()
                running = drives.running(thread.id)
                if running is not None:
                    if record is not None:
                        record(thread, conversation, running)
                    if join is not None:
                        join(running)
                    return
                waiting = drives.closing(thread.id)
                if waiting is None:
                    if record is not None and not record(thread, conversation, None):
                        return
                    refused = self._choose_agent(agent_id)
                    if refused:
                        note = conversation.add_note("error", refused, None)
                        self._show(conversation.items(thread))
                        refused = f"__cuiS({json.dumps({note.id: [0, refused]})})"
                    else:
                        drive = self._begin(thread, conversation)
            if waiting is None:
                break
            await waiting  # the drive before writes the thread back first
        if refused:
            yield rx.call_script(refused)
        if drive is not None:
            async for event in self._run(drive, work):
                yield event

    def _current(self) -> tuple[Thread, Conversation]:
        """The tab's thread and its view (made on first use), as plain objects: a drive uses them outside the lock."""
        thread, conversation = self.get_value("_thread"), self.get_value("_conversation")
        if thread is None or conversation is None:
            thread, conversation = Thread(), Conversation()
            self._thread, self._conversation = thread, conversation
        return thread, conversation

    def _choose_agent(self, asked: str) -> str:
        """The agent of this conversation: the one it has, else the one the page names, if it is configured."""
        if self._agent_id:
            return ""
        known = copilot.agent_ids()
        wanted = asked or "default"
        if wanted not in known:
            shown = "".join(ch for ch in wanted[:40] if ch.isprintable())
            return f"There is no agent {shown!r} here; this copilot can use: {', '.join(known)}."
        self._agent_id = wanted
        return ""

    def _begin(self, thread: Thread, conversation: Conversation) -> drives.Drive | None:
        """Claim the thread and set up its drive (synchronous: nothing can start in between)."""
        sink = ViewSink(self, thread, conversation, scrubber=copilot.scrubber(), rendered=copilot.rendered_tools())
        loop = RunLoop(
            copilot.agent(self._agent_id or "default"),
            copilot.toolbox,
            hooks=copilot.hooks,
            context=self._read_context,
            commit=sink.commit,
            state_access=SessionStates(self),
            session=Session(page=self.router.url.path or "/"),
            emit=sink.emit,
            ask_person=True,
            limits=copilot.limits,
        )
        return drives.begin(thread, loop, sink)

    async def _run(self, drive: drives.Drive, work: Callable[[drives.Drive], Awaitable[Any]]) -> AsyncIterator[Any]:
        """Run the drive in a task of its own, and yield what its sink sends to the browser until it is over."""
        async with self:
            live = await self.get_state(LiveState)
            live.running, live.status = True, "Thinking…"
        task = asyncio.create_task(self._drive(drive, work))
        try:
            async for event in drive.sink.outbox():
                yield event
        finally:
            if not task.done():
                task.cancel()

    async def _drive(self, drive: drives.Drive, work: Callable[[drives.Drive], Awaitable[Any]]) -> None:
        try:
            await work(drive)
        except Exception:  # a bug must not leave the copilot spinning: the person sees that it failed
            logger.exception("the copilot's run failed")
            drive.sink.emit(ErrorOccurred("Something went wrong in the copilot; the server log has the details."))
        finally:
            drives.leave(drive)
            try:
                drive.sink.finish()
                await drive.sink.close()
            except Exception:
                logger.exception("showing the end of a run failed")
                await self._not_running()
            finally:
                drives.release(drive)

    async def _not_running(self) -> None:
        try:
            async with self:
                live = await self.get_state(LiveState)
                live.running, live.status = False, ""
        except Exception:
            logger.exception("could not reset the copilot's running state")

    async def show_drive(
        self, thread: Thread, conversation: Conversation, items: list[dict[str, Any]], status: str, running: bool
    ) -> None:
        """The sink's write: the items and the status line, and the thread kept with the tab's state."""
        async with self:
            shown = self.get_value("_thread")
            if shown is not None and shown.id != thread.id:
                return  # the tab moved on to another conversation: this drive's view is written nowhere
            self._thread, self._conversation = thread, conversation
            self._show(items)
            live = await self.get_state(LiveState)
            if live.status != status:
                live.status = status
            if live.running != running:
                live.running = running

    def _show(self, items: list[dict[str, Any]]) -> None:
        """Put the newest items (and those the person scrolled up to) where the browser sees them."""
        first = max(len(items) - WINDOW, 0)
        window = items[first:]
        older = items[self._older_from : first] if 0 <= self._older_from < first else []
        if window != self.items:
            self.items = window
        if older != self.older:
            self.older = older
        has_older = (self._older_from if older else first) > 0
        if has_older != self.has_older:
            self.has_older = has_older

    async def _read_context(self) -> list[Context]:
        """What the agent sees, read fresh from the page's states for every run."""
        values = []
        async with self:
            for provider in copilot.contexts:
                state = await self.get_state(provider.state) if provider.state is not None else None
                values.append(Context(description=provider.description, value=provider.value(state)))
        return values
