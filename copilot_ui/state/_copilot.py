"""CopilotState: the conversation a tab shows, and the person's events on it.

The handlers' names are part of the page's compiled frontend and of apps' code; each hands its work to the module
named for it: `_messages` (send, edit, Regenerate, Retry), `_decisions` (approve, deny, answer), `_rating`,
`_reopening` (the conversation comes back after a reload or a restart) and `_tab` (what the tab shows, which agent
it talks to; a turn reaches this state through its `StateTab`). The conversation is kept in the app's store for its
owner (`_owner`) and is one of the owner's threads (`_threads`).

Everything the browser sends is untrusted: an agent is one of the configured ones, a decision names a card by its
item id and the digest of what the person was shown (the core refuses any other), a message is only text, a thread
id is only looked up among the owner's own. No handler can leave the copilot stuck in "running".
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import reflex as rx
from reflex_base.utils.form import FormData

from ..core import Answer, Approve, Thread
from . import _decisions, _messages, _rating, _reopening
from ._closed_sessions import watch_closed_sessions
from ._forms import Form, form_answer
from ._garbage_collector import set_up_garbage_collector
from ._tab import hand_over_texts, pick_agent, show_older, switch
from .sink import BrowserEvent
from .turns import deliver_browser_answer, remote, thread_runs
from .view import Conversation, Item

OWNER_COOKIE_DAYS = 400


class CopilotState(rx.State):
    """The conversation shown in the copilot (a window of its most recent items)."""

    items: rx.Field[list[Item]] = rx.field(default_factory=list)
    older: rx.Field[list[Item]] = rx.field(default_factory=list)  # earlier items the person scrolled up to
    has_older: bool = False
    last_reply: str = ""  # the item id of the last reply (it offers Regenerate)
    agent: str = ""  # the conversation's agent ("" until it has one: the page's)
    model: rx.Field[str] = rx.field("")  # the name of the model that answers ("Demo model" for the offline one; "" when unknown)
    suggestions: rx.Field[list[str]] = rx.field(default_factory=list)  # what the agent proposed to ask next
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
    async def open(self, page_agent: str = "default") -> AsyncIterator[BrowserEvent]:
        """The copilot is on the page, or its connection is back: show the tab's conversation as it is now."""
        watch_closed_sessions()
        set_up_garbage_collector()
        async for event in _reopening.reopen(self, page_agent):
            yield event

    @rx.event(background=True)
    async def new_conversation(self) -> None:
        """Start a new conversation; the one shown stays in the list (and finishes its run, if one goes)."""
        async with self:
            await switch(self, Thread(), None)

    @rx.event
    def pick_agent(self, agent_id: str) -> None:
        """The picker: talk to another of the configured agents (a conversation keeps its agent, so a new one starts)."""
        pick_agent(self, agent_id)

    # The person writes

    @rx.event(background=True)
    async def send(self, form: Form) -> AsyncIterator[BrowserEvent]:
        """The person sent a message from the composer (while the agent's question waits, it is their answer)."""
        async for event in _messages.send(self, form):
            yield event

    @rx.event(background=True)
    async def regenerate(self) -> AsyncIterator[BrowserEvent]:
        """Answer the person's last message again (the reply and what came with it are replaced)."""
        async for event in _messages.regenerate(self):
            yield event

    @rx.event(background=True)
    async def edit(self, form: Form) -> AsyncIterator[BrowserEvent]:
        """The person rewrote one of their messages: it and everything after it are replaced by the new text."""
        async for event in _messages.edit(self, form):
            yield event

    @rx.event(background=True)
    async def retry(self) -> AsyncIterator[BrowserEvent]:
        """Retry after an error: the failed step runs again."""
        async for event in _messages.retry(self):
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

    @rx.event(background=True)
    async def rate(self, form: Form) -> None:
        """The person rated a reply (Good response / Bad response, with an optional comment)."""
        await _rating.rate(self, form)

    # The person decides

    @rx.event(background=True)
    async def approve(self, item_id: str, digest: str, arguments: dict[str, Any] | None = None) -> AsyncIterator[BrowserEvent]:
        """The person approved the call they were shown (with edited arguments, where the tool allows it)."""
        async for event in _decisions.decide(self, item_id, digest, Approve(arguments=arguments or None)):
            yield event

    @rx.event(background=True)
    async def deny(self, item_id: str, digest: str, reason: str = "") -> AsyncIterator[BrowserEvent]:
        """The person said no to the call they were shown; the agent reads their reason."""
        async for event in _decisions.decide(self, item_id, digest, _decisions.denial(str(reason))):
            yield event

    @rx.event(background=True)
    async def respond(self, item_id: str, digest: str, value: Any) -> AsyncIterator[BrowserEvent]:
        """The person answered a question (a human-in-the-loop card): the value becomes the call's result."""
        async for event in _decisions.decide(self, item_id, digest, Answer(value)):
            yield event

    @rx.event(background=True)
    async def respond_form(self, form: FormData) -> AsyncIterator[BrowserEvent]:
        """A question card's form (ToolCallView.form) was sent: its fields are the answer (see `_forms`)."""
        item_id, digest, answer = form_answer(form)
        async for event in _decisions.decide(self, item_id, digest, Answer(answer)):
            yield event

    @rx.event(background=True)
    async def answer(self, form: Form) -> AsyncIterator[BrowserEvent]:
        """The default question card's form: its answer is text."""
        item_id, digest = _decisions.card_named(form)
        async for event in _decisions.decide(self, item_id, digest, Answer(str(form.get("answer") or ""))):
            yield event

    @rx.event(background=True)
    async def review(self, item_id: str) -> None:
        """The card's Review button: its approval dialog opens again."""
        await _decisions.review(self, item_id)

    @rx.event(background=True)
    async def approve_form(self, form: Form) -> AsyncIterator[BrowserEvent]:
        """Approve in the dialog, with the arguments as the person left them (checked against the tool's schema)."""
        async for event in _decisions.approve_in_dialog(self, form):
            yield event

    @rx.event(background=True)
    async def deny_form(self, form: Form) -> AsyncIterator[BrowserEvent]:
        """Deny in the dialog, with the person's reason (the agent reads it)."""
        async for event in _decisions.deny_in_dialog(self, form):
            yield event

    # What the browser asks for

    @rx.event(background=True)
    async def need_texts(self, tids: list[str]) -> AsyncIterator[BrowserEvent]:
        """The tab lacks these texts (it reloaded, reconnected, or scrolled to older items): hand them over."""
        async for event in hand_over_texts(self, tids):
            yield event

    @rx.event(background=True)
    async def browser_result(self, reply: Any) -> None:
        """A browser tool's script answered (its callback)."""
        token = self.router.session.client_token
        if not deliver_browser_answer(token, reply):
            await remote.browser_answer(token, reply)

    @rx.event
    def load_older(self) -> None:
        """The person scrolled to the top: show the items before those shown."""
        show_older(self)
