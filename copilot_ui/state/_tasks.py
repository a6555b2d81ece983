"""Agent tasks without the chat: an app's handler hands the agent a job and gets its result back.

    @rx.event(background=True)
    async def summarize(self):
        result = await cui.run_task(self, "Summarize the orders shown", show="panel")
        async with self:
            self.summary = result.text

The task runs the real run loop with the page's frontend tools and context, on a thread of its own
that no conversation holds and no store keeps. Its tool cards go to the tab's task panel
(`cui.task_panel()`, `show="panel"`) or nowhere (`show="none"`); a call that needs a person
(approval, a question) always shows there, with Approve and Deny, and waits: it never runs without
its decision, and a denied call is in the result as denied (the cards: `_task_cards.py`). The handler's state is
not locked while the task runs: tools lock it in short blocks, as a conversation's do.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Literal

import reflex as rx
from ag_ui.core import Context, ToolCallResultEvent
from reflex.istate.proxy import StateProxy

from ..agents import Scrubber
from ..core import (
    Answer,
    Approve,
    Decision,
    Deny,
    ErrorOccurred,
    Event,
    RunLoop,
    Session,
    Thread,
    ToolExecutionEnded,
    ToolExecutionStarted,
    TurnOutcome,
    ended_by_agent,
    parse_arguments,
)
from ..protocol import new_id
from ._closed_sessions import keep_while_busy, watch_closed_sessions, when_released
from ._decisions import denial
from ._forms import Form
from ._task_cards import TaskCards
from .declarations import copilot
from .turns import SessionStates, page_context
from .view import approved_arguments

logger = logging.getLogger("copilot_ui.state")

Show = Literal["panel", "none"]
LEFT_WITHOUT_DECIDING = "the user left the page without deciding"


@dataclass(frozen=True)
class TaskToolCall:
    """One tool call of a task, as it ended."""

    name: str
    arguments: dict[str, Any]  # as the call ran with them (the person's edits included), secrets scrubbed
    result: str
    status: str  # "complete", "error", "denied", "aborted", "skipped"


@dataclass(frozen=True)
class TaskResult:
    """What an agent task ended with: its final text, its tool calls, and how it ended."""

    text: str  # the agent's last message (secrets scrubbed, as everything the copilot shows)
    tool_calls: tuple[TaskToolCall, ...] = ()
    status: str = "done"  # "done", "error", "stopped", "limit", "aborted"
    error: str = ""  # what went wrong, in words, when status is "error"

    @property
    def denied(self) -> tuple[TaskToolCall, ...]:
        """The calls a person said no to."""
        return tuple(call for call in self.tool_calls if call.status == "denied")


class TaskState(rx.State):
    """The tab's task panel: the cards of its tasks' tool calls, and the calls that wait for the person."""

    cards: rx.Field[list[dict[str, Any]]] = rx.field(default_factory=list)
    busy: bool = False  # a task of the tab's runs now

    @rx.event(background=True)
    async def approve(self, form: Form) -> None:
        """The person approved the call on a card (its form: card, digest, and the arguments as they left them,
        checked as the approval dialog checks them)."""
        card_id, digest = str(form.get("card") or ""), str(form.get("digest") or "")
        await _decide(self, card_id, digest, Approve(), form)

    @rx.event(background=True)
    async def deny(self, form: Form) -> None:
        """The person said no to the call on a card (its form: card, digest, reason); the agent reads their reason."""
        card_id, digest = str(form.get("card") or ""), str(form.get("digest") or "")
        await _decide(self, card_id, digest, denial(str(form.get("reason") or "")))

    @rx.event(background=True)
    async def answer(self, form: Form) -> None:
        """The person answered a question on a card (its form: card, digest, answer)."""
        card_id, digest = str(form.get("card") or ""), str(form.get("digest") or "")
        await _decide(self, card_id, digest, Answer(str(form.get("answer") or "")))


async def run_task(state: Any, prompt: str, *, agent: str = "default", show: Show = "panel") -> TaskResult:
    """Run an agent task from a background event handler of the app (`@rx.event(background=True)`): the agent gets
    `prompt`, the page's frontend tools and its context, and its result comes back here. Nothing joins the
    conversation. `show="panel"` shows its tool cards in the task panel, `"none"` shows only calls waiting for the
    person (approval, a question), which wait there until decided."""
    if not isinstance(state, StateProxy):
        raise TypeError(
            "run_task runs in a background event handler, so that the page stays live while the agent works: "
            "decorate the handler with @rx.event(background=True) and pass it `self`"
        )
    if state._is_mutable():
        raise RuntimeError(
            "run_task was called inside `async with self`: the task's tools need the state while it runs, so await "
            "it outside the block, and take a block after it to write the result"
        )
    if show not in ("panel", "none"):
        raise ValueError(f"show is 'panel' or 'none', not {show!r}")
    if agent not in copilot.agent_ids():
        raise ValueError(f"there is no agent {agent!r} here; this copilot can use: {', '.join(copilot.agent_ids())}")
    watch_closed_sessions()  # a page may run tasks with no copilot: a closed tab's waiting task must still end
    tab = _HandlerTab(state)
    task = _Task(new_id("task-"), tab.token, Thread(), show, tab)
    loop = RunLoop(
        copilot.agent(agent),
        copilot.toolbox,
        hooks=copilot.hooks,
        context=task.read_context,
        # (SessionStates and page_context use only token, page, locked and page_state of turns.Tab: a narrower
        # protocol belongs in turns/)
        state_access=SessionStates(tab),  # pyright: ignore[reportArgumentType]
        session=Session(page=tab.page),
        emit=task.emit,
        ask_person=True,
        limits=copilot.limits,
    )
    task.loop = loop
    _TASKS[task.id] = task
    try:
        await task.begin()
        outcome = await loop.send(task.thread, str(prompt))
        while outcome is not None and outcome.status == "waiting":
            task.waiting = True
            try:
                await task.decided()
            finally:
                task.waiting = False
            outcome = await loop.resume(task.thread)
        return task.result(outcome)
    finally:
        del _TASKS[task.id]
        await task.end()


@dataclass(frozen=True)
class WaitingCall:
    """A call of a running task that waits for the person: the panel's card, and the digest a decision names."""

    card_id: str
    tool: str
    kind: str  # "approval" or "input"
    digest: str
    arguments: dict[str, Any]  # as shown: all that an Approve runs


