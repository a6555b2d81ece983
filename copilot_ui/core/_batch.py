"""Settle the batch: every call without a result is prepared, then run or answered, and the batch becomes a verdict.

settle ─┬─ prepare each new call once, in call order (remembered by call id for the turn)
        ├─ in call order: apply the person's decisions; answer what needs no run; announce what
        │    waits; start what may run (in parallel; a sequential tool is a barrier: the calls
        │    before it finish first, it runs alone, the calls after it start once it is done)
        ├─ wait until a call ends or something arrives (a decision, a message); again
        └─ finalize: every call answered → "follow_up" or "complete"; or "wait" for a person;
           or "stop"

Preparing a call decides everything about it before it may run, once per call however often the turn looks at it
(so hooks, repairs and approval policies run exactly once); `decided` then applies a person's decision to a waiting
call, as often as the turn looks:

    shown to a person in an earlier turn, unchanged?  resumed as it was shown (no step runs again)
    cut off, repeated in a loop, not JSON?             an error result the agent can read and correct
    unknown, not available here?                       an error naming the tools there are
    a question for a person (human tool)?              waits for their answer
    repaired, validated, before_tool hooks             an error (invalid, blocked), rewritten, or a stop
    approval policy                                    waits for a person (denied when none can be asked)
    otherwise                                          ready to run
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ag_ui.core import ToolCall

from ..errors import AnswerInvalid, ArgumentsInvalid
from ..protocol._json import JSONObject
from ._awaiting import Awaiting, digest_of_call, fits
from ._calls import Answered, Prepared, Ready, Waiting, describe_error, parse_arguments, signature
from ._closing import NEW_MESSAGE, answer_open_calls
from ._decisions import Answer, Deny
from ._events import AwaitingPerson
from ._execute import start
from ._hooks import Block, CallInfo, Rewrite, Stop
from ._results import answer_not_used, error_text, record_result, result_text
from ._thread import Thread
from ._tools import Tool

if TYPE_CHECKING:
    from ._turn import Turn

logger = logging.getLogger("copilot_ui.core")

Verdict = Literal["follow_up", "complete", "wait", "stop"]


@dataclass(frozen=True)
class CallPreparation:
    """A call's preparation, valid while the call is the same (an agent may re-send a call id changed)."""

    name: str
    arguments: str
    prepared: Prepared

    def is_for(self, call: ToolCall) -> bool:
        return self.name == call.function.name and self.arguments == call.function.arguments


def open_calls(thread: Thread) -> list[ToolCall]:
    """Calls without a result, in call order, except those an agent's interrupt holds (the agent answers them)."""
    calls = thread.unanswered_calls()
    if thread.interrupts:
        held = {interrupt.tool_call_id for interrupt in thread.interrupts}
        calls = [call for call in calls if call.id not in held]
    return calls


async def settle(turn: Turn) -> Verdict:
    """Run or answer the open calls until each has its result, a person must decide, or the run stops."""
    while True:
        turn.wake.clear()  # what arrives from here on is seen: by the next pass, or by the wait below
        if turn.stopping:
            return "stop"
        waiting = await _advance(turn)
        if turn.stopping:
            return "stop"
        if turn.running:
            await _wait_for_change(turn)
        elif not waiting:
            return finalize(turn)
        elif turn.wake.is_set():
            continue  # a decision came while the calls were looked at
        elif turn.thread.queued:  # the person wrote instead of deciding: their message is answered
            skipped = open_calls(turn.thread)
            await answer_open_calls(turn.thread, turn.emit, NEW_MESSAGE, "skipped", calls=skipped)
            for call in skipped:
                turn.forget(call.id)
        else:
            return "wait"


def finalize(turn: Turn) -> Verdict:
    """Every call of the batch has its result: what the results ask becomes the verdict, and the batch closes."""
    book = turn.thread.turn
    wishes = set(book.batch.values())
    book.batch.clear()
    if "complete_run" in wishes:
        return "complete"
    return "follow_up" if "follow_up" in wishes else "complete"


