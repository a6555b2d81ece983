"""A hostile AG-UI server for tests: it speaks AG-UI 1.0 over SSE, does what the person's last message says,
and will happily echo back the credentials it was sent.

Start it from any test (no pytest fixture needed), point an HttpAgent or COPILOT_AGENT_URL at it:

    hostile = start_hostile_agent()          # 127.0.0.1, a free port (or port=8123)
    agent = HttpAgent(hostile.url, headers={"Authorization": "Bearer …"})
    ...                                      # hostile.requests: what it received, in order
    hostile.stop()

Or from a shell: `python -m tests.hostile_agent --port 8123`.

It answers a POST on any path. Its behaviour comes from the last user message of the RunAgentInput:
a command `!name argument`. In the argument, `{auth}` is the Authorization header the server
received, `{auth_b64}` its base64, `{token}` the part after "Bearer ", `{pad:N}` N filler characters,
`{url}` the URL the request was sent to (query included).

    !reply <text>                text streamed in pieces of ~20 characters
    !reply-slow <ms> <text>      the same, waiting <ms> between pieces
    !pieces <ms> <n> <text>      <text> in pieces of <n> characters, waiting <ms> between pieces
    !markdown <ms>               a Markdown document (heading, list, code fence, table) in small pieces
    !big <n>                     one reply of exactly n characters on one line, in pieces of ~4000
    !lines <n>                   one reply of n lines, "line 1 of <n>" to "line <n> of <n>", in pieces of ~4000
    !reasoning <text>            a reasoning span and message holding <text>, then the reply "done"
    !thinking <text>             the same as an AG-UI 0.1 server sends it (THINKING_* events), then "done"
    !tool <name> <json>          a call of the page's (frontend) tool; after its result: "results: <content>"
    !backend <name> <json> <r>   a call the server answers itself (TOOL_CALL_RESULT <r>), then "ok"
    !error <message>             RUN_STARTED, then RUN_ERROR with <message>
    !http <status> <body>        that HTTP status, with <body> as plain text
    !ids                         a valid run whose message and tool-call ids hold the Authorization header
    !badframe <text>             a frame that is not JSON, holding <text>
    !hang <seconds>              RUN_STARTED, then silence for <seconds>, then RUN_FINISHED
    !loop <tool> [ms]            calls <tool> with {"n": <results so far>} on every run (after <ms>), never done
    !fail-after <ms> <message>   RUN_STARTED, then after <ms> a RUN_ERROR with <message>
    !cards <n>                   <n> calls the server answers itself, in one run: a long conversation
    !flaky <key>                 fails (RUN_ERROR) the first time it sees <key>, then replies "recovered <key>"
    !snapshot-swap <tool> <a> <b>  a call of <tool> with arguments <a> (call id SWAP_CALL_ID); after its
                                 result, a MESSAGES_SNAPSHOT where that call carries <b> and has no result
    !tokens <ms> <n>             the first <n> tokens of a fixed Markdown reply (`reply_tokens`: 2,000 tokens
                                 make ~10 KB), one token per event, token i leaving <ms>·i ms after the first
                                 (<ms> may be a fraction: 1.2 is ~830 tokens a second)
    !history <n>                 a MESSAGES_SNAPSHOT adding <n> messages (`history_messages`: alternately
                                 assistant and user, ~200 characters each) after the conversation so far,
                                 then the reply "added <n> messages": a long conversation in one turn
    !activity <type> <ms> <json> [<patch> …]  an activity (ACTIVITY_SNAPSHOT) of <type> holding <json>, then each
                                 JSON Patch (ACTIVITY_DELTA) <ms> apart, then the reply "activity done"
    !predict <ms> <tool> <text>  a PredictState mapping <tool>'s "document" argument to the state's "document", then
                                 a call of <tool> writing <text> as it, in pieces <ms> apart (the page runs it)
    !replay <name> [pace]        the recorded answer of a real AG-UI server, tests/recordings/<name>.sse, at its
                                 recorded pace (times [pace]) with this run's ids; after a tool result,
                                 <name>.after-tool.sse (see tests/agui_recordings.py)
    anything else                the reply "hostile agent: unknown command"

After a tool result (the last message is a tool message) every command but !snapshot-swap and !replay
quotes the results: "results: <content>".
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import re
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Any

import uvicorn
from ag_ui.core import (
    ActivityDeltaEvent,
    ActivitySnapshotEvent,
    AssistantMessage,
    BaseEvent,
    CustomEvent,
    FunctionCall,
    Message,
    MessagesSnapshotEvent,
    ReasoningEndEvent,
    ReasoningMessageContentEvent,
    ReasoningMessageEndEvent,
    ReasoningMessageStartEvent,
    ReasoningStartEvent,
    RunAgentInput,
    RunErrorEvent,
    RunFinishedEvent,
    RunFinishedSuccessOutcome,
    RunStartedEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCall,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallResultEvent,
    ToolCallStartEvent,
    ToolMessage,
    UserMessage,
)
from ag_ui.encoder import EventEncoder
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from ._background_server import BackgroundServer
from .agui_recordings import RECORDINGS, played

SWAP_CALL_ID = "call-swap-1"  # the fixed id of !snapshot-swap's call
UNKNOWN_COMMAND = "hostile agent: unknown command"
REPLY_PIECE = 20  # characters per TEXT_MESSAGE_CONTENT of a reply
BIG_PIECE = 4000  # characters per TEXT_MESSAGE_CONTENT of !big
FILLER = "x"  # what {pad:N} repeats

# What a command answers: an HTTP response, or the run's events (a str is raw SSE text, sent as is).
Stream = AsyncIterator[BaseEvent | str]
Answer = Response | Stream


@dataclass
class ReceivedRun:
    """One request the server got: its path, its headers (names in lower case) and its RunAgentInput."""

    path: str
    headers: dict[str, str]
    run_input: RunAgentInput | None  # None when the body was not a valid RunAgentInput


class HostileAgent:
    """A running hostile server: POST to `url` (any path under it works); `requests` records what arrived."""

    def __init__(self, server: BackgroundServer, requests: list[ReceivedRun]) -> None:
        self._server: BackgroundServer | None = server
        self.port = server.port
        self.requests = requests

    def __repr__(self) -> str:
        return f"HostileAgent({self.url!r})"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def host(self) -> str:
        """Host and port, as errors name the server."""
        return f"127.0.0.1:{self.port}"

    def stop(self) -> None:
        """Stop serving; a run still streaming is cut within a second."""
        if self._server is not None:
            self._server.stop()
            self._server = None

    def __enter__(self) -> HostileAgent:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def start_hostile_agent(port: int = 0) -> HostileAgent:
    """Serve the hostile agent on 127.0.0.1 from a background thread; port 0 picks a free one."""
    requests: list[ReceivedRun] = []
    return HostileAgent(BackgroundServer(hostile_app(requests), port), requests)


def hostile_app(requests: list[ReceivedRun] | None = None) -> Starlette:
    """The hostile agent as an ASGI app; every request is appended to `requests`."""
    received = requests if requests is not None else []

    async def run(request: Request) -> Response:
        body = await request.body()
        try:
            run_input = RunAgentInput.model_validate_json(body)
        except ValidationError as invalid:
            received.append(ReceivedRun(request.url.path, dict(request.headers), None))
            return JSONResponse({"detail": invalid.errors(include_url=False, include_input=False)}, status_code=422)
        received.append(ReceivedRun(request.url.path, dict(request.headers), run_input))
        answer = _answer(run_input, request.headers.get("authorization", ""), str(request.url))
        if isinstance(answer, Response):
            return answer
        return StreamingResponse(_encoded(answer), media_type="text/event-stream")

    return Starlette(routes=[Route("/{path:path}", run, methods=["POST"])])


@dataclass(frozen=True)
class Turn:
    """One run as a command sees it: the input, the argument (placeholders expanded), the header received."""

    run_input: RunAgentInput
    argument: str
    auth: str
    follow_up: bool  # the last message is a tool result: the page answered a call

    def started(self) -> RunStartedEvent:
        return RunStartedEvent(thread_id=self.run_input.thread_id, run_id=self.run_input.run_id, protocol_version="1.0")

    def finished(self, *pending_call_ids: str) -> RunFinishedEvent:
        outcome = RunFinishedSuccessOutcome(pending_tool_call_ids=list(pending_call_ids) or None)
        return RunFinishedEvent(thread_id=self.run_input.thread_id, run_id=self.run_input.run_id, outcome=outcome)


# The commands: one function each, the first run and (where it differs) the run after a tool result.


async def _reply(turn: Turn) -> Stream:
    yield turn.started()
    for event in _text(turn.argument):
        yield event
    yield turn.finished()


async def _reply_slow(turn: Turn) -> Stream:
    delay, _, text = turn.argument.partition(" ")
    seconds = int(delay) / 1000
    yield turn.started()
    for event in _text(text):
        yield event
        if isinstance(event, TextMessageContentEvent):
            await asyncio.sleep(seconds)
    yield turn.finished()


async def _pieces(turn: Turn) -> Stream:
    delay, size, text = [*turn.argument.split(" ", 2), "", ""][:3]
    async for event in _paced(turn, text, int(size), int(delay) / 1000):
        yield event


MARKDOWN = (
    "# Weekly figures\n\nRevenue grew **12%**, led by *Berlin*.\n\n"
    "- Berlin: $18,420\n- Paris: $15,310\n- London: $14,480\n\n"
    "```python\ntotal = sum([18420, 15310, 14480])\nprint(total)\n```\n\n"
    "| City | Sales |\n| --- | --- |\n| Berlin | 18,420 |\n| Paris | 15,310 |\n\nThat is all."
)


async def _markdown(turn: Turn) -> Stream:
    async for event in _paced(turn, MARKDOWN, 3, int(turn.argument or "20") / 1000):
        yield event


async def _paced(turn: Turn, text: str, size: int, seconds: float) -> Stream:
    yield turn.started()
    for event in _text(text, piece=max(size, 1)):
        yield event
        if isinstance(event, TextMessageContentEvent):
            await asyncio.sleep(seconds)
    yield turn.finished()


async def _tokens(turn: Turn) -> Stream:
    delay, _, count = turn.argument.strip().partition(" ")
    seconds, tokens = float(delay) / 1000, reply_tokens(int(count))
    message_id = _new_id("msg-")
    yield turn.started()
    yield TextMessageStartEvent(message_id=message_id, role="assistant")
    started = asyncio.get_running_loop().time()
    for number, token in enumerate(tokens):
        if number:  # on a schedule, not after a sleep each: the rate stays what was asked whatever sleep overshoots
            await asyncio.sleep(max(0.0, started + number * seconds - asyncio.get_running_loop().time()))
        yield TextMessageContentEvent(message_id=message_id, delta=token)
    yield TextMessageEndEvent(message_id=message_id)
    yield turn.finished()


def reply_tokens(count: int = 2000) -> list[str]:
    """The tokens of !tokens: a deterministic Markdown reply (headings, lists, bold, é/ï/🚀), ~5 characters a token.

    Whole sections come first; plain words fill up to `count`, so that any count ends in plain text.
    """
    tokens: list[str] = []
    section = 0
    while len(tokens) < count - 80:  # a section is at most ~70 tokens
        section += 1
        tokens += _section_tokens(section)
    word = 0
    while len(tokens) < count:
        tokens.append(("" if tokens and tokens[-1].endswith("\n") else " ") + _WORDS[word % len(_WORDS)])
        word += 1
    return tokens[:count]


_WORDS = ["streams", "café", "tokens", "naïve", "wires", "🚀", "frames", "pieces", "replies", "über", "flushes", "pages"]


def _section_tokens(number: int) -> list[str]:
    def words(start: int, many: int) -> list[str]:
        return [" " + _WORDS[(start + step * 7) % len(_WORDS)] for step in range(many)]

    heading = ["## ", "Section", f" {number}", ":", *words(number, 2), "\n\n"]
    paragraph = ["The", *words(number + 1, 12), " **", "bold", " part", "**", *words(number + 3, 14), ".\n\n"]
    items = [token for item in range(4) for token in ("- ", "item", f" {item + 1}", *words(number + item, 3), "\n")]
    return [*heading, *paragraph, *items, "\n"]


def history_messages(count: int) -> list[Message]:
    """The messages !history adds: alternately assistant and user, ~200 characters each, ids hist-0, hist-1, …"""
    messages: list[Message] = []
    for number in range(count):
        text = (f"Prior message {number}: " + "the conversation goes on, one sentence after another. " * 4)[:200]
        if number % 2:
            messages.append(UserMessage(id=f"hist-{number}", content=text))
        else:
            messages.append(AssistantMessage(id=f"hist-{number}", content=text))
    return messages


async def _history(turn: Turn) -> Stream:
    count = int(turn.argument.strip())
    yield turn.started()
    yield MessagesSnapshotEvent(messages=[*turn.run_input.messages, *history_messages(count)])
    for event in _text(f"added {count} messages"):
        yield event
    yield turn.finished()


async def _loop(turn: Turn) -> Stream:
    call_id = _new_id("call-")
    count = sum(1 for message in turn.run_input.messages if message.role == "tool")
    tool, _, delay = turn.argument.strip().partition(" ")
    yield turn.started()
    await asyncio.sleep(int(delay or "0") / 1000)
    for event in _tool_call(call_id, tool, json.dumps({"n": count})):
        yield event
    yield turn.finished(call_id)


async def _fail_after(turn: Turn) -> Stream:
    delay, _, message = turn.argument.partition(" ")
    yield turn.started()
    await asyncio.sleep(int(delay) / 1000)
    yield RunErrorEvent(message=message)


_FAILED_ONCE: set[str] = set()


async def _flaky(turn: Turn) -> Stream:
    key = turn.argument.strip()
    yield turn.started()
    if key not in _FAILED_ONCE:
        _FAILED_ONCE.add(key)
        yield RunErrorEvent(message=f"flaky failure {key}")
        return
    for event in _text(f"recovered {key}"):
        yield event
    yield turn.finished()


async def _cards(turn: Turn) -> Stream:
    yield turn.started()
    for number in range(int(turn.argument)):
        call_id = _new_id("call-")
        for event in _tool_call(call_id, "lookup", json.dumps({"n": number})):
            yield event
        yield ToolCallResultEvent(message_id=_new_id("result-"), tool_call_id=call_id, content=f"card {number}", role="tool")
    yield turn.finished()


async def _big(turn: Turn) -> Stream:
    size = int(turn.argument.strip())
    text = ("0123456789" * (size // 10 + 1))[:size]
    yield turn.started()
    for event in _text(text, piece=BIG_PIECE):
        yield event
    yield turn.finished()


async def _lines(turn: Turn) -> Stream:
    count = int(turn.argument.strip())
    yield turn.started()
    for event in _text(numbered_lines(count), piece=BIG_PIECE):
        yield event
    yield turn.finished()


def numbered_lines(count: int) -> str:
    """The reply of !lines: `count` lines, "line 1 of <count>" to "line <count> of <count>", without a final newline."""
    return "\n".join(f"line {number} of {count}" for number in range(1, count + 1))


async def _reasoning(turn: Turn) -> Stream:
    span, message = _new_id("reasoning-"), _new_id("thought-")
    yield turn.started()
    yield ReasoningStartEvent(message_id=span)
    yield ReasoningMessageStartEvent(message_id=message, role="reasoning")
    yield ReasoningMessageContentEvent(message_id=message, delta=turn.argument)
    yield ReasoningMessageEndEvent(message_id=message)
    yield ReasoningEndEvent(message_id=span)
    for event in _text("done"):
        yield event
    yield turn.finished()


async def _thinking(turn: Turn) -> Stream:
    """Reasoning as servers before AG-UI 1.0 sent it: THINKING_* events, which name no ids."""
    yield turn.started()
    yield _frame({"type": "THINKING_START", "title": "Thinking it over"})
    yield _frame({"type": "THINKING_TEXT_MESSAGE_START"})
    for start in range(0, len(turn.argument), 8):
        yield _frame({"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": turn.argument[start : start + 8]})
    yield _frame({"type": "THINKING_TEXT_MESSAGE_END"})
    yield _frame({"type": "THINKING_END"})
    for event in _text("done"):
        yield event
    yield turn.finished()


def _frame(event: dict[str, Any]) -> str:
    """An event no model of ag_ui.core describes, as an SSE frame."""
    return f"data: {json.dumps(event)}\n\n"


async def _tool(turn: Turn) -> Stream:
    name, _, arguments = turn.argument.partition(" ")
    call_id = _new_id("call-")
    yield turn.started()
    for event in _tool_call(call_id, name, arguments.strip()):
        yield event
    yield turn.finished(call_id)  # the page runs it


async def _backend(turn: Turn) -> Stream:
    name, _, rest = turn.argument.partition(" ")
    arguments, result = _json_then_rest(rest)
    call_id = _new_id("call-")
    yield turn.started()
    for event in _tool_call(call_id, name, arguments):
        yield event
    yield ToolCallResultEvent(message_id=_new_id("result-"), tool_call_id=call_id, content=result, role="tool")
    for event in _text("ok"):
        yield event
    yield turn.finished()


async def _error(turn: Turn) -> Stream:
    yield turn.started()
    yield RunErrorEvent(message=turn.argument)


def _http(turn: Turn) -> Response:
    status, _, body = turn.argument.partition(" ")
    return PlainTextResponse(body, status_code=int(status))


async def _ids(turn: Turn) -> Stream:
    message_id, call_id = f"msg-{turn.auth}", f"call-{turn.auth}"
    yield turn.started()
    for event in _text("these ids carry the header", message_id=message_id):
        yield event
    for event in _tool_call(call_id, "lookup", "{}", parent_message_id=message_id):
        yield event
    yield ToolCallResultEvent(message_id=f"result-{turn.auth}", tool_call_id=call_id, content="looked up", role="tool")
    yield turn.finished()


async def _badframe(turn: Turn) -> Stream:
    yield turn.started()
    yield "".join(f"data: {line}\n" for line in f"{{not json: {turn.argument}}}".split("\n")) + "\n"
    yield turn.finished()


async def _hang(turn: Turn) -> Stream:
    seconds = float(turn.argument)
    yield turn.started()
    await asyncio.sleep(seconds)
    yield turn.finished()


async def _snapshot_swap(turn: Turn) -> Stream:
    name, _, rest = turn.argument.partition(" ")
    first, _ = _json_then_rest(rest)
    yield turn.started()
    for event in _tool_call(SWAP_CALL_ID, name, first, parent_message_id="msg-swap-1"):
        yield event
    yield turn.finished(SWAP_CALL_ID)


async def _snapshot_swap_after_result(turn: Turn) -> Stream:
    """The history again, where the call the page ran now carries other arguments and has no result (once)."""
    _name, _, rest = turn.argument.partition(" ")
    _first, rest = _json_then_rest(rest)
    second, _ = _json_then_rest(rest)
    if _arguments_of(turn.run_input.messages, SWAP_CALL_ID) == json.loads(second):  # swapped already: done
        async for event in _quote_results(turn):
            yield event
        return
    yield turn.started()
    yield MessagesSnapshotEvent(messages=_swapped(turn.run_input.messages, SWAP_CALL_ID, second))
    yield turn.finished(SWAP_CALL_ID)


async def _quote_results(turn: Turn) -> Stream:
    yield turn.started()
    for event in _text("results: " + "; ".join(_results_since_the_last_call(turn.run_input.messages))):
        yield event
    yield turn.finished()


async def _activity(turn: Turn) -> Stream:
    activity_type, delay, rest = [*turn.argument.strip().split(" ", 2), "", ""][:3]
    content, rest = _json_then_rest(rest)
    patches = []
    while rest:
        patch, rest = _json_then_rest(rest)
        patches.append(json.loads(patch))
    message_id = _new_id("activity-")
    yield turn.started()
    yield ActivitySnapshotEvent(message_id=message_id, activity_type=activity_type, content=json.loads(content))
    for patch in patches:
        await asyncio.sleep(int(delay) / 1000)
        yield ActivityDeltaEvent(message_id=message_id, activity_type=activity_type, patch=patch)
    for event in _text("activity done"):
        yield event
    yield turn.finished()


async def _predict(turn: Turn) -> Stream:
    delay, tool, text = [*turn.argument.split(" ", 2), "", ""][:3]
    seconds, call_id, arguments = int(delay) / 1000, _new_id("call-"), json.dumps({"document": text})
    yield turn.started()
    yield CustomEvent(name="PredictState", value=[{"state_key": "document", "tool": tool, "tool_argument": "document"}])
    for event in _tool_call(call_id, tool, arguments):
        yield event
        if isinstance(event, ToolCallArgsEvent):
            await asyncio.sleep(seconds)
    yield turn.finished(call_id)


async def _replay(turn: Turn) -> Stream:
    name, _, pace = turn.argument.strip().partition(" ")
    if not re.fullmatch(r"[\w-]+(/[\w.-]+)*", name) or ".." in name:
        raise ValueError(f"{name!r} is not the name of a recording under tests/recordings")
    recording = RECORDINGS / (name + (".after-tool.sse" if turn.follow_up else ".sse"))
    if not recording.exists():
        raise ValueError(f"there is no recording {recording.relative_to(RECORDINGS)}")
    async for frame in played(recording, turn.run_input.thread_id, turn.run_input.run_id, float(pace or "1")):
        yield frame


async def _unknown(turn: Turn) -> Stream:
    yield turn.started()
    for event in _text(UNKNOWN_COMMAND):
        yield event
    yield turn.finished()


@dataclass(frozen=True)
class Command:
    """What a command does on its first run, and on the run after the page sent a tool result."""

    first: Callable[[Turn], Answer]
    after_result: Callable[[Turn], Answer] = _quote_results


COMMANDS: dict[str, Command] = {
    "reply": Command(_reply),
    "reply-slow": Command(_reply_slow),
    "pieces": Command(_pieces),
    "markdown": Command(_markdown),
    "loop": Command(_loop, _loop),
    "fail-after": Command(_fail_after),
    "cards": Command(_cards),
    "flaky": Command(_flaky),
    "big": Command(_big),
    "lines": Command(_lines),
    "reasoning": Command(_reasoning),
    "thinking": Command(_thinking),
    "tool": Command(_tool),
    "backend": Command(_backend),
    "error": Command(_error),
    "http": Command(_http),
    "ids": Command(_ids),
    "badframe": Command(_badframe),
    "hang": Command(_hang),
    "snapshot-swap": Command(_snapshot_swap, _snapshot_swap_after_result),
    "tokens": Command(_tokens),
    "history": Command(_history),
    "replay": Command(_replay, _replay),
    "activity": Command(_activity),
    "predict": Command(_predict),
}


# Helpers


def _answer(run_input: RunAgentInput, auth: str, url: str) -> Answer:
    """Pick the command from the last user message and run it."""
    said = _last_user_text(run_input.messages)
    name, _, argument = said[1:].partition(" ") if said.startswith("!") else ("", "", "")
    follow_up = bool(run_input.messages) and run_input.messages[-1].role == "tool"
    turn = Turn(run_input, _expand(argument, auth, url), auth, follow_up)
    command = COMMANDS.get(name)
    if command is None:
        return _unknown(turn)
    try:
        answer = (command.after_result if follow_up else command.first)(turn)
    except ValueError as error:
        return _bad_argument(turn, name, error)
    return answer if isinstance(answer, Response) else _arguments_checked(answer, turn, name)


def _expand(text: str, auth: str, url: str) -> str:
    """The text with its placeholders replaced by what the request carried."""
    token = auth.split(" ", 1)[1] if " " in auth else auth
    values = {"auth": auth, "auth_b64": base64.b64encode(auth.encode()).decode(), "token": token, "url": url}

    def replace(match: re.Match[str]) -> str:
        name, _, count = match.group(1).partition(":")
        return FILLER * int(count) if name == "pad" else values[name]

    return _PLACEHOLDER.sub(replace, text)


_PLACEHOLDER = re.compile(r"\{(auth|auth_b64|token|url|pad:\d+)\}")


async def _arguments_checked(events: Stream, turn: Turn, name: str) -> Stream:
    """The command's events; a malformed argument (each command reads its own before its first event) is replied to."""
    try:
        first = await anext(events)
    except StopAsyncIteration:
        return
    except ValueError as error:
        async for event in _bad_argument(turn, name, error):
            yield event
        return
    yield first
    async for event in events:
        yield event


