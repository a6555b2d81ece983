"""The composer: the message box (Enter sends, Shift+Enter starts a new line) and Send, which is Stop while a run goes."""

from __future__ import annotations

import reflex as rx

from ..state import CopilotState, LiveState
from ..state.view import COMPOSER_INPUT_ID
from ._attachments import composer_files


def composer(agent: str = "default") -> rx.Component:
    """The message form of the sidebar."""
    return rx.el.form(
        rx.el.input(type="hidden", name="agent", value=agent),
        composer_files(),
        rx.el.textarea(
            id=COMPOSER_INPUT_ID,
            name="message",
            aria_label="Ask the copilot",
            placeholder="Ask the copilot…",
            enter_key_submit=True,
            rows=2,
            class_name="cui-input",
        ),
        rx.cond(
            LiveState.running,
            rx.button(
                rx.icon("square", size=14), "Stop", type="button", on_click=CopilotState.stop, color_scheme="red", variant="soft"
            ),
            rx.button(rx.icon("send", size=14), "Send", type="submit"),
        ),
        on_submit=CopilotState.send,
        reset_on_submit=True,
        class_name="cui-composer",
    )
