"""The person decides on a waiting call: approve (with edited arguments, where the tool allows), deny with a reason,
or answer a question; and a typed message that answers the agent's question.

A decision names a card by its item id and the digest of what the person was shown: the core refuses any other. It
goes to the running turn of the thread (which acts on it at once), to the turn on another worker, or starts a turn
that acts on it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import reflex as rx

from ..core import Approve, Decision, Deny
from ._approval import ApprovalState
from ._forms import Form
from ._tab import StateTab, current, offer_approval
from .declarations import copilot
from .sink import BrowserEvent
from .turns import Decide, work
from .view import COMPOSER_INPUT_ID, approved_arguments, shown_arguments

if TYPE_CHECKING:
    from ._copilot import CopilotState

DENIED_WITHOUT_REASON = "the user said no"


async def decide(state: CopilotState, item_id: str, digest: str, decision: Decision) -> AsyncIterator[BrowserEvent]:
    """Take the person's decision on the card `item_id` (shown with `digest`), and the turn that acts on it."""
    yield rx.set_focus(COMPOSER_INPUT_ID)  # the decision is made: back to the message box
    async for event in work(StateTab(state), Decide(str(item_id), str(digest), decision)):
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
