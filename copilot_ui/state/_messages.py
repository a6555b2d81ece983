"""What the person writes starts or joins a run: a message from the composer, a rewritten message, Regenerate,
and Retry after an error.

A message is only text (and the ids of the owner's uploaded files). While a run goes, a message joins its next run;
while the agent's question waits, a typed message is the answer.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import reflex as rx

from ..core import Attachment
from ..protocol import new_id
from ._forms import Form
from ._owner import owner_of_tab
from ._tab import StateTab, current, current_or_stored, show_items
from .declarations import attached, attachment_ids
from .sink import BrowserEvent, script_event
from .turns import Edit, Regenerate, Retry, SendMessage, work
from .view import COMPOSER_INPUT_ID, whole_texts_script

if TYPE_CHECKING:
    from ._copilot import CopilotState

RENEW_GRANTS_EVENT = "cui-renew-grants"  # the composer asks for new upload grants on it (cui_attach.jsx)


async def send(state: CopilotState, form: Form) -> AsyncIterator[BrowserEvent]:
    """The person sent a message from the composer (while the agent's question waits, it is their answer)."""
    text, files = str(form.get("message") or "").strip(), attachment_ids(form)
    if not text and not files:
        return
    attachments: tuple[Attachment, ...] = ()
    if files:  # they must be the owner's own uploads, for this conversation
        async with state:
            state._older_from = -1  # (as the tab's first lock in `work` does: sending brings the person to the end)
            owner = await owner_of_tab(state)
            thread, _ = await current_or_stored(state, owner)
        taken = await attached(owner, files, thread.id)
        if taken.refusal:
            async for event in _not_sent(state, text, taken.refusal):
                yield event
            return
        attachments = taken.files
    message_id = new_id("user-")
    message = SendMessage(message_id, text, attachments, agent_id=str(form.get("agent") or ""))
    async for event in work(StateTab(state, to_the_end=True), message):
        yield event


async def regenerate(state: CopilotState) -> AsyncIterator[BrowserEvent]:
    """Answer the person's last message again (the reply and what came with it are replaced)."""
    async for event in work(StateTab(state), Regenerate()):
        yield event


async def edit(state: CopilotState, form: Form) -> AsyncIterator[BrowserEvent]:
    """The person rewrote one of their messages: it and everything after it are replaced by the new text."""
    item_id, text = str(form.get("item") or ""), str(form.get("message") or "").strip()
    async with state:
        _, conversation = current(state)
        message_id = conversation.message_of(item_id)
    if not text or message_id is None:
        return
    async for event in work(StateTab(state), Edit(message_id, text)):
        yield event


async def retry(state: CopilotState) -> AsyncIterator[BrowserEvent]:
    """Retry after an error: the failed step runs again."""
    async for event in work(StateTab(state), Retry()):
        yield event


async def _not_sent(state: CopilotState, text: str, refusal: str) -> AsyncIterator[BrowserEvent]:
    """Tell the person why their message was not sent, in the conversation, and give their text back to the box."""
    async with state:
        thread, conversation = current(state)
        note = conversation.add_note("error", refusal, None)
        show_items(state, conversation.items(thread))
    yield script_event(whole_texts_script({note.id: [0, refusal]}))
    yield rx.set_value(COMPOSER_INPUT_ID, text)
    # The files may have gone up under a grant of another owner (before a login, a logout): new grants are asked for.
    yield script_event(f"window.dispatchEvent(new Event({RENEW_GRANTS_EVENT!r}))")
