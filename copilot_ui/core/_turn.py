"""A turn: the loop working on one thread until the agent is done, a person must decide, or it stops.

    open ─── TurnStarted; then the person's new message (calls waiting for them are skipped), a tool
             they ran from a button, or the retry of a failed run; before_run hooks
    step ─┬─ stopping?                           → stopped, or aborted (Stop)
          ├─ calls without a result?             → settle the batch (_batch): follow up, complete, wait, stop
          ├─ the agent's questions undecided?    → show them and wait (_interrupts)
          ├─ the agent is due?                   → run it (run_agent, below)
          └─ otherwise                           → done
    ended by an agent error or the turn limit while the person queued messages: they go now, a new turn
    close ── stop what runs, answer what is open, hand back what was queued after a stop (_closing)

    run_agent ── queued messages join; the turn limit; commit (the page shows what the tools changed); the
                 input (context read fresh, resume, GO_ON after a Retry of a cut-off reply); before_agent_call;
                 the stream, each event verified, applied and handed to the subscriber; a failure shown once

The next step is always derived from the thread (principle 1): calls without a result are run or
wait for a person; when every call has its result and one wants a follow-up, the agent runs again.
Waiting for a person is a state of the thread, so a decision resumes it in this turn, in a later
one, or after a restart. Cancelling the task that runs a turn is a Stop: every call gets its
result, then the CancelledError goes on.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from ag_ui.core import BaseEvent, EventType, Message, RunAgentInput, UserMessage

from ..agents import AgentAborted, AgentError
from ..protocol import EventPipeline, ProtocolError, new_id
from ._attachments import with_attachment_bytes
from ._batch import CallPreparation, open_calls, settle
from ._calls import describe_error
from ._closing import NEW_MESSAGE, answer_open_calls, close, drop_failed_run, failed, stop_running
from ._context import ToolContext
from ._events import AgentRunFinished, AgentRunStarted, ErrorOccurred, Event, TurnStarted, UserMessageAdded
from ._hooks import Stop
from ._interrupts import announce_interrupts, interrupts_decided, resume_entries, use_up_interrupts
from ._outcome import TurnOutcome
from ._press import Press, add_pressed_call, after_press
from ._thread import QueuedMessage, Thread

if TYPE_CHECKING:
    from ..agents import AgentRun
    from ._loop import RunLoop

logger = logging.getLogger("copilot_ui.core")

# The run's start and end are said by the loop itself (AgentRunStarted/Finished), its error once (ErrorOccurred).
SAID_BY_THE_LOOP = frozenset({EventType.RUN_STARTED, EventType.RUN_FINISHED, EventType.RUN_ERROR})

# What the agent reads, after the reply it was writing when the server stopped, when the person presses Retry (a
# message of this one run: the thread keeps the reply, and the agent's next one follows it).
GO_ON = (
    "Your last reply was cut off: the server stopped while you were writing it, and the person has read it as far "
    "as it goes. Go on from exactly where it ends, without repeating any of it."
)


Emit = Callable[[Event], "Awaitable[None] | None"]  # the subscriber: the view


class Turn:
    """One turn of a thread: what runs, what was prepared, what waits, and whether it stops."""

    def __init__(self, loop: RunLoop, thread: Thread, *, press: Press | None = None) -> None:
        self.loop = loop
        self.thread = thread
        self.press = press
        self.pressed: set[str] = set()  # calls a person made with a button: no approval is asked
        self.wake = asyncio.Event()  # a decision or a message arrived
        self.accepting = True  # a message sent now is queued for this turn (else it waits and starts a turn of its own)
        self.prepared: dict[str, CallPreparation] = {}  # preparations by call id, made once
        self.running: dict[str, asyncio.Task[None]] = {}
        self.contexts: dict[str, ToolContext] = {}
        self.announced: set[str] = set()  # keys shown to the person in this turn
        self.cut_off: set[str] = set()  # calls of a reply that ended before they were complete
        self.aborted = False
        self.stop_reason: str | None = None
        self.retrying = False
        self.agent_run: AgentRun | None = None
        limit = loop.limits.max_parallel
        self.slots = asyncio.Semaphore(limit) if limit else None
        self._closing = False

    # The turn, top to bottom

    async def run(self, *, message: QueuedMessage | None = None, retry: bool = False) -> TurnOutcome:
        """Work the thread to an outcome (opening with a new message, a pressed tool, or a retry)."""
        await self.emit(TurnStarted(self.thread.id))
        try:
            outcome = await self._open(message, retry)
            while True:
                while outcome is None:
                    outcome = await self._step()
                if not self._queued_messages_go_now(outcome):
                    break
                outcome = None
            self._closing = True
            return await close(self, outcome)
        except asyncio.CancelledError:
            if not self._closing:  # the task running the turn was cancelled (the server stops): stopped, then it goes on
                self._closing = True
                self.abort()
                await close(self, TurnOutcome("cancelled", "the run was cancelled"))
            raise

    async def _open(self, message: QueuedMessage | None, retry: bool) -> TurnOutcome | None:
        thread = self.thread
        if message is not None:
            await answer_open_calls(thread, self.emit, NEW_MESSAGE, "skipped")
            thread.add_user_message(message.text, message.id, message.attachments)
            thread.start_turn()
            await self.emit(UserMessageAdded(message.id, message.text, queued=False))
        if self.press is not None:
            await add_pressed_call(self, self.press)
        if retry:
            drop_failed_run(self)
        return await self._before_run()

    async def _step(self) -> TurnOutcome | None:
        if self.stopping:
            return self._stopped()
        if open_calls(self.thread):
            return await self._settle_calls()
        if self.thread.interrupts and not interrupts_decided(self):
            return await self._wait_for_interrupts()
        if self._agent_is_due():
            return await run_agent(self)
        return TurnOutcome("done")

    # The steps

    async def _settle_calls(self) -> TurnOutcome | None:
        verdict = await settle(self)
        if verdict == "wait":
            return TurnOutcome("waiting")
        if verdict == "stop":
            return None
        if self.press is not None and self.thread.result_of(self.press.call_id) is not None:
            verdict = await after_press(self, verdict)
        self.thread.turn.follow_up_due = verdict == "follow_up"
        return None

    async def _wait_for_interrupts(self) -> TurnOutcome | None:
        await announce_interrupts(self)
        if self.thread.queued:  # the person wrote instead of deciding: the interrupts are denied, the message goes
            await answer_open_calls(self.thread, self.emit, NEW_MESSAGE, "skipped")
            return None
        if interrupts_decided(self):  # a decision came while they were shown
            return None
        return TurnOutcome("waiting")

    def _agent_is_due(self) -> bool:
        thread, book = self.thread, self.thread.turn
        if thread.queued or book.follow_up_due or thread.interrupts or self.retrying:
            return True
        # A person's message not yet sent to the agent (one already answered, even by an empty run, is not).
        last = thread.last_message()
        return last is not None and last.role == "user" and last.id != book.last_sent_message_id

    def _queued_messages_go_now(self, outcome: TurnOutcome) -> bool:
        """An agent error or the turn limit does not lose what the person wrote meanwhile: it goes, in a new turn."""
        if not self.thread.queued:
            return False
        return outcome.status == "limit" or (outcome.status == "error" and self.thread.turn.failed is not None)

    async def _before_run(self) -> TurnOutcome | None:
        try:
            verdict = await self.loop.hooks.call("before_run", self.thread)
        except Exception as error:
            logger.exception("a before_run hook failed")
            message = f"the before_run hook failed: {describe_error(error, self.loop.scrubber)}"
            await self.emit(ErrorOccurred(message))
            return TurnOutcome("error", message)
        if isinstance(verdict, Stop):
            return TurnOutcome("stopped", verdict.reason)
        return None

    # Controls, from outside the turn

    @property
    def stopping(self) -> bool:
        return self.aborted or self.stop_reason is not None

    def stop(self, reason: str) -> None:
        """End the turn after the current step (a hook, loop detection); the first reason is kept."""
        if self.stop_reason is None:
            self.stop_reason = reason
        self.wake.set()

    def abort(self) -> None:
        """Stop now: the agent's stream closes, running handlers are cancelled; no follow-up after it."""
        self.aborted = True
        self.accepting = False
        if self.agent_run is not None:
            self.agent_run.abort()
        stop_running(self)
        self.wake.set()

    def forget(self, call_id: str) -> None:
        """The call has its result: should the agent re-send it without one, it is a new call, prepared and shown anew."""
        self.prepared.pop(call_id, None)
        self.announced.discard(call_id)

    def queue(self, message: QueuedMessage) -> None:
        """A message the person sent during the turn: it goes with the next run."""
        self.thread.queued.append(message)
        self.wake.set()

    async def emit(self, event: Event) -> None:
        await deliver(self.loop.emit, event)

    def emit_soon(self, event: Event) -> asyncio.Future[None] | None:
        """Hand an event over without waiting (for code that cannot await): the delivery to wait for, if any."""
        pending = start_delivery(self.loop.emit, event)
        return asyncio.ensure_future(finish_delivery(pending)) if pending is not None else None

    def _stopped(self) -> TurnOutcome:
        if self.aborted:
            return TurnOutcome("aborted", "stopped by the user")
        return TurnOutcome("stopped", self.stop_reason or "stopped")


