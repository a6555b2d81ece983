"""Prepare a call, once: everything decided about it before it may run.

    shown to a person in an earlier turn, unchanged?  resumed as it was shown (no step runs again)
    cut off, repeated in a loop, not JSON?             an error result the agent can read and correct
    unknown, not available here?                       an error naming the tools there are
    a question for a person (human tool)?              waits for their answer
    repaired, validated, before_tool hooks             an error (invalid, blocked), rewritten, or a stop
    approval policy                                    waits for a person (denied when none can be asked)
    otherwise                                          ready to run

The turn remembers each preparation by call id (batch.py), so hooks, repairs and approval policies
run exactly once per call however often the turn looks at it. `decided` then applies a person's
decision to a waiting call, as often as the turn looks.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ag_ui.core import ToolCall

from ..errors import AnswerInvalid, ArgumentsInvalid
from ..protocol._json import JSONObject
from ._awaiting import digest_of_call, fits
from ._calls import Answered, Prepared, Ready, Waiting, describe_error, parse_arguments, signature
from ._decisions import Answer, Deny
from ._hooks import Block, CallInfo, Rewrite, Stop
from ._results import answer_not_used, error_text, result_text
from ._tools import Tool

if TYPE_CHECKING:
    from ._turn import Turn

logger = logging.getLogger("copilot_ui.core")


async def prepare(turn: Turn, call: ToolCall) -> Prepared | None:
    """Everything decided about a call before it may run; None when a before_tool hook stopped the run."""
    resumed = _resumed(turn, call)
    if resumed is not None:
        return resumed
    if call.id in turn.cut_off:
        cut = f"your reply was cut off before the call to {call.function.name} was complete; call it again"
        return Answered(error_text(cut), True, "error")
    looping = _count_same_call(turn, call)
    if looping is not None:
        return looping
    try:
        arguments = parse_arguments(call)
    except ValueError as invalid:
        return Answered(error_text(str(invalid)), True, "error")
    tool = _find_tool(turn, call)
    if isinstance(tool, Answered):
        return tool
    if tool.kind == "human":
        return _question(turn, call, tool, arguments)
    checked = _repaired_and_validated(call, tool, arguments)
    if isinstance(checked, Answered):
        return checked
    hooked = await _before_tool(turn, call, checked)
    if not isinstance(hooked, Ready):
        return hooked
    return _approval_policy(turn, call, hooked)


async def decided(turn: Turn, call: ToolCall, prepared: Prepared) -> Prepared:
    """A waiting call with the person's decision applied: ready, answered, or still waiting."""
    if not isinstance(prepared, Waiting):
        return prepared
    thread = turn.thread
    decision, shown = thread.decisions.get(call.id), thread.awaiting.get(call.id)
    if decision is None or shown is None or shown.digest != prepared.digest or not fits(prepared.kind, decision):
        return prepared
    if isinstance(decision, Deny):
        return Answered(_denied(decision.reason), True, "denied", prepared.tool)
    if isinstance(decision, Answer):
        return await _answer_of(turn, call, prepared, decision)
    if decision.arguments is None:
        return Ready(prepared.tool, prepared.kwargs, prepared.arguments)
    try:  # the person edited the arguments: they are checked like the agent's
        return Ready(prepared.tool, prepared.tool.validate(decision.arguments), decision.arguments)
    except ArgumentsInvalid as invalid:
        return Answered(str(invalid), True, "error", prepared.tool)


async def _answer_of(turn: Turn, call: ToolCall, waiting: Waiting, answer: Answer) -> Answered:
    """The result of a question the person answered; an answer its function cannot use is an error result that
    quotes the answer (the agent reads what the person said, and may ask again). A question declared with a state
    gets it as a frontend tool does (StateAccess.run_with): what it changes reaches the page before the follow-up."""
    tool, access = waiting.tool, turn.loop.state_access
    try:
        if tool.state is None or tool.answer_type is None:
            result = await tool.answered(waiting.kwargs, answer.value)
        elif access is None:
            raise RuntimeError(f"{tool.name} changes the app's state ({tool.state.__name__}) and runs only inside the app")
        else:
            result = await access.run_with(tool.state, lambda state: tool.answered(waiting.kwargs, answer.value, state))
    except Exception as error:
        if not isinstance(error, AnswerInvalid):
            logger.exception("%s could not turn the person's answer into a result", call.function.name)
        said = error.answer if isinstance(error, AnswerInvalid) else answer.value
        return Answered(answer_not_used(describe_error(error), said), True, "error", waiting.tool)
    return Answered(result_text(result), False, "complete", waiting.tool)


# The steps, in the order they run


