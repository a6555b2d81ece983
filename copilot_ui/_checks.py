"""What an app declares is checked when the app is imported, so that a wrong option fails there rather than open
(`approval="alwys"` would mean no approval at all): a DeclarationError naming the declaration, the option, the
value, what it takes and the close matches.

- One declaration's options: `unknown_options`, `tool_options` (frontend_tool, human_in_the_loop, browser_tool, a
  hand-made Tool), `editable_names`, `mcp_approval`, `layout_options`, and `keywords_checked` for the keywords of
  the other declarations (the layouts, cui.context, cui.builtin_agent, cui.HttpAgent, cui.LoopLimits…),
  `whole_number` for a count or a size, and `Assigned` for an attribute the app assigns (cui.copilot.limits).
- What declarations refer to (a card's tool, a tool's agent) is checked when a layout is built:
  `state/declarations/_references.py`.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import logging
import math
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast, overload

from .errors import DeclarationError

if TYPE_CHECKING:
    from .core import Tool
    from .state.declarations._copilot import Copilot

logger = logging.getLogger("copilot_ui")

F = TypeVar("F", bound=Callable[..., object])
T = TypeVar("T")

TOOL_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # what model providers accept as a tool's name

# The options of the declarations of tools (in the order the docs give them)
FRONTEND_OPTIONS = (
    "name",
    "description",
    "state",
    "mode",
    "approval",
    "follow_up",
    "completes_run",
    "timeout",
    "available",
    "agent",
    "prepare_arguments",
    "render",
    "title",
    "describe",
    "editable",
    "display",
)
QUESTION_OPTIONS = ("name", "description", "state", "follow_up", "completes_run", "available", "agent", "render")
QUESTION_OPTIONS += ("title", "display")
BROWSER_OPTIONS = (*(option for option in FRONTEND_OPTIONS if option not in ("state", "timeout")), "script", "timeout")

_TAKES = {
    "name": "a tool's name is letters, digits, _ and - (64 at most), as model providers take it",
    "description": "it takes a text",
    "state": "it takes the class of a Reflex state (a subclass of rx.State)",
    "mode": 'it takes "parallel" or "sequential"',
    "approval": 'it takes "always", "never", or a function of the call\'s arguments (a dict) that returns True or False',
    "follow_up": "it takes True or False",
    "completes_run": "it takes True or False",
    "timeout": "it takes the seconds a call may take (a number above 0), or None for no limit",
    "available": "it takes a function of the Session (page, flags) that returns True or False",
    "agent": "it takes the id of a registered agent",
    "prepare_arguments": "it takes a function of the arguments (a dict) that returns them repaired",
    "render": "it takes a function of a cui.ToolCallView that returns a component",
    "title": "it takes a text",
    "describe": "it takes a function of the validated arguments that returns a sentence",
    "editable": "it takes True, False, or a list of the names of the tool's arguments",
    "display": "it takes a function of the arguments so far (a dict) and the result (None until there is one) that "
    "returns a dict of texts",
    "script": "it takes the JavaScript of a function of the arguments, as a text",
}
_ARITY = {"available": 1, "prepare_arguments": 1, "render": 1, "describe": 1, "display": 2}


# One declaration's options


def unknown_options(where: str, given: Iterable[str], known: Collection[str], elsewhere: Mapping[str, str] = {}) -> None:
    """A DeclarationError naming every option given that the declaration does not take (each fix, one restart)."""
    unknown = [option for option in given if option not in known]
    if not unknown:
        return
    named = [f"{option}=" + (f" (it is an option of {elsewhere[option]})" if option in elsewhere else "") for option in unknown]
    problem = f"there is no option {named[0]}" if len(named) == 1 else f"there are no options {', '.join(named)}"
    raise DeclarationError(
        where,
        problem,
        takes=f"the options are {', '.join(known)}",
        close=[
            f"{match}=" + (f" for {option}=" if len(unknown) > 1 else "")
            for option in unknown
            for match in close_matches(option, known)
        ],
    )


def tool_options(where: str, options: Mapping[str, object]) -> None:
    """Check the value of each option of a tool's declaration (those the declaration takes are checked already)."""
    for option, value in options.items():
        if option == "name":
            if value is not None and (not isinstance(value, str) or not (TOOL_NAME.match(value) or value == "*")):
                raise invalid_option(where, option, value)
        elif option in ("description", "title", "script"):
            if not isinstance(value, str) or (option == "script" and not value.strip()):
                raise invalid_option(where, option, value)
        elif option == "state":
            if value is not None and not _is_state_class(value):
                raise invalid_option(where, option, value)
        elif option == "mode":
            one_of(where, option, value, ("parallel", "sequential"))
        elif option == "approval":
            approval(where, value)
        elif option in ("follow_up", "completes_run"):
            if not isinstance(value, bool):
                raise invalid_option(where, option, value, close=_as_flag(value))
        elif option == "timeout":
            if value is not None and not _is_seconds(value):
                raise invalid_option(where, option, value)
        elif option == "agent":
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise invalid_option(where, option, value)
        elif option == "editable":
            if not (isinstance(value, bool) or _is_names(value)):
                close = [f'{option}=["{value}"]'] if isinstance(value, str) else []
                raise invalid_option(where, option, value, close=close)
        elif option in _ARITY and value is not None:
            function_of(where, option, value, _ARITY[option])


