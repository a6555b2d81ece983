"""The card a tool call shows in the conversation: its name, its arguments (live while they stream), its result."""

from __future__ import annotations

import reflex as rx

from ..state import ChatItem

_STATUS_LABELS = {
    "streaming": "Preparing",
    "pending": "Queued",
    "running": "Running",
    "awaiting_approval": "Needs approval",
    "awaiting_input": "Needs your answer",
    "complete": "Done",
    "error": "Failed",
    "denied": "Denied",
    "aborted": "Stopped",
    "dropped": "Discarded",
}
_STATUS_COLORS = {"complete": "green", "error": "red", "denied": "orange", "aborted": "gray", "dropped": "gray"}


def tool_card(item: ChatItem) -> rx.Component:
    """A tool call as a card."""
    return rx.el.section(
        rx.hstack(
            rx.icon("wrench", size=14),
            rx.code(item.tool_name, variant="ghost"),
            rx.spacer(),
            rx.badge(_label(item.status), color_scheme=_color(item.status), variant="soft", class_name="cui-tool-status"),
            align="center",
            width="100%",
        ),
        rx.cond(item.progress != "", rx.text(item.progress, size="1", color_scheme="gray")),
        rx.cond(
            item.arguments != "",
            rx.el.pre(item.arguments, class_name="cui-tool-arguments", aria_label="Arguments"),
        ),
        rx.cond(item.result != "", rx.el.pre(item.result, class_name="cui-tool-result", aria_label="Result")),
        class_name="cui-tool-card",
        data_tool=item.tool_name,
        data_status=item.status,
        aria_label="Tool call " + item.tool_name,
    )


def _label(status: rx.Var[str]) -> rx.Var[str]:
    return rx.match(status, *_STATUS_LABELS.items(), status)


def _color(status: rx.Var[str]) -> rx.Var[str]:
    return rx.match(status, *_STATUS_COLORS.items(), "blue")
