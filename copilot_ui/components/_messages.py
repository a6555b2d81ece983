"""The conversation: a window of its items (earlier ones on request), then what the copilot does now.

Each item is small (id, kind, a few fields); its text comes from the browser's text store, so a
reply that streams changes nothing here: only the text component of that reply re-renders.
"""

from __future__ import annotations

from collections.abc import Sequence

import reflex as rx

from ..state import CopilotState, LiveState
from ._activity import activity_card
from ._attachments import message_files
from ._layout import CuiActions
from ._scroll import CuiScroll
from ._text import text
from ._tool_card import tool_card

CONVERSATION_ID = "cui-conversation"


def conversation(suggestions: Sequence[str] = ()) -> rx.Component:
    """Every item shown, then the status line; on an empty conversation, the app's suggestions."""
    return rx.el.div(
        CuiScroll.create(
            target=CONVERSATION_ID,
            conversation=CopilotState.thread_id,
            has_older=CopilotState.has_older,
            on_older=CopilotState.load_older,
        ),
        rx.cond(
            CopilotState.has_older,
            rx.el.button("Show earlier messages", type="button", on_click=CopilotState.load_older, class_name="cui-older"),
        ),
        rx.cond((CopilotState.items.length() == 0) & ~LiveState.running, _welcome(suggestions)),
        rx.foreach(CopilotState.older, chat_item),
        rx.foreach(CopilotState.items, chat_item),
        rx.cond(
            LiveState.status != "",
            rx.text(LiveState.status, size="1", color_scheme="gray", class_name="cui-status", role="status"),
        ),
        rx.cond(
            (CopilotState.suggestions.length() > 0) & ~LiveState.running,
            rx.el.div(rx.foreach(CopilotState.suggestions, _chip), class_name="cui-chips", aria_label="Suggestions"),
        ),
        id=CONVERSATION_ID,
        class_name="cui-conversation",
        role="log",
        aria_live="polite",
        aria_label="Conversation",
    )


def chat_item(item: rx.Var) -> rx.Component:
    """One item, by its kind (keyed by its id: when the window moves, the items that stay are kept, not rebuilt)."""
    return rx.fragment(
        rx.match(
            item["k"],
            ("u", _user(item)),
            ("a", _reply(item)),
            ("r", _reasoning(item)),
            ("t", tool_card(item)),
            ("v", activity_card(item)),
            ("e", _error(item)),
            ("n", _notice(item)),
            rx.fragment(),
        ),
        key=item["id"],
    )


def _user(item: rx.Var) -> rx.Component:
    item_id = item["id"].to(str)
    return rx.el.div(
        rx.el.div(
            text(item_id, markdown=False),
            rx.cond(item["q"], rx.el.span("Queued", class_name="cui-queued")),
            message_files(item),
            class_name="cui-user",
            data_kind="user",
            data_queued=rx.cond(item["q"], "true", "false"),
        ),
        rx.cond(
            ~item["q"].bool(),
            CuiActions.create(tid=item_id, item_id=item_id, can_edit=~LiveState.running, on_edit=CopilotState.edit),
        ),
        class_name="cui-turn cui-turn-user",
        role="group",
        aria_label="You",
        key=item_id,
    )


def _reply(item: rx.Var) -> rx.Component:
    item_id = item["id"].to(str)
    return rx.el.div(
        rx.el.div(
            text(item_id, live=item["live"].bool()),
            class_name="cui-reply",
            data_kind=rx.cond(item["live"], "live", "assistant"),
        ),
        rx.cond(
            ~item["live"].bool(),
            rx.el.div(
                CuiActions.create(tid=item_id, item_id=item_id),
                rx.cond(
                    (CopilotState.last_reply == item_id) & ~LiveState.running,
                    rx.el.button("Regenerate", type="button", class_name="cui-action", on_click=CopilotState.regenerate),
                ),
                class_name="cui-reply-actions",
            ),
        ),
        class_name="cui-turn",
        role="group",
        aria_label="Copilot",
        key=item_id,
    )


def _reasoning(item: rx.Var) -> rx.Component:
    return rx.el.details(
        rx.el.summary(
            rx.cond(item["live"], "Thinking…", rx.cond(item["sec"], "Thought for " + item["sec"].to(str) + " s", "Thoughts"))
        ),
        text(item["id"], live=item["live"].bool(), class_name="cui-reasoning-text"),
        class_name="cui-reasoning",
        data_kind="reasoning",
        key=item["id"],
    )


def _error(item: rx.Var) -> rx.Component:
    return rx.callout.root(
        rx.callout.icon(rx.icon("triangle_alert", size=16)),
        rx.el.div(
            text(item["id"], markdown=False),
            rx.cond(
                item["retry"],
                rx.button("Retry", size="1", variant="soft", color_scheme="red", on_click=CopilotState.retry, type="button"),
            ),
            class_name="cui-error-body",
        ),
        color_scheme="red",
        size="1",
        role="alert",
        data_kind="error",
        key=item["id"],
    )


def _notice(item: rx.Var) -> rx.Component:
    return rx.el.div(text(item["id"], markdown=False), class_name="cui-notice", data_kind="notice", key=item["id"])


def _welcome(suggestions: Sequence[str]) -> rx.Component:
    return rx.el.div(
        rx.text("Ask about the page, or ask the copilot to change it.", size="2", color_scheme="gray"),
        rx.el.div(*(_chip(suggestion) for suggestion in suggestions), class_name="cui-chips", aria_label="Suggestions")
        if suggestions
        else rx.fragment(),
        class_name="cui-welcome",
    )


def _chip(suggestion: rx.Var[str] | str) -> rx.Component:
    return rx.el.button(suggestion, type="button", class_name="cui-chip", on_click=CopilotState.send({"message": suggestion}))