def waiting_calls(token: str) -> list[WaitingCall]:
    """The calls of the tab's running tasks that wait for the person's decision (none decided yet)."""
    return [
        WaitingCall(f"{task.id}:{key}", waiting.tool_name, waiting.kind, waiting.digest, waiting.arguments)
        for task in list(_TASKS.values())
        if task.token == token
        for key, waiting in list(task.thread.awaiting.items())
        if key not in task.thread.decisions
    ]


def working_tabs() -> set[str]:
    """The tabs with a task that works now (not one that only waits for the person): their states must stay."""
    return {task.token for task in list(_TASKS.values()) if not task.waiting}


def abandon_tasks(token: str) -> int:
    """The tab is gone for good (its state was released): its tasks' calls that wait for a decision are denied, so
    that the tasks end and their handlers get their results; how many calls were denied."""
    denied = 0
    for call in waiting_calls(token):
        task_id, _, key = call.card_id.partition(":")
        task = _TASKS.get(task_id)
        if task is not None and task.decide(key, Deny(LEFT_WITHOUT_DECIDING), call.digest):
            denied += 1
    return denied


keep_while_busy(working_tabs)  # a tab whose task works keeps its state while its connection is gone
when_released(abandon_tasks)  # nobody is left to decide on what a released tab's tasks wait for


# The tasks running in this process, by id: a decision from the task panel reaches its task here.
_TASKS: dict[str, _Task] = {}


