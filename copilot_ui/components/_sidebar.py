"""The copilot sidebar, docked at the right of a page: a complementary landmark named "Copilot"."""

from __future__ import annotations

import reflex as rx

from ..state import CopilotState
from ._approval import approval_dialog
from ._composer import composer
from ._messages import conversation
from ._styles import SIDEBAR_CSS


def sidebar(*children: rx.Component, agent: str = "default", title: str = "Copilot", width: str = "24rem") -> rx.Component:
    """The copilot docked at the right of the page; `children` are the page's own content, laid out at its left.

    Without children, only the sidebar (the page lays itself out: the sidebar is a flex item).
    """
    docked = _aside(agent, title, width)
    if not children:
        return docked
    return rx.el.div(rx.el.div(*children, class_name="cui-page-content"), docked, class_name="cui-page")


def _aside(agent: str, title: str, width: str) -> rx.Component:
    return rx.el.aside(
        rx.el.style(SIDEBAR_CSS),
        rx.hstack(
            rx.icon("sparkles", size=16),
            rx.heading(title, size="3"),
            rx.spacer(),
            rx.icon_button(
                rx.icon("message-square-plus", size=16),
                on_click=CopilotState.clear,
                variant="ghost",
                aria_label="New conversation",
                title="New conversation",
            ),
            align="center",
            class_name="cui-header",
        ),
        conversation(),
        composer(agent),
        approval_dialog(),
        aria_label=title,
        class_name="cui-sidebar",
        style={"width": width},
    )
