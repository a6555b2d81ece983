"""Components: the sidebar and its parts, tool cards, safe texts, and the color mode bound to a state var."""

from ._color_mode import ColorModeSync, color_mode_from
from ._composer import composer
from ._messages import chat_item, conversation
from ._sidebar import sidebar
from ._text import CuiText, text
from ._tool_card import tool_card

__all__ = ["ColorModeSync", "CuiText", "chat_item", "color_mode_from", "composer", "conversation", "sidebar", "text", "tool_card"]
