"""The demo model: a deterministic stand-in for a language model, so the app works offline with no key.

A pydantic-ai FunctionModel that reads what a model is shown (the person's last message, the tools
on offer, the page's context and the shared state in its instructions, the results of its last
calls) and streams back what `_demo_script.py` decides (with the app's DemoScript, if it gives one): reasoning,
then words or tool calls. Words
and reasoning come at a pace a person can watch (a word every 20 ms), tool arguments in pieces, the
first at once, as a fast model would.

Each streamed piece costs the server a fixed amount in pydantic-ai's run machinery, whatever its
size, so the model sends the words that are due every FRAME (40 ms, the most often the copilot shows
a change of text) as one piece: the person sees the same words at the same moments.
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import AsyncIterator, Iterator

from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import (
    AgentInfo,
    DeltaThinkingCalls,
    DeltaThinkingPart,
    DeltaToolCall,
    DeltaToolCalls,
    FunctionModel,
)

from ..core import GO_ON
from ..protocol._json import JSONObject
from ._demo_attachments import attachments_said, prompt_words
from ._demo_script import CallResult, DemoScript, ModelTurn, Move, next_move
from ._shared_state import SHARED_STATE

WORD_DELAY = 0.02  # seconds between words: a pace a person can watch
FRAME = 0.04  # seconds between pieces at most: the copilot shows a change of text 25 times a second at most
ARGUMENT_PIECES = 10  # a tool call's arguments arrive in about this many pieces, so a page can show them live
_THOUGHT = -1  # the reasoning's part index, apart from the tool calls' 0, 1, ...


def demo_model(word_delay: float = WORD_DELAY, *, script: DemoScript | None = None) -> FunctionModel:
    """A FunctionModel that streams deterministic replies: it calls a tool whose name starts the message, says what
    the tools answered, and otherwise describes the app it is in; `script` scripts more of it (see DemoScript)."""

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str | DeltaToolCalls | DeltaThinkingCalls]:
        messages, told = _going_on(messages)
        said = attachments_said(messages)  # the person sent files: the model says what it got
        pieces = list(_pieces(Move(text=said) if said else next_move(read_turn(messages, info), script)))
        pieces = _rest_of(pieces, told)
        if not word_delay:  # as fast as it goes: each piece as it is
            for piece in pieces:
                yield piece
            return
        clock = asyncio.get_running_loop()
        started, sent, frames = clock.time(), 0, 0
        while sent < len(pieces):
            due = min(len(pieces), max(sent + 1, int((clock.time() - started) / word_delay) + 1))
            for piece in _merged(pieces[sent:due]):
                yield piece
            sent, frames = due, frames + 1
            await asyncio.sleep(max(0.0, started + frames * max(FRAME, word_delay) - clock.time()))

    return FunctionModel(stream_function=stream, model_name="copilot-demo")


def read_turn(messages: list[ModelMessage], info: AgentInfo) -> ModelTurn:
    """What the model is shown: the person's last message, the tools, the page, the shared state, its calls' results."""
    asked = _request_with_prompt(messages)
    now = _instruction_items(info.instructions or "")
    then = _instruction_items(asked.instructions or "") if asked is not None else {}
    state = then.get(SHARED_STATE, now.get(SHARED_STATE))
    last = messages[-1] if messages and isinstance(messages[-1], ModelRequest) else None
    if last is not None and any(isinstance(part, UserPromptPart) for part in last.parts):
        last = None  # the person wrote after the results (a call they did not approve was skipped): they are answered
    return ModelTurn(
        prompt=_prompt(asked),
        offered=frozenset(tool.name for tool in info.function_tools),
        parameters={tool.name: tool.parameters_json_schema for tool in info.function_tools},
        descriptions={tool.name: tool.description or "" for tool in info.function_tools},
        page=_page(now),
        seen=tuple(description for description in now if description != SHARED_STATE),
        state=state if isinstance(state, dict) else {},
        results=tuple(_results(last, messages)) if last is not None else (),
    )


def _pieces(move: Move) -> Iterator[str | DeltaToolCalls | DeltaThinkingCalls]:
    for word in _words(move.thought):
        yield {_THOUGHT: DeltaThinkingPart(content=word)}
    for index, call in enumerate(move.calls):
        call_id = f"call_{uuid.uuid4().hex[:16]}"
        for count, piece in enumerate(_argument_pieces(json.dumps(call.arguments))):
            first = count == 0
            yield {index: DeltaToolCall(call.tool if first else None, piece, tool_call_id=call_id if first else None)}
    yield from _words(move.text)


def _going_on(messages: list[ModelMessage]) -> tuple[list[ModelMessage], str]:
    """When the copilot asks it to go on with a reply the server's stopping cut off (GO_ON): the conversation up to
    that reply, and what the reply said; else the messages as they are, and ""."""
    if len(messages) < 2 or _prompt(messages[-1] if isinstance(messages[-1], ModelRequest) else None) != GO_ON:
        return messages, ""
    told = messages[-2].text if isinstance(messages[-2], ModelResponse) else None
    return (messages[:-1], told) if told else (messages, "")


def _rest_of(
    pieces: list[str | DeltaToolCalls | DeltaThinkingCalls], told: str
) -> list[str | DeltaToolCalls | DeltaThinkingCalls]:
    """The words of the reply after what it `told` already (the person read those), as a model goes on from them."""
    words = "".join(piece for piece in pieces if isinstance(piece, str))
    if not told or not words.startswith(told):
        return pieces
    return list(_words(words[len(told) :]))


def _merged(pieces: list[str | DeltaToolCalls | DeltaThinkingCalls]) -> Iterator[str | DeltaToolCalls | DeltaThinkingCalls]:
    """Pieces due at once, as few: words one after another as one text, thoughts likewise; tool calls as they are."""
    words: list[str] = []
    thoughts: list[str] = []
    for piece in pieces:
        thought = piece.get(_THOUGHT) if isinstance(piece, dict) else None
        if isinstance(piece, str):
            words.append(piece)
            continue
        if words:
            yield "".join(words)
            words = []
        if isinstance(thought, DeltaThinkingPart) and len(piece) == 1:
            thoughts.append(thought.content or "")
            continue
        if thoughts:
            yield {_THOUGHT: DeltaThinkingPart(content="".join(thoughts))}
            thoughts = []
        yield piece
    if thoughts:
        yield {_THOUGHT: DeltaThinkingPart(content="".join(thoughts))}
    if words:
        yield "".join(words)


def _argument_pieces(arguments: str) -> list[str]:
    size = max(6, -(-len(arguments) // ARGUMENT_PIECES))
    return [arguments[start : start + size] for start in range(0, len(arguments), size)]


def _words(text: str) -> list[str]:
    return re.findall(r"\s*\S+\s*", text) if text.strip() else []


def _request_with_prompt(messages: list[ModelMessage]) -> ModelRequest | None:
    """The request that brought the person's last message (and, in this run, the instructions of that moment)."""
    for message in reversed(messages):
        if isinstance(message, ModelRequest) and any(isinstance(part, UserPromptPart) for part in message.parts):
            return message
    return None


