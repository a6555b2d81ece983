"""What the sidebar shows, one item at a time: what the person said, the agent's replies, tool cards, errors."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ChatItem:
    """One entry of the conversation as the sidebar shows it (sent to the browser: no secrets here)."""

    id: str
    kind: str  # "user" | "assistant" | "tool" | "error" | "notice"
    text: str = ""
    tool_name: str = ""
    arguments: str = ""  # the call's arguments, pretty JSON (partial while they stream)
    result: str = ""
    status: str = (
        ""  # tool: "streaming" | "running" | "awaiting_approval" | "awaiting_input" | "complete" | "error" | "denied" | "aborted"
    )
    progress: str = ""  # what a running tool last reported
