"""The core: tools, the run loop, hooks and the thread model. Plain asyncio, no Reflex here."""

from ._calls import parse_arguments
from ._context import Session, ToolContext
from ._decisions import Answer, Approve, Decision, Deny
from ._events import (
    AgentEventReceived,
    AgentRunFinished,
    AgentRunStarted,
    AwaitingPerson,
    ErrorOccurred,
    LoopEvent,
    MessageEnded,
    MessageStarted,
    StateChanged,
    TextDelta,
    ToolCallArguments,
    ToolCallEnded,
    ToolCallStarted,
    ToolExecutionEnded,
    ToolExecutionStarted,
    ToolProgress,
    TurnEnded,
    TurnStarted,
)
from ._hooks import Block, CallInfo, Hooks, Replace, Rewrite, Stop, ToolResult
from ._loop import LoopLimits, RunLoop, StateAccess, TurnOutcome
from ._results import result_text
from ._thread import Thread, TurnBook
from ._toolbox import WILDCARD, Toolbox
from ._tools import ArgumentsInvalid, Tool, tool_from_function

__all__ = [
    "WILDCARD",
    "AgentEventReceived",
    "AgentRunFinished",
    "AgentRunStarted",
    "Answer",
    "Approve",
    "ArgumentsInvalid",
    "AwaitingPerson",
    "Block",
    "CallInfo",
    "Decision",
    "Deny",
    "ErrorOccurred",
    "Hooks",
    "LoopEvent",
    "LoopLimits",
    "MessageEnded",
    "MessageStarted",
    "Replace",
    "Rewrite",
    "RunLoop",
    "Session",
    "StateAccess",
    "StateChanged",
    "Stop",
    "TextDelta",
    "Thread",
    "Tool",
    "ToolCallArguments",
    "ToolCallEnded",
    "ToolCallStarted",
    "ToolContext",
    "ToolExecutionEnded",
    "ToolExecutionStarted",
    "ToolProgress",
    "ToolResult",
    "Toolbox",
    "TurnBook",
    "TurnEnded",
    "TurnOutcome",
    "TurnStarted",
    "parse_arguments",
    "result_text",
    "tool_from_function",
]