async def _advance(turn: Turn) -> bool:
    """One pass over the open calls: prepare the new, then answer, announce or start each; True if any waits."""
    calls = open_calls(turn.thread)
    for call in calls:
        if turn.stopping or (call.id not in turn.running and not await _remember(turn, call)):
            return False  # after a stop nothing more is prepared, answered or started
    waiting = barrier = False
    for call in calls:
        if turn.stopping:
            return waiting
        remembered = turn.prepared[call.id].prepared
        if call.id in turn.running:
            barrier = barrier or remembered.tool.mode == "sequential"  # type: ignore[union-attr]
            continue
        prepared = await decided(turn, call, remembered)
        if isinstance(prepared, Answered):
            await _answer(turn, call, prepared)
        elif isinstance(prepared, Waiting):
            waiting = True
            await _announce(turn, call, prepared)
        elif barrier:
            continue
        elif prepared.tool.mode == "sequential":
            barrier = True
            if not turn.running:
                start(turn, call, prepared)
        else:
            start(turn, call, prepared)
    return waiting


async def _remember(turn: Turn, call: ToolCall) -> bool:
    """The call's preparation, made once; False when a hook stopped the run while preparing it."""
    remembered = turn.prepared.get(call.id)
    if remembered is not None:
        if remembered.is_for(call):
            return True
        turn.announced.discard(call.id)  # the agent re-sent the call changed: it is a new question
    prepared = await prepare(turn, call)
    if prepared is None:
        return False
    turn.prepared[call.id] = CallPreparation(call.function.name, call.function.arguments, prepared)
    return True


async def _answer(turn: Turn, call: ToolCall, answered: Answered) -> None:
    await record_result(turn.thread, turn.emit, call, answered.tool, answered.content, answered.is_error, answered.status)
    turn.forget(call.id)


async def _announce(turn: Turn, call: ToolCall, waiting: Waiting) -> None:
    """Ask the person, once per turn: record what waits, as it is shown, and say so."""
    if call.id in turn.announced:
        return
    turn.announced.add(call.id)
    name = call.function.name
    turn.thread.awaiting[call.id] = Awaiting(call.id, waiting.kind, waiting.digest, name, waiting.arguments)
    await turn.emit(AwaitingPerson(call.id, name, waiting.arguments, waiting.kind, digest=waiting.digest))


async def _wait_for_change(turn: Turn) -> None:
    woken = asyncio.ensure_future(turn.wake.wait())
    try:
        await asyncio.wait([*turn.running.values(), woken], return_when=asyncio.FIRST_COMPLETED)
    finally:
        woken.cancel()


# Preparing a call, once


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
    checked = _repaired_and_validated(turn, call, tool, arguments)
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
        return Answered(answer_not_used(describe_error(error, turn.loop.scrubber), said), True, "error", waiting.tool)
    return Answered(result_text(result), False, "complete", waiting.tool)


# The steps of preparing a call, in the order they run


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


def _repaired_and_validated(turn: Turn, call: ToolCall, tool: Tool, arguments: JSONObject) -> Ready | Answered:
    try:
        if tool.prepare_arguments is not None:
            arguments = tool.prepare_arguments(dict(arguments))
        return Ready(tool, tool.validate(arguments), arguments)
    except ArgumentsInvalid as invalid:
        return Answered(str(invalid), True, "error", tool)
    except Exception as error:  # a repair step that fails is an error result, like any other
        logger.warning("preparing the arguments of %s failed", call.function.name, exc_info=True)
        why = describe_error(error, turn.loop.scrubber)
        return Answered(f"could not prepare the arguments of {call.function.name}: {why}", True, "error", tool)


async def _before_tool(turn: Turn, call: ToolCall, ready: Ready) -> Ready | Answered | None:
    try:
        verdict = await turn.loop.hooks.call("before_tool", CallInfo(call.id, call.function.name, ready.arguments))
    except Exception as error:
        logger.exception("a before_tool hook failed on %s", call.function.name)
        why = describe_error(error, turn.loop.scrubber)
        return Answered(error_text(f"the before_tool hook failed: {why}"), True, "error", ready.tool)
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
