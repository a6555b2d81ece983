"""Which agent a conversation talks to: the page's, the one a message asks for, or the one the picker chose.

A conversation keeps its agent once it has one; an agent id from the browser is one of the configured ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Thread
from ._tab_conversation import show_items, take
from .declarations import copilot
from .turns import Refused
from .view import Conversation, whole_texts_script

if TYPE_CHECKING:
    from ._copilot import CopilotState


def agent_for_turn(state: CopilotState, asked: str, thread: Thread, conversation: Conversation) -> str | Refused:
    """The agent a new turn of the conversation talks to: the one it has, else the one asked for, if configured
    (then fixed); else the refusal, shown in the conversation (inside `async with state`)."""
    if state._agent_id:
        return state._agent_id
    known = copilot.agent_ids()
    wanted = asked or "default"
    if wanted not in known:
        shown = "".join(ch for ch in wanted[:40] if ch.isprintable())
        refusal = copilot.labels.said("no_such_agent", agent=repr(shown), agents=", ".join(known))
        note = conversation.add_note("error", refusal, None)
        show_items(state, conversation.items(thread))
        return Refused(whole_texts_script({note.id: [0, refusal]}))
    state._agent_id, state.agent, state.model = wanted, wanted, copilot.model_label(wanted)
    return wanted


def pick_agent(state: CopilotState, agent_id: str) -> None:
    """The picker: talk to another of the configured agents (a conversation keeps its agent, so a new one starts)."""
    if agent_id not in copilot.agent_ids() or agent_id == state.agent:
        return
    thread = state.get_value("_thread")
    if thread is not None and len(thread):
        take(state, Thread(), None)
    state._agent_id, state.agent, state.model = agent_id, agent_id, copilot.model_label(agent_id)
