"""What the demo model says and does in any app: it calls a tool whose name starts the person's message, reports what
the tools answered, and otherwise describes the app it is in, from what it is shown: the tools on offer (by name and
description), the page's context. An app scripts more of it with a DemoScript (the demo dashboard's is in
copilot_ui/demo/script.py, outside the installed package).

Pure functions from a ModelTurn (what the model was shown: the person's words, the tools it may call, the
page's context and shared state, the results of its last calls) to a Move (what it streams back: a
thought, words, tool calls). `_demo.py` reads the ModelTurn from pydantic-ai's messages and streams the Move.
A message that starts with an offered tool's name calls it (`set_greeting Good morning`, or
`tool_name {"some": "arguments"}`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..core import STOPPED_WHILE_RUNNING


@dataclass(frozen=True)
class CallResult:
    """A tool's answer to one of the model's calls."""

    tool: str
    arguments: dict[str, Any]  # of the call it answers
    content: Any  # as the tool returned it: usually text, often JSON
    failed: bool = False

    @property
    def text(self) -> str:
        return self.content if isinstance(self.content, str) else json.dumps(self.content)

    @property
    def value(self) -> Any:
        """The content, parsed when it is JSON text."""
        if not isinstance(self.content, str):
            return self.content
        try:
            return json.loads(self.content)
        except ValueError:
            return self.content

    @property
    def is_error(self) -> bool:
        """The call failed (an error result, or a result that says "Error: …")."""
        return self.failed or self.text.startswith("Error:")


@dataclass(frozen=True)
class ModelTurn:
    """What the model is shown when it is its turn."""

    prompt: str  # the person's last message
    offered: frozenset[str] = frozenset()  # the tools it may call: the page's and the agent's own
    parameters: dict[str, dict[str, Any]] = field(default_factory=dict)  # each offered tool's JSON schema, by name
    page: dict[str, Any] = field(default_factory=dict)  # the page's context, as sent with this request
    state: dict[str, Any] = field(default_factory=dict)  # the shared state, as it was when the person asked
    results: tuple[CallResult, ...] = ()  # the answers to its last calls; none when the person spoke last
    descriptions: dict[str, str] = field(default_factory=dict)  # each offered tool's description, by name
    seen: tuple[str, ...] = ()  # the descriptions of the page's context items


@dataclass(frozen=True)
class Call:
    """A tool call the model makes."""

    tool: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Move:
    """What the model streams: a thought (reasoning), then tool calls (all in one reply) or words."""

    text: str = ""
    thought: str = ""
    calls: tuple[Call, ...] = ()


@dataclass(frozen=True)
class DemoScript:
    """What an app scripts the demo model to understand, for an offline demo of its own.

    `reply` is given each ModelTurn: the person's words (with "think it through" taken out), or its calls' results; it
    returns the Move to make, or None to leave the turn to the demo model (which calls a tool named first, says what
    a tool answered, or else describes the app). `phrases` are what a person can say to it, listed when they ask
    what it can do; `tools`, the tools those phrases call (the others offered are listed by name).
    """

    reply: Callable[[ModelTurn], Move | None]
    phrases: tuple[str, ...] = ()
    tools: frozenset[str] = frozenset()


def next_move(turn: ModelTurn, script: DemoScript | None = None) -> Move:
    """The model's move: a reply to its tools' results, or else to what the person said."""
    again = tuple(Call(result.tool, result.arguments) for result in turn.results if _cut_short(result))
    if again:  # the server stopped them, and the person pressed Retry: as a model asked to go on, it calls them again
        return Move(calls=again)
    if turn.results:
        scripted = script.reply(turn) if script is not None else None
        return scripted or Move(text=" ".join(said_about(result) for result in turn.results))
    return reply_to_person(turn, script)


def reply_to_person(turn: ModelTurn, script: DemoScript | None = None) -> Move:
    """A call of the tool named first, else the script's move, else what the model can do; with its reasoning shown
    when the person asked to think it through."""
    if not turn.prompt.strip():
        return Move(text="I'm here. Ask me anything about this page.")
    thinking = _THINK.search(turn.prompt)
    asked = replace(turn, prompt=_THINK.sub(" ", turn.prompt, count=1).strip()) if thinking else turn
    move = _tool_by_name(asked) or (script.reply(asked) if script is not None else None) or introduction(asked, script)
    if not thinking:
        return replace(move, thought="")
    return move if move.thought else replace(move, thought=_thought_about(move))


def _cut_short(result: CallResult) -> bool:
    """A tool the server's stopping cut short (only a Retry after it runs the model on such a result)."""
    return result.is_error and result.text.endswith(STOPPED_WHILE_RUNNING)


def said_about(result: CallResult) -> str:
    """What the model says of a tool's result: what it answered, or why the call did not happen."""
    if result.is_error:
        reason = re.sub(r"^Error:\s*(\w+(Error|Exception|Invalid):\s*)?", "", result.text.strip())  # the words, not the type
        return f"That did not happen: {_sentence(reason)}"
    return f"Done: {result.text}"


