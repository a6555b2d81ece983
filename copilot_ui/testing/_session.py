"""A person's tab of the app, driven from a test: they write to the copilot, click the app's buttons, decide.

Every step goes through Reflex's event processor (`_headless.py`) to the app's real states and the
copilot's (the run loop, its tools, approvals and questions as in a served app) and returns once
what it started is over, or waits for the person (an approval, a question): then `approve`, `deny`
or `answer` goes on. What the copilot shows is read back as the person would see it.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ..agents import Agent
from ..core import ArgumentsInvalid, Thread
from ..protocol._json import JSON, JSONObject, is_object
from ..state import CopilotState, TaskState, copilot
from ..state._tasks import waiting_calls
from ..state.view import Conversation
from ._headless import HeadlessApp
from ._replies import ScriptedReplies

if TYPE_CHECKING:
    from pydantic_ai.models import Model
    from pydantic_ai.toolsets import AbstractToolset
    from reflex.state import State

    from ._model import ScriptedModel

T = TypeVar("T", bound="State")


@dataclass(frozen=True)
class Shown:
    """One item of the conversation, or a card of the task panel, as the person sees it."""

    kind: str  # "user", "assistant", "tool", "error", "notice", "reasoning", "activity"
    text: str  # a message's text; a tool card's result
    tool: str = ""  # a tool card's tool
    status: str = ""  # a tool card's status: running, awaiting_approval, awaiting_input, complete, error, denied, …
    arguments: str = ""  # a tool card's arguments, as shown (JSON)
    question: str = ""  # a tool card's question, while it waits for the person's answer


_KINDS = {"u": "user", "a": "assistant", "t": "tool", "e": "error", "n": "notice", "r": "reasoning", "v": "activity"}


class CopilotSession:
    """A tab of the app with its copilot, on `page`, whose agent is `agent` (scripted)."""

    def __init__(
        self,
        app: HeadlessApp,
        agent: ScriptedReplies,
        *,
        page: str = "/",
        timeout: float = 30.0,
        own_agent: Agent | None = None,
    ) -> None:
        self.agent = agent
        """The scripted agent that stands in for the app's (`says`, `calls`…), unless the test scripts `model`."""
        self.page = page
        self.timeout = timeout  # seconds a step may take before the test fails
        self.toolsets: Sequence[AbstractToolset[Any]] = ()
        """With `model`: the toolsets the app's own agent has in place of its own (its MCP servers); none by default."""
        self.token = "test-" + secrets.token_hex(8)
        self._app = app
        self._own_agent = (
            own_agent  # the app's agent of that id, as it registered it (None: the default one, from the environment)
        )
        self._model: Model | str | None = None
        self._opened = False
        # What the tab's events started and is not over yet (a task waiting for a person)
        self._pending: list[asyncio.Future[list[object]]] = []

    @property
    def model(self) -> ScriptedModel | Model | str:
        """The model the app's own built-in agent runs on in this test: a ScriptedModel (`says`, `calls`…) unless the
        test sets another before its first step (any pydantic-ai model, e.g. one on a mock server). Scripting it puts
        the app's agent (`cui.builtin_agent`: its backend tools, its shared state, its instructions) in place of the
        scripted `agent`, with `toolsets` in place of its MCP servers."""
        if self._model is None:
            if self._opened:
                raise AssertionError(
                    "this test's agent is the scripted one (copilot.agent): script copilot.model before the first step"
                )
            from ._model import ScriptedModel

            self._model = ScriptedModel()
        return self._model

    @model.setter
    def model(self, model: Model | str) -> None:
        if self._opened:
            raise AssertionError("the tab's agent was chosen at its first step: set copilot.model before it")
        self._model = model

    # What the person does

    def say(self, text: str) -> None:
        """Write `text` in the copilot's message box and send it; returns once the copilot is done or waits."""
        self._open()
        self._step(CopilotState.send({"message": text, "agent": ""}))

    def click(self, event: Any) -> None:
        """An event of the app's, as a button of the page sends it (`DashboardState.summarize`, or with arguments
        `DashboardState.pick("Berlin")`); returns once what it started is over, or waits for the person."""
        self._open()
        self._step(event)

    def approve(self, **arguments: JSON) -> None:
        """Approve the call that waits for approval (an agent task's first, then the conversation's); keyword
        arguments are the person's edits, where the tool allows them (an edit the approval dialog would refuse fails
        the test, as the dialog does not let it through)."""
        self._decide("approval", "approve", arguments or None)

    def deny(self, reason: str = "") -> None:
        """Say no to the call that waits for approval; the agent reads the reason."""
        self._decide("approval", "deny", reason)

    def answer(self, value: JSON) -> None:
        """Answer the question that waits for the person (a human-in-the-loop tool's, or the agent's)."""
        self._decide("input", "answer", value)

    # What the person sees

    def state(self, state_type: type[T]) -> T:
        """The tab's state of this type (the app's own, or the copilot's), as it is now."""
        return self._app.call(self._app.state(self.token, state_type), self.timeout)

    @property
    def conversation(self) -> list[Shown]:
        """The conversation, item by item, as the copilot shows it."""
        state = self.state(CopilotState)
        thread, conversation = state.get_value("_thread"), state.get_value("_conversation")
        if thread is None or conversation is None:
            return []
        scrub = copilot.scrubber().scrub  # as the browser gets the texts
        return [_shown(item, thread, conversation, scrub) for item in conversation.items(thread)]

    @property
    def replies(self) -> list[str]:
        """The agent's messages, in order."""
        return [item.text for item in self.conversation if item.kind == "assistant"]

    @property
    def tool_calls(self) -> list[Shown]:
        """The tool cards of the conversation, in order."""
        return [item for item in self.conversation if item.kind == "tool"]

    @property
    def errors(self) -> list[str]:
        """The errors the conversation shows."""
        return [item.text for item in self.conversation if item.kind == "error"]

    @property
    def waiting(self) -> str | None:
        """The tool whose call waits for the person (approval or an answer), if one does."""
        found = self._waiting(None)
        return found[1] if found is not None else None

    @property
    def task_cards(self) -> list[Shown]:
        """The task panel's cards (`cui.task_panel()`), in the shape and with the statuses of `tool_calls`."""
        return [_task_card(card) for card in self.state(TaskState).cards]

    @property
    def browser_events(self) -> list[tuple[str, dict[str, Any]]]:
        """What the tab's browser was sent besides state: (name, payload) of scripts, focus, redirects."""
        return [(event.name, dict(event.payload)) for event in self._app.browser.events.get(self.token, [])]

    # Helpers

    def _open(self) -> None:
        """The page opens (its on_load runs) and its copilot with it, once; its agent is the scripted one, or the app's
        own on the test's model."""
        if not self._opened:
            self._opened = True
            if self._model is not None:
                copilot.agents.register(self._own_agent_on(self._model))
            self._step(CopilotState.open(self.agent.agent_id))

    def _own_agent_on(self, model: Model | str) -> Agent:
        """The app's own agent on this model, with the test's toolsets."""
        agent_id = self.agent.agent_id
        if self.agent.scripts or self.agent.inputs:
            raise AssertionError("this test scripts both copilot.agent and copilot.model: script one of them")
        own = self._own_agent
        if own is None and agent_id == "default":
            from ..server import agent_from_environment

            own = agent_from_environment(agent_id)
        on_model = getattr(own, "on_model", None)
        if on_model is None:
            raise AssertionError(
                f"the app's agent {agent_id!r} is not the built-in one (cui.builtin_agent), so it has no model to script: "
                f"{own!r}; script copilot.agent instead"
            )
        return on_model(model, toolsets=self.toolsets)

    def _step(self, event: Any) -> None:
        async def step() -> None:
            self._pending = [future for future in self._pending if not future.done()]
            self._pending.append(await self._app.dispatch(self.token, event, self._router_data()))
            try:
                await self._app.until(self._task_waits, self._pending, self.timeout)
            except TimeoutError:
                raise AssertionError(f"the copilot was still busy after {self.timeout:g} s") from None

        self._app.call(step())

    def _task_waits(self) -> bool:
        return bool(waiting_calls(self.token))

    def _decide(self, kind: str, how: str, value: JSON) -> None:
        found = self._waiting(kind)
        if found is None:
            words = "approval" if kind == "approval" else "an answer"
            raise AssertionError(f"nothing waits for {words}; the conversation shows: {self.conversation}")
        where, tool, target, digest = found
        edits = value if is_object(value) else None  # an approval's: the person's edits, or None
        if how == "approve" and edits:
            edits = self._edited(tool, digest, edits, where)
        reason = value if isinstance(value, str) else ""  # a denial's
        if where == "task":
            event = {
                "approve": lambda: TaskState.approve({"card": target, "digest": digest, **_as_form(edits or {})}),
                "deny": lambda: TaskState.deny({"card": target, "digest": digest, "reason": reason}),
                "answer": lambda: TaskState.answer({"card": target, "digest": digest, "answer": value}),
            }[how]()
        else:
            event = {
                "approve": lambda: CopilotState.approve(target, digest, edits),
                "deny": lambda: CopilotState.deny(target, digest, reason),
                "answer": lambda: CopilotState.respond(target, digest, value),
            }[how]()
        self._step(event)

    def _edited(self, tool_name: str, digest: str, edits: JSONObject, where: str) -> JSONObject:
        """The arguments the approval (the dialog, a task's card) would run: those it shows with the person's edits,
        checked as it checks them (only the fields the tool lets the person edit; the tool's schema)."""
        ui, tool = copilot.tool_ui.get(tool_name), copilot.tool(tool_name)
        editable = ui.editable if ui is not None else False
        refused = sorted(name for name in edits if not (editable is True or (isinstance(editable, tuple) and name in editable)))
        if refused or tool is None:
            allowed = "every argument" if editable is True else ", ".join(editable or ()) or "no argument"
            raise AssertionError(f"the approval of {tool_name} lets the person edit {allowed}, not {', '.join(refused)}")
        if where == "task":
            shown = next(call.arguments for call in waiting_calls(self.token) if call.digest == digest)
        else:
            thread = self.state(CopilotState).get_value("_thread")
            shown = next(waiting.arguments for waiting in thread.awaiting.values() if waiting.digest == digest)
        arguments = {**shown, **edits}
        try:
            tool.validate(arguments)
        except ArgumentsInvalid as invalid:
            raise AssertionError(f"the approval dialog refuses these arguments: {invalid}") from None
        return arguments

    def _waiting(self, kind: str | None) -> tuple[str, str, str, str] | None:
        """(where, tool, card or item id, digest) of the first call waiting for the person: an agent task's first."""
        for call in waiting_calls(self.token):
            if kind in (None, call.kind):
                return "task", call.tool, call.card_id, call.digest
        copilot = self.state(CopilotState)
        thread, conversation = copilot.get_value("_thread"), copilot.get_value("_conversation")
        if thread is None or conversation is None:
            return None
        for key, waiting in thread.awaiting.items():
            item_id = conversation.ids.get("c:" + key)
            if item_id is not None and key not in thread.decisions and kind in (None, waiting.kind):
                return "conversation", waiting.tool_name, item_id, waiting.digest
        return None

    def _router_data(self) -> dict[str, object]:
        return {
            "pathname": self.page,
            "asPath": self.page,
            "query": {},
            "token": self.token,
            "sid": "sid-" + self.token,
            "headers": {"host": "testserver", "origin": "http://testserver"},
            "ip": "127.0.0.1",
        }


def _shown(item: dict[str, Any], thread: Thread, conversation: Conversation, scrub: Callable[[str], str]) -> Shown:
    def text(key: str) -> str:
        return scrub(conversation.text_of(key, thread) or "")

    kind = _KINDS.get(item["k"]) or str(item["k"])
    if kind != "tool":
        return Shown(kind, text(item["id"]))
    status = item.get("s", "")
    return Shown(
        kind,
        text(item["id"] + ".r"),
        tool=item.get("n", ""),
        status=status,
        arguments=text(item["id"] + ".a"),
        question=text(item["id"] + ".q") if status == "awaiting_input" else "",
    )


def _task_card(card: dict[str, Any]) -> Shown:
    asks = card["status"] == "awaiting_input"
    return Shown("tool", card["result"], card["tool"], card["status"], card["arguments"], card["question"] if asks else "")


def _as_form(arguments: JSONObject) -> dict[str, str | bool]:
    """Arguments as an approval's form sends them: `arg:<name>`, text as typed (JSON for what is not text)."""
    return {f"arg:{name}": value if isinstance(value, str | bool) else json.dumps(value) for name, value in arguments.items()}
