"""Components: the sidebar and its parts, tool cards, and the color mode bound to a state var."""

from ._color_mode import ColorModeSync, color_mode_from
from ._composer import composer
from ._messages import chat_item, conversation
from ._sidebar import sidebar
from ._tool_card import tool_card

__all__ = ["ColorModeSync", "chat_item", "color_mode_from", "composer", "conversation", "sidebar", "tool_card"]
