"""The conversation: finished items, the tool calls in flight, the reply being written, what the copilot does now."""

from __future__ import annotations

import reflex as rx

from ..state import ChatItem, CopilotState, LiveState
from ._scroll import stick_to_bottom
from ._tool_card import tool_card

CONVERSATION_ID = "cui-conversation"


def conversation() -> rx.Component:
    """Every item of the conversation, then what is live."""
    return rx.el.div(
        stick_to_bottom(CONVERSATION_ID),
        rx.cond(CopilotState.items.length() == 0, _welcome()),
        rx.foreach(CopilotState.items, chat_item),
        rx.foreach(LiveState.tools, tool_card),
        rx.cond(LiveState.text != "", rx.el.div(LiveState.text, class_name="cui-reply cui-streaming", data_kind="live")),
        rx.cond(LiveState.status != "", rx.text(LiveState.status, size="1", color_scheme="gray", class_name="cui-status")),
        id=CONVERSATION_ID,
        class_name="cui-conversation",
        role="log",
        aria_live="polite",
        aria_label="Conversation",
    )


def chat_item(item: ChatItem) -> rx.Component:
    """One finished item."""
    return rx.match(
        item.kind,
        ("user", rx.el.div(item.text, class_name="cui-user", data_kind="user")),
        ("assistant", assistant_reply(text=item.text)),
        ("tool", tool_card(item)),
        ("error", rx.callout(item.text, icon="triangle_alert", color_scheme="red", size="1", data_kind="error", role="alert")),
        ("notice", rx.text(item.text, size="1", color_scheme="gray", data_kind="notice")),
        rx.el.div(item.text),
    )


@rx.memo
def assistant_reply(text: rx.Var[str]) -> rx.Component:
    """A finished reply, as Markdown (a component of its own: Markdown's renderers use hooks)."""
    return rx.el.div(rx.markdown(text), class_name="cui-reply", data_kind="assistant")


def _welcome() -> rx.Component:
    return rx.text(
        "Ask about the page, or ask the copilot to change it.",
        size="2",
        color_scheme="gray",
        class_name="cui-welcome",
    )