def introduction(turn: ModelTurn, script: DemoScript | None = None) -> Move:
    """What the model can do here: the script's phrases, the tools on offer by name and description, what it sees."""
    if re.search(r"\b(hi|hello|hey)\b", turn.prompt, re.IGNORECASE):
        opening = "Hello!"
    elif _CAPABILITIES.search(turn.prompt):
        opening = "Here is what I can do."
    else:
        opening = "I can't answer that one."
    scripted = script.tools if script is not None else frozenset()
    own_tools = sorted(turn.offered - scripted)
    paragraphs = []
    if script is not None and script.phrases and (turn.offered & scripted or not own_tools):
        phrases = "\n".join(f"- {phrase}" for phrase in script.phrases)
        paragraphs.append(f"I can see what the page shows and change it for you. Try one of these:\n\n{phrases}")
    if own_tools:
        listed = "\n".join(f"- {_tool_line(tool, turn)}" for tool in own_tools)
        others = "other " if paragraphs else ""
        paragraphs.append(f"This page's {others}tools answer to their names: write one first, then what it needs.\n\n{listed}")
    elif not paragraphs:
        paragraphs.append("This page offers me no tools, so I can only answer in words.")
    if turn.seen:
        paragraphs.append(f"With each message I see what the page sends: {_and_list(turn.seen)}.")
    paragraphs.append(
        "Connect a real model or any AG-UI agent server to get real answers: set COPILOT_MODEL to a "
        "pydantic-ai model name such as `openai:gpt-4o-mini` (with that provider's API key), or "
        "COPILOT_AGENT_URL to the address of your AG-UI server."
    )
    text = f"{opening} I'm the demo copilot, running offline on a built-in model, so my answers are scripted. " + "\n\n".join(
        paragraphs
    )
    return Move(text=text, thought="These words are not one of the requests I know, so I say what I can do.")


def how_to_call(tool: str, schema: dict[str, Any]) -> str:
    """How a person writes a call of this tool, e.g. `set_greeting <text>` or `move_to {"x": …, "y": …}`."""
    if (text_parameter := _text_parameter(schema)) is not None:
        return f"{tool} <{text_parameter}>"
    names = list(schema.get("required") or []) or list(schema.get("properties") or {})
    if not names:
        return tool
    return f"{tool} {{{', '.join(f'{json.dumps(name)}: …' for name in names)}}}"


# Calling a tool by its name


def _tool_by_name(turn: ModelTurn) -> Move | None:
    """`<tool> <text>` for a tool with one required string parameter, `<tool> {JSON}` for any: a call of that tool."""
    match = re.match(r"\s*([\w.-]+)(?:\s+|(?=\{)|$)(.*)", turn.prompt, re.DOTALL)
    if match is None or match[1] not in turn.offered:
        return None
    tool, words = match[1], match[2].strip()
    schema = turn.parameters.get(tool) or {}
    arguments = _arguments_in(words, schema)
    if arguments is None:
        return Move(text=f"Nothing changed: to call {tool}, write {how_to_call(tool, schema)}.")
    return Move(calls=(Call(tool, arguments),))


def _arguments_in(words: str, schema: dict[str, Any]) -> dict[str, Any] | None:
    """The arguments the words give: a JSON object as written, the text for a tool's one required string
    parameter, or none at all for a tool that requires none. None when the words do not say."""
    if words.startswith("{"):
        try:
            written = json.loads(words)
        except ValueError:
            written = None
        if isinstance(written, dict):
            return written
    if (text_parameter := _text_parameter(schema)) is not None:
        return {text_parameter: words} if words else None
    return {} if not words and not schema.get("required") else None


def _text_parameter(schema: dict[str, Any]) -> str | None:
    """The tool's one required parameter, when there is exactly one and it is a string."""
    required = list(schema.get("required") or [])
    if len(required) != 1:
        return None
    return required[0] if (schema.get("properties") or {}).get(required[0], {}).get("type") == "string" else None


def _tool_line(tool: str, turn: ModelTurn) -> str:
    """`set_greeting <text>`: Change the greeting the page shows."""
    described = (turn.descriptions.get(tool) or "").strip().split("\n\n")[0]
    called = f"`{how_to_call(tool, turn.parameters.get(tool) or {})}`"
    return f"{called}: {' '.join(described.split())}" if described else called


def _thought_about(move: Move) -> str:
    if move.calls:
        calls = " and ".join(f"{call.tool} with {json.dumps(call.arguments)}" for call in move.calls)
        return f"The person asks for something a tool does, so I call {calls}."
    return "The person asks for something I answer in words; the page's context has what I need."


def _sentence(text: str) -> str:
    return text.strip().rstrip(".") + "."


def _and_list(items: tuple[str, ...]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


_CAPABILITIES = re.compile(r"\bwhat\b.*\b(can|do)\b.*\byou\b.*\bdo\b|\bhelp\b|\bwhat are you\b", re.IGNORECASE)
_THINK = re.compile(r"\bthink\b(?:\s+(?:it\s+)?(?:through|over|out|carefully|step by step))?\s*[:,.!-]*", re.IGNORECASE)
