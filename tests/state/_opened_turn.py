"""A turn's sink as a turn opens it, the person's message shown: for the tests of what a turn's shows carry and when."""

from __future__ import annotations

import asyncio

from copilot_ui.agents import Scrubber
from copilot_ui.core import Thread, TurnStarted, UserMessageAdded
from copilot_ui.state.sink import Send, Show, ViewSink
from copilot_ui.state.view import Conversation


def a_turn_opens(show: Show, send: Send | None = None) -> tuple[Thread, ViewSink]:
    """A turn's thread and sink (its shows to `show`, its browser events to `send`), the person's message `u1` shown."""
    thread = Thread()
    thread.add_user_message("hello", "u1")
    sink = ViewSink(show, thread, Conversation.of(thread.id), scrubber=Scrubber(), send=send)
    sink.emit(TurnStarted(thread.id))
    sink.emit(UserMessageAdded("u1", "hello", False))
    return thread, sink


async def the_agent_streams() -> None:
    """A few turns of the event loop, as pass between two events of a model's stream."""
    for _ in range(5):
        await asyncio.sleep(0)