# One run of the agent


async def run_agent(turn: Turn) -> TurnOutcome | None:
    """One run of the agent; None when the turn goes on."""
    thread, loop = turn.thread, turn.loop
    if thread.queued:
        await deliver_queued(turn)
    if thread.turn.agent_runs > loop.limits.max_follow_ups:
        message = (
            f"stopped after {loop.limits.max_follow_ups} follow-up runs in one turn; the agent may be looping. "
            "Send a message to go on."
        )
        await turn.emit(ErrorOccurred(message, "turn_limit"))
        return TurnOutcome("limit", message)
    if loop.commit is not None:
        await loop.commit()
    try:
        run_input = await _build_input(turn)
        verdict = await loop.hooks.call("before_agent_call", run_input)
    except Exception as error:
        logger.exception("preparing the agent's run failed")
        return await failed(
            turn, f"preparing the agent's run failed: {describe_error(error, loop.scrubber)}", after=thread.last_message_id()
        )
    if isinstance(verdict, Stop):
        turn.stop(verdict.reason)
        return None
    if isinstance(verdict, RunAgentInput):
        run_input = verdict
    if turn.stopping:
        return None
    return await _stream(turn, run_input)


async def deliver_queued(turn: Turn) -> None:
    """The messages the person wrote during the turn join the thread, in order, and start a new turn."""
    thread = turn.thread
    queued, thread.queued = thread.queued, []
    for message in queued:
        thread.add_user_message(message.text, message.id, message.attachments)
        await turn.emit(UserMessageAdded(message.id, message.text, queued=True))
    thread.start_turn()


