"""The conversation: finished items, the tool calls in flight, the reply being written, what the copilot does now."""

from __future__ import annotations

import reflex as rx

from ..state import ChatItem, CopilotState, LiveState
from ._tool_card import tool_card


def conversation() -> rx.Component:
    """Every item of the conversation, then what is live."""
    return rx.auto_scroll(
        rx.cond(CopilotState.items.length() == 0, _welcome()),
        rx.foreach(CopilotState.items, chat_item),
        rx.foreach(LiveState.tools, tool_card),
        rx.cond(LiveState.text != "", rx.el.div(LiveState.text, class_name="cui-reply cui-streaming", data_kind="live")),
        rx.cond(LiveState.status != "", rx.text(LiveState.status, size="1", color_scheme="gray", class_name="cui-status")),
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
        ("assistant", rx.el.div(rx.markdown(item.text), class_name="cui-reply", data_kind="assistant")),
        ("tool", tool_card(item)),
        ("error", rx.callout(item.text, icon="triangle_alert", color_scheme="red", size="1", data_kind="error", role="alert")),
        ("notice", rx.text(item.text, size="1", color_scheme="gray", data_kind="notice")),
        rx.el.div(item.text),
    )


def _welcome() -> rx.Component:
    return rx.text(
        "Ask about the page, or ask the copilot to change it.",
        size="2",
        color_scheme="gray",
        class_name="cui-welcome",
    )