def check_tool(tool: Tool) -> None:
    """A tool made by hand (cui.copilot.add_tool), checked as a declaration's options are."""
    fields = ("name", "description", "mode", "approval", "follow_up", "completes_run", "timeout", "available", "agent")
    tool_options(f"tool {tool.name}", {field: getattr(tool, field) for field in (*fields, "prepare_arguments")})


def one_of(where: str, option: str, value: object, choices: Collection[str], takes: str | None = None) -> str:
    """The value, when it is one of the choices; a DeclarationError suggesting the close ones otherwise."""
    if isinstance(value, str) and value in choices:
        return value
    close = close_matches(value, choices) if isinstance(value, str) else _as_choice(value, choices)
    raise invalid_option(where, option, value, takes=takes, close=[f'{option}="{match}"' for match in close])


def approval(where: str, value: object) -> None:
    """A tool's approval: "always", "never", or a predicate of the arguments."""
    if callable(value) and not isinstance(value, str):
        function_of(where, "approval", value, 1)
    else:
        one_of(where, "approval", value, ("always", "never"))


def mcp_approval(where: str, value: object) -> None:
    """An MCP server's approval: "always", "never", the names of its tools that ask, or a function of (name, arguments)."""
    takes = (
        'it takes "always", "never", a list of the names of the server\'s tools that need it, or a function of the '
        "tool's name and the call's arguments that returns True or False"
    )
    if callable(value) and not isinstance(value, str):
        function_of(where, "approval", value, 2, takes=takes)
    elif isinstance(value, str) or not _is_names(value):
        one_of(where, "approval", value, ("always", "never"), takes=takes)


def editable_names(where: str, editable: bool | Iterable[str], arguments: Collection[str]) -> None:
    """The names `editable=` gives are arguments of the tool."""
    if isinstance(editable, bool):
        return
    for name in editable:
        if name not in arguments:
            raise DeclarationError(
                where,
                f'editable= names "{name}", which is no argument of the tool',
                takes=f"its arguments are {', '.join(arguments) or 'none'}",
                close=[f'"{match}"' for match in close_matches(name, arguments)],
            )


def function_of(where: str, option: str, value: object, arguments: int, takes: str | None = None) -> None:
    """The value is a function that can be called with this many positional arguments."""
    if not callable(value):
        raise invalid_option(where, option, value, takes=takes)
    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):  # a builtin without a signature: it is called as it is
        return
    try:
        signature.bind(*([None] * arguments))
    except TypeError:
        count = {0: "no argument", 1: "one argument"}.get(arguments, f"{arguments} arguments")
        shown = _shown(value) if not option else f"{option}={_shown(value)}"
        raise DeclarationError(where, f"{shown} cannot be called with {count}", takes=takes or _TAKES.get(option, "")) from None