async def _build_input(turn: Turn) -> RunAgentInput:
    loop, thread = turn.loop, turn.thread
    context = loop.context() if loop.context is not None else []
    if inspect.isawaitable(context):
        context = await context
    messages: list[Message] = [message for message in thread.messages if message.role != "activity"]
    if turn.retrying and thread.turn.going_on:
        messages.append(UserMessage(id=new_id("go-on-"), content=GO_ON))
    return RunAgentInput(
        thread_id=thread.id,
        run_id=new_id("run-"),
        messages=await with_attachment_bytes(messages, loop.attachment_bytes),
        tools=loop.toolbox.ag_ui_tools(loop.agent.agent_id, loop.session),
        context=list(context),
        state=thread.state,
        forwarded_props=loop.forwarded_props if loop.forwarded_props is not None else {},
        resume=resume_entries(turn),
        protocol_version="1.0",
    )


async def _stream(turn: Turn, run_input: RunAgentInput) -> TurnOutcome | None:
    loop, thread = turn.loop, turn.thread
    before = thread.last_message_id()  # what this run adds comes after it (a retry drops that)
    _begin_run(turn, run_input)
    await turn.emit(AgentRunStarted(run_input.run_id, thread.turn.agent_runs - 1))
    pipeline = EventPipeline(thread)
    failure = None
    agent_run = turn.agent_run = loop.agent.run(run_input)
    try:
        async for event in agent_run:
            for applied in pipeline.feed(event):
                await _observe(turn, applied)
            if turn.stop_reason:
                agent_run.abort()
        if pipeline.run_open or thread.outcome is None:
            pipeline.finish()
    except AgentAborted:
        if not turn.stopping:
            failure = "the agent's run was stopped"
    except (AgentError, ProtocolError, _HookFailed) as error:
        failure = str(error)
    except Exception as error:  # an agent with a bug must not take the loop down
        logger.exception("the agent failed")
        failure = f"the agent failed: {describe_error(error, turn.loop.scrubber)}"
    finally:
        turn.agent_run = None
        await agent_run.aclose()  # a run left early (a protocol error, a stop) closes its connection now
    if turn.stopping:
        return None
    outcome = thread.outcome
    if failure is not None or outcome is None or outcome.kind == "error":
        message = failure or (outcome.message if outcome else "the agent's run ended without an outcome")
        logger.warning("the agent's run failed: %s", message)
        return await failed(turn, message, outcome.code if outcome else None, after=before)
    if outcome.cut_off:  # by the length limit: its calls may be incomplete and are never run
        turn.cut_off.update(call for call in thread.run_tool_call_ids if thread.result_of(call) is None)
    await turn.emit(AgentRunFinished(run_input.run_id, outcome.kind))
    try:
        verdict = await loop.hooks.call("after_agent_call", run_input, thread)
    except Exception as error:
        logger.exception("an after_agent_call hook failed")
        return await failed(turn, f"the after_agent_call hook failed: {describe_error(error, loop.scrubber)}", after=before)
    if isinstance(verdict, Stop):
        turn.stop(verdict.reason)
    if outcome.kind == "cancelled":
        turn.stop("the agent cancelled its run")
    return None


