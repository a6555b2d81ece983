"""CopilotState: the conversation of a tab, and the person's events on it.

Sending a message, deciding on a waiting call, Retry, Regenerate, editing a message: each reaches the
one turn of the tab's thread through `turns.work`, given the tab as a `StateTab` (at the end of this
file: the one door through which a turn, its sink and its tools reach this state). The conversation
is kept in the app's store for its owner (`turns`' keeping, `_owner`), comes back after a reload or a
restart, and is one of the owner's threads (`_threads`).

Everything the browser sends is untrusted: an agent is one of the configured ones, a decision names
a card by its item id and the digest of what the person was shown (the core refuses any other), a
message is only text, a thread id is only looked up among the owner's own. No handler can leave the
copilot stuck in "running".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import reflex as rx
from reflex_base.event.context import EventContext
from reflex_base.utils.form import FormData

from ..core import Answer, Approve, Decision, Deny, Thread
from ..protocol import new_id
from ..store import Rating, StoredThread
from ._approval import ApprovalState
from ._closed_sessions import connected, sent_while_connected, watch_closed_sessions
from ._forms import form_answer
from ._live import LiveState
from ._owner import new_owner, signed_owner, verified_owner
from ._startup_heap import freeze_startup_heap
from .declarations import Feedback, attached, attachment_ids, copilot, shared_state, tell_feedback
from .sink import ViewUpdate, script_event
from .turns import Refused, cut_off, deliver_browser_answer, load, remote, resumed, thread_runs, work, worker, written
from .view import (
    COMPOSER_INPUT_ID,
    Conversation,
    approval_request,
    approved_arguments,
    drawn_by_app,
    handover,
    pending_approval,
    shown_arguments,
    whole_texts_script,
    window_texts,
)

RENEW_GRANTS_EVENT = "cui-renew-grants"

logger = logging.getLogger("copilot_ui.state")

WINDOW = 40  # items the browser holds before the person scrolls up: each change of the list resends them
DENIED_WITHOUT_REASON = "the user said no"
COMMENT_LIMIT = 2_000  # characters of a comment on a reply kept and told to the app
OWNER_COOKIE_DAYS = 400
_WATCHED: set[tuple[str, str]] = set()  # (tab token, thread id): tabs waiting here for another worker's turn to end


class CopilotState(rx.State):
    """The conversation shown in the copilot (a window of its most recent items)."""

    items: list[dict[str, Any]] = rx.field(default_factory=list)
    older: list[dict[str, Any]] = rx.field(default_factory=list)  # earlier items the person scrolled up to
    has_older: bool = False
    last_reply: str = ""  # the item id of the last reply (it offers Regenerate)
    agent: str = ""  # the conversation's agent ("" until it has one: the page's)
    model: str = ""  # the name of the model that answers ("Demo model" for the offline one; "" when unknown)
    suggestions: list[str] = rx.field(default_factory=list)  # what the agent proposed to ask next
    # The browser's anonymous owner id, signed (the app's own user id replaces it when the app gives one).
    owner_token: str = rx.Cookie("", name="cui_owner", max_age=OWNER_COOKIE_DAYS * 86400, same_site="lax")
    # The tab's conversation: it comes back after a reload, and after the server restarts.
    thread_id: str = rx.SessionStorage("", name="cui_thread")
    _thread: Thread | None = None
    _conversation: Conversation | None = None
    _agent_id: str = ""
    _page_agent: str = "default"  # the agent the page's copilot names (a new conversation's, unless picked)
    _older_from: int = -1  # index of the first item in `older` (-1: none loaded)
    _worker: str = ""  # the server process (worker) that put `_thread` here: another one's may be out of date

    # Opening

    @rx.event(background=True)
    async def open(self, page_agent: str = "default") -> AsyncIterator[Any]:
        """The copilot is on the page, or its connection is back: show the tab's conversation as it is now (after a
        restart of the server or dev mode's reload, from the store; while another worker drives it, as that worker
        shows it, and from the store once that turn is over, even by the worker's death)."""
        watch_closed_sessions()
        freeze_startup_heap()
        store = await copilot.open_store()  # (before anything of the tab's needs it)
        async with self:
            owner = await self._owner()
            if page_agent in copilot.agent_ids():  # what a new conversation talks to
                self._page_agent = page_agent
                if not self._agent_id:
                    self.agent, self.model = page_agent, copilot.model_label(page_agent)
            held = self.get_value("_thread")
            elsewhere = held is not None and await self._driven_elsewhere(held)
            if held is not None and not elsewhere and not await self._outlived(held):
                return  # what the tab holds is current
            wanted = self.thread_id
        if elsewhere and not await self._until_driven_nowhere_else(held):
            return
        stored = await load(store, owner, wanted) if wanted and store is not None else None
        if stored is None:
            async with self:
                if _id_of(self.get_value("_thread")) != _id_of(held):
                    return  # the person started meanwhile
                if held is not None:
                    await self._keep_without_store(held)
                elif self.thread_id == wanted:
                    self.thread_id = ""
            return
        # A turn works on it, yet the tab did not hold it: its session is new (Reflex renews a tab's session when it
        # reconnects while its old connection is still on record: a network gone without the server seeing it, a
        # worker that died, a duplicated browser tab), and the turn shows the run in the old session, on this worker
        # or another. Shown going, as kept, until that turn is over; then as it ends up.
        here = self._run_of_another_session(stored.thread)
        going = here is not None or await self._driven_elsewhere(stored.thread)
        async for event in self._show_stored(stored, _id_of(held), going=going):
            yield event
        if here is not None:
            over = await self._until_over_here(here, stored.thread)
        else:
            over = going and await self._until_driven_nowhere_else(stored.thread)
        if over:
            stored = await load(store, owner, stored.thread.id)
            if stored is not None:
                # (its texts as that turn last counted them: the tab got some of its pieces when it was first shown)
                counted = here.sink.conversation.seqs if here is not None else {}
                async for event in self._show_stored(stored, stored.thread.id, counted=counted):
                    yield event

    async def _show_stored(
        self, stored: StoredThread, showing: str | None, *, going: bool = False, counted: dict[str, int] | None = None
    ) -> AsyncIterator[Any]:
        """Show a stored conversation (running, when it is `going` for another session or on another worker), unless the
        tab no longer shows the thread `showing` (the person started meanwhile) or a turn of the tab's took it up
        meanwhile (it shows it)."""
        thread, conversation, texts = opened(stored, going=going, counted=counted)
        if texts:
            yield script_event(texts)  # the texts first: the items that show them follow (the agent's words: as text)
        async with self:
            if _id_of(self.get_value("_thread")) != showing:
                return
            thread_run = thread_runs.running(thread.id)
            if (
                thread_run is not None
                and thread_run.thread is not thread
                and thread_run.tab.token == self.router.session.client_token
            ):
                return
            await self._switch(thread, conversation, agent_id=stored.summary.agent)
            if going:
                await self._say_running(True, "")

    # The person writes

    @rx.event(background=True)
    async def send(self, form: dict[str, Any]) -> AsyncIterator[Any]:
        """The person sent a message from the composer (while the agent's question waits, it is their answer)."""
        text, files = str(form.get("message") or "").strip(), attachment_ids(form)
        if not text and not files:
            return
        message_id = new_id("user-")
        async with self:
            self._older_from = -1  # sending brings the person to the end: the older items they read above are let go
            owner = await self._owner()
            thread, conversation = await self._current_or_stored(owner)
            question = _question_for_composer(thread, conversation)
        taken = await attached(owner, files, thread.id)
        if taken.refusal:
            async for event in self._not_sent(text, taken.refusal):
                yield event
            return
        attachments = taken.files
        if question is not None and not attachments:  # with files it is a message, said instead of an answer
            async for event in self._decide(*question, Answer(text)):
                yield event
            return

        async def send_it(thread_run: thread_runs.ThreadRun) -> Any:
            return await thread_run.loop.send(
                thread_run.thread, text, message_id=message_id, claim=thread_run.claim, attachments=attachments
            )

        def join(thread_run: thread_runs.ThreadRun) -> bool:  # a turn is under way: the message goes with its next run
            return thread_run.take_message(message_id, text, attachments)  # False: it winds down; it starts a turn of its own

        async def elsewhere(thread: Thread, _conversation: Conversation) -> bool:
            return await remote.queue(thread.id, message_id, text, attachments)

        asked = str(form.get("agent") or "")
        async for event in work(StateTab(self), send_it, join=join, remote_request=elsewhere, agent_id=asked):
            yield event

    async def _not_sent(self, text: str, refusal: str) -> AsyncIterator[Any]:
        """Tell the person why their message was not sent, in the conversation, and give their text back to the box."""
        async with self:
            thread, conversation = self._current()
            note = conversation.add_note("error", refusal, None)
            self._show(conversation.items(thread))
        yield script_event(whole_texts_script({note.id: [0, refusal]}))
        yield rx.set_value(COMPOSER_INPUT_ID, text)
        # The files may have gone up under a grant of another owner (before a login, a logout): the composer asks
        # for new grants (cui_attach.jsx listens).
        yield script_event(f"window.dispatchEvent(new Event({RENEW_GRANTS_EVENT!r}))")

    @rx.event(background=True)
    async def regenerate(self) -> AsyncIterator[Any]:
        """Answer the person's last message again (the reply and what came with it are replaced)."""

        async def regenerate_it(thread_run: thread_runs.ThreadRun) -> Any:
            last = next((m for m in reversed(thread_run.thread.messages) if m.role == "user"), None)
            if last is not None:
                thread_run.sink.replacing_from(last.id)  # "Stopped." and errors under the old reply go with it
            return await thread_run.loop.regenerate(thread_run.thread, claim=thread_run.claim)

        async for event in work(StateTab(self), regenerate_it, join=lambda _thread_run: True):
            yield event

    @rx.event(background=True)
    async def edit(self, form: dict[str, Any]) -> AsyncIterator[Any]:
        """The person rewrote one of their messages: it and everything after it are replaced by the new text."""
        item_id, text = str(form.get("item") or ""), str(form.get("message") or "").strip()
        async with self:
            _, conversation = self._current()
            message_id = conversation.message_of(item_id)
        if not text or message_id is None:
            return

        async def edit_it(thread_run: thread_runs.ThreadRun) -> Any:
            thread_run.sink.replacing_from(message_id)
            return await thread_run.loop.edit(thread_run.thread, message_id, text, new_id("user-"), claim=thread_run.claim)

        async for event in work(StateTab(self), edit_it, join=lambda _thread_run: True):
            yield event

    @rx.event(background=True)
    async def rate(self, form: dict[str, Any]) -> None:
        """The person rated a reply (Good response / Bad response, with an optional comment): shown as chosen, kept
        with the message in the store, then told to the app's feedback hooks."""
        item_id, rating = str(form.get("item") or ""), str(form.get("rating") or "")
        comment = str(form.get("comment") or "").strip()[:COMMENT_LIMIT]
        if rating not in ("good", "bad"):
            return
        async with self:
            owner = await self._owner()
            thread, conversation = self._current()
            message_id = conversation.message_of(item_id)
            reply = thread.message(message_id) if message_id is not None else None
            if reply is None or reply.role != "assistant":
                return
            conversation.ratings[reply.id] = rating
            self._show(conversation.items(thread))
            feedback = Feedback(
                thread_id=thread.id,
                message_id=reply.id,
                text=copilot.scrubber().scrub(reply.content) if isinstance(reply.content, str) else "",
                rating=rating,  # type: ignore[arg-type]
                comment=comment,
                owner=owner,
                agent_id=self.agent,
                model=self.model,
                run_id=conversation.runs.get(reply.id, ""),
            )
        store = await copilot.open_store()
        if store is not None and conversation.created:
            try:
                await written(thread.id)  # (the reply's own save may be on its way)
                await asyncio.to_thread(store.rate, owner, thread.id, reply.id, Rating(rating=feedback.rating, comment=comment))
            except Exception:
                logger.exception("keeping the rating of a reply in conversation %s failed", thread.id)
        await tell_feedback(copilot.feedback_hooks, feedback)

    @rx.event(background=True)
    async def retry(self) -> AsyncIterator[Any]:
        """Retry after an error: the failed step runs again."""

        async def retry_it(thread_run: thread_runs.ThreadRun) -> Any:
            thread_run.sink.retrying()  # the error (or "Interrupted") that offered Retry is answered now
            return await thread_run.loop.retry(thread_run.thread, claim=thread_run.claim)

        async for event in work(StateTab(self), retry_it, join=lambda _thread_run: True):
            yield event

    @rx.event(background=True)
    async def stop(self) -> None:
        """The person pressed Stop: the turn of this tab's thread stops now."""
        async with self:
            thread = self.get_value("_thread")
        thread_run = thread_runs.running(thread.id) if thread is not None else None
        if thread_run is not None:
            thread_run.loop.abort()
        elif thread is not None:
            await remote.stop(thread.id)

    @rx.event
    def pick_agent(self, agent_id: str) -> None:
        """The picker: talk to another of the configured agents (a conversation keeps its agent, so a new one starts)."""
        if agent_id not in copilot.agent_ids() or agent_id == self.agent:
            return
        thread = self.get_value("_thread")
        if thread is not None and len(thread):
            self._take(Thread(), None)
        self._agent_id, self.agent, self.model = agent_id, agent_id, copilot.model_label(agent_id)

    @rx.event(background=True)
    async def new_conversation(self) -> None:
        """Start a new conversation; the one shown stays in the list (and finishes its run, if one goes)."""
        async with self:
            await self._switch(Thread(), None)

    # The person decides

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
    async def respond_form(self, form: FormData) -> AsyncIterator[Any]:
        """A question card's form (ToolCallView.form) was sent: its fields are the answer (see `_forms`)."""
        item_id, digest, answer = form_answer(form)
        async for event in self._decide(item_id, digest, Answer(answer)):
            yield event

    @rx.event(background=True)
    async def answer(self, form: dict[str, Any]) -> AsyncIterator[Any]:
        """The default question card's form: its answer is text."""
        item_id, digest = _card_named(form)
        async for event in self._decide(item_id, digest, Answer(str(form.get("answer") or ""))):
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
        item_id, digest = _card_named(form)
        async with self:
            thread, conversation = self._current()
            approval = await self.get_state(ApprovalState)
            call_id = conversation.call_of(item_id)
            call = thread.tool_call(call_id) if call_id else None
            tool = copilot.tool(call.function.name) if call is not None else None
            arguments, problem = None, ""
            shown = shown_arguments(thread, call) if call is not None else None
            if shown is not None and tool is not None and approval.editable and approval.item == item_id:
                try:
                    arguments = approved_arguments(shown, tool, copilot.tool_ui.get(tool.name), form)
                except ValueError as invalid:
                    problem = str(invalid)
            approval.error = problem
            if not problem:
                approval.open = False
        if problem:
            return
        async for event in self._decide(item_id, digest, Approve(arguments=arguments)):
            yield event

    @rx.event(background=True)
    async def deny_form(self, form: dict[str, Any]) -> AsyncIterator[Any]:
        """Deny in the dialog, with the person's reason (the agent reads it)."""
        item_id, digest = _card_named(form)
        async with self:
            approval = await self.get_state(ApprovalState)
            approval.open = False
        reason = str(form.get("reason") or "").strip()
        async for event in self._decide(item_id, digest, Deny(reason or DENIED_WITHOUT_REASON)):
            yield event

    # What the browser asks for

    @rx.event(background=True)
    async def need_texts(self, tids: list[str]) -> AsyncIterator[Any]:
        """The tab lacks these texts (it reloaded, reconnected, or scrolled to older items): hand them over."""
        async with self:
            thread, conversation = self.get_value("_thread"), self.get_value("_conversation")
        if thread is None or conversation is None or not isinstance(tids, list):
            return
        thread_run = thread_runs.running(thread.id)
        if thread_run is not None:  # the running turn holds the newest thread and what it sent
            thread, conversation = thread_run.thread, thread_run.sink.conversation
        elif await remote.texts(thread.id, tids):
            return  # the worker that turns the thread hands them over
        so_far = thread_run.sink.text_so_far if thread_run is not None else None
        script = handover(tids, thread, conversation, so_far, copilot.scrubber())
        if script:
            yield script_event(script)

    @rx.event(background=True)
    async def browser_result(self, reply: Any) -> None:
        """A browser tool's script answered (its callback)."""
        token = self.router.session.client_token
        if not deliver_browser_answer(token, reply):
            await remote.browser_answer(token, reply)

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

    # Helpers (inside `async with self`)

    async def _owner(self) -> str:
        """Whose conversations these are: the app's user id, or the browser's signed anonymous id (made on first use).

        The first time the app names a user for a browser that had an anonymous owner, that browser's conversations
        move to the user (and the browser's anonymous owner is let go)."""
        if copilot.owner is not None:
            user = copilot.owner(self)
            user = await user if hasattr(user, "__await__") else user
            if user:
                return await self._logged_in(f"user:{user}")
        owner = verified_owner(self.owner_token)
        if owner is None:
            owner = new_owner()
            self.owner_token = signed_owner(owner)
        return owner

    async def _logged_in(self, user: str) -> str:
        guest = verified_owner(self.owner_token)
        store = await copilot.open_store() if guest is not None else None
        if guest is not None and store is not None:
            try:
                moved = await asyncio.to_thread(store.move, guest, user)
            except Exception:
                logger.exception("moving a browser's conversations to the person who logged in failed")
                return user  # the browser keeps its owner: the move is tried again on the next event
            logger.info("moved %d conversations of a browser to %s, who logged in on it", moved, user)
        if guest is not None:
            self.owner_token = ""
        return user

    async def _current_or_stored(self, owner: str) -> tuple[Thread, Conversation]:
        """The tab's thread as it is now: from the store when the tab lost it (a new session after a reconnect) or
        holds it from another life of the server."""
        held = self.get_value("_thread")
        if held is None or await self._outlived(held):
            store = await copilot.open_store()
            stored = await load(store, owner, self.thread_id) if self.thread_id and store is not None else None
            if stored is not None:
                await self._switch(*resumed(stored, copilot.rendered_tools()), agent_id=stored.summary.agent)
            elif held is not None:
                await self._keep_without_store(held)
        return self._current()

    async def _outlived(self, thread: Thread) -> bool:
        """Whether the tab's thread was put there by another life of the server (before a restart, or dev mode's
        reload) or by another worker, and no turn works on it now: then the store has it as it is, and a run the
        tab shows as going is gone."""
        if self._worker == worker():
            return False
        return thread_runs.running(thread.id) is None and not await remote.driven_elsewhere(thread.id)

    async def _driven_elsewhere(self, thread: Thread) -> bool:
        """Whether another worker drives the tab's thread now (and writes what the tab shows of it)."""
        return thread_runs.running(thread.id) is None and await remote.driven_elsewhere(thread.id)

    async def _until_driven_nowhere_else(self, thread: Thread) -> bool:
        """Wait, outside the lock, for the turn of the tab's thread on another worker to be over; True when the tab
        still shows the thread and no turn here took it up: then the store has it as it is.

        That worker writes what the tab shows while it drives. Should it die, nothing would write again: the tab
        would show the run going for ever. Its claim lapses within the lease; then the tab shows the conversation as
        kept, the run cut off, with Retry. One wait per tab and thread on a worker (a tab reconnects often)."""
        return await self._until_over(thread, lambda: remote.over_elsewhere(thread.id))

    def _run_of_another_session(self, thread: Thread) -> thread_runs.ThreadRun | None:
        """The turn working on the thread on this worker for another session than the tab's, if any."""
        thread_run = thread_runs.running(thread.id)
        return thread_run if thread_run is not None and thread_run.tab.token != self.router.session.client_token else None

    async def _until_over_here(self, thread_run: thread_runs.ThreadRun, thread: Thread) -> bool:
        """Wait, outside the lock, for the turn of another session on this worker to be over; True when the tab still
        shows the thread and no turn took it up since: then the store has it as it ends up."""
        return await self._until_over(thread, lambda: asyncio.shield(thread_run.closed))

    async def _until_over(self, thread: Thread, over: Callable[[], Awaitable[Any]]) -> bool:
        """Wait for `over()` (a turn of the tab's thread that shows it elsewhere is over), once per tab and thread on
        a worker; True when the tab still shows the thread and no turn here took it up meanwhile."""
        watch = (self.router.session.client_token, thread.id)
        if watch in _WATCHED:
            return False
        _WATCHED.add(watch)
        try:
            await over()
        finally:
            _WATCHED.discard(watch)
        async with self:
            return _id_of(self.get_value("_thread")) == thread.id and thread_runs.running(thread.id) is None

    async def _keep_without_store(self, thread: Thread) -> None:
        """A thread another life of the server left in the tab, which no store has: kept, the run it showed cut off."""
        conversation = self.get_value("_conversation") or Conversation.of(thread.id, copilot.rendered_tools())
        if (await self.get_state(LiveState)).running:
            cut_off(thread, conversation, thread.last_message_id())
        await self._switch(thread, conversation, agent_id=self._agent_id)

    def _current(self) -> tuple[Thread, Conversation]:
        """The tab's thread and its view (made on first use), as plain objects: a turn uses them outside the lock."""
        thread, conversation = self.get_value("_thread"), self.get_value("_conversation")
        if thread is None or conversation is None:
            thread = Thread()
            conversation, _ = self._take(thread, None, agent_id=self._agent_id)  # an agent picked before the first message
        return thread, conversation

    async def _switch(self, thread: Thread, conversation: Conversation | None, agent_id: str = "") -> None:
        """Show this conversation in the tab, whether a run is working on it, and what waits for approval in it."""
        conversation, items = self._take(thread, conversation, agent_id)
        approval = await self.get_state(ApprovalState)
        approval._dismissed.clear()
        self._offer_approval(thread, conversation, items, approval)
        live = await self.get_state(LiveState)
        live.running, live.status = thread_runs.running(thread.id) is not None, ""

    def _take(
        self, thread: Thread, conversation: Conversation | None, agent_id: str = ""
    ) -> tuple[Conversation, list[dict[str, Any]]]:
        """Show this conversation in the tab (a new one when `conversation` is None); its view and its items."""
        conversation = conversation or Conversation.of(thread.id, copilot.rendered_tools())
        self._thread, self._conversation, self._agent_id, self._worker = thread, conversation, agent_id, worker()
        shown = agent_id or self._page_agent
        self.thread_id, self.agent, self.model, self.suggestions = thread.id, shown, copilot.model_label(shown), []
        self.items, self.older, self.has_older, self._older_from = [], [], False, -1
        items = conversation.items(thread)
        self._show(items)
        return conversation, items

    async def _decide(self, item_id: str, digest: str, decision: Decision) -> AsyncIterator[Any]:
        async def resume(thread_run: thread_runs.ThreadRun) -> Any:
            return await thread_run.loop.drive(thread_run.thread, claim=thread_run.claim)

        def record(thread: Thread, conversation: Conversation, thread_run: thread_runs.ThreadRun | None) -> bool:
            """True when the decision was taken and a new turn must act on it."""
            nonlocal decision
            call_id = conversation.call_of(str(item_id))
            if call_id is None:
                logger.warning("a decision named no card of this conversation (%r); ignored", item_id)
                return False
            if thread_run is not None:  # the running turn acts on it at once
                thread_run.loop.decide(thread_run.thread, call_id, decision, str(digest))
                return False
            return thread.decide(call_id, decision, str(digest))

        async def elsewhere(thread: Thread, conversation: Conversation) -> bool:
            call_id = conversation.call_of(str(item_id))
            return call_id is None or await remote.decide(thread.id, call_id, decision, str(digest))

        yield rx.set_focus(COMPOSER_INPUT_ID)  # the decision is made: back to the message box
        async for event in work(StateTab(self), resume, record=record, remote_request=elsewhere):
            yield event

    async def _show_run(self, shown: ViewUpdate) -> None:
        """A turn's sink writes what the tab shows: the items, the status line, the agent's state; the thread is kept
        with the tab's state."""
        async with self:
            showing = self.get_value("_thread")
            if showing is not None and showing.id != shown.thread.id:
                return  # the tab moved on to another conversation: this turn's view is written nowhere
            thread, conversation = shown.thread, shown.conversation
            self._thread, self._conversation, self._worker = thread, conversation, worker()
            if shown.items is not None:
                self._show(shown.items)
                self._offer_approval(thread, conversation, shown.items, await self.get_state(ApprovalState))
            for state_type, values in shown.shared.items():
                shared_state(state_type).write(await self.get_state(state_type), values)
            if shown.suggestions is not None and shown.suggestions != self.suggestions:
                self.suggestions = shown.suggestions
            elif shown.running and self.suggestions:
                self.suggestions = []
            await self._say_running(shown.running, shown.status)

    async def _say_running(self, running: bool, status: str, dev: str = "") -> None:
        """Whether a turn runs for the tab and what it does now (inside `async with self`)."""
        live = await self.get_state(LiveState)
        if live.status != status:
            live.status = status
        if live.running != running:
            live.running = running
        if dev and live.dev != dev:
            live.dev = dev

    def _agent_for(self, asked: str, thread: Thread, conversation: Conversation) -> str | Refused:
        """The agent a new turn of the conversation talks to: the one it has, else the one asked for, if configured
        (then fixed); else the refusal, shown in the conversation (inside `async with self`)."""
        if self._agent_id:
            return self._agent_id
        known = copilot.agent_ids()
        wanted = asked or "default"
        if wanted not in known:
            shown = "".join(ch for ch in wanted[:40] if ch.isprintable())
            refusal = copilot.labels.said("no_such_agent", agent=repr(shown), agents=", ".join(known))
            note = conversation.add_note("error", refusal, None)
            self._show(conversation.items(thread))
            return Refused(whole_texts_script({note.id: [0, refusal]}))
        self._agent_id, self.agent, self.model = wanted, wanted, copilot.model_label(wanted)
        return wanted

    def _offer_approval(self, thread: Thread, conversation: Conversation, items: list[dict[str, Any]], approval: Any) -> None:
        """Open the approval dialog on the first call that waits for one (or close it when none waits)."""
        pending = pending_approval(items, approval._dismissed)
        if pending is None:
            approval._open_on(None)
            return
        if approval.open and (approval.item, approval.digest) == pending:
            return
        call_id = conversation.call_of(pending[0])
        call = thread.tool_call(call_id) if call_id else None
        shown = shown_arguments(thread, call) if call is not None else None
        if call is not None and shown is not None:
            tool = copilot.tool(call.function.name)
            ui = copilot.tool_ui.get(call.function.name)
            approval._open_on(approval_request(pending[0], pending[1], call, shown, tool, ui))

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
        last = next((item for item in reversed(items) if item["k"] in ("a", "u")), None)
        last_reply = last["id"] if last is not None and last["k"] == "a" else ""  # after the person's last message
        if last_reply != self.last_reply:
            self.last_reply = last_reply