def _resumed(turn: Turn, call: ToolCall) -> Waiting | None:
    """A call a person was shown in an earlier turn, unchanged since: it waits again as it was shown."""
    thread = turn.thread
    shown = thread.awaiting.get(call.id)
    if shown is None or shown.interrupt_id is not None or not turn.loop.ask_person:
        return None
    digest = digest_of_call(call)
    if shown.digest != digest:
        thread.forget_waiting(call.id)  # the agent changed the call since the person saw it: ask again
        return None
    tool = _find_tool(turn, call)
    if isinstance(tool, Answered):
        return None
    try:
        kwargs = tool.validate(shown.arguments)
    except ArgumentsInvalid:
        return None
    return Waiting(tool, shown.arguments, kwargs, shown.kind, digest)


def _count_same_call(turn: Turn, call: ToolCall) -> Answered | None:
    """The same call (name and arguments) in replies in a row, whatever it leads to: a warning, then a stop."""
    book, most = turn.thread.turn, turn.loop.limits.max_same_call
    sign = signature(call)
    if sign != book.last_call_signature:
        book.same_call_streak = 1
    elif book.last_call_run != book.agent_runs:  # repeated by a later reply, not twice in one reply
        book.same_call_streak += 1
    book.last_call_signature, book.last_call_run = sign, book.agent_runs
    if book.same_call_streak > most:
        reason = f"the agent kept calling {call.function.name} with the same arguments; the run was stopped"
        turn.stop(reason)
        return Answered(error_text(reason), True, "error")
    if book.same_call_streak == most:
        return Answered(
            error_text(
                f"you called {call.function.name} with the same arguments {most} times in a row; the result "
                "will not change. You are looping: do something else or answer the user."
            ),
            True,
            "error",
        )
    return None


def _find_tool(turn: Turn, call: ToolCall) -> Tool | Answered:
    loop, name = turn.loop, call.function.name
    tool = loop.toolbox.find(name, loop.agent.agent_id)
    if tool is None:
        offered = ", ".join(loop.toolbox.names(loop.agent.agent_id, loop.session)) or "none"
        return Answered(f"Unknown tool {name!r}. The tools available are: {offered}.", True, "error")
    if not tool.is_available(loop.session):
        return Answered(f"Tool {name!r} is not available here (page {loop.session.page}).", True, "error", tool)
    return tool


def _question(turn: Turn, call: ToolCall, tool: Tool, arguments: JSONObject) -> Prepared:
    """A human-in-the-loop tool: its result is a person's answer."""
    try:
        kwargs = tool.validate(arguments)
    except ArgumentsInvalid as invalid:
        return Answered(str(invalid), True, "error", tool)
    if not turn.loop.ask_person:
        return Answered(f"{tool.name} needs a person's answer, and no person can be asked here", True, "error", tool)
    return Waiting(tool, arguments, kwargs, "input", digest_of_call(call))


def _repaired_and_validated(call: ToolCall, tool: Tool, arguments: JSONObject) -> Ready | Answered:
    try:
        if tool.prepare_arguments is not None:
            arguments = tool.prepare_arguments(dict(arguments))
        return Ready(tool, tool.validate(arguments), arguments)
    except ArgumentsInvalid as invalid:
        return Answered(str(invalid), True, "error", tool)
    except Exception as error:  # a repair step that fails is an error result, like any other
        logger.warning("preparing the arguments of %s failed", call.function.name, exc_info=True)
        return Answered(f"could not prepare the arguments of {call.function.name}: {describe_error(error)}", True, "error", tool)


async def _before_tool(turn: Turn, call: ToolCall, ready: Ready) -> Ready | Answered | None:
    try:
        verdict = await turn.loop.hooks.call("before_tool", CallInfo(call.id, call.function.name, ready.arguments))
    except Exception as error:
        logger.exception("a before_tool hook failed on %s", call.function.name)
        return Answered(error_text(f"the before_tool hook failed: {describe_error(error)}"), True, "error", ready.tool)
    if isinstance(verdict, Stop):
        turn.stop(verdict.reason)
        return None
    if isinstance(verdict, Block):
        return Answered(error_text(f"blocked: {verdict.reason}"), True, "error", ready.tool)
    if isinstance(verdict, Rewrite):  # run as rewritten, without validating again (the hook is trusted code)
        return Ready(ready.tool, dict(verdict.arguments), dict(verdict.arguments))
    return ready


def _approval_policy(turn: Turn, call: ToolCall, ready: Ready) -> Prepared:
    if call.id in turn.pressed:
        return ready  # a person pressed the button that made this call
    if not ready.tool.needs_approval(ready.arguments):  # (a policy that fails asks)
        return ready
    if not turn.loop.ask_person:
        return Answered(_denied("no person could be asked to approve this call"), True, "denied", ready.tool)
    return Waiting(ready.tool, ready.arguments, ready.kwargs, "approval", digest_of_call(call))


def _denied(reason: str) -> str:
    return f"denied by the user: {reason}" if reason else "denied by the user"