def _begin_run(turn: Turn, run_input: RunAgentInput) -> None:
    """The book notes the run; the interrupts its resume answers are used up."""
    thread, book = turn.thread, turn.thread.turn
    book.follow_up_due, book.failed, book.going_on, turn.retrying = False, None, False, False
    book.agent_runs += 1
    book.last_sent_message_id = run_input.messages[-1].id if run_input.messages else None
    if thread.interrupts:
        use_up_interrupts(thread)
    thread.outcome = None


async def _observe(turn: Turn, event: BaseEvent) -> None:
    if event.type not in SAID_BY_THE_LOOP:
        await turn.emit(event)
    if not turn.loop.hooks.on_event:
        return
    try:
        verdict = await turn.loop.hooks.call("on_event", event)
    except Exception as error:
        logger.exception("an on_event hook failed")
        raise _HookFailed(f"the on_event hook failed: {describe_error(error, turn.loop.scrubber)}") from error
    if isinstance(verdict, Stop):
        turn.stop(verdict.reason)


class _HookFailed(Exception):
    """A hook raised while the agent's events were being observed."""


async def deliver(emit: Emit | None, event: Event) -> None:
    """Hand one event to the subscriber (sync or async) and wait until it took it."""
    pending = start_delivery(emit, event)
    if pending is not None:
        await finish_delivery(pending)


def start_delivery(emit: Emit | None, event: Event) -> Awaitable[object] | None:
    """Hand one event over without waiting; the awaitable to finish it, if any (one that fails is logged)."""
    if emit is None:
        return None
    try:
        result = emit(event)
    except Exception:
        logger.exception("an event subscriber failed")
        return None
    return result if inspect.isawaitable(result) else None


async def finish_delivery(pending: Awaitable[object]) -> None:
    try:
        await pending
    except Exception:
        logger.exception("an event subscriber failed")
