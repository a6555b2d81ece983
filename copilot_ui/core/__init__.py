"""The core: tools, the run loop, hooks and the thread model. Plain asyncio, no Reflex here.

What an app or an integrator uses is named here; the loop's phases stay in their modules.
"""

from ..errors import ArgumentsInvalid, ThreadBusy
from ._attachments import Attachment, AttachmentBytes, AttachmentRules, Refusal, attachments_of, size_text
from ._awaiting import Awaiting, call_digest
from ._calls import parse_arguments
from ._claims import Claim, Claims, claims
from ._context import Session, StateAccess, ToolContext
from ._decisions import Answer, Approve, Decision, Deny, decision_from_json, decision_json
from ._events import (
    AgentRunFinished,
    AgentRunStarted,
    AwaitingPerson,
    ErrorOccurred,
    Event,
    LoopEvent,
    ToolExecutionEnded,
    ToolExecutionStarted,
    ToolProgress,
    TurnEnded,
    TurnStarted,
    UserMessageAdded,
)
from ._execute import STOPPED_WHILE_RUNNING
from ._hooks import Block, CallInfo, Hooks, Replace, Rewrite, Stop, ToolResult
from ._loop import LoopLimits, RunLoop
from ._outcome import TurnOutcome
from ._results import ended_by_agent, result_text, unused_answer
from ._thread import QueuedMessage, Thread
from ._toolbox import Toolbox
from ._tools import Tool, tool_from_function
from ._turn import GO_ON

__all__ = [
    "GO_ON",
    "STOPPED_WHILE_RUNNING",
    "AgentRunFinished",
    "AgentRunStarted",
    "Answer",
    "Approve",
    "ArgumentsInvalid",
    "Attachment",
    "AttachmentBytes",
    "AttachmentRules",
    "Awaiting",
    "AwaitingPerson",
    "Block",
    "CallInfo",
    "Claim",
    "Claims",
    "Decision",
    "Deny",
    "ErrorOccurred",
    "Event",
    "Hooks",
    "LoopEvent",
    "LoopLimits",
    "QueuedMessage",
    "Refusal",
    "Replace",
    "Rewrite",
    "RunLoop",
    "Session",
    "StateAccess",
    "Stop",
    "Thread",
    "ThreadBusy",
    "Tool",
    "ToolContext",
    "ToolExecutionEnded",
    "ToolExecutionStarted",
    "ToolProgress",
    "ToolResult",
    "Toolbox",
    "TurnEnded",
    "TurnOutcome",
    "TurnStarted",
    "UserMessageAdded",
    "attachments_of",
    "call_digest",
    "claims",
    "decision_from_json",
    "decision_json",
    "ended_by_agent",
    "parse_arguments",
    "result_text",
    "size_text",
    "tool_from_function",
    "unused_answer",
]
