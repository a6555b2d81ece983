"""The run loop: the heart of copilot_ui.

Send the thread, the tools and the context to the agent; apply what streams back; run the tools
whose calls have no result; let the page commit what they changed; run the agent again; until
it is done. The next step is always derived from the thread (principle 1 of the design): calls
without a result are run or wait for a person; when every call has its result and one wants a
follow-up, the agent runs again. Waiting for a person is therefore a state of the thread, and a
decision resumes it in this drive, in a later one, or after a restart.

    drive ─┬─ calls without a result? ── settle_calls: prepare each in call order, run what may
           │                                 run (parallel, sequential tools as barriers), answer
           │                                 the rest, wait for a person where one must decide
           ├─ follow-up due, a new message, or interrupts decided? ── run_agent (after commit)
           └─ otherwise ── done
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from ag_ui.core import (
    BaseEvent,
    Context,
    EventType,
    ResumeEntry,
    RunAgentInput,
    ToolCall,
)

from ..agents import Agent, AgentAborted, AgentError, AgentRun
from ..protocol import EventPipeline, ProtocolError, new_id
from . import _events as events
from ._calls import Answered, Ready, Waiting, describe_error, parse_arguments, prepare, signature
from ._context import Session, ToolContext
from ._decisions import Answer, Approve, Decision, Deny
from ._hooks import Block, CallInfo, Hooks, Replace, Rewrite, Stop, ToolResult
from ._results import error_text, result_text
from ._thread import Thread
from ._toolbox import Toolbox
from ._tools import Tool

logger = logging.getLogger("copilot_ui.core")

Status = Literal["done", "waiting", "stopped", "aborted", "error", "limit"]
ContextProvider = Callable[[], "Awaitable[list[Context]] | list[Context]"]
Emit = Callable[[events.LoopEvent], "Awaitable[None] | None"]
FollowUp = Literal[False, "generate"] | str


class StateAccess(Protocol):
    """How tools declared with `state=` reach the session's state (the UI layer provides it)."""

    def open(self, state_type: type) -> AbstractAsyncContextManager[Any]:
        """The state of this type for the session, changeable inside the block."""
        ...


@dataclass(frozen=True, kw_only=True)
class LoopLimits:
    """Bounds that keep an agent from spinning forever."""

    max_follow_ups: int = 25  # agent runs after the first in one turn
    max_same_call: int = 3  # the same call this many times in a row gets a warning result; once more stops
    max_parallel: int | None = None  # tool handlers running at once


@dataclass(frozen=True)
class TurnOutcome:
    """How a drive ended."""

    status: Status
    message: str = ""


