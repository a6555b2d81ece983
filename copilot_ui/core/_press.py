"""A tool a person ran from a button (RunLoop.run_tool): its call joins the thread as the agent's calls do, runs
without asking for approval (the person asked for it), and what the button asked for follows its result."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

from ag_ui.core import ToolCallEndEvent, ToolCallStartEvent

from ..protocol import new_id
from ..protocol._json import JSON, JSONObject
from ._events import UserMessageAdded
from ._thread import QueuedMessage

if TYPE_CHECKING:
    from ._batch import Verdict
    from ._turn import Turn

FollowUp = Union[bool, str]  # False: none; True or "generate": the agent runs; a text: the person's message with it


@dataclass
class Press:
    """A tool a person ran from a button (RunLoop.run_tool), and what follows its result."""

    name: str
    arguments: JSONObject = field(default_factory=dict[str, JSON])
    follow_up: FollowUp = False
    call_id: str = ""  # set once the call is in the thread


async def add_pressed_call(turn: Turn, press: Press) -> None:
    call = turn.thread.add_tool_call(press.name, json.dumps(press.arguments))
    press.call_id = call.id
    turn.pressed.add(call.id)
    await turn.emit(ToolCallStartEvent(tool_call_id=call.id, tool_call_name=call.function.name))
    await turn.emit(ToolCallEndEvent(tool_call_id=call.id))


async def after_press(turn: Turn, verdict: Verdict) -> Verdict:
    """The pressed tool has its result: what the button asked for follows, whatever the tool wants."""
    press, turn.press = turn.press, None
    assert press is not None
    if press.follow_up is False:
        return "complete"
    if press.follow_up is True or press.follow_up == "generate":
        return "follow_up"
    message = QueuedMessage(new_id("msg-"), press.follow_up)
    turn.thread.add_user_message(message.text, message.id)
    await turn.emit(UserMessageAdded(message.id, message.text, queued=False))
    return "follow_up"