def _bad_argument(turn: Turn, name: str, error: ValueError) -> Stream:
    return _reply(Turn(turn.run_input, f"hostile agent: bad argument for !{name}: {error}", turn.auth, False))


def _text(text: str, *, piece: int = REPLY_PIECE, message_id: str | None = None) -> Iterator[BaseEvent]:
    message_id = message_id or _new_id("msg-")
    yield TextMessageStartEvent(message_id=message_id, role="assistant")
    for start in range(0, len(text), piece):
        yield TextMessageContentEvent(message_id=message_id, delta=text[start : start + piece])
    yield TextMessageEndEvent(message_id=message_id)


def _tool_call(call_id: str, name: str, arguments: str, *, parent_message_id: str | None = None) -> Iterator[BaseEvent]:
    yield ToolCallStartEvent(tool_call_id=call_id, tool_call_name=name, parent_message_id=parent_message_id or _new_id("msg-"))
    for start in range(0, len(arguments), 7):  # in pieces, as a model streams them
        yield ToolCallArgsEvent(tool_call_id=call_id, delta=arguments[start : start + 7])
    yield ToolCallEndEvent(tool_call_id=call_id)


def _json_then_rest(text: str) -> tuple[str, str]:
    """A JSON value at the start of the text (as written), and the text after it."""
    text = text.strip()
    try:
        _value, end = json.JSONDecoder().raw_decode(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"expected JSON arguments: {error}") from None
    return text[:end], text[end:].strip()


