"""A tool's declaration (frontend_tool, human_in_the_loop, browser_tool) made into a Tool: its options checked when
the app is imported, and those that say how its calls look on the page (ToolUI, its card) set apart."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..._checks import FRONTEND_OPTIONS, editable_names, tool_options, unknown_options
from ...core import Tool, tool_from_function
from ...errors import DeclarationError
from ._browser import browser_handler

_OPTIONS_ELSEWHERE = {option: "frontend_tool" for option in FRONTEND_OPTIONS} | {"script": "browser_tool"}


@dataclass(frozen=True)
class ToolUI:
    """How a tool's calls look and are decided on the page (options of frontend_tool and its kin)."""

    title: str = ""  # what the tool does, in a few words (the approval dialog's title); else from its description
    describe: Callable[[Any], str] | None = None  # one sentence about what a call will do, from its arguments
    editable: bool | tuple[str, ...] = False  # arguments the person may change before approving (True: all)


@dataclass(frozen=True)
class DeclaredTool:
    """A declared tool, and how its calls look: its approval dialog's options, its card, its card's texts."""

    tool: Tool
    ui: ToolUI | None
    render: Callable[..., Any] | None
    display: Callable[..., Any] | None


def declared_tool(
    declaration: str, takes: tuple[str, ...], handler: Any, options: dict[str, Any], fixed: dict[str, Any]
) -> DeclaredTool:
    """The tool `declaration` (the decorator's name, taking the options `takes`) makes of `handler`; a wrong option
    is a DeclarationError naming it."""
    where = _where(declaration, options, handler)
    if not callable(handler) or isinstance(handler, type):
        raise DeclarationError(where, f"{shown_name(handler)} is no function", takes=f"{declaration} decorates one")
    unknown_options(where, options, takes, _OPTIONS_ELSEWHERE)
    tool_options(where, options)
    if declaration == "browser_tool" and options["timeout"] is None:
        raise DeclarationError(where, "timeout=None is not valid", takes="the script's time is a number of seconds")
    rest = dict(options)
    render, display = rest.pop("render", None), rest.pop("display", None)
    ui = _tool_ui(rest)
    if declaration == "browser_tool":
        script, timeout = rest.pop("script"), rest.pop("timeout")
        tool = tool_from_function(handler, timeout=timeout + 5, **rest)
        tool.handler = browser_handler(script, timeout)
        tool.context_parameter = "context"
    else:
        tool = tool_from_function(handler, **fixed, **rest)
    if tool.kind == "human" and tool.state is not None and tool.answer_type is None:
        raise DeclarationError(
            where,
            "state= gives the person's state to the function that turns their answer into the result, and it "
            "has no `answer` parameter, so it is never called",
            takes=f"give it one: def {handler.__name__}(state, ..., answer: int)",
        )
    if ui is not None:
        editable_names(where, ui.editable, list(tool.parameters.get("properties", {})))
    return DeclaredTool(tool, ui, render, display)


def shown_name(value: Any) -> str:
    """A declared value as an error names it."""
    return f'"{value}"' if isinstance(value, str) else getattr(value, "__name__", None) or repr(value)


def _where(declaration: str, options: dict[str, Any], function: Any) -> str:
    """How an error names a declaration: "frontend_tool refund_order"."""
    name = options.get("name") or getattr(function, "__name__", "")
    return f"{declaration} {name}" if isinstance(name, str) and name else declaration


def _tool_ui(options: dict[str, Any]) -> ToolUI | None:
    """Take the approval dialog's options out of a tool's options (the rest go to the tool)."""
    title, describe, editable = options.pop("title", ""), options.pop("describe", None), options.pop("editable", False)
    if describe is None and not editable and not title:
        return None
    return ToolUI(title=title, describe=describe, editable=editable if isinstance(editable, bool) else tuple(editable))