@dataclass(eq=False)
class _Task:
    id: str
    token: str  # the tab that runs it: only that tab decides its calls
    thread: Thread
    show: Show
    tab: _HandlerTab
    loop: RunLoop | None = None
    waiting: bool = False  # it waits for the person's decision, and does nothing else
    statuses: dict[str, str] = field(default_factory=dict)  # call id -> how it ended
    ran_with: dict[str, dict[str, Any]] = field(default_factory=dict)  # call id -> the arguments it ran with
    error: str = ""
    wake: asyncio.Event = field(default_factory=asyncio.Event)  # a decision came
    scrubber: Scrubber = field(default_factory=lambda: copilot.scrubber())  # what the page and the handler get, secret-free
    cards: TaskCards = field(init=False)

    def __post_init__(self) -> None:
        self.cards = TaskCards(self.id, self.thread, self.scrubber)

    async def read_context(self) -> list[Context]:
        async with self.tab.locked():
            return await page_context(self.tab)  # pyright: ignore[reportArgumentType] (as SessionStates above)

    async def emit(self, event: Event) -> None:
        """Loop events become the task's cards; a card that changed is written to the tab's panel."""
        if isinstance(event, ToolCallResultEvent):  # the agent's own tool ended
            event = ended_by_agent(event, self.thread)
        changed = self.cards.change(event)
        if isinstance(event, ToolExecutionStarted):
            self.ran_with[event.call_id] = event.arguments
        elif isinstance(event, ToolExecutionEnded):
            self.statuses[event.call_id] = event.status
        elif isinstance(event, ErrorOccurred):
            self.error = event.message
        if changed:
            await self._write()

    async def begin(self) -> None:
        async with self.tab.locked():
            panel = await self.tab.page_state(TaskState)
            running = {task.id for task in _TASKS.values() if task.token == self.token}
            panel.cards = [card for card in panel.cards if card["id"].split(":")[0] in running]  # finished tasks' go
            panel.busy = True

    async def _write(self) -> None:
        async with self.tab.locked():
            panel = await self.tab.page_state(TaskState)
            others = [card for card in panel.cards if not card["id"].startswith(self.id + ":")]
            panel.cards = others + self.cards.shown(everything=self.show == "panel")

    async def end(self) -> None:
        try:
            await self._write()
            async with self.tab.locked():
                panel = await self.tab.page_state(TaskState)
                panel.busy = any(task.token == self.token for task in _TASKS.values())
        except Exception:
            logger.exception("could not show the end of an agent task")

    async def decided(self) -> None:
        """Wait until the person decided on one of the calls that wait."""
        while not any(key in self.thread.decisions for key in self.thread.awaiting):
            self.wake.clear()
            await self.wake.wait()

    def decide(self, call_id: str, decision: Decision, digest: str) -> bool:
        assert self.loop is not None
        if not self.loop.decide(self.thread, call_id, decision, digest):
            return False
        self.wake.set()
        return True

    def result(self, outcome: TurnOutcome | None) -> TaskResult:
        calls = []
        for message in self.thread.messages:
            for call in getattr(message, "tool_calls", None) or []:
                answer = self.thread.result_of(call.id)
                try:
                    arguments = parse_arguments(call)
                except ValueError:
                    arguments = {}
                status = self.statuses.get(call.id, "complete" if answer is not None else "aborted")
                result = self.scrubber.scrub(str(answer.content)) if answer else ""
                name = self.scrubber.scrub(call.function.name)
                calls.append(TaskToolCall(name, self.cards.scrubbed(self.ran_with.get(call.id, arguments)), result, status))
        last = next((m for m in reversed(self.thread.messages) if m.role == "assistant" and m.content), None)
        status = outcome.status if outcome is not None else "done"
        error = self.error or (outcome.message if outcome is not None and status == "error" else "")
        text = str(last.content) if last is not None else ""
        return TaskResult(self.scrubber.scrub(text), tuple(calls), status, self.scrubber.scrub(error))

    def edited(self, call_id: str, form: Form) -> dict[str, Any] | None:
        """The arguments an Approve from the card runs the waiting call with (the person's edits, checked as the
        approval dialog checks them); None: as shown. ValueError naming what does not fit."""
        waiting = self.thread.awaiting.get(call_id)
        tool = copilot.tool(waiting.tool_name) if waiting is not None else None
        if waiting is None or tool is None:
            return None
        return approved_arguments(waiting.arguments, tool, copilot.tool_ui.get(tool.name), form)


async def _decide(panel: TaskState, card_id: str, digest: str, decision: Decision, form: Form | None = None) -> None:
    """A decision from the task panel reaches its task, if the card is one of this tab's waiting calls; an Approve
    runs the call with the arguments its `form` left (an edit that does not fit is said on the card instead)."""
    task_id, _, call_id = card_id.partition(":")
    task = _TASKS.get(task_id)
    if task is None or task.token != panel.router.session.client_token:
        logger.warning("a decision named no running task of this tab (%r); ignored", card_id)
        return
    card = task.cards.by_call.get(call_id)
    if isinstance(decision, Approve) and form is not None:
        try:
            decision = Approve(arguments=task.edited(call_id, form))
        except ValueError as invalid:
            if card is not None and card["digest"] == digest:
                card["error"] = task.scrubber.scrub(str(invalid))
                await task._write()
            return
    if not task.decide(call_id, decision, digest):
        return
    if card is not None:
        card |= task.cards.decided(card["tool"], "running" if isinstance(decision, (Approve, Answer)) else "denied")
    await task._write()


class _HandlerTab:
    """The tab of an app's background handler, as a task's tools reach it: short locked blocks of its state."""

    def __init__(self, state: StateProxy) -> None:
        self._state = state
        self.token = state.router.session.client_token
        self.page = state.router.url.path or "/"

    @contextlib.asynccontextmanager
    async def locked(self) -> AsyncIterator[StateProxy]:
        async with self._state:
            yield self._state

    async def page_state(self, state_type: type) -> Any:
        return await self._state.get_state(state_type)
