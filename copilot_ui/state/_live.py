"""What the copilot does now, in a small state of its own: it changes often, the conversation does not.

Reflex re-renders every component that reads a state when any of its vars changes: the status
line and the Send/Stop button live apart from the list of items so that neither re-renders it.
"""

from __future__ import annotations

import reflex as rx


class LiveState(rx.State):
    """Whether a run is under way, and what the copilot does now."""

    running: rx.Field[bool] = rx.field(False)
    status: str = ""  # for the person: "Thinking…", "Running set_theme…", "Waiting for the agent… 12 s"
    dev: str = ""  # the text id of the dev console's log of the current run (when the app turns it on)