def _swapped(messages: list[Message], call_id: str, arguments: str) -> list[Message]:
    swapped: list[Message] = []
    for message in messages:
        if isinstance(message, ToolMessage) and message.tool_call_id == call_id:
            continue  # the result the page sent: gone
        if isinstance(message, AssistantMessage) and message.tool_calls:
            calls = [
                ToolCall(id=call.id, function=FunctionCall(name=call.function.name, arguments=arguments))
                if call.id == call_id
                else call
                for call in message.tool_calls
            ]
            message = message.model_copy(update={"tool_calls": calls})
        swapped.append(message)
    return swapped


def _arguments_of(messages: list[Message], call_id: str) -> Any:
    for message in messages:
        for call in getattr(message, "tool_calls", None) or ():
            if call.id == call_id:
                return json.loads(call.function.arguments or "null")
    return None


def _results_since_the_last_call(messages: list[Message]) -> list[str]:
    results: list[str] = []
    for message in reversed(messages):
        if not isinstance(message, ToolMessage):
            break
        results.insert(0, _content_text(message.content))
    return results


def _last_user_text(messages: list[Message]) -> str:
    for message in reversed(messages):
        if message.role == "user":
            content = message.content
            if isinstance(content, str):
                return content.strip()
            return " ".join(getattr(part, "text", "") for part in content).strip()
    return ""


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return " ".join(getattr(part, "text", "") or "" for part in content)


def _new_id(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:12]}"


async def _encoded(events: Stream) -> AsyncIterator[str]:
    encoder = EventEncoder()
    async for event in events:
        yield event if isinstance(event, str) else encoder.encode(event)


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the hostile AG-UI agent on 127.0.0.1 until interrupted.")
    parser.add_argument("--port", type=int, default=8123)
    port = parser.parse_args().port
    print(f"hostile agent at http://127.0.0.1:{port}/ (Ctrl-C stops it)")
    uvicorn.run(hostile_app(), host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()
