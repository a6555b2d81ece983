"""A turn: the loop working on one thread until the agent is done, a person must decide, or it stops.

    open ─── TurnStarted; then the person's new message (calls waiting for them are skipped), a tool
             they ran from a button, or the retry of a failed run; before_run hooks
    step ─┬─ stopping?                           → stopped, or aborted (Stop)
          ├─ calls without a result?             → settle the batch (_batch): follow up, complete, wait, stop
          ├─ the agent's questions undecided?    → show them and wait (_interrupts)
          ├─ the agent is due?                   → run it (_agent_run)
          └─ otherwise                           → done
    ended by an agent error or the turn limit while the person queued messages: they go now, a new turn
    close ── stop what runs, answer what is open, hand back what was queued after a stop (_closing)

The next step is always derived from the thread (principle 1): calls without a result are run or
wait for a person; when every call has its result and one wants a follow-up, the agent runs again.
Waiting for a person is a state of the thread, so a decision resumes it in this turn, in a later
one, or after a restart. Cancelling the task that runs a turn is a Stop: every call gets its
result, then the CancelledError goes on.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

from ag_ui.core import ToolCallEndEvent, ToolCallStartEvent

from ..protocol import new_id
from ..protocol._json import JSON, JSONObject
from ._agent_run import run_agent
from ._batch import CallPreparation, Verdict, open_calls, settle
from ._calls import describe_error
from ._closing import NEW_MESSAGE, answer_open_calls, close, stop_running
from ._context import ToolContext
from ._events import ErrorOccurred, Event, TurnStarted, UserMessageAdded
from ._hooks import Stop
from ._interrupts import announce_interrupts, interrupts_decided
from ._outcome import TurnOutcome
from ._subscriber import deliver
from ._thread import QueuedMessage, Thread

if TYPE_CHECKING:
    from ..agents import AgentRun
    from ._loop import RunLoop

logger = logging.getLogger("copilot_ui.core")

FollowUp = Union[bool, str]  # False: none; True or "generate": the agent runs; a text: the person's message with it


@dataclass
class Press:
    """A tool a person ran from a button (RunLoop.run_tool), and what follows its result."""

    name: str
    arguments: JSONObject = field(default_factory=dict[str, JSON])
    follow_up: FollowUp = False
    call_id: str = ""  # set once the call is in the thread


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
            await self._add_pressed_call(self.press)
        if retry:
            self._drop_failed_run()
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
            verdict = await self._after_press(verdict)
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
            message = f"the before_run hook failed: {describe_error(error)}"
            await self.emit(ErrorOccurred(message))
            return TurnOutcome("error", message)
        if isinstance(verdict, Stop):
            return TurnOutcome("stopped", verdict.reason)
        return None

    # A tool a person ran, and a retry

    async def _add_pressed_call(self, press: Press) -> None:
        call = self.thread.add_tool_call(press.name, json.dumps(press.arguments))
        press.call_id = call.id
        self.pressed.add(call.id)
        await self.emit(ToolCallStartEvent(tool_call_id=call.id, tool_call_name=call.function.name))
        await self.emit(ToolCallEndEvent(tool_call_id=call.id))

    async def _after_press(self, verdict: Verdict) -> Verdict:
        """The pressed tool has its result: what the button asked for follows, whatever the tool wants."""
        press, self.press = self.press, None
        assert press is not None
        if press.follow_up is False:
            return "complete"
        if press.follow_up is True or press.follow_up == "generate":
            return "follow_up"
        message = QueuedMessage(new_id("msg-"), press.follow_up)
        self.thread.add_user_message(message.text, message.id)
        await self.emit(UserMessageAdded(message.id, message.text, queued=False))
        return "follow_up"

    def _drop_failed_run(self) -> None:
        """What the failed run added goes, so that the agent runs again on the same messages."""
        thread, after = self.thread, self.thread.turn.failed_after
        messages = thread.messages
        start = 0 if after is None else next((i + 1 for i, m in enumerate(messages) if m.id == after), len(messages))
        if start < len(messages):
            thread.remove_messages_from(messages[start].id)
        self.retrying = True

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

    def _stopped(self) -> TurnOutcome:
        if self.aborted:
            return TurnOutcome("aborted", "stopped by the user")
        return TurnOutcome("stopped", self.stop_reason or "stopped")
