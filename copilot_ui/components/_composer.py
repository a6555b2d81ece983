"""The composer: the message box (Enter sends, Shift+Enter starts a new line, Up-arrow in it empty edits the last
message) and Send, which is Stop while a run goes."""

from __future__ import annotations

import reflex as rx

from ..state import CopilotState, LiveState
from ..state.view import COMPOSER_INPUT_ID
from ._attachments import composer_files
from ._layout import CuiRecall
from ._looks import icon, words


def composer(agent: str = "default") -> rx.Component:
    """The message form of the sidebar."""
    said = words()
    return rx.el.form(
        rx.el.input(type="hidden", name="agent", value=agent),
        composer_files(),
        rx.el.textarea(
            id=COMPOSER_INPUT_ID,
            name="message",
            aria_label=said.composer,
            placeholder=said.placeholder,
            enter_key_submit=True,
            rows=2,
            class_name="cui-input",
        ),
        CuiRecall.create(),
        rx.cond(
            LiveState.running,
            rx.button(
                icon("stop", size=14), said.stop, type="button", on_click=CopilotState.stop, color_scheme="red", variant="soft"
            ),
            rx.button(icon("send", size=14), said.send, type="submit"),
        ),
        on_submit=CopilotState.send,
        reset_on_submit=True,
        class_name="cui-composer",
    )
