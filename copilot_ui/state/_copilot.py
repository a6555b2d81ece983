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

from ..core import (
    Answer,
    Approve,
    ArgumentsInvalid,
    Decision,
    Deny,
    ErrorOccurred,
    RunLoop,
    Session,
    Thread,
    parse_arguments,
)
from ..protocol import new_id
from . import _browser_tools as browser_tools
from . import _drives as drives
from ._approval import ApprovalState, approval_request, edited_arguments, pending_approval
from ._declarations import copilot
from ._live import LiveState
from ._session_states import SessionStates
from ._shared_state import shared_state
from ._sink import COMPOSER_INPUT_ID, ViewSink
from ._view import Conversation

logger = logging.getLogger("copilot_ui.state")


def _answered(thread: Thread, call_id: str, answer: Answer) -> Answer:
    """The person's response as the call's result: through the question tool's own function when it has one."""
    call = thread.tool_call(call_id)
    ui = copilot.tool_ui.get(call.function.name) if call is not None else None
    if call is None or ui is None or ui.answer is None:
        return answer
    try:
        return Answer(ui.answer(**parse_arguments(call), answer=answer.value))
    except Exception:
        logger.exception("%s could not turn the person's response into a result; the response is the result", call.function.name)
        return answer


RESPOND_ITEM, RESPOND_DIGEST = "__cui_item", "__cui_digest"  # the fields naming the call a question form answers
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
            return await drive.loop.send(drive.thread, text, message_id=message_id, claim=drive.claim)

        def join(drive: drives.Drive) -> bool:  # a drive is under way: the message goes with its next run
            if not drive.loop.queue(drive.thread, text, message_id=message_id):
                return False  # it is winding down: the message starts a drive of its own once it is over
            drive.sink.queue_user_message(message_id, text)
            return True

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
    async def respond_form(self, form: dict[str, Any]) -> AsyncIterator[Any]:
        """A question card's form (ToolCallView.form) was sent: its fields are the answer."""
        fields = dict(form)
        item_id, digest = str(fields.pop(RESPOND_ITEM, "")), str(fields.pop(RESPOND_DIGEST, ""))
        async for event in self._decide(item_id, digest, Answer(fields)):
            yield event

    @rx.event(background=True)
    async def review(self, item_id: str) -> None:
        """The card's Review button: its approval dialog opens again."""
        async with self:
            approval = await self.get_state(ApprovalState)
            approval._review(str(item_id))
            thread, conversation = self._current()
            self._offer_approval(thread, conversation, conversation.items(thread), approval)

    @rx.event(background=True)
    async def approve_form(self, form: dict[str, Any]) -> AsyncIterator[Any]:
        """Approve in the dialog, with the arguments as the person left them (checked against the tool's schema)."""
        item_id, digest = str(form.get("item") or ""), str(form.get("digest") or "")
        async with self:
            thread, conversation = self._current()
            approval = await self.get_state(ApprovalState)
            call_id = conversation.call_of(item_id)
            call = thread.tool_call(call_id) if call_id else None
            tool = copilot.tool(call.function.name) if call is not None else None
            arguments, problem = None, ""
            if call is not None and tool is not None and approval.editable and approval.item == item_id:
                try:
                    arguments = edited_arguments(call, tool, copilot.tool_ui.get(tool.name), form)
                    tool.validate(arguments)
                except (ValueError, ArgumentsInvalid) as invalid:
                    problem = str(invalid)
            approval.error = problem
            if not problem:
                approval.open = False
        if problem:
            return
        yield rx.set_focus(COMPOSER_INPUT_ID)
        async for event in self._decide(item_id, digest, Approve(arguments=arguments)):
            yield event

    @rx.event(background=True)
    async def deny_form(self, form: dict[str, Any]) -> AsyncIterator[Any]:
        """Deny in the dialog, with the person's reason (the agent reads it)."""
        item_id, digest = str(form.get("item") or ""), str(form.get("digest") or "")
        async with self:
            approval = await self.get_state(ApprovalState)
            approval.open = False
        yield rx.set_focus(COMPOSER_INPUT_ID)
        reason = str(form.get("reason") or "").strip()
        async for event in self._decide(item_id, digest, Deny(reason or DENIED_WITHOUT_REASON)):
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
            return await drive.loop.retry(drive.thread, claim=drive.claim)

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
                texts[tid] = [
                    (drive.sink.conversation if drive is not None else conversation).seqs.get(tid, 0),
                    scrubber.scrub(whole),
                ]
        if texts:
            yield rx.call_script(f"__cuiS({json.dumps(texts, ensure_ascii=False)})")

    @rx.event(background=True)
    async def browser_result(self, reply: Any) -> None:
        """A browser tool's script answered (its callback)."""
        browser_tools.deliver(self.router.session.client_token, reply)

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
            nonlocal decision
            call_id = conversation.call_of(str(item_id))
            if call_id is None:
                logger.warning("a decision named no card of this conversation (%r); ignored", item_id)
                return False
            if isinstance(decision, Answer):
                decision = _answered((drive.thread if drive is not None else thread), call_id, decision)
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
        join: Callable[[drives.Drive], bool] | None = None,
        record: Callable[[Thread, Conversation, drives.Drive | None], bool] | None = None,
        agent_id: str = "",
    ) -> AsyncIterator[Any]:
        """Start the drive of this tab's thread doing `work`, or hand the request to the drive already running."""
        drive, refused = None, ""
        for _ in range(20):
            async with self:
                thread, conversation = self._current()
                running = drives.running(thread.id)
                waiting = drives.closing(thread.id)
                if running is not None:
                    if record is not None:
                        record(thread, conversation, running)
                        if running.loop.accepting(running.thread):
                            return
                        record = None  # taken, but the drive is winding down: the next drive acts on it
                    elif join is None or join(running):
                        return
                    waiting = running.closed
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
        shared = shared_state(copilot.shared_state) if copilot.shared_state is not None else None
        sink = ViewSink(self, thread, conversation, scrubber=copilot.scrubber(), rendered=copilot.rendered_tools(), shared=shared)

        async def read_context() -> list[Context]:
            return await self._read_context(thread, sink)

        loop = RunLoop(
            copilot.agent(self._agent_id or "default"),
            copilot.toolbox,
            hooks=copilot.hooks,
            context=read_context,
            commit=sink.commit,
            state_access=SessionStates(self),
            session=Session(page=self.router.url.path or "/"),
            emit=sink.emit,
            ask_person=True,
            limits=copilot.limits,
        )
        return drives.begin(thread, loop, sink, self.router.session.client_token)

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
        drives.current.set(drive)  # tools this drive runs (in tasks of this one) find their tab through it
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

    async def _show_drive(
        self,
        thread: Thread,
        conversation: Conversation,
        items: list[dict[str, Any]] | None,
        status: str,
        running: bool,
        shared: dict[str, Any] | None = None,
    ) -> None:
        """The sink's write: the items, the status line, the agent's state; the thread is kept with the tab's state."""
        async with self:
            shown = self.get_value("_thread")
            if shown is not None and shown.id != thread.id:
                return  # the tab moved on to another conversation: this drive's view is written nowhere
            self._thread, self._conversation = thread, conversation
            if items is not None:
                self._show(items)
                self._offer_approval(thread, conversation, items, await self.get_state(ApprovalState))
            if shared and copilot.shared_state is not None:
                shared_state(copilot.shared_state).write(await self.get_state(copilot.shared_state), shared)
            live = await self.get_state(LiveState)
            if live.status != status:
                live.status = status
            if live.running != running:
                live.running = running

    def _offer_approval(self, thread: Thread, conversation: Conversation, items: list[dict[str, Any]], approval: Any) -> None:
        """Open the approval dialog on the first call that waits for one (or close it when none waits)."""
        pending = pending_approval(thread, items, approval._dismissed)
        if pending is None:
            approval._open_on(None)
            return
        if approval.open and (approval.item, approval.digest) == pending:
            return
        call_id = conversation.call_of(pending[0])
        call = thread.tool_call(call_id) if call_id else None
        if call is not None:
            tool = copilot.tool(call.function.name)
            ui = copilot.tool_ui.get(call.function.name)
            approval._open_on(approval_request(pending[0], pending[1], call, tool, ui))

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

    async def _read_context(self, thread: Thread, sink: ViewSink) -> list[Context]:
        """What the agent sees, read fresh from the page's states for every run (and its state, when shared)."""
        values = []
        async with self:
            for provider in copilot.contexts:
                state = await self.get_state(provider.state) if provider.state is not None else None
                values.append(Context(description=provider.description, value=provider.value(state)))
            if copilot.shared_state is not None:
                page = shared_state(copilot.shared_state).read(await self.get_state(copilot.shared_state))
                thread.state = {**thread.state, **page} if isinstance(thread.state, dict) else page
                sink.shared_state_read()
        return values
