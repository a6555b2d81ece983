"""The person decides on a waiting call: approve (with edited arguments, where the tool allows), deny with a reason,
or answer a question; and a typed message that answers the agent's question.

A decision names a card by its item id and the digest of what the person was shown: the core refuses any other. It
goes to the running turn of the thread (which acts on it at once), to the turn on another worker, or starts a turn
that acts on it.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import reflex as rx

from ..core import Approve, Decision, Deny, Thread, TurnOutcome
from ._approval import ApprovalState
from ._forms import Form
from ._tab import StateTab
from ._tab_conversation import current, offer_approval
from .declarations import copilot
from .sink import BrowserEvent
from .turns import remote, thread_runs, work
from .view import COMPOSER_INPUT_ID, Conversation, approved_arguments, drawn_by_app, shown_arguments

if TYPE_CHECKING:
    from ._copilot import CopilotState

logger = logging.getLogger("copilot_ui.state")

DENIED_WITHOUT_REASON = "the user said no"


async def decide(state: CopilotState, item_id: str, digest: str, decision: Decision) -> AsyncIterator[BrowserEvent]:
    """Take the person's decision on the card `item_id` (shown with `digest`), and the turn that acts on it."""

    async def resume(thread_run: thread_runs.ThreadRun) -> TurnOutcome:
        return await thread_run.loop.drive(thread_run.thread, claim=thread_run.claim)

    def record(thread: Thread, conversation: Conversation, thread_run: thread_runs.ThreadRun | None) -> bool:
        """True when the decision was taken and a new turn must act on it."""
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
    async for event in work(StateTab(state), resume, record=record, remote_request=elsewhere):
        yield event


async def approve_in_dialog(state: CopilotState, form: Form) -> AsyncIterator[BrowserEvent]:
    """Approve in the dialog, with the arguments as the person left them (checked against the tool's schema: a
    problem is shown in the dialog, and nothing is decided)."""
    item_id, digest = card_named(form)
    async with state:
        thread, conversation = current(state)
        approval = await state.get_state(ApprovalState)
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
    async for event in decide(state, item_id, digest, Approve(arguments=arguments)):
        yield event


async def deny_in_dialog(state: CopilotState, form: Form) -> AsyncIterator[BrowserEvent]:
    """Deny in the dialog, with the person's reason (the agent reads it)."""
    item_id, digest = card_named(form)
    async with state:
        approval = await state.get_state(ApprovalState)
        approval.open = False
    async for event in decide(state, item_id, digest, denial(str(form.get("reason") or ""))):
        yield event


def denial(reason: str) -> Deny:
    """The person's no, with their reason (or a plain one)."""
    return Deny(reason.strip() or DENIED_WITHOUT_REASON)


async def review(state: CopilotState, item_id: str) -> None:
    """The card's Review button: its approval dialog opens again."""
    async with state:
        approval = await state.get_state(ApprovalState)
        approval._review(str(item_id))
        thread, conversation = current(state)
        offer_approval(thread, conversation, conversation.items(thread), approval)


def card_named(form: Form) -> tuple[str, str]:
    """The card a decision form is about: its item id and the digest it was shown with."""
    return str(form.get("item") or ""), str(form.get("digest") or "")


def question_for_composer(thread: Thread, conversation: Conversation) -> tuple[str, str] | None:
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
