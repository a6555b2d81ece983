"""Telling the person something in the conversation from inside a run of the built-in agent (a toolset, a tool):
a message of the agent's own, said once a turn.

The text goes out as AG-UI text message events, which pydantic-ai's AG-UI adapter passes through as they are;
the conversation keeps it, so a follow-up run of the same turn finds it there and does not say it again.
"""

from __future__ import annotations

import uuid
from typing import Any

from ag_ui.core import TextMessageContentEvent, TextMessageEndEvent, TextMessageStartEvent
from pydantic_ai import RunContext
from pydantic_ai.exceptions import UserError
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, UserPromptPart

from ._shared_state import AGUIEventNow


async def say_once_a_turn(ctx: RunContext[Any], text: str, said: set[str]) -> None:
    """Say the text, unless this run said it already (`said` holds what it said) or a run of this turn did."""
    if text in said or said_this_turn(ctx.messages, text):
        return
    said.add(text)
    message_id = f"notice-{uuid.uuid4().hex}"
    events = (
        TextMessageStartEvent(message_id=message_id, role="assistant"),
        TextMessageContentEvent(message_id=message_id, delta=text),
        TextMessageEndEvent(message_id=message_id),
    )
    try:
        for event in events:
            await ctx.emit(AGUIEventNow(event=event))
    except UserError:  # a run without an event stream (agent.run): there is nobody to tell
        pass


def said_this_turn(messages: list[ModelMessage], text: str) -> bool:
    """Whether a reply since the person's last message holds this text."""
    for message in reversed(messages):
        if isinstance(message, ModelResponse):
            if any(isinstance(part, TextPart) and text in part.content for part in message.parts):
                return True
        elif isinstance(message, ModelRequest) and any(isinstance(part, UserPromptPart) for part in message.parts):
            return False
    return False
