"""What an app declares about its copilot (the bottom layer of the Reflex binding): agents, tools and how their calls
look, context, hooks, the Reflex states shared with agents, and browser tools' handlers. It imports no other layer."""

from ...errors import BrowserToolError
from ._agent_states import SharedState, SharedStates, shared_state
from ._attachments import attached, attachment_bytes_for, attachment_ids, attachment_store
from ._browser import BrowserPage, current_page
from ._copilot import ACTIVITY, DEMO_MODEL_LABEL, ContextProvider, Copilot, Icon, copilot
from ._displays import display_texts, raw_texts
from ._feedback import Feedback, FeedbackHook, tell_feedback
from ._fields import detached, field_value, field_values, own_fields
from ._labels import DEFAULT_ICONS, STATUS_WORDS, Labels
from ._tool_declaration import ToolUI

__all__ = [
    "ACTIVITY",
    "DEFAULT_ICONS",
    "DEMO_MODEL_LABEL",
    "STATUS_WORDS",
    "BrowserPage",
    "BrowserToolError",
    "ContextProvider",
    "Copilot",
    "Feedback",
    "FeedbackHook",
    "Icon",
    "Labels",
    "SharedState",
    "SharedStates",
    "ToolUI",
    "attached",
    "attachment_bytes_for",
    "attachment_ids",
    "attachment_store",
    "copilot",
    "current_page",
    "detached",
    "display_texts",
    "field_value",
    "field_values",
    "own_fields",
    "raw_texts",
    "shared_state",
    "tell_feedback",
]
