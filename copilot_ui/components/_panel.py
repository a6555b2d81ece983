"""The copilot itself, whatever its layout: header, conversation, composer, approval dialog, dev console.

The sidebar, the popup and the inline chat each hold one panel. One copilot per page: its parts
have fixed ids (the conversation, the message box) that its scripts look for.
"""

from __future__ import annotations

from collections.abc import Sequence

import reflex as rx
from reflex_components_core.core.banner import has_connection_errors

from ..state import DEMO_MODEL_LABEL, CopilotState, LiveState, copilot
from ._approval import approval_dialog
from ._composer import composer
from ._layout import layout_command
from ._looks import filled, icon, words
from ._messages import conversation
from ._scroll import CuiResume
from ._text import text
from ._threads_menu import threads_menu


def panel(agent: str, title: str, suggestions: Sequence[str] = (), closable: bool = False) -> rx.Component:
    """The copilot for the agent with this id (the page's choice; a picker offers the others when there are several)."""
    return rx.el.div(
        CuiResume.create(
            thread_id=CopilotState.thread_id,
            empty=CopilotState.items.length() == 0,
            hydrated=rx.State.is_hydrated,
            on_resume=CopilotState.open(agent),
        ),
        _header(title, closable),
        conversation(suggestions),
        rx.cond(LiveState.dev != "", _dev_console()) if copilot.dev_console else rx.fragment(),
        composer(agent),
        approval_dialog(),
        class_name="cui-panel",
        custom_attrs={"data-hydrated": rx.State.is_hydrated},  # the page's state has come from the server
    )


def _header(title: str, closable: bool) -> rx.Component:
    """The title (cut with an ellipsis where it does not fit; its tooltip says it whole), the model's name (beside
    it, or under it when both do not fit), the buttons, and under them a notice while the connection is lost."""
    said = words()
    return rx.el.header(
        rx.el.div(
            rx.el.div(
                icon("copilot"),
                rx.heading(title, size="3", as_="h2", title=title),
                class_name="cui-name",
            ),
            _model_badge(),
            class_name="cui-title",
        ),
        rx.hstack(
            _agent_picker(),
            threads_menu(),
            rx.icon_button(
                icon("new_conversation"),
                on_click=CopilotState.new_conversation,
                variant="ghost",
                aria_label=said.new_conversation,
                title=said.new_conversation,
                type="button",
            ),
            *(
                [
                    rx.icon_button(
                        icon("close"),
                        on_click=layout_command("close"),
                        variant="ghost",
                        aria_label=said.close,
                        title=said.close_tooltip,
                        type="button",
                    )
                ]
                if closable
                else []
            ),
            align="center",
            spacing="2",
            class_name="cui-header-actions",
        ),
        rx.cond(
            has_connection_errors,
            rx.el.p(
                rx.icon("wifi-off", size=13, aria_hidden="true"),
                said.reconnecting,
                role="status",
                class_name="cui-reconnecting",
            ),
        ),
        class_name="cui-header",
    )


def _model_badge() -> rx.Component:
    """The name of the model that answers (cut with an ellipsis where it does not fit; its tooltip says it whole)."""
    said = words()
    return rx.cond(
        CopilotState.model == DEMO_MODEL_LABEL,
        rx.badge(
            rx.el.span(said.demo_model, class_name="cui-model-name"),
            variant="soft",
            color_scheme="amber",
            high_contrast=True,
            title=said.demo_model_hint,
            class_name="cui-model",
        ),
        rx.cond(
            CopilotState.model != "",
            rx.badge(
                rx.el.span(CopilotState.model, class_name="cui-model-name"),
                variant="soft",
                color_scheme="gray",
                title=filled(said.model, "{model}", CopilotState.model),
                class_name="cui-model",
            ),
        ),
    )


def _agent_picker() -> rx.Component:
    agents = copilot.agent_choices(default_name=words().title)
    if len(agents) < 2:
        return rx.fragment()
    return rx.el.select(
        *(rx.el.option(label, value=agent_id) for agent_id, label in agents),
        value=CopilotState.agent,
        on_change=CopilotState.pick_agent,
        aria_label=words().agent_picker,
        class_name="cui-picker",
    )


def _dev_console() -> rx.Component:
    return rx.el.details(
        rx.el.summary(words().dev_console),
        text(LiveState.dev, markdown=False, class_name="cui-dev-log", limit=200_000),
        class_name="cui-dev",
    )