def _prompt(request: ModelRequest | None) -> str:
    for part in reversed(request.parts if request is not None else ()):
        if isinstance(part, UserPromptPart):
            return prompt_words(part.content)
    return ""


def _instruction_items(instructions: str) -> JSONObject:
    """The "- <description>: <JSON>" lines of the instructions (the page's context, the shared state), by description."""
    items: JSONObject = {}
    for line in instructions.splitlines():
        if (match := re.match(r"- (.+?): (?=[{\[])", line)) is None:
            continue
        try:
            items[match[1]], _ = json.JSONDecoder().raw_decode(line[match.end() :])
        except ValueError:
            continue
    return items


def _page(items: JSONObject) -> JSONObject:
    """What the page's context says: its JSON objects merged, as the page sent them with this request."""
    page: JSONObject = {}
    for description, value in items.items():
        if description != SHARED_STATE and isinstance(value, dict):
            page.update(value)
    return page


def _results(request: ModelRequest, messages: list[ModelMessage]) -> Iterator[CallResult]:
    calls = {
        part.tool_call_id: part
        for message in messages
        if isinstance(message, ModelResponse)
        for part in message.parts
        if isinstance(part, ToolCallPart)
    }
    for part in request.parts:
        if isinstance(part, ToolReturnPart | RetryPromptPart) and part.tool_name:
            call = calls.get(part.tool_call_id)
            arguments = call.args_as_dict() if call is not None else {}
            failed = isinstance(part, RetryPromptPart) or part.outcome != "success"
            yield CallResult(part.tool_name, arguments, part.content, failed=failed)