class RunLoop:
    """Drives one agent, its tools and the page through the turns of a thread."""

    def __init__(
        self,
        agent: Agent,
        toolbox: Toolbox | None = None,
        *,
        hooks: Hooks | None = None,
        context: ContextProvider | None = None,
        commit: Callable[[], Awaitable[None]] | None = None,
        state_access: StateAccess | None = None,
        session: Session | None = None,
        emit: Emit | None = None,
        ask_person: bool = False,
        limits: LoopLimits | None = None,
        forwarded_props: Any = None,
    ) -> None:
        self.agent = agent
        self.toolbox = toolbox if toolbox is not None else Toolbox()
        self.hooks = hooks or Hooks()
        self.context = context
        self.commit = commit
        self.state_access = state_access
        self.session = session or Session()
        self.emit = emit
        self.ask_person = ask_person
        self.limits = limits or LoopLimits()
        self.forwarded_props = forwarded_props
        self._turn: _Turn | None = None

    @property
    def running(self) -> bool:
        """A drive is under way."""
        return self._turn is not None

    async def send(self, thread: Thread, text: str) -> TurnOutcome | None:
        """The person says something.

        During a drive it waits until the current batch of tool results is in and goes with the
        next run (None is returned at once). Otherwise it starts a turn and drives it.
        """
        if self._turn is not None and self._turn.thread is thread:
            self._turn.queued.append(text)
            self._turn.wake.set()
            return None
        await self._skip_waiting_calls(thread, "the user did not answer and wrote a new message instead")
        thread.add_user_message(text)
        thread.start_turn()
        return await self.drive(thread)

    async def drive(self, thread: Thread) -> TurnOutcome:
        """Work on the thread until the agent is done, a person must decide, or the run stops."""
        if self._turn is not None:
            raise RuntimeError("this loop is already driving a thread; send() queues a message instead")
        self._turn = _Turn(self, thread)
        try:
            return await self._turn.go()
        finally:
            self._turn = None

    def decide(self, thread: Thread, call_id: str, decision: Decision) -> None:
        """Record a person's decision on a waiting call (or interrupt); a running drive acts on it at once."""
        thread.decisions[call_id] = decision
        if self._turn is not None and self._turn.thread is thread:
            self._turn.wake.set()

    def abort(self) -> None:
        """Stop now: the agent's stream closes, running handlers are cancelled, every call gets a result."""
        if self._turn is not None:
            self._turn.abort()

    async def cancel_waiting(self, thread: Thread, reason: str = "the user stopped the run") -> None:
        """Answer the calls that wait for a person (when no drive is running): nothing is left open."""
        if self._turn is None:
            await self._skip_waiting_calls(thread, reason)

    async def run_tool(
        self, thread: Thread, name: str, arguments: dict[str, Any] | None = None, follow_up: FollowUp = False
    ) -> str:
        """Run a tool from code (a button): recorded as an assistant tool call and its result.

        follow_up: False (the agent is not asked), "generate" (the agent runs and may comment), or
        a message from the person that goes with the run. Returns the result text.
        """
        if self.toolbox.find(name, self.agent.agent_id) is None:
            raise KeyError(f"no tool {name!r} (tools: {', '.join(self.toolbox.names(self.agent.agent_id, self.session))})")
        if self._turn is not None:
            raise RuntimeError("cannot run a tool while a drive is under way")
        call = thread.add_tool_call(name, json.dumps(arguments or {}))
        thread.decisions[call.id] = Approve()  # a person pressed the button
        await self._emit_synthetic_call(call)
        self._turn = _Turn(self, thread)
        try:
            await self._turn.settle_calls()
        finally:
            self._turn = None
        result = thread.result_of(call.id)
        content = result.content if result is not None and isinstance(result.content, str) else ""
        thread.turn.follow_up_due = False
        if follow_up is False:
            return content
        if follow_up == "generate":
            thread.turn.follow_up_due = True
        else:
            thread.add_user_message(follow_up)
        await self.drive(thread)
        return content

    async def _emit_synthetic_call(self, call: ToolCall) -> None:
        await _call_emit(self.emit, events.ToolCallStarted(call.id, call.function.name, None))
        await _call_emit(self.emit, events.ToolCallEnded(call.id))

    async def _skip_waiting_calls(self, thread: Thread, reason: str) -> None:
        for call in thread.unanswered_calls():
            text = error_text(f"not run: {reason}")
            if thread.add_tool_result(call.id, text, error=reason) is not None:
                await _call_emit(self.emit, events.ToolExecutionEnded(call.id, call.function.name, text, True, "aborted"))
        for interrupt in thread.interrupts:
            thread.decisions.setdefault(interrupt.id, Deny(reason))


