"""Agent tasks without the chat: an app's handler hands the agent a job and gets its result back.

    @rx.event(background=True)
    async def summarize(self):
        result = await cui.run_task(self, "Summarize the orders shown", show="panel")
        async with self:
            self.summary = result.text

A task takes the chat's path: its prompt goes to `turns.work` as the person's message does, the task being the turn's
tab (a `turns.Tab`). Its thread is its own, in memory only (no conversation holds it, no store keeps it); the agent
gets the page's frontend tools and context; its view writes the chat's cards of its tool calls into the tab's task
panel (`cui.task_panel()`, `show="panel"`, or only the calls that wait for the person, `show="none"`: `_task_cards`).
A call that needs a person waits on its card, with Approve and Deny; the decision goes to `work` as the chat's do,
and starts the turn that acts on it. The handler gets its result once a turn ends with nothing waiting. Its state is
not locked while the task runs: tools lock it in short blocks, as a conversation's do.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Literal

import reflex as rx
from reflex.event import Event
from reflex.istate.proxy import StateProxy
from reflex_base.event.context import EventContext

from .._checks import keywords_checked
from ..core import Answer, Approve, Decision, Deny, Thread, TurnOutcome, parse_arguments
from ..protocol import new_id
from ._closed_sessions import keep_while_busy, sent_while_connected, watch_closed_sessions, when_released
from ._decisions import denial
from ._forms import Form
from ._tab import in_context
from ._task_cards import WAITING, scrubbed, task_cards
from .declarations import copilot
from .sink import ViewUpdate
from .turns import Decide, Request, SendMessage, thread_runs, work
from .view import Conversation, Item, approved_arguments

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
        await _decide(self, form, Approve())

    @rx.event(background=True)
    async def deny(self, form: Form) -> None:
        """The person said no to the call on a card (its form: card, digest, reason); the agent reads their reason."""
        await _decide(self, form, denial(str(form.get("reason") or "")))

    @rx.event(background=True)
    async def answer(self, form: Form) -> None:
        """The person answered a question on a card (its form: card, digest, answer)."""
        await _decide(self, form, Answer(str(form.get("answer") or "")))


@keywords_checked("cui.run_task")
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
    task = _Task(state, agent, show)
    _TASKS[task.id] = task
    try:
        await task.begin()
        await task.work(SendMessage(new_id("user-"), str(prompt), agent_id=agent))
        await task.settled.wait()  # (a turn that waits for the person ends; the decision's turn goes on)
        return task.result()
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
    """The calls of the tab's running tasks that wait for the person's decision, as its panel shows them now."""
    calls = []
    for task in list(_TASKS.values()):
        if task.token != token:
            continue
        for card_id in task.shown_waiting:
            key = task.view.call_of(card_id.partition(":")[2]) or ""
            waiting = task.thread.awaiting.get(key)
            if waiting is not None and key not in task.thread.decisions:
                calls.append(WaitingCall(card_id, waiting.tool_name, waiting.kind, waiting.digest, waiting.arguments))
    return calls


def working_tabs() -> set[str]:
    """The tabs with a task that works now (not one that only waits for the person): their states must stay."""
    return {task.token for task in list(_TASKS.values()) if not task.waiting}


def abandon_tasks(token: str) -> int:
    """The tab is gone for good (its state was released): its tasks' calls that wait for a decision are denied, so
    that the tasks end and their handlers get their results; how many calls were denied."""
    calls = waiting_calls(token)
    for call in calls:
        task_id, _, item_id = call.card_id.partition(":")
        denying = asyncio.ensure_future(_TASKS[task_id].work(Decide(item_id, call.digest, Deny(LEFT_WITHOUT_DECIDING))))
        _DENYING.add(denying)
        denying.add_done_callback(_DENYING.discard)
    return len(calls)


keep_while_busy(working_tabs)  # a tab whose task works keeps its state while its connection is gone
when_released(abandon_tasks)  # nobody is left to decide on what a released tab's tasks wait for


# The tasks running in this process, by id: a decision from the task panel reaches its task here.
_TASKS: dict[str, _Task] = {}
_DENYING: set[asyncio.Future[None]] = set()  # the turns that tell the agent a gone tab's calls were denied


class _Task:
    """An agent task: the tab its turns show in (a `turns.Tab`, the handler's), its thread and how it went."""

    def __init__(self, state: StateProxy, agent_id: str, show: Show) -> None:
        self.id = new_id("task-")
        self.token = state.router.session.client_token  # the tab that runs it: only that tab decides its calls
        self.page = state.router.url.path or "/"
        self.browser_answer = None  # its turns send nothing to the browser: a browser tool says so at once
        self.kept = False  # no store keeps its thread
        self.thread = Thread()
        self.view = Conversation.of(self.thread.id)
        self.settled = asyncio.Event()  # a turn ended with nothing waiting for the person
        self.problems: dict[str, str] = {}  # item id -> an edit of the person's that did not fit, said on its card
        self.shown_waiting: list[str] = []  # the cards the panel shows waiting for the person
        self._state = state
        self._event = sent_while_connected(EventContext.get())
        self._agent_id = agent_id
        self._everything = show == "panel"
        self._items: list[Item] = []
        self._scrubber = copilot.scrubber()  # what the page and the handler get, secret-free
        self._outcome: TurnOutcome | None = None

    async def work(self, request: Request) -> None:
        """The request goes the chat's way (`turns.work`); what its turn would send the browser goes nowhere (the
        panel's cards carry their texts)."""
        async for _ in work(self, request):
            pass
        if isinstance(request, SendMessage) and self._outcome is None:
            self._outcome = TurnOutcome("error", "the task could not start")  # (no turn began: the handler must not wait on)
            self.settled.set()

    # As a turns.Tab

    @contextlib.asynccontextmanager
    async def locked(self) -> AsyncIterator[StateProxy]:
        with in_context(self._event):  # (a decision's turn runs in the panel's event, a gone tab's denial in none)
            async with self._state:
                yield self._state

    async def owner(self) -> str:
        return ""

    async def conversation(self, owner: str) -> tuple[Thread, Conversation]:
        return self.thread, self.view

    def agent(self, asked: str, thread: Thread, conversation: Conversation) -> str:
        return self._agent_id

    async def page_state(self, state_type: type) -> Any:
        return await self._state.get_state(state_type)

    async def show(self, shown: ViewUpdate) -> None:
        if shown.items is not None:
            self._items = shown.items
            await self.show_cards()

    async def send(self, event: Event) -> None:
        pass  # (what its turns would send a browser goes nowhere: the panel's cards carry their texts)

    async def running(self, running: bool, status: str = "", dev: str = "") -> None:
        pass

    async def say_running(self, running: bool, status: str = "", dev: str = "") -> None:
        pass

    async def turn_ended(self, outcome: TurnOutcome | None) -> None:
        self._outcome = outcome
        if outcome is None or outcome.status != "waiting":
            self.settled.set()

    @property
    def waiting(self) -> bool:
        """It waits for the person's decision, and does nothing else: its last turn ended so, and no turn runs it now."""
        last = self._outcome
        return last is not None and last.status == "waiting" and thread_runs.running(self.thread.id) is None

    # The panel

    async def begin(self) -> None:
        async with self.locked():
            panel = await self._state.get_state(TaskState)
            running = {task.id for task in _TASKS.values() if task.token == self.token}
            panel.cards = [card for card in panel.cards if card["id"].split(":")[0] in running]  # finished tasks' go
            panel.busy = True

    async def show_cards(self) -> None:
        cards = task_cards(
            self.id,
            self.thread,
            self.view,
            self._items,
            everything=self._everything,
            problems=self.problems,
            scrubber=self._scrubber,
        )
        async with self.locked():
            panel = await self._state.get_state(TaskState)
            others = [card for card in panel.cards if not card["id"].startswith(self.id + ":")]
            if panel.cards != others + cards:  # (every write is sent to the tab)
                panel.cards = others + cards
        self.shown_waiting = [card["id"] for card in cards if card["status"] in WAITING]

    async def end(self) -> None:
        try:
            await self.show_cards()
            async with self.locked():
                panel = await self._state.get_state(TaskState)
                panel.busy = any(task.token == self.token for task in _TASKS.values())
        except Exception:
            logger.exception("could not show the end of an agent task")

    def edited(self, item_id: str, form: Form) -> dict[str, Any] | None:
        """The arguments an Approve from the card runs the waiting call with (the person's edits, checked as the
        approval dialog checks them); None: as shown. ValueError naming what does not fit."""
        waiting = self.thread.awaiting.get(self.view.call_of(item_id) or "")
        tool = copilot.tool(waiting.tool_name) if waiting is not None else None
        if waiting is None or tool is None:
            return None
        return approved_arguments(waiting.arguments, tool, copilot.tool_ui.get(tool.name), form)

    def result(self) -> TaskResult:
        scrub = self._scrubber.scrub
        calls = []
        for message in self.thread.messages:
            for call in getattr(message, "tool_calls", None) or []:
                answer = self.thread.result_of(call.id)
                try:
                    arguments = self.view.ran_with.get(call.id) or parse_arguments(call)
                except ValueError:
                    arguments = {}
                status = self.view.outcomes.get(call.id) or ("complete" if answer is not None else "aborted")
                result = scrub(str(answer.content)) if answer else ""
                calls.append(TaskToolCall(scrub(call.function.name), scrubbed(arguments, self._scrubber), result, status))
        last = next((m for m in reversed(self.thread.messages) if m.role == "assistant" and m.content), None)
        status = self._outcome.status if self._outcome is not None else "error"
        errors = [note.text for note in self.view.notes if note.kind == "error"]  # (what the chat would show)
        error = errors[-1] if errors else (self._outcome.message if self._outcome is not None and status == "error" else "")
        text = str(last.content) if last is not None else ""
        return TaskResult(scrub(text), tuple(calls), status, scrub(error))


async def _decide(panel: TaskState, form: Form, decision: Decision) -> None:
    """A decision from the task panel goes to its task's turn, if the card is one of this tab's waiting calls; an
    Approve runs the call with the arguments its form left (an edit that does not fit is said on the card instead)."""
    card_id, digest = str(form.get("card") or ""), str(form.get("digest") or "")
    task_id, _, item_id = card_id.partition(":")
    task = _TASKS.get(task_id)
    if task is None or task.token != panel.router.session.client_token:
        logger.warning("a decision named no running task of this tab (%r); ignored", card_id)
        return
    if isinstance(decision, Approve):
        try:
            decision = Approve(arguments=task.edited(item_id, form))
        except ValueError as invalid:
            task.problems[item_id] = str(invalid)
            await task.show_cards()
            return
    task.problems.pop(item_id, None)
    await task.work(Decide(item_id, digest, decision))
