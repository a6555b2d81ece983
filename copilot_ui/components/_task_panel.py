"""The task panel: the tool cards of the app's agent tasks (`cui.run_task`), and Approve / Deny on those that wait."""

from __future__ import annotations

from typing import Any, cast

import reflex as rx

from .._checks import keywords_checked, layout_options
from ..state import TaskState, copilot
from ..state._task_cards import Card
from ..state.declarations import DEFAULT_ICONS, Labels
from ._approval import approval_fields
from ._looks import words

# The statuses whose words the panel takes from `Labels.statuses` (the others: task_waiting, task_ended).
_STATUSES = ("running", "complete", "error", "denied", "aborted")


@keywords_checked("cui.task_panel")
def task_panel(title: str | None = None, *, labels: Labels | None = None) -> rx.Component:
    """A small panel (a region named `title`) with the tool calls of this tab's agent tasks; empty, it shows nothing.

    A call that needs the person's approval shows Approve and Deny here, and a question a text box: a task's call
    that waits runs only once decided, so place it on every page that runs tasks whose tools ask. Its words are
    `labels` (the app's, `cui.copilot.labels`, by default); `title` is their `task_panel`."""
    layout_options("cui.task_panel", copilot, Labels, DEFAULT_ICONS, title=title, labels=labels)
    said = labels or words()
    title = title if title is not None else said.task_panel
    return rx.cond(
        TaskState.cards.length() > 0,
        rx.el.section(
            rx.heading(title, size="3", as_="h2"),
            rx.el.ul(rx.foreach(TaskState.cards, lambda card: _card(card, said)), class_name="cui-task-cards"),
            rx.cond(TaskState.busy, rx.text(said.working, size="1", color_scheme="gray", role="status")),
            aria_label=title,
            class_name="cui-task-panel",
            style={"display": "flex", "flex_direction": "column", "gap": "0.5rem"},
        ),
    )


# Focusable, so that a keyboard scrolls long arguments too.
_SCROLLABLE: dict[str, Any] = {"tab_index": 0, "role": "group"}
_WRAPPED = {"white_space": "pre-wrap", "overflow_wrap": "anywhere"}
_ARGUMENTS = _WRAPPED | {
    "max_height": "16rem",  # a waiting call's arguments are shown whole: long ones scroll
    "overflow_y": "auto",
    "margin": "0.4rem 0",
    "padding": "0.4rem 0.6rem",
    "font_size": "0.8rem",
    "border_radius": "var(--radius-2)",
    "background": "var(--gray-a3)",
}


def _card(card: rx.vars.ObjectVar[Card], said: Labels) -> rx.Component:
    return rx.el.li(
        rx.card(
            rx.hstack(
                rx.text(card["title"], weight="bold", size="2"),
                rx.spacer(),
                rx.badge(_status_words(card["status"], said), variant="soft", size="1"),
                align="center",
            ),
            rx.cond((card["arguments"] != "") & (card["status"] != "awaiting_approval"), _arguments(card, said)),
            rx.cond(card["result"] != "", rx.text(card["result"], size="2", class_name="cui-task-result", style=_WRAPPED)),
            _decision(card, said),
            size="1",
        ),
        data_tool=card["tool"],
        data_status=card["status"],
        aria_label=card["title"],
        style={"list_style": "none"},
    )


def _arguments(card: rx.vars.ObjectVar[Card], said: Labels) -> rx.Component:
    return rx.el.pre(
        card["arguments"], class_name="cui-task-arguments", style=_ARGUMENTS, aria_label=said.arguments, **_SCROLLABLE
    )


def _decision(card: rx.vars.ObjectVar[Card], said: Labels) -> rx.Component:
    """What a call waiting for the person asks: an approval, or a text answer to a question."""
    asks = rx.match(
        card["status"],
        ("awaiting_approval", _approval(card, said)),
        ("awaiting_input", _answer(card, said)),
        rx.fragment(),
    )
    return cast(rx.Component, asks)  # rx.match is typed Component | Var whatever its cases


def _approval(card: rx.vars.ObjectVar[Card], said: Labels) -> rx.Component:
    """What the chat's approval dialog shows (the call's sentence, its arguments as fields, editable where the tool
    allows), with Approve; and Deny with an optional reason."""
    fields = card["fields"].to(list[dict[str, Any]])
    return rx.fragment(
        rx.text(card["sentence"], size="2", class_name="cui-approval-sentence"),
        rx.el.form(
            *_naming(card),
            approval_fields(fields, card["editable"].to(bool), card["digest"].to(str), said, ids=card["id"].to(str) + ":"),
            rx.cond(
                card["error"] != "", rx.callout(card["error"], icon="triangle_alert", color_scheme="red", size="1", role="alert")
            ),
            rx.hstack(rx.button(said.approve, size="1", type="submit"), justify="end"),
            on_submit=TaskState.approve,
            class_name="cui-approval-form",
        ),
        rx.el.form(
            *_naming(card),
            rx.hstack(
                rx.input(name="reason", placeholder=said.task_deny_placeholder, aria_label=said.task_deny_reason, size="1"),
                rx.button(said.deny, size="1", type="submit", variant="soft", color_scheme="gray"),
                spacing="2",
                align="center",
                wrap="wrap",
            ),
            on_submit=TaskState.deny,
            reset_on_submit=True,
            margin_top="0.5rem",
        ),
    )


def _answer(card: rx.vars.ObjectVar[Card], said: Labels) -> rx.Component:
    return rx.el.form(
        *_naming(card),
        rx.text(card["question"], size="2"),
        rx.hstack(
            rx.input(name="answer", aria_label=said.your_answer, size="1"),
            rx.button(said.answer, size="1", type="submit"),
            spacing="2",
        ),
        on_submit=TaskState.answer,
        reset_on_submit=True,
        margin_top="0.5rem",
    )


def _naming(card: rx.vars.ObjectVar[Card]) -> tuple[rx.Component, rx.Component]:
    """The hidden fields that name the card a form decides on, with the digest of the call as shown."""
    return (
        rx.el.input(type="hidden", name="card", value=card["id"]),
        rx.el.input(type="hidden", name="digest", value=card["digest"]),
    )


def _status_words(status: rx.Var[str], said: Labels) -> rx.Var[str]:
    named = [(name, said.statuses.get(name, said.task_ended)) for name in _STATUSES]
    words = rx.match(
        status, ("awaiting_approval", said.task_waiting), ("awaiting_input", said.task_waiting), *named, said.task_ended
    )
    return cast(rx.Var[str], words)
