"""Components: the sidebar and its parts, tool cards, activity cards, safe texts, and the color mode bound to a state var."""

from ._activity import ActivityView, activity_card, default_activity_card
from ._app_events import send_message
from ._approval import approval_dialog
from ._color_mode import ColorModeSync, color_mode_from
from ._composer import composer
from ._message_view import MessageView
from ._messages import chat_item, conversation
from ._sidebar import chat, popup, sidebar
from ._task_panel import task_panel
from ._text import CuiText, text
from ._tool_card import default_card, tool_card
from ._tool_view import ToolCallView

__all__ = [
    "ActivityView",
    "ColorModeSync",
    "CuiText",
    "MessageView",
    "ToolCallView",
    "activity_card",
    "approval_dialog",
    "chat",
    "chat_item",
    "color_mode_from",
    "composer",
    "conversation",
    "default_activity_card",
    "default_card",
    "popup",
    "send_message",
    "sidebar",
    "task_panel",
    "text",
    "tool_card",
]
