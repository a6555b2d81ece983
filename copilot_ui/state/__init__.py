"""The Reflex binding: the copilot's states and what the app declares (the only Reflex-aware logic)."""

from ._approval import ApprovalState
from ._copilot import CopilotState
from ._declarations import DEMO_MODEL_LABEL, ContextProvider, Copilot, copilot
from ._live import LiveState
from ._threads import ThreadsState

__all__ = [
    "DEMO_MODEL_LABEL",
    "ApprovalState",
    "ContextProvider",
    "Copilot",
    "CopilotState",
    "LiveState",
    "ThreadsState",
    "copilot",
]