class _Turn:
    """One drive of the loop over a thread: what runs now, what waits, what was decided."""

    def __init__(self, loop: RunLoop, thread: Thread) -> None:
        self.loop = loop
        self.thread = thread
        self.wake = asyncio.Event()
        self.queued: list[str] = []
        self.running: dict[str, asyncio.Task[None]] = {}
        self.contexts: dict[str, ToolContext] = {}
        self.announced: set[str] = set()
        self.cut_off: set[str] = set()  # calls of a reply that ended before they were complete
        self.aborted = False
        self.stop_reason: str | None = None
        self.agent_run: AgentRun | None = None
        self.reports: set[asyncio.Future[Any]] = set()  # progress deliveries under way
        self.limit = asyncio.Semaphore(loop.limits.max_parallel) if loop.limits.max_parallel else None

    # The drive, top to bottom

    async def go(self) -> TurnOutcome:
        await self.emit(events.TurnStarted(self.thread.id))
        outcome = await self._run_hook_or_stop("before_run", self.thread)
        while outcome is None:
            if self.aborted or self.stop_reason:
                outcome = self._stopped()
            elif self.has_calls_to_settle():
                if await self.settle_calls() and not self.queued:
                    outcome = TurnOutcome("waiting")
                elif self.queued:
                    await self.loop._skip_waiting_calls(self.thread, "the user wrote a new message instead")
            elif self.thread.interrupts and not self._interrupts_decided():
                await self._announce_interrupts()
                if self.queued:
                    await self.loop._skip_waiting_calls(self.thread, "the user wrote a new message instead")
                elif not self._interrupts_decided():  # a decision may have come while announcing
                    outcome = TurnOutcome("waiting")
            elif self.agent_is_due():
                outcome = await self.run_agent()
            else:
                outcome = TurnOutcome("done")
        return await self.end(outcome)

    def has_calls_to_settle(self) -> bool:
        interrupted = {interrupt.tool_call_id for interrupt in self.thread.interrupts}
        return any(call.id not in interrupted for call in self.thread.unanswered_calls())

    def agent_is_due(self) -> bool:
        thread = self.thread
        if self.queued or thread.turn.follow_up_due or thread.interrupts:
            return True
        messages = thread.messages
        # A person's message not yet sent to the agent (one already answered, even by an empty run, is not).
        return bool(messages) and messages[-1].role == "user" and messages[-1].id != thread.turn.last_sent_message_id

    # Tool calls

    async def settle_calls(self) -> bool:
        """Run or answer every call that has no result; True when some wait for a person."""
        while True:
            self.wake.clear()  # a decision arriving from here on wakes the wait below, or rescans
            waiting = await self._start_what_can_run()
            if self.aborted or self.stop_reason:
                await self._cancel_running()
                return False
            if not self.running:
                if waiting and self.wake.is_set() and not self.queued:
                    continue  # a person decided while the calls were being prepared
                break
            await self._wait_for_progress()
        if waiting:
            return True
        self._close_batch()
        return False

    async def _start_what_can_run(self) -> bool:
        """Prepare the unanswered calls in call order and start those that may run; True if any waits."""
        waiting = False
        interrupted = {interrupt.tool_call_id for interrupt in self.thread.interrupts}
        for call in self.thread.unanswered_calls():
            if call.id in interrupted:
                continue
            task = self.running.get(call.id)
            if task is not None:
                if self._is_sequential(call):
                    return waiting  # calls after a running sequential tool wait for it
                continue
            prepared = await self._prepare(call)
            if prepared is None or self.stop_reason:
                return waiting
            if isinstance(prepared, Waiting):
                waiting = True
                await self._announce(call, prepared)
            elif isinstance(prepared, Answered):
                await self._finish_call(call, prepared.tool, prepared.content, prepared.is_error, prepared.status, run=False)
            elif prepared.tool.mode == "sequential":
                if self.running:
                    return waiting  # a barrier: the calls before it finish first
                self._start(call, prepared)
                return waiting  # and the calls after it wait until it is done
            else:
                self._start(call, prepared)
        return waiting

    async def _prepare(self, call: ToolCall) -> Ready | Answered | Waiting | None:
        loop, thread = self.loop, self.thread
        if call.id in self.cut_off:
            return Answered(
                error_text(f"your reply was cut off before the call to {call.function.name} was complete; call it again"),
                True,
                "error",
            )
        try:
            arguments = parse_arguments(call)
        except ValueError as invalid:
            return Answered(error_text(str(invalid)), True, "error")
        decision = thread.decisions.get(call.id)
        prepared = prepare(
            call,
            arguments,
            toolbox=loop.toolbox,
            agent_id=loop.agent.agent_id,
            session=loop.session,
            decision=decision,
            ask_person=loop.ask_person,
        )
        if isinstance(prepared, (Waiting, Answered)):
            return prepared
        looping = self._count_same_call(call, prepared.arguments)
        if looping is not None:
            return looping
        return await self._before_tool(call, prepared)

    def _count_same_call(self, call: ToolCall, arguments: dict[str, Any]) -> Answered | None:
        turn, most = self.thread.turn, self.loop.limits.max_same_call
        sign = signature(call, arguments)
        if sign != turn.last_call_signature:
            turn.same_call_streak = 1
        elif turn.last_call_run != turn.agent_runs:  # repeated by a later reply, not twice in one reply
            turn.same_call_streak += 1
        turn.last_call_signature, turn.last_call_run = sign, turn.agent_runs
        if turn.same_call_streak > most:
            self.stop_reason = f"the agent kept calling {call.function.name} with the same arguments; the run was stopped"
            return Answered(error_text(self.stop_reason), True, "error")
        if turn.same_call_streak == most:
            return Answered(
                error_text(
                    f"you called {call.function.name} with the same arguments {most} times in a row; the result "
                    "will not change. You are looping: do something else or answer the user."
                ),
                True,
                "error",
            )
        return None

    async def _before_tool(self, call: ToolCall, ready: Ready) -> Ready | Answered | None:
        try:
            verdict = await self.loop.hooks.call("before_tool", CallInfo(call.id, call.function.name, ready.arguments))
        except Exception as error:
            return Answered(error_text(f"the before_tool hook failed: {describe_error(error)}"), True, "error", ready.tool)
        if isinstance(verdict, Stop):
            self.stop_reason = verdict.reason
            return None
        if isinstance(verdict, Block):
            return Answered(error_text(f"blocked: {verdict.reason}"), True, "error", ready.tool, ready.arguments)
        if isinstance(verdict, Rewrite):
            return Ready(ready.tool, dict(verdict.arguments), dict(verdict.arguments))
        return ready

    def _start(self, call: ToolCall, ready: Ready) -> None:
        self.running[call.id] = asyncio.create_task(self._execute(call, ready), name=f"tool {call.function.name}")

    async def _execute(self, call: ToolCall, ready: Ready) -> None:
        tool, name = ready.tool, call.function.name
        context = ToolContext(call.id, name, self.loop.session)
        context._report = lambda fraction, message: self._report_progress(call.id, fraction, message)
        self.contexts[call.id] = context
        await self.emit(events.ToolExecutionStarted(call.id, name, ready.arguments))
        content, is_error, status = "", False, "complete"
        try:
            value = await self._invoke(tool, ready.kwargs, context)
            content = result_text(value)
        except _TimedOut:
            content, is_error, status = f"{name} did not finish within {tool.timeout:g} s and was stopped", True, "error"
        except asyncio.CancelledError:
            if not (self.aborted or self.stop_reason):
                raise
            content, is_error, status = "aborted: the run was stopped while this tool ran", True, "aborted"
        except Exception as error:
            content, is_error, status = describe_error(error), True, "error"
        finally:
            context._report = None  # updates after the call settled are ignored
            self.contexts.pop(call.id, None)
        try:
            await self._finish_call(call, tool, content, is_error, status, run=True, arguments=ready.arguments)
        finally:
            self.running.pop(call.id, None)  # only now: a rescan must not see it unanswered and not running

    async def _invoke(self, tool: Tool, kwargs: dict[str, Any], context: ToolContext) -> Any:
        async def call_handler() -> Any:
            if tool.state is None:
                return await _maybe_await(tool.call(None, kwargs, context))
            access = self.loop.state_access
            if access is None:
                raise RuntimeError(f"{tool.name} changes the app's state ({tool.state.__name__}) and runs only inside the app")
            async with access.open(tool.state) as state:
                return await _maybe_await(tool.call(state, kwargs, context))

        async def bounded() -> Any:
            if self.limit is None:
                return await call_handler()
            async with self.limit:
                return await call_handler()

        if tool.timeout is None:
            return await bounded()
        try:
            async with asyncio.timeout(tool.timeout) as deadline:
                return await bounded()
        except TimeoutError:
            if deadline.expired():
                raise _TimedOut() from None
            raise

    def _report_progress(self, call_id: str, fraction: float | None, message: str) -> None:
        event = events.ToolProgress(call_id, fraction, message)
        result = _call_sync_emit(self.loop.emit, event)
        if inspect.isawaitable(result):
            pending = asyncio.ensure_future(result)
            self.reports.add(pending)
            pending.add_done_callback(self.reports.discard)

    async def _finish_call(
        self,
        call: ToolCall,
        tool: Tool | None,
        content: str,
        is_error: bool,
        status: str,
        *,
        run: bool,
        arguments: dict[str, Any] | None = None,
    ) -> None:
        if run:
            content, is_error = await self._after_tool(call, content, is_error, arguments or {})
        text = error_text(content) if is_error and not content.startswith("Error") else content
        written = self.thread.add_tool_result(call.id, text, error=content if is_error else None)
        if written is None:
            status = "dropped"  # the call's message left the thread meanwhile: written nowhere, no follow-up
        else:
            turn = self.thread.turn
            turn.batch_wants_follow_up |= is_error or tool is None or tool.follow_up
            turn.batch_completed_run |= bool(tool is not None and tool.completes_run and not is_error)
        await self.emit(events.ToolExecutionEnded(call.id, call.function.name, text, is_error, status))  # type: ignore[arg-type]

    async def _after_tool(self, call: ToolCall, content: str, is_error: bool, arguments: dict[str, Any]) -> tuple[str, bool]:
        try:
            verdict = await self.loop.hooks.call(
                "after_tool", CallInfo(call.id, call.function.name, arguments), ToolResult(content, is_error)
            )
        except Exception as error:
            return f"the after_tool hook failed: {describe_error(error)}", True
        if isinstance(verdict, Stop):
            self.stop_reason = verdict.reason
        elif isinstance(verdict, Replace):
            return result_text(verdict.result), verdict.is_error
        return content, is_error

    def _is_sequential(self, call: ToolCall) -> bool:
        tool = self.loop.toolbox.find(call.function.name, self.loop.agent.agent_id)
        return tool is not None and tool.mode == "sequential"

    async def _wait_for_progress(self) -> None:
        woken = asyncio.ensure_future(self.wake.wait())
        try:
            await asyncio.wait([*self.running.values(), woken], return_when=asyncio.FIRST_COMPLETED)
        finally:
            woken.cancel()

    def _close_batch(self) -> None:
        turn = self.thread.turn
        if turn.batch_wants_follow_up or turn.batch_completed_run:
            turn.follow_up_due = turn.batch_wants_follow_up and not turn.batch_completed_run
        turn.batch_wants_follow_up = turn.batch_completed_run = False

    async def _announce(self, call: ToolCall, waiting: Waiting) -> None:
        if call.id not in self.announced:
            self.announced.add(call.id)
            await self.emit(events.AwaitingPerson(call.id, call.function.name, waiting.arguments, waiting.kind))

    # Interrupts: the agent's server asks a person (AG-UI RUN_FINISHED outcome "interrupt")

    def _interrupts_decided(self) -> bool:
        if not self.loop.ask_person:
            return True  # no person can be asked: every interrupt is denied
        return all(self._interrupt_decision(interrupt) is not None for interrupt in self.thread.interrupts)

    def _interrupt_decision(self, interrupt: Any) -> Decision | None:
        decisions = self.thread.decisions
        return decisions.get(interrupt.id) or (decisions.get(interrupt.tool_call_id) if interrupt.tool_call_id else None)

    async def _announce_interrupts(self) -> None:
        for interrupt in self.thread.interrupts:
            key = interrupt.tool_call_id or interrupt.id
            if key in self.announced or self._interrupt_decision(interrupt) is not None:
                continue
            self.announced.add(key)
            call = self.thread.tool_call(interrupt.tool_call_id) if interrupt.tool_call_id else None
            name = call.function.name if call is not None else interrupt.reason
            try:
                arguments = parse_arguments(call) if call is not None else {}
            except ValueError:
                arguments = {}
            kind = "approval" if interrupt.reason in ("tool_call", "confirmation") else "input"
            await self.emit(events.AwaitingPerson(key, name, arguments, kind, interrupt.message or "", interrupt.id))

    def _resume_entries(self) -> list[ResumeEntry] | None:
        entries = []
        for interrupt in self.thread.interrupts:
            decision = self._interrupt_decision(interrupt) if self.loop.ask_person else Deny("no person could be asked")
            if isinstance(decision, Approve):
                payload: Any = {"approved": True}
                if decision.arguments is not None:
                    payload["editedArgs"] = decision.arguments
            elif isinstance(decision, Deny):
                payload = {"approved": False, "reason": decision.reason} if decision.reason else {"approved": False}
            elif isinstance(decision, Answer):
                payload = decision.value
            else:
                entries.append(ResumeEntry(interrupt_id=interrupt.id, status="cancelled"))
                continue
            entries.append(ResumeEntry(interrupt_id=interrupt.id, status="resolved", payload=payload))
        return entries or None

    # The agent

    async def run_agent(self) -> TurnOutcome | None:
        """One run of the agent; None when the drive goes on."""
        loop, thread = self.loop, self.thread
        if self.queued:  # the person spoke during the run: their message starts a new turn
            self._deliver_queued()
            thread.start_turn()
        if thread.turn.agent_runs > loop.limits.max_follow_ups:
            message = (
                f"stopped after {loop.limits.max_follow_ups} follow-up runs in one turn; the agent may be looping. "
                "Send a message to go on."
            )
            await self.emit(events.ErrorOccurred(message, "turn_limit"))
            return TurnOutcome("limit", message)
        if loop.commit is not None:
            await loop.commit()  # the page shows what the tools changed before the agent sees it
        try:
            run_input = await self._build_input()
            verdict = await loop.hooks.call("before_agent_call", run_input)
        except Exception as error:
            return await self._failed(f"preparing the agent's run failed: {describe_error(error)}")
        if isinstance(verdict, Stop):
            self.stop_reason = verdict.reason
            return None
        if isinstance(verdict, RunAgentInput):
            run_input = verdict
        if self.aborted:
            return None
        return await self._stream(run_input)

    async def _build_input(self) -> RunAgentInput:
        loop, thread = self.loop, self.thread
        context = await _maybe_await(loop.context()) if loop.context is not None else []
        return RunAgentInput(
            thread_id=thread.id,
            run_id=new_id("run-"),
            messages=[message for message in thread.messages if message.role != "activity"],
            tools=loop.toolbox.ag_ui_tools(loop.agent.agent_id, loop.session),
            context=list(context),
            state=thread.state,
            forwarded_props=loop.forwarded_props if loop.forwarded_props is not None else {},
            resume=self._resume_entries(),
            protocol_version="1.0",
        )

    async def _stream(self, run_input: RunAgentInput) -> TurnOutcome | None:
        loop, thread = self.loop, self.thread
        turn = thread.turn
        turn.follow_up_due = turn.batch_wants_follow_up = turn.batch_completed_run = False
        turn.agent_runs += 1
        turn.last_sent_message_id = run_input.messages[-1].id if run_input.messages else None
        if thread.interrupts:  # answered by this run's resume
            for interrupt in thread.interrupts:
                thread.decisions.pop(interrupt.id, None)
            thread.interrupts = []
        thread.outcome = None
        await self.emit(events.AgentRunStarted(run_input.run_id, turn.agent_runs - 1))
        pipeline = EventPipeline(thread)
        failure = None
        self.agent_run = loop.agent.run(run_input)
        try:
            async for event in self.agent_run:
                for applied in pipeline.feed(event):
                    await self._observe(applied)
                if self.stop_reason:
                    self.agent_run.abort()
            if pipeline.run_open or thread.outcome is None:
                pipeline.finish()
        except AgentAborted:
            if not (self.aborted or self.stop_reason):
                failure = "the agent's run was stopped"
        except (AgentError, ProtocolError, _HookFailed) as error:
            failure = str(error)
        except Exception as error:  # an agent with a bug must not take the loop down
            logger.exception("the agent failed")
            failure = f"the agent failed: {describe_error(error)}"
        finally:
            agent_run, self.agent_run = self.agent_run, None
            await agent_run.aclose()  # a run left early (a protocol error, a stop) closes its connection now
        if self.aborted or self.stop_reason:
            return None
        outcome = thread.outcome
        if failure is not None or outcome is None or outcome.kind == "error":
            return await self._failed(
                failure or (outcome.message if outcome else "the agent's run ended without an outcome"),
                outcome.code if outcome else None,
            )
        self._mark_cut_off(outcome.result)
        await self.emit(events.AgentRunFinished(run_input.run_id, outcome.kind))
        try:
            verdict = await loop.hooks.call("after_agent_call", run_input, thread)
        except Exception as error:
            return await self._failed(f"the after_agent_call hook failed: {describe_error(error)}")
        if isinstance(verdict, Stop):
            self.stop_reason = verdict.reason
        if outcome.kind == "cancelled":
            self.stop_reason = self.stop_reason or "the agent cancelled its run"
        return None

    async def _observe(self, event: BaseEvent) -> None:
        translated = _translate(event, self.thread)
        if translated is not None:
            await self.emit(translated)
        elif event.type not in _SILENT:
            await self.emit(events.AgentEventReceived(event))
        try:
            verdict = await self.loop.hooks.call("on_event", event) if self.loop.hooks.on_event else None
        except Exception as error:
            raise _HookFailed(f"the on_event hook failed: {describe_error(error)}") from error
        if isinstance(verdict, Stop):
            self.stop_reason = verdict.reason

    def _mark_cut_off(self, result: Any) -> None:
        if _finish_reason(result) in ("length", "max_tokens"):
            self.cut_off.update(call for call in self.thread.run_tool_call_ids if self.thread.result_of(call) is None)

    async def _failed(self, message: str, code: str | None = None) -> TurnOutcome:
        await self.emit(events.ErrorOccurred(message, code))
        for call_id in list(self.thread.run_tool_call_ids):
            if self.thread.result_of(call_id) is None:
                call = self.thread.tool_call(call_id)
                if call is not None:
                    reason = "not run: the agent's run failed before this call could run"
                    await self._finish_call(call, None, reason, True, "error", run=False)
        self.thread.turn.follow_up_due = False
        return TurnOutcome("error", message)

    def _deliver_queued(self) -> None:
        for text in self.queued:
            self.thread.add_user_message(text)
        self.queued = []

    # Stopping and ending

    def abort(self) -> None:
        self.aborted = True
        if self.agent_run is not None:
            self.agent_run.abort()
        for call_id, task in self.running.items():
            context = self.contexts.get(call_id)
            if context is not None:
                context.cancelled.set()
            task.cancel()
        self.wake.set()

    async def _cancel_running(self) -> None:
        for call_id, task in list(self.running.items()):
            context = self.contexts.get(call_id)
            if context is not None:
                context.cancelled.set()
            task.cancel()
        if self.running:
            await asyncio.gather(*self.running.values(), return_exceptions=True)

    def _stopped(self) -> TurnOutcome:
        if self.aborted:
            return TurnOutcome("aborted", "stopped by the user")
        return TurnOutcome("stopped", self.stop_reason or "stopped")

    async def end(self, outcome: TurnOutcome) -> TurnOutcome:
        if outcome.status in ("aborted", "stopped"):
            await self._cancel_running()
            reason = "aborted: the user stopped the run" if outcome.status == "aborted" else f"not run: {outcome.message}"
            for call in self.thread.unanswered_calls():
                await self._finish_call(call, None, reason, True, "aborted", run=False)
            for interrupt in self.thread.interrupts:
                self.thread.decisions.setdefault(interrupt.id, Deny(reason))
            self.thread.turn.follow_up_due = False
        try:
            await self.loop.hooks.call("after_run", self.thread, outcome)
        except Exception:
            logger.exception("an after_run hook failed")
        await self.emit(events.TurnEnded(self.thread.id, outcome.status, outcome.message))
        return outcome

    async def _run_hook_or_stop(self, name: str, *args: Any) -> TurnOutcome | None:
        try:
            verdict = await self.loop.hooks.call(name, *args)
        except Exception as error:
            message = f"the {name} hook failed: {describe_error(error)}"
            await self.emit(events.ErrorOccurred(message))
            return TurnOutcome("error", message)
        if isinstance(verdict, Stop):
            return TurnOutcome("stopped", verdict.reason)
        return None

    async def emit(self, event: events.LoopEvent) -> None:
        await _call_emit(self.loop.emit, event)