def layout_options(where: str, copilot: Copilot, labels_type: type, icon_names: Collection[str], **options: object) -> None:
    """A layout's options (cui.sidebar, cui.popup, cui.chat, cui.task_panel), those given (not None)."""
    for option, value in options.items():
        if value is None:
            continue
        if option == "agent":
            agents = copilot.agent_ids()
            if value not in agents:
                takes = f"the agents are {', '.join(agents)}"
                raise invalid_option(where, option, value, takes=takes, close=quoted_matches(value, agents))
        elif option in ("title", "placeholder", "greeting"):
            if not isinstance(value, str):
                raise invalid_option(where, option, value, takes="it takes a text")
        elif option == "width":
            if isinstance(value, bool) or not isinstance(value, int) or not 280 <= value <= 760:
                raise invalid_option(where, option, value, takes="it takes the sidebar's width in pixels, from 280 to 760")
        elif option == "suggestions":
            if not _is_names(value):
                close = [f'{option}=["{value}"]'] if isinstance(value, str) else []
                raise invalid_option(where, option, value, takes="it takes a list of texts", close=close)
        elif option == "labels":
            if not isinstance(value, labels_type):
                raise invalid_option(where, option, value, takes="it takes a cui.Labels(...)")
        elif option == "icons":
            _icons(where, value, icon_names)
        elif option in ("user_message", "assistant_message", "empty_state"):
            of = "the cui.Labels" if option == "empty_state" else "a cui.MessageView"
            function_of(where, option, value, 1, takes=f"it takes a function of {of} that returns a component")
        elif option == "shortcut":
            shortcut(where, value)


_MODIFIERS = ("mod", "ctrl", "control", "meta", "cmd", "alt", "shift")


def shortcut(where: str, value: object) -> None:
    """Keys as "mod+/" (modifiers, then one key), or "" for none."""
    takes = 'it takes keys as "mod+/" or "alt+k" (modifiers mod, ctrl, meta, alt, shift, then one key), or "" for none'
    if not isinstance(value, str):
        raise invalid_option(where, "shortcut", value, takes=takes)
    if value == "":
        return
    parts = [*value[:-2].split("+"), "+"] if value.endswith("++") else value.split("+")
    *modifiers, key = [part.strip() for part in parts]
    for modifier in modifiers:
        if modifier.lower() not in _MODIFIERS:
            close = [f'"{value.replace(modifier, match, 1)}"' for match in close_matches(modifier.lower(), _MODIFIERS)]
            raise invalid_option(where, "shortcut", value, takes=takes, close=close)
    if len(key) != 1 and not re.fullmatch(r"F\d{1,2}|Enter|Escape|Space|Arrow(Up|Down|Left|Right)", key, re.I):
        raise invalid_option(where, "shortcut", value, takes=takes)


def keywords_checked(where: str) -> Callable[[F], F]:
    """A function, a method or a class (its `__init__`) whose unknown keywords are a DeclarationError naming the
    close ones (Python's TypeError names none)."""

    def decorate(declared: F) -> F:
        if not inspect.isclass(declared):
            return cast(F, _keywords_checked(where, declared))
        setattr(declared, "__init__", _keywords_checked(where, declared.__init__))  # noqa: B010 (pyright: no assigning a method)
        return cast(F, declared)

    return decorate


def _keywords_checked(where: str, declared: Callable[..., Any]) -> Callable[..., Any]:
    parameters = inspect.signature(declared).parameters
    taken = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    keywords = [name for name, p in parameters.items() if p.kind in taken and name not in ("self", "cls")]
    if inspect.iscoroutinefunction(declared):

        @functools.wraps(declared)
        async def awaited(*args: object, **kwargs: object) -> object:
            unknown_options(where, kwargs, keywords)
            return await declared(*args, **kwargs)

        return awaited

    @functools.wraps(declared)
    def checked(*args: object, **kwargs: object) -> object:
        unknown_options(where, kwargs, keywords)
        return declared(*args, **kwargs)

    return checked


