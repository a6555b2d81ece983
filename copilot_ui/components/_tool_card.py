"""The card a tool call shows in the conversation: its name, its arguments (live while they stream), its result."""

from __future__ import annotations

import reflex as rx

from ..state import ChatItem, CopilotState

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
        rx.cond(item.status == "awaiting_approval", _approval(item)),
        rx.cond(item.status == "awaiting_input", _answer(item)),
        class_name="cui-tool-card",
        data_tool=item.tool_name,
        data_status=item.status,
        aria_label="Tool call " + item.tool_name,
    )


def _label(status: rx.Var[str]) -> rx.Var[str]:
    return rx.match(status, *_STATUS_LABELS.items(), status)


def _color(status: rx.Var[str]) -> rx.Var[str]:
    return rx.match(status, *_STATUS_COLORS.items(), "blue")


def _approval(item: ChatItem) -> rx.Component:
    return rx.hstack(
        rx.button(rx.icon("check", size=14), "Approve", on_click=CopilotState.approve(item.id), size="1"),
        rx.button(
            rx.icon("x", size=14), "Deny", on_click=CopilotState.deny(item.id), size="1", color_scheme="red", variant="soft"
        ),
        spacing="2",
    )


def _answer(item: ChatItem) -> rx.Component:
    return rx.el.form(
        rx.el.input(type="hidden", name="call_id", value=item.id),
        rx.input(name="answer", placeholder="Your answer", aria_label="Your answer", size="1", flex="1"),
        rx.button("Answer", type="submit", size="1"),
        on_submit=CopilotState.answer,
        reset_on_submit=True,
        style={"display": "flex", "gap": "0.5rem"},
    )
