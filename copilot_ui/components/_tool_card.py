"""The card a tool call shows in the conversation: its name, status, arguments (live while they stream), result.

An app can draw the calls of a tool itself (`render_tool`); every other call gets this card. A
call waiting for the person shows what it asks and the controls to decide, bound to the digest
of what is shown: a decision about anything else is refused by the loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import reflex as rx
from reflex_components_radix.themes.base import LiteralAccentColor

from ..state import CopilotState, copilot
from ..state.declarations import STATUS_WORDS
from ..state.view import Item
from ._looks import filled, icon, words
from ._text import text
from ._tool_view import ToolCallView

STATUS_LABELS = STATUS_WORDS  # a status's word on a card, unless the labels say otherwise
_STATUS_COLORS = {
    "complete": "green",
    "error": "red",
    "denied": "orange",
    "aborted": "gray",
    "skipped": "gray",
    "dropped": "gray",
}
# Arguments and results scroll past a few lines: focusable, so a keyboard can scroll them too.
_SCROLLABLE: dict[str, Any] = {"tab_index": 0, "role": "group"}


def tool_card(item: rx.vars.ObjectVar[Item]) -> rx.Component:
    """A tool call as a card: the app's own for its tool (or its wildcard), the default card otherwise."""
    copilot.check()  # a card for no tool, a tool for no agent: a DeclarationError as the page is built
    renderers = dict(copilot.renderers)
    fallback = renderers.pop("*", None)
    default = _drawn(item, fallback) if fallback is not None else default_card(item)
    if not renderers:
        return default
    cards = rx.match(item["n"], *((name, _drawn(item, renderer)) for name, renderer in renderers.items()), default)
    return cast(rx.Component, cards)  # rx.match is typed Component | Var whatever its cases


def _drawn(item: rx.vars.ObjectVar[Item], renderer: Callable[[ToolCallView], rx.Component]) -> rx.Component:
    """An app's card, wrapped so that the conversation can find it (tool name, status) like the default card."""
    return rx.el.div(
        renderer(ToolCallView(item)),
        class_name="cui-drawn-card",
        data_item=item["id"],
        data_tool=item["n"],
        data_status=item["s"],
        key=item["id"],
    )


def default_card(item: rx.vars.ObjectVar[Item]) -> rx.Component:
    """The card of a call whose tool has no card of its own."""
    call = ToolCallView(item)
    status, said = call.status, words()
    return rx.el.section(
        rx.hstack(
            icon("tool", size=14),
            rx.code(item["n"], variant="ghost"),
            rx.spacer(),
            rx.badge(
                status_label(status),
                color_scheme=_color(status),
                variant="soft",
                high_contrast=True,
                class_name="cui-tool-status",
            ),
            align="center",
            width="100%",
        ),
        rx.cond(item["p"], rx.text(item["p"], size="1", color_scheme="gray", class_name="cui-tool-progress")),
        rx.el.details(
            rx.el.summary(said.arguments),
            text(call.id + ".a", markdown=False, class_name="cui-tool-pre", **_SCROLLABLE, aria_label=said.arguments),
            open=True,
            class_name="cui-tool-arguments",
        ),
        rx.cond(
            status == "skipped",
            rx.text(said.not_run, size="1", color_scheme="gray"),
            rx.cond(
                call.is_done,  # skipped is the branch above
                text(call.id + ".r", markdown=False, class_name="cui-tool-pre", **_SCROLLABLE, aria_label=said.result),
            ),
        ),
        rx.cond(status == "awaiting_approval", _approval(item)),
        rx.cond(status == "awaiting_input", _question(item)),
        class_name="cui-tool-card",
        data_item=item["id"],
        data_tool=item["n"],
        data_status=status,
        aria_label=filled(said.tool_call_card, "{tool}", item["n"].to(str)),
        key=item["id"],
    )


def status_label(status: rx.Var[str]) -> rx.Var[str]:
    """What a status is called on a card (in the labels' words)."""
    return cast(rx.Var[str], rx.match(status, *{**STATUS_LABELS, **words().statuses}.items(), status))


def _color(status: rx.Var[str]) -> rx.Var[LiteralAccentColor]:
    return cast(rx.Var[LiteralAccentColor], rx.match(status, *_STATUS_COLORS.items(), "blue"))


def _approval(item: rx.vars.ObjectVar[Item]) -> rx.Component:
    return rx.hstack(
        rx.text(words().runs_once_approved, size="1", color_scheme="gray"),
        rx.button(
            rx.icon("eye", size=14),
            words().review,
            on_click=CopilotState.review(item["id"].to(str)),
            size="1",
            variant="soft",
            type="button",
            class_name="cui-review",  # focus comes back here when the person closes the dialog undecided
        ),
        spacing="2",
        align="center",
        justify="between",
        width="100%",
    )


def _question(item: rx.vars.ObjectVar[Item]) -> rx.Component:
    return rx.el.form(
        text(item["id"].to(str) + ".q", class_name="cui-question"),
        rx.el.input(type="hidden", name="item", value=item["id"].to(str)),
        rx.el.input(type="hidden", name="digest", value=item["d"].to(str)),
        rx.el.div(
            rx.el.textarea(
                name="answer",
                placeholder=words().your_answer,
                aria_label=words().your_answer,
                rows=2,
                enter_key_submit=True,
                class_name="cui-input",
            ),
            rx.button(words().answer, type="submit", size="1"),
            class_name="cui-answer-row",
        ),
        on_submit=CopilotState.answer,
        reset_on_submit=True,
        class_name="cui-answer",
    )
