"""The Reflex binding: the copilot's states and what the app declares (the only Reflex-aware logic).

In layers, each importing only those below it:

    declarations/   what the app declares: agents, tools, how calls look, context, shared states
    view/           the view model of a conversation: items, texts, what the approval dialog shows
    sink/           from loop events to what a tab shows, at a bounded pace
    turns/          where a turn runs: the turn of a tab's thread, here or on another worker; the store
    (this folder)   the person's events: CopilotState and its handlers, the approval dialog, the
                    conversations list, what a tab shows of a run (LiveState), the app's agent
                    tasks without the chat (`_tasks`)

A click's path: a handler of CopilotState (`_copilot.py`) hands it to the module named for it (`_messages.py`,
`_decisions.py`), which asks `turns.work` to start or reach the turn of the tab's thread (`turns/_work.py`),
whose run loop emits into its sink (`sink/_sink.py`); the sink writes back through the tab's `turns.Tab`
(`StateTab` in `_tab.py`).
"""

from ._approval import ApprovalState
from ._attachments import AttachmentsState
from ._copilot import CopilotState
from ._live import LiveState
from ._tasks import TaskResult, TaskState, TaskToolCall, run_task
from ._threads import ThreadsState
from .declarations import DEMO_MODEL_LABEL, ContextProvider, Copilot, Feedback, Labels, copilot

__all__ = [
    "DEMO_MODEL_LABEL",
    "ApprovalState",
    "AttachmentsState",
    "ContextProvider",
    "Copilot",
    "CopilotState",
    "Feedback",
    "Labels",
    "LiveState",
    "TaskResult",
    "TaskState",
    "TaskToolCall",
    "ThreadsState",
    "copilot",
    "run_task",
]
