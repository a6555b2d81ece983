"""The part of the conversation being written now, in a state of its own.

Reflex resends a var whole when it changes. Keeping the reply being streamed and the tool calls
in flight apart from the finished messages means each update costs the size of what is live, not
the size of the conversation.
"""

from __future__ import annotations

import reflex as rx

from ._items import ChatItem


class LiveState(rx.State):
    """What streams in right now."""

    text: str = ""  # the reply being written
    tools: list[ChatItem] = rx.field(default_factory=list)  # tool calls not finished yet
    status: str = ""  # what the copilot does now, for the person: "Thinking…", "Running set_theme…"