class _TimedOut(Exception):
    """The tool's own time ran out (not a TimeoutError raised inside the tool)."""


class _HookFailed(Exception):
    """A hook raised while the agent's events were being observed."""


_SILENT = frozenset({EventType.RUN_STARTED, EventType.RUN_FINISHED})


def _translate(event: Any, thread: Thread) -> events.LoopEvent | None:
    kind = event.type
    if kind is EventType.TEXT_MESSAGE_CONTENT:
        return events.TextDelta(event.message_id, event.delta)
    if kind is EventType.TOOL_CALL_ARGS:
        return events.ToolCallArguments(event.tool_call_id, event.delta)
    if kind is EventType.TEXT_MESSAGE_START:
        return events.MessageStarted(event.message_id, event.role or "assistant")
    if kind is EventType.TEXT_MESSAGE_END:
        return events.MessageEnded(event.message_id)
    if kind is EventType.TOOL_CALL_START:
        return events.ToolCallStarted(event.tool_call_id, event.tool_call_name, event.parent_message_id)
    if kind is EventType.TOOL_CALL_END:
        return events.ToolCallEnded(event.tool_call_id)
    if kind is EventType.TOOL_CALL_RESULT:
        call = thread.tool_call(event.tool_call_id)
        content = event.content if isinstance(event.content, str) else result_text(event.content)
        return events.ToolExecutionEnded(event.tool_call_id, call.function.name if call else "", content, False)
    if kind is EventType.STATE_SNAPSHOT or kind is EventType.STATE_DELTA:
        return events.StateChanged(thread.state)
    if kind is EventType.RUN_ERROR:
        return events.ErrorOccurred(event.message, event.code)
    return None


def _finish_reason(result: Any) -> str | None:
    if isinstance(result, dict):
        for key in ("finishReason", "finish_reason", "stopReason", "stop_reason"):
            if isinstance(result.get(key), str):
                return result[key]
    return None


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


def _call_sync_emit(emit: Emit | None, event: events.LoopEvent) -> Any:
    if emit is None:
        return None
    try:
        return emit(event)
    except Exception:
        logger.exception("an event subscriber failed")
        return None


async def _call_emit(emit: Emit | None, event: events.LoopEvent) -> None:
    result = _call_sync_emit(emit, event)
    if inspect.isawaitable(result):
        try:
            await result
        except Exception:
            logger.exception("an event subscriber failed")
