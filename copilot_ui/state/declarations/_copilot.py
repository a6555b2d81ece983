"""What an app declares about its copilot: the agents, the tools, how their calls look, the context, the hooks.

The module-level decorators (frontend_tool, human_in_the_loop, browser_tool, render_tool,
render_activity, context, agent_state) register into one default Copilot, which the copilot's state
reads when a run starts and its components read when the page is compiled.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, overload

from ..._checks import (
    BROWSER_OPTIONS,
    FRONTEND_OPTIONS,
    QUESTION_OPTIONS,
    TOOL_NAME,
    Assigned,
    check_tool,
    function_of,
    keywords_checked,
    tool_options,
)
from ...agents import Agent, AgentRegistry, Scrubber, environment_secrets, scrubber_for
from ...core import AttachmentRules, Hooks, LoopLimits, Tool, Toolbox
from ...errors import DeclarationError
from ...store import ThreadStore
from ._agent_states import shared_state
from ._feedback import FeedbackHook
from ._labels import Labels
from ._references import check_call, check_references
from ._tool_declaration import ToolUI, declared_tool, shown_name

if TYPE_CHECKING:
    import reflex as rx

F = TypeVar("F", bound=Callable[..., Any])
Icon: TypeAlias = "str | rx.Component | Callable[[], rx.Component]"  # a lucide icon's name, a component, or a function making one
Display = Callable[[dict[str, Any], Any], dict[str, str]]  # (the arguments so far, the result or None) -> a card's texts
ACTIVITY = "activity:"  # in rendered_tools(), before an activity type the app draws (a tool's name has no colon)
logger = logging.getLogger("copilot_ui.state")
DEMO_MODEL_LABEL = "Demo model"  # the offline demo model, as the state and feedback name it (the header: its label)
_DEFAULT_STORE = "default"


@dataclass(frozen=True)
class ContextProvider:
    """A function of a page state whose value the agent sees with every run."""

    state: type | None
    description: str
    function: Callable[..., Any]

    def value(self, state: Any) -> str:
        """The value as AG-UI context carries it: a string (JSON for anything else); for a function that raises (the
        app's bug, logged), a note that it is not available, so that the person's copilot goes on working."""
        try:
            value = self.function(state) if self.state is not None else self.function()
            return value if isinstance(value, str) else json.dumps(value, default=_plain, ensure_ascii=False)
        except Exception as error:
            logger.exception("the context %r failed; the agent reads that it is not available", self.description)
            return f"not available: the app could not read it ({type(error).__name__})"


class Copilot:
    """The agents, tools, context providers and hooks of an app."""

    limits: Assigned[LoopLimits] = Assigned(LoopLimits, "cui.copilot.limits")
    attachments: Assigned[AttachmentRules | None] = Assigned(AttachmentRules, "cui.copilot.attachments", optional=True)

    def __init__(self) -> None:
        self.toolbox = Toolbox()
        """The tools the app declared (frontend tools, questions, browser tools)."""
        self.agents = AgentRegistry()
        """The agents a conversation may talk to, by id: `copilot.agents.register(agent)`."""
        self.contexts: list[ContextProvider] = []
        """What the agent sees with every run, in the order declared."""
        self.hooks = Hooks()
        """Where the app intercepts runs, model calls and tools: `copilot.hooks.before_tool.append(hook)`."""
        self.limits = LoopLimits()
        """What bounds a turn: follow-ups, a repeated identical call, tools at once."""
        self._store: ThreadStore | str | None = _DEFAULT_STORE
        self._opening_store = threading.Lock()
        self._store_opening: asyncio.Future[ThreadStore | None] | None = None  # the worker thread opening it
        self.owner: Callable[[Any], Any] | None = None
        """The owner of a tab's conversations: a function (sync or async) of the tab's CopilotState that returns the
        app's user id; None: an anonymous owner per browser, kept in a signed cookie."""
        self.dev_console = os.environ.get("COPILOT_DEV_CONSOLE", "") not in ("", "0")
        """Show the "Dev console" (the run's events, its input, timings) in the copilot; COPILOT_DEV_CONSOLE=1."""
        self.image_hosts: list[str] = []
        """Hosts whose images a reply may show; an image from anywhere else shows as a plain link, never fetched."""
        self.text_limit = 20_000
        """Characters of a text shown before "Show all"."""
        self.renderers: dict[str, Callable[..., Any]] = {}  # tool name (or "*") -> the app's card for its calls
        self.displays: dict[str, Callable[..., Any]] = {}  # tool name (or "*") -> what makes the texts its card shows
        self.references_checked = False  # check() ran in this process
        self.cards_unchecked: set[str] = set()  # cards for tools unknown when the layout was built (checked per call)
        self.calls_told: set[str] = set()  # calls close to such a card, told in the log once
        self.activity_renderers: dict[str, Callable[..., Any]] = {}  # activity type (or "*") -> the app's card for it
        self.tool_ui: dict[str, ToolUI] = {}
        self.agent_states: dict[type, tuple[str, ...] | None] = {}  # Reflex states mirroring an agent's state: their agents
        # Words and looks of every layout (a layout's own keywords win): see Labels, and the customizing guide
        self.labels = Labels()
        self.icons: dict[str, Icon] = {}  # an icon's name (see DEFAULT_ICONS) -> a lucide icon name, or a component function
        self.user_message: Callable[..., Any] | None = None  # draws a message of the person's, given a MessageView
        self.assistant_message: Callable[..., Any] | None = None  # draws a reply, given a MessageView
        self.empty_state: Callable[..., Any] | None = None  # draws an empty conversation, given its Labels
        self.shortcut = "mod+/"  # the keys that open the copilot and put the cursor in its message box
        self.feedback_hooks: list[FeedbackHook] = []
        self.attachments = AttachmentRules()  # files the composer takes (None: none)

    @property
    def store(self) -> ThreadStore | None:
        """Where conversations are kept (made on first use: COPILOT_STORE_URL, else .copilot/threads.db); None: nowhere."""
        if self._store == _DEFAULT_STORE:
            with self._opening_store:
                if self._store == _DEFAULT_STORE:
                    from ...store import SQLThreadStore

                    self._store = SQLThreadStore()
        return self._store  # type: ignore[return-value]

    async def open_store(self) -> ThreadStore | None:
        """The store, opened in a worker thread on first use: opening the database (and bringing its tables up to
        date) may wait for it, up to 30 s while another process holds its lock, and no event of anyone may wait.

        On the event loop, use this, not `store`: while the store opens, `store` waits for it, and so would every tab.
        Those who ask meanwhile wait for the one opening (one worker thread, not one each)."""
        if self._store != _DEFAULT_STORE:
            return self._store  # type: ignore[return-value]
        loop = asyncio.get_running_loop()
        opening = self._store_opening
        if opening is None or opening.get_loop() is not loop or _failed(opening):
            opening = self._store_opening = loop.run_in_executor(None, lambda: self.store)
        return await asyncio.shield(opening)

    @store.setter
    def store(self, store: ThreadStore | None) -> None:
        self._store = store

    def agent_ids(self) -> list[str]:
        """The agents a conversation may use: the registered ones, and "default" (chosen from the environment)."""
        return sorted({"default", *self.agents.ids})

    def agent_choices(self, default_name: str = "Copilot") -> list[tuple[str, str]]:
        """(id, label) of each agent a person may pick (the label is the agent's description, else its id; the
        default agent's, else `default_name`: the copilot's title in the layout's words)."""
        choices = []
        for agent_id in self.agent_ids():
            agent = self.agents.get(agent_id) if agent_id in self.agents else None
            label = (agent.description if agent is not None else "") or (default_name if agent_id == "default" else agent_id)
            choices.append((agent_id, label))
        return choices

    def model_label(self, agent_id: str) -> str:
        """The name of the model this agent answers with, as the copilot's header shows it: "Demo model" for the
        offline demo model, "gpt-4o" for that one, "" when the app cannot know (a remote agent)."""
        try:
            agent = self.agent(agent_id)
        except KeyError:
            return ""
        name = getattr(agent, "model_name", "")
        if name.startswith("function:"):  # a FunctionModel of the app's, named after its function: no model to name
            return ""
        return DEMO_MODEL_LABEL if name == "copilot-demo" else name

    def scrubber(self) -> Scrubber:
        """What keeps secrets out of what people see: the agents' configured secrets and API keys in the environment."""
        return scrubber_for((*environment_secrets(), *self.agents.secrets()))

    def rendered_tools(self) -> frozenset[str]:
        """What the app draws itself, whose cards get the data: tool names, and activity types as `"activity:<type>"`."""
        return frozenset(self.renderers) | {ACTIVITY + activity_type for activity_type in self.activity_renderers}

    def display_of(self, tool_name: str) -> Callable[..., Any] | None:
        """What makes the texts of this tool's card (`display=`): the one of the card that draws it, if it has one."""
        return self.displays.get(tool_name if tool_name in self.renderers else "*")

    def agent(self, agent_id: str = "default") -> Agent:
        """The agent with this id; the default one is chosen from the environment on first use."""
        if agent_id not in self.agents and agent_id == "default":
            from ...server import agent_from_environment

            self.agents.register(agent_from_environment(agent_id))
        return self.agents.get(agent_id)

    @overload
    def frontend_tool(self, function: F, /, **options: Any) -> F: ...
    @overload
    def frontend_tool(self, function: None = None, /, **options: Any) -> Callable[[F], F]: ...
    def frontend_tool(self, function: F | None = None, /, **options: Any) -> F | Callable[[F], F]:
        """Declare a tool the agent may call; its handler runs in the person's session.

        With state=SomeState the handler receives a copy of that session state first and may change
        it: the page shows the change before the agent runs again (the session is not locked while
        the handler waits). Options: name, description, mode ("parallel"/"sequential"), approval
        ("never"/"always"/a predicate on the arguments: a predicate that fails, or answers anything
        but True or False, asks), follow_up, completes_run, timeout, available (a predicate on the
        Session), agent, prepare_arguments; and for the page: render (the call's card, a function of
        a ToolCallView), title (what it does in a few words, the approval dialog's title: "Refund an
        order"; else the description's first sentence), describe (a sentence about the effect, from
        the validated arguments: `describe=lambda a: f"Refund order {a.order_id}"`), editable (True,
        or the names of the arguments the person may change in the approval dialog), display (the
        texts the card shows, made in Python from the arguments so far and the result: see
        `ToolCallView.display`). A wrong option is a DeclarationError when the app is imported.
        """
        return self._declaring("frontend_tool", FRONTEND_OPTIONS, function, options)

    @overload
    def human_in_the_loop(self, function: F, /, **options: Any) -> F: ...
    @overload
    def human_in_the_loop(self, function: None = None, /, **options: Any) -> Callable[[F], F]: ...
    def human_in_the_loop(self, function: F | None = None, /, **options: Any) -> F | Callable[[F], F]:
        """Declare a tool whose result is a person's answer (its signature describes the arguments).

        render= draws the question as a card whose controls call `call.respond(value)`. A function
        with an `answer` parameter turns the response into the result: it is called with the
        call's arguments, validated and typed as a frontend tool's are, and `answer=<the response>`
        checked against that parameter's type (`answer: dict[str, bool]` for a checklist form), and
        returns the result. Without one, the response is the result. With state=SomeState that
        function receives the person's session state first, as a frontend tool does: what it changes
        is on the page before the agent runs again. Options: name, description, state, follow_up,
        completes_run, available, agent, render, title, display.
        """
        return self._declaring("human_in_the_loop", QUESTION_OPTIONS, function, options, kind="human")

    @overload
    def browser_tool(self, function: F, /, *, script: str, timeout: float = 10.0, **options: Any) -> F: ...
    @overload
    def browser_tool(
        self, function: None = None, /, *, script: str, timeout: float = 10.0, **options: Any
    ) -> Callable[[F], F]: ...
    def browser_tool(
        self, function: F | None = None, /, *, script: str, timeout: float = 10.0, **options: Any
    ) -> F | Callable[[F], F]:
        """Declare a tool that runs in the person's browser: `script` is a JavaScript function of the arguments.

        The script (async or not) returns the result; if it throws, or does not answer within
        `timeout` seconds, the call gets an error result. The decorated function gives the tool its
        name, description and argument schema. Its other options are frontend_tool's, but state and
        timeout (the script has its own).
        """
        return self._declaring("browser_tool", BROWSER_OPTIONS, function, {**options, "script": script, "timeout": timeout})

    @keywords_checked("cui.render_tool")
    def render_tool(self, name: str, *, display: Display | None = None) -> Callable[[F], F]:
        """Draw the calls of a tool (or "*" for every tool without a card of its own) with this function.

        It receives a ToolCallView (name, arguments while they stream, status, result, progress,
        respond/approve/deny) and returns a component, shown in the conversation instead of the
        default card. `display=` makes the texts the card shows in Python, as on a tool. The name is
        checked when a layout is built: a card for a tool no agent has is a DeclarationError (for the
        tools of a remote agent or an MCP server, unknown until they are called, the log warns).
        """
        where = f'render_tool("{name}")' if isinstance(name, str) else "render_tool"
        if not isinstance(name, str) or not (TOOL_NAME.match(name) or name == "*"):
            takes = 'it takes the name of the tool whose calls it draws: @cui.render_tool("show_order")'
            raise DeclarationError(where, f"{shown_name(name)} is no tool name", takes=takes)
        tool_options(where, {"display": display})

        def register(renderer: F) -> F:
            tool_options(where, {"render": renderer})
            self.renderers[name] = renderer
            if display is not None:
                self.displays[name] = display
            return renderer

        return register

    def render_activity(self, activity_type: str) -> Callable[[F], F]:
        """Draw the agent's activity messages of this type (or "*" for every type without a card of its own).

        An activity (ACTIVITY_SNAPSHOT / ACTIVITY_DELTA) is structured progress the agent shows in the conversation:
        a plan, a search, a download. The function receives an ActivityView (type, content as it changes) and
        returns a component, shown in place of the default card, which shows the content as text.
        """
        if not isinstance(activity_type, str) or not activity_type.strip():
            takes = 'it takes the type of the activities it draws: @cui.render_activity("progress")'
            raise DeclarationError("render_activity", f"{shown_name(activity_type)} is no activity type", takes=takes)

        def register(renderer: F) -> F:
            function_of(
                f'render_activity("{activity_type}")', "render", renderer, 1, takes="it takes a function of a cui.ActivityView"
            )
            self.activity_renderers[activity_type] = renderer
            return renderer

        return register

    @keywords_checked("cui.agent_state")
    def agent_state(self, state_type: type, *, agent: str | tuple[str, ...] | list[str] | None = None) -> type:
        """Share this Reflex state with the agent (with `agent=`, only with that agent, or those): its fields go with
        every run as keys of the agent's state, and the agent's STATE_SNAPSHOT / STATE_DELTA events change them while
        it works (a change that does not fit the fields' types is refused). Several states may be bound, to one agent
        or to different ones; two bound to one agent may not share a field name.
        """
        where = f"agent_state {getattr(state_type, '__name__', state_type)}"
        tool_options(where, {"state": state_type})
        if not (agent is None or isinstance(agent, str) or all(isinstance(one, str) for one in agent)):
            raise DeclarationError(where, f"agent={agent!r} is not valid", takes="it takes an agent's id, or a list of them")
        agents = (agent,) if isinstance(agent, str) else tuple(agent) if agent is not None else None
        for other, other_agents in self.agent_states.items():
            overlap = agents is None or other_agents is None or set(agents) & set(other_agents)
            common = set(shared_state(state_type).fields) & set(shared_state(other).fields)
            if other is not state_type and overlap and common:
                raise DeclarationError(
                    where,
                    f"{state_type.__name__} and {other.__name__} are both bound to an agent's state and both have "
                    f"{', '.join(sorted(common))}: the agent's state would hold one value for two fields",
                )
        self.agent_states[state_type] = agents
        return state_type

    def page_states(self) -> list[type]:
        """The page's Reflex states a run reads: those of the context providers, and those bound to an agent's state."""
        contexts = [provider.state for provider in self.contexts if provider.state is not None]
        return list(dict.fromkeys([*contexts, *self.agent_states]))

    def agent_states_of(self, agent_id: str) -> list[type]:
        """The Reflex states bound to this agent's state."""
        return [state for state, agents in self.agent_states.items() if agents is None or agent_id in agents]

    def check(self) -> None:
        """Check what the declarations refer to (a card's tool, a tool's agent): each layout does, when it is built.
        A DeclarationError says what is wrong."""
        check_references(self)

    def tool_called(self, name: str) -> None:
        """An agent called this tool: a card for a tool unknown when the page was built is checked now (the log says
        so when the call is close to its name and no card draws it)."""
        check_call(self, name)

    def _declaring(self, declaration: str, takes: tuple[str, ...], function: Any, options: dict[str, Any], **fixed: Any) -> Any:
        """The decorator of a tool's declaration: its options checked, the tool made and registered."""

        def register(handler: F) -> F:
            declared = declared_tool(declaration, takes, handler, options, fixed)
            tool = self.add_tool(declared.tool)
            if declared.render is not None:
                self.renderers[tool.name] = declared.render
            if declared.display is not None:
                self.displays[tool.name] = declared.display
            if declared.ui is not None:
                self.tool_ui[tool.name] = declared.ui
            return handler

        return register(function) if function is not None else register

    def add_tool(self, tool: Tool) -> Tool:
        """Register a tool made by hand (its options are checked as a declaration's)."""
        check_tool(tool)
        return self.toolbox.add(tool)

    def tool(self, name: str) -> Tool | None:
        """The tool of this name (as any agent finds it)."""
        return next((tool for tool in self.toolbox if tool.name == name), None)

    def on_feedback(self, hook: F) -> F:
        """Call this function (sync or async) with a `Feedback` each time a person rates a reply (Good response / Bad
        response, with their comment): the rating is already kept with the message in the store."""
        self.feedback_hooks.append(hook)
        return hook

    @keywords_checked("cui.context")
    def context(self, state: type | None = None, *, description: str) -> Callable[[F], F]:
        """Declare what the agent sees: the function's value (of the given page state) is sent with every run."""

        where = f'context "{description}"' if isinstance(description, str) else "context"
        if not isinstance(description, str) or not description.strip():
            takes = "it takes what the value is, in a few words"
            raise DeclarationError(where, f"description={shown_name(description)} is not valid", takes=takes)
        tool_options(where, {"state": state})

        def register(function: F) -> F:
            takes = f"it is called with the page's {state.__name__}" if state is not None else "it is called with nothing"
            function_of(where, "", function, 1 if state is not None else 0, takes=takes)
            self.contexts.append(ContextProvider(state, description, function))
            return function

        return register


copilot = Copilot()


def _plain(value: Any) -> Any:
    """A value JSON takes: a state's list or dict as Reflex hands it out (a proxy of it) is the list or dict."""
    wrapped = getattr(value, "__wrapped__", None)
    return wrapped if isinstance(wrapped, (list, dict, set, tuple)) else str(value)


def _failed(opening: asyncio.Future[Any]) -> bool:
    """The opening of the store ended without one: the next to ask tries again."""
    return opening.done() and (opening.cancelled() or opening.exception() is not None)
