"""Execute a ready call in a task of its own: whatever happens, it ends with exactly one result.

The handler runs in a slot (the concurrency cap), within its timeout, with the session's state
when it is declared with one. The `finally` does the rest whatever the ending (a value, an error,
the timeout, a CancelledError of the tool's own making, or the turn's stop): progress reported
so far reaches subscribers first, after_tool hooks see the result, the result is recorded, and
the call leaves the running.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Awaitable, Mapping
from typing import TYPE_CHECKING

from ag_ui.core import ToolCall

from ._calls import Ready, describe_error
from ._context import ToolContext
from ._events import ToolExecutionStarted, ToolProgress
from ._hooks import CallInfo, Replace, Stop, ToolResult
from ._results import Status, record_result, result_text
from ._tools import Tool

if TYPE_CHECKING:
    from ._turn import Turn

logger = logging.getLogger("copilot_ui.core")

STOPPED_WHILE_RUNNING = "the run was stopped while this tool ran"  # a call's result when a stop cuts its tool short


def start(turn: Turn, call: ToolCall, ready: Ready) -> None:
    """Start the call's task; its context exists at once, so that a stop can signal it before it runs."""
    progress = _Progress(turn, call.id)
    context = ToolContext(call.id, call.function.name, turn.loop.session, _report=progress, _state_access=turn.loop.state_access)
    turn.contexts[call.id] = context
    turn.running[call.id] = asyncio.create_task(_execute(turn, call, ready, context, progress), name=f"tool {call.function.name}")


async def _execute(turn: Turn, call: ToolCall, ready: Ready, context: ToolContext, progress: _Progress) -> None:
    name = call.function.name
    content, is_error, status = f"aborted: {STOPPED_WHILE_RUNNING}", True, "aborted"
    try:
        async with _slot(turn):
            await turn.emit(ToolExecutionStarted(call.id, name, ready.arguments))
            value = await _invoke(turn, ready.tool, ready.kwargs, context)
        content, is_error, status = turn.loop.scrubber.scrub(result_text(value)), False, "complete"
    except _TimedOut:
        content, is_error, status = f"{name} did not finish within {ready.tool.timeout:g} s and was stopped", True, "error"
    except asyncio.CancelledError:
        if _cancelled_by_the_turn():
            raise  # a stop: the result stays "aborted"
        logger.warning("tool %s was cancelled by its own code", name, exc_info=True)
        content, is_error, status = f"{name} was cancelled by its own code (CancelledError) and did not finish", True, "error"
    except Exception as error:
        content, is_error, status = describe_error(error, turn.loop.scrubber), True, "error"
        if isinstance(error, _MEANT):
            logger.info("tool %s answered with an error: %s", name, content.removeprefix("Error: "))
        else:
            logger.warning("tool %s failed", name, exc_info=True)
    finally:
        progress.settled = True  # progress after the call settled is ignored
        for pending in progress.deliveries:
            await pending
        await _finish(turn, call, ready, content, is_error, status)


async def _invoke(turn: Turn, tool: Tool, kwargs: Mapping[str, object], context: ToolContext) -> object:
    """The handler's value, within the tool's timeout; a tool declared with state= runs through StateAccess.run_with."""

    async def handler(state: object = None) -> object:
        value = tool.call(state, kwargs, context)
        return await value if inspect.isawaitable(value) else value

    async def call_handler() -> object:
        if tool.state is None:
            return await handler()
        access = turn.loop.state_access
        if access is None:
            raise RuntimeError(f"{tool.name} changes the app's state ({tool.state.__name__}) and runs only inside the app")
        return await access.run_with(tool.state, handler)

    if tool.timeout is None:
        return await call_handler()
    deadline = asyncio.timeout(tool.timeout)
    try:
        async with deadline:
            return await call_handler()
    except TimeoutError:
        if deadline.expired():
            raise _TimedOut() from None
        raise


async def _finish(turn: Turn, call: ToolCall, ready: Ready, content: str, is_error: bool, status: Status) -> None:
    """after_tool hooks, then the result; the call leaves the running only then (it is never seen open and idle)."""
    try:
        content, is_error = await _after_tool(turn, call, ready, content, is_error)
        await record_result(turn.thread, turn.emit, call, ready.tool, content, is_error, status)
    finally:
        turn.forget(call.id)
        turn.contexts.pop(call.id, None)
        turn.running.pop(call.id, None)


async def _after_tool(turn: Turn, call: ToolCall, ready: Ready, content: str, is_error: bool) -> tuple[str, bool]:
    try:
        verdict = await turn.loop.hooks.call(
            "after_tool", CallInfo(call.id, call.function.name, ready.arguments), ToolResult(content, is_error)
        )
    except Exception as error:
        logger.exception("an after_tool hook failed on %s", call.function.name)
        return f"the after_tool hook failed: {describe_error(error, turn.loop.scrubber)}", True
    if isinstance(verdict, Stop):
        turn.stop(verdict.reason)
    elif isinstance(verdict, Replace):
        return result_text(verdict.result), verdict.is_error
    return content, is_error


class _Progress:
    """A running tool's progress reports (ToolContext.progress), delivered before the call's end."""

    def __init__(self, turn: Turn, call_id: str) -> None:
        self.turn, self.call_id = turn, call_id
        self.deliveries: list[Awaitable[object]] = []
        self.settled = False

    def __call__(self, fraction: float | None, message: str) -> None:
        if self.settled:
            return
        pending = self.turn.emit_soon(ToolProgress(self.call_id, fraction, message))
        if pending is not None:  # an async subscriber: delivered before the call's end
            self.deliveries.append(pending)


def _slot(turn: Turn) -> contextlib.AbstractAsyncContextManager[None]:
    return turn.slots if turn.slots is not None else contextlib.nullcontext()


def _cancelled_by_the_turn() -> bool:
    """A stop cancels the call's task itself; a CancelledError a tool raised on its own leaves the task uncancelled."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


# Errors a tool raises to tell the agent what is wrong (as the docs show): one line in the log, not a bug's traceback.
_MEANT = (ValueError, LookupError, PermissionError)


class _TimedOut(Exception):
    """The tool's own time ran out (not a TimeoutError raised inside the tool)."""
