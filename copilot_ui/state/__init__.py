"""The Reflex binding: the sidebar's states and what the app declares (the only Reflex-aware logic)."""

from ._copilot import CopilotState
from ._declarations import ContextProvider, Copilot, copilot
from ._items import ChatItem
from ._live import LiveState

__all__ = ["ChatItem", "ContextProvider", "Copilot", "CopilotState", "LiveState", "copilot"]
