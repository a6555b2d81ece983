"""An agent's activity (ACTIVITY_SNAPSHOT, then ACTIVITY_DELTA patches) over HTTP, as the conversation shows it:
an item of its own where the agent put it, its content as text (or as data, for a type the app draws itself)."""

from __future__ import annotations

import asyncio
import json

from ag_ui.core import BaseEvent, EventType

from copilot_ui.agents import HttpAgent
from copilot_ui.core import RunLoop, Thread, Toolbox
from copilot_ui.state.view import Conversation

from ..hostile_agent import HostileAgent

TURN_TIMEOUT = 20.0
PROGRESS = (
    '!activity progress 20 {"label": "Fetching orders", "percent": 0}'
    ' [{"op": "replace", "path": "/percent", "value": 50}]'
    ' [{"op": "replace", "path": "/percent", "value": 100}, {"op": "replace", "path": "/label", "value": "Done"}]'
)
DONE = {"label": "Done", "percent": 100}


async def test_an_activity_is_shown_where_the_agent_put_it_with_its_content_as_text(hostile: HostileAgent):
    heard = []
    thread = Thread()
    loop = RunLoop(HttpAgent(hostile.url), Toolbox(), emit=heard.append)

    assert (await asyncio.wait_for(loop.send(thread, PROGRESS), TURN_TIMEOUT)).status == "done"

    conversation = Conversation.of(thread.id)
    items = conversation.items(thread)
    assert [item["k"] for item in items] == ["u", "v", "a"]
    assert items[1]["at"] == "progress"
    assert "c" not in items[1]  # its content is a text of the text channel, not a field of the item
    assert json.loads(conversation.text_of(items[1]["id"], thread)) == DONE
    changes = [event.type for event in heard if isinstance(event, BaseEvent)]
    assert (changes.count(EventType.ACTIVITY_SNAPSHOT), changes.count(EventType.ACTIVITY_DELTA)) == (1, 2)

    await asyncio.wait_for(loop.send(thread, "!reply thanks"), TURN_TIMEOUT)
    assert [message.role for message in hostile.requests[-1].run_input.messages] == ["user", "assistant", "user"]


async def test_an_activity_of_a_type_the_app_draws_carries_its_content_to_the_apps_card(hostile: HostileAgent):
    thread = Thread()
    await asyncio.wait_for(RunLoop(HttpAgent(hostile.url), Toolbox()).send(thread, PROGRESS), TURN_TIMEOUT)

    for rendered in ({"activity:progress"}, {"activity:*"}):
        (activity,) = [item for item in Conversation.of(thread.id, frozenset(rendered)).items(thread) if item["k"] == "v"]
        assert activity["c"] == DONE
    (other,) = [item for item in Conversation.of(thread.id, frozenset({"activity:plan"})).items(thread) if item["k"] == "v"]
    assert "c" not in other
