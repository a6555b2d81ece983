"""Events an app returns from its own handlers (or binds to its own buttons) to drive the copilot."""

from __future__ import annotations

from reflex.event import EventCallback, EventSpec

from .._checks import keywords_checked
from ..state import CopilotState
from ._layout import layout_command


@keywords_checked("cui.send_message")
def send_message(text: str, *, agent: str = "") -> list[EventSpec | EventCallback[()]]:
    """Send `text` as if the person had typed it, opening the copilot if it is closed.

    Return it from any event handler (`return cui.send_message("Explain this chart")`) or bind it to a
    button (`on_click=cui.send_message("Explain this chart")`). It shows in the conversation as the
    person's message and runs a turn with the page's tools and context; while a run goes, it is queued
    as a typed message is. `agent` names the agent of a new conversation (else the page's); a
    conversation keeps the agent it has.
    """
    return [layout_command("open"), CopilotState.send({"message": str(text), "agent": str(agent)})]