def whole_number(where: str, option: str, value: object, least: int, takes: str) -> None:
    """A DeclarationError unless the value is a whole number of `least` or more (not True, not 2.5, not "3")."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        meant = value.strip() if isinstance(value, str) else value
        close = [f"{option}={int(meant)}"] if isinstance(meant, str) and meant.isdigit() and int(meant) >= least else []
        raise invalid_option(where, option, value, takes=takes, close=close)


class Assigned(Generic[T]):
    """An attribute an app assigns (`cui.copilot.limits = ...`) that takes an instance of one class (or None, when
    `optional`): anything else is a DeclarationError as it is assigned, not a failing turn later."""

    def __init__(self, kind: type, where: str, *, optional: bool = False) -> None:
        self.kind, self.where, self.optional = kind, where, optional
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> Assigned[T]: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...
    def __get__(self, instance: object, owner: type | None = None) -> T | Assigned[T]:
        return self if instance is None else instance.__dict__[self.name]

    def __set__(self, instance: object, value: T) -> None:
        if not isinstance(value, self.kind) and not (self.optional and value is None):
            takes = f"it takes a cui.{self.kind.__name__}(...)" + (", or None" if self.optional else "")
            raise invalid_option(self.where, "", value, takes=takes)
        instance.__dict__[self.name] = value


def close_matches(value: object, choices: Iterable[str]) -> list[str]:
    """The choices close to a value (case aside): "alwys" → ["always"]."""
    if not isinstance(value, str):
        return []
    by_lower = {choice.lower(): choice for choice in choices}
    return [by_lower[match] for match in difflib.get_close_matches(value.lower(), list(by_lower), n=3, cutoff=0.6)]


# Helpers


def invalid_option(
    where: str, option: str, value: object, *, takes: str | None = None, close: Iterable[str] = ()
) -> DeclarationError:
    shown = f"{option}={_shown(value)}" if option else _shown(value)
    return DeclarationError(where, f"{shown} is not valid", takes=takes or _TAKES.get(option, ""), close=close)


def _shown(value: object) -> str:
    if isinstance(value, str):
        return '"' + (value if len(value) <= 60 else value[:60] + "…") + '"'
    if callable(value) and hasattr(value, "__name__"):
        return value.__name__
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "…"


def quoted_matches(value: object, choices: Iterable[str]) -> list[str]:
    """The close matches of a value among the choices, quoted as an error shows them."""
    return [f'"{match}"' for match in close_matches(value, choices)]


def _as_choice(value: object, choices: Collection[str]) -> list[str]:
    """A value that is no text, read as the choice it likely meant (True → "always")."""
    if value is True and "always" in choices:
        return ["always"]
    if value in (False, None) and "never" in choices:
        return ["never"]
    return []


def _as_flag(value: object) -> list[str]:
    if isinstance(value, str) and value.lower() in ("true", "yes", "false", "no"):
        return ["True" if value.lower() in ("true", "yes") else "False"]
    return []


def _is_names(value: object) -> bool:
    return isinstance(value, (list, tuple, set, frozenset)) and all(isinstance(item, str) for item in value)


def _is_seconds(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 and math.isfinite(value)


def _is_state_class(value: object) -> bool:
    """A Reflex state class (duck-typed: this module imports no Reflex)."""
    return isinstance(value, type) and callable(getattr(value, "get_full_name", None))


def _icons(where: str, icons: object, names: Collection[str]) -> None:
    if not isinstance(icons, Mapping):
        raise invalid_option(where, "icons", icons, takes="it takes a dict of icon names to lucide icon names or components")
    for name, chosen in icons.items():
        if name not in names:
            raise DeclarationError(
                where,
                f'icons= names "{name}", which is no icon of the copilot',
                takes=f"its icons are {', '.join(names)}",
                close=quoted_matches(name, names),
            )
        if not (isinstance(chosen, str) or callable(chosen) or hasattr(chosen, "render")):
            raise DeclarationError(
                where,
                f'icons= gives "{name}" {_shown(chosen)}',
                takes="an icon is a lucide icon name, a component, or a function that returns one",
            )