def _card_named(form: dict[str, Any]) -> tuple[str, str]:
    """The card a decision form is about: its item id and the digest it was shown with."""
    return str(form.get("item") or ""), str(form.get("digest") or "")


def opened(
    stored: StoredThread, *, going: bool = False, counted: dict[str, int] | None = None
) -> tuple[Thread, Conversation, str]:
    """A stored conversation as a tab opens it: as the turn working on it has it (if one does), else as stored (cut
    off, unless `going` on another worker); and the script that hands over the texts of its window, to send before its
    items (so that it shows at once). `counted`: the pieces of its texts a turn sent, which the tab may hold (a whole
    text handed over at a lower count would be taken for an older one)."""
    running = thread_runs.running(stored.thread.id)
    if running is not None:
        thread, conversation = running.thread, running.sink.conversation
    else:
        thread, conversation = resumed(stored, copilot.rendered_tools(), going=going)
        conversation.seqs.update(counted or {})
    so_far = running.sink.text_so_far if running is not None else None
    # (nothing writes it: its texts as kept replace what the tab holds, say the pieces a turn cut off had sent it)
    texts = window_texts(thread, conversation, so_far, copilot.scrubber(), WINDOW, replace=running is None and not going)
    return thread, conversation, texts


def _question_for_composer(thread: Thread, conversation: Conversation) -> tuple[str, str] | None:
    """The card (item id, digest) of the first question waiting for the person that a typed message answers: one
    whose answer is text (the default card asks for text; an app's own card, without a text answer, does not)."""
    thread_run = thread_runs.running(thread.id)
    thread = thread_run.thread if thread_run is not None else thread  # the running turn holds the newest thread
    for key, waiting in thread.awaiting.items():
        item_id = conversation.ids.get("c:" + key)
        if waiting.kind != "input" or key in thread.decisions or item_id is None:
            continue
        if waiting.interrupt_id is not None or _takes_text(waiting.tool_name):  # an agent's question is text
            return item_id, waiting.digest
    return None


def _takes_text(tool_name: str) -> bool:
    """Whether a question tool's answer may be a typed message: its answer function takes text, or it has none and
    its card is the default one (which asks for text)."""
    tool = copilot.tool(tool_name)
    if tool is None or not tool.takes_text_answer:
        return False
    return tool.answer_type is not None or not drawn_by_app(tool_name, copilot.rendered_tools())


def _id_of(thread: Thread | None) -> str | None:
    return thread.id if thread is not None else None


class StateTab:
    """A tab's CopilotState as the turns of its conversation reach it (the `turns.Tab` the turn uses).

    Reflex sends a change of the state to the tab named by the running task's event context, not by the state. A
    turn is also reached from tasks of other events: a control from another worker (its listener was started by
    whichever tab first needed it), a message from another tab of the conversation. Their changes went to that other
    tab: the person's tab missed them (a message written on the other worker showed only when the run's step ended),
    and the other tab was shown a conversation not its own (left stale: "Running", texts blank, no Send). So every
    block here runs in the context of the event that made this tab.
    """

    def __init__(self, state: CopilotState) -> None:
        self._state = state
        self.token = state.router.session.client_token
        self.page = state.router.url.path or "/"
        self.browser_answer = CopilotState.browser_result
        self._event = sent_while_connected(EventContext.get())  # (a reply goes on when the tab closes: sent nowhere)

    @contextlib.asynccontextmanager
    async def locked(self) -> AsyncIterator[Any]:
        with self._own_context():
            async with self._state:  # `async with` a background event's state locks it
                yield self._state

    @contextlib.contextmanager
    def _own_context(self) -> Iterator[None]:
        reset = EventContext.set(self._event)
        try:
            yield
        finally:
            EventContext.reset(reset)

    def connected(self) -> bool:
        return connected(self.token)

    async def owner(self) -> str:
        return await self._state._owner()

    async def conversation(self, owner: str) -> tuple[Thread, Conversation]:
        return await self._state._current_or_stored(owner)

    def agent(self, asked: str, thread: Thread, conversation: Conversation) -> str | Refused:
        return self._state._agent_for(asked, thread, conversation)

    async def page_state(self, state_type: type) -> Any:
        return await self._state.get_state(state_type)

    async def show(self, shown: ViewUpdate) -> None:
        with self._own_context():
            await self._state._show_run(shown)

    async def running(self, running: bool, status: str = "", dev: str = "") -> None:
        async with self.locked():
            await self._state._say_running(running, status, dev)

    async def say_running(self, running: bool, status: str = "", dev: str = "") -> None:
        await self._state._say_running(running, status, dev)
