"""The thread: an AG-UI conversation (its messages) and the state the agent shares with the page.

Messages are ag_ui.core models, so a thread is sent back to an agent as it is. Text and tool-call
arguments that are still streaming are kept as lists of pieces and joined when someone reads them,
so that adding a piece costs the size of the piece, not the size of the message. Lookups by
message id and by tool-call id go through indexes for the same reason.
"""

from __future__ import annotations

import uuid
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import pydantic_core
from ag_ui.core import (
    ActivityMessage,
    AssistantMessage,
    FunctionCall,
    Interrupt,
    Message,
    ToolCall,
    ToolMessage,
    UserMessage,
)
from pydantic import TypeAdapter

from ._json import JSON, JSONObject

if TYPE_CHECKING:
    from ._predict_state import StatePrediction

_MESSAGES = TypeAdapter(list[Message])


def new_id(prefix: str = "") -> str:
    """A fresh random id."""
    return f"{prefix}{uuid.uuid4().hex}"


@dataclass(slots=True)
class RunOutcome:
    """How the last agent run of a thread ended."""

    kind: Literal["success", "interrupt", "cancelled", "error"]
    pending_tool_call_ids: list[str] = field(default_factory=list[str])
    interrupts: list[Interrupt] = field(default_factory=list[Interrupt])
    result: JSON = None
    message: str = ""  # the error message, for kind "error"
    code: str | None = None

    @property
    def cut_off(self) -> bool:
        """Whether the reply was cut off by the length limit, as a RUN_FINISHED result may say."""
        if isinstance(self.result, dict):
            for key in ("finishReason", "finish_reason", "stopReason", "stop_reason"):
                if isinstance(reason := self.result.get(key), str):
                    return reason in ("length", "max_tokens")
        return False


class AGUIThread:
    """Messages and shared state of one conversation with an agent, as AG-UI has them (copilot_ui.core.Thread, the
    run loop's, extends it with its bookkeeping)."""

    def __init__(self, thread_id: str | None = None, messages: Iterable[Message] = (), state: JSON = None) -> None:
        self.id = thread_id or new_id("thread-")
        self.state: JSON = {} if state is None else state
        self.outcome: RunOutcome | None = None
        self.interrupts: list[Interrupt] = []  # open interrupts: the next run must resume every one
        self.warnings: deque[str] = deque(maxlen=100)
        self.run_tool_call_ids: list[str] = []  # tool calls started by the current run
        self.predicting: dict[str, tuple[StatePrediction, ...]] = {}  # calls of this run whose arguments a PredictState
        # maps to keys of the state (the keys follow them as they stream)
        self._messages: list[Message] = []
        self._by_id: dict[str, Message] = {}
        self._calls: dict[str, ToolCall] = {}
        self._call_owner: dict[str, AssistantMessage] = {}
        self._results: dict[str, ToolMessage] = {}
        self._unanswered: dict[str, None] = {}  # an ordered set of call ids without a result
        self._text_parts: dict[str, list[str]] = {}
        self._arg_parts: dict[str, list[str]] = {}
        for message in messages:
            self.add_message(message)

    # Reading

    @property
    def messages(self) -> list[Message]:
        """Every message, in order, with streaming text joined (a new list)."""
        self._join_parts()
        return list(self._messages)

    def __len__(self) -> int:
        return len(self._messages)

    def message(self, message_id: str) -> Message | None:
        """The message with this id, if any."""
        message = self._by_id.get(message_id)
        if message is not None and message_id in self._text_parts:
            self._join_text(message_id)
        return message

    def tool_call(self, call_id: str) -> ToolCall | None:
        """The tool call with this id, its arguments joined so far."""
        call = self._calls.get(call_id)
        if call is not None and call_id in self._arg_parts:
            self._join_arguments(call_id)
        return call

    def _joined_call(self, call_id: str) -> ToolCall:
        call = self._calls[call_id]
        if call_id in self._arg_parts:
            self._join_arguments(call_id)
        return call

    def owner_of(self, call_id: str) -> AssistantMessage | None:
        """The assistant message that made this tool call."""
        return self._call_owner.get(call_id)

    def result_of(self, call_id: str) -> ToolMessage | None:
        """The tool message answering this call, if any."""
        return self._results.get(call_id)

    def unanswered_calls(self) -> list[ToolCall]:
        """Tool calls without a result, in the order they were made."""
        return [self._joined_call(call_id) for call_id in self._unanswered]

    def partial_arguments(self, call_id: str) -> JSON:
        """The arguments of a call parsed as far as they have streamed; None if not parseable yet."""
        call = self.tool_call(call_id)
        if call is None or not call.function.arguments.strip():
            return None if call is None else {}
        try:
            return pydantic_core.from_json(call.function.arguments, allow_partial="trailing-strings")
        except ValueError:
            return None

    def to_json(self) -> JSONObject:
        """{"messages": [...], "state": ...} as camelCase AG-UI JSON values."""
        return {"messages": _MESSAGES.dump_python(self.messages, mode="json", by_alias=True), "state": self.state}

    # Changing

    def add_message(self, message: Message) -> None:
        """Append a message (its tool calls and tool results are indexed)."""
        self._messages.append(message)
        self._index(message)

    def add_user_message(self, content: str, message_id: str | None = None) -> UserMessage:
        """Append what the person said."""
        message = UserMessage(id=message_id or new_id("msg-"), content=content)
        self.add_message(message)
        return message

    def add_tool_call(self, name: str, arguments: str, call_id: str | None = None) -> ToolCall:
        """Append an assistant message holding one tool call (a tool run from code, not by the agent)."""
        call = ToolCall(id=call_id or new_id("call-"), function=FunctionCall(name=name, arguments=arguments))
        self.add_message(AssistantMessage(id=new_id("msg-"), tool_calls=[call]))
        return call

    def add_tool_result(
        self, call_id: str, content: str, *, error: str | None = None, message_id: str | None = None
    ) -> ToolMessage | None:
        """Answer a tool call; the result goes after its assistant message, in the order of the calls.

        Returns None when the call's assistant message is no longer in the thread: the result of a
        call whose conversation was cleared meanwhile is not written anywhere.
        """
        owner = self._call_owner.get(call_id)
        if owner is None or owner.id not in self._by_id or call_id in self._results:
            return None
        result = ToolMessage(id=message_id or new_id("result-"), tool_call_id=call_id, content=content, error=error)
        order = {call.id: index for index, call in enumerate(owner.tool_calls or ())}
        position = self._position(owner) + 1
        while (
            position < len(self._messages)
            and isinstance(following := self._messages[position], ToolMessage)
            and order.get(following.tool_call_id, -1) < order[call_id]
        ):
            position += 1
        self._insert(position, result)
        return result

    def append_result(self, result: ToolMessage) -> None:
        """Place a result the agent sent: after its assistant message and the results already there."""
        owner = self._call_owner.get(result.tool_call_id)
        if owner is None or owner.id not in self._by_id:
            self.add_message(result)
            return
        position = self._position(owner) + 1
        while position < len(self._messages) and isinstance(self._messages[position], ToolMessage):
            position += 1
        self._insert(position, result)

    def append_text(self, message_id: str, delta: str) -> Message | None:
        """Add streamed text to a message (joined when read); None, adding nothing, when no text message has this id."""
        message = self._by_id.get(message_id)  # a hot path: no join on lookup
        if message is None or isinstance(message, ActivityMessage):
            return None
        parts = self._text_parts.get(message_id)
        if parts is None:
            self._text_parts[message_id] = [delta]
        else:
            parts.append(delta)
        return message

    def end_text(self, message_id: str) -> None:
        """The message's text is complete."""
        if message_id in self._text_parts:
            self._join_text(message_id)
            del self._text_parts[message_id]

    def start_tool_call(self, owner: AssistantMessage, call: ToolCall) -> None:
        """Add a call to an assistant message of this thread."""
        if owner.tool_calls is None:
            owner.tool_calls = []
        owner.tool_calls.append(call)
        self._index_call(owner, call)
        self.run_tool_call_ids.append(call.id)

    def append_arguments(self, call_id: str, delta: str) -> ToolCall | None:
        """Add streamed arguments to a tool call (joined when read); None, adding nothing, when there is no such call."""
        call = self._calls.get(call_id)  # a hot path: no join on lookup
        if call is None:
            return None
        parts = self._arg_parts.get(call_id)
        if parts is None:
            self._arg_parts[call_id] = [delta]
        else:
            parts.append(delta)
        return call

    def end_tool_call(self, call_id: str) -> None:
        """The call's arguments are complete."""
        if call_id in self._arg_parts:
            self._join_arguments(call_id)
            del self._arg_parts[call_id]

    def replace_message(self, old: Message, new: Message) -> None:
        """Put a message in the place of another."""
        position = self._position(old)
        self._unindex(old)
        self._messages[position] = new
        self._index(new)

    def replace_messages(self, messages: Iterable[Message]) -> None:
        """Start again from these messages (a snapshot the agent sent)."""
        self._join_parts()
        self._messages, self._by_id = [], {}
        self._calls, self._call_owner, self._results, self._unanswered = {}, {}, {}, {}
        self._text_parts, self._arg_parts = {}, {}
        for message in messages:
            self.add_message(message)

    def remove_messages_from(self, message_id: str) -> None:
        """Drop a message and every message after it (editing or regenerating a turn)."""
        message = self._by_id.get(message_id)
        if message is not None:
            self.replace_messages(self.messages[: self._position(message)])

    def clear(self) -> None:
        """Forget every message and the shared state."""
        self.replace_messages(())
        self.state, self.outcome, self.interrupts = {}, None, []
        self.run_tool_call_ids, self.predicting = [], {}

    # Indexes

    def _index(self, message: Message) -> None:
        self._by_id[message.id] = message
        if isinstance(message, AssistantMessage):
            for call in message.tool_calls or ():
                self._index_call(message, call)
        elif isinstance(message, ToolMessage):
            self._results[message.tool_call_id] = message
            self._unanswered.pop(message.tool_call_id, None)

    def _index_call(self, owner: AssistantMessage, call: ToolCall) -> None:
        self._calls[call.id] = call
        self._call_owner[call.id] = owner
        if call.id not in self._results:
            self._unanswered[call.id] = None

    def _unindex(self, message: Message) -> None:
        if self._by_id.get(message.id) is message:
            del self._by_id[message.id]
        if isinstance(message, AssistantMessage):
            for call in message.tool_calls or ():
                if self._call_owner.get(call.id) is message:
                    del self._calls[call.id], self._call_owner[call.id]
                    self._unanswered.pop(call.id, None)
        elif isinstance(message, ToolMessage) and self._results.get(message.tool_call_id) is message:
            del self._results[message.tool_call_id]
            if message.tool_call_id in self._calls:
                self._unanswered[message.tool_call_id] = None

    def _insert(self, position: int, message: Message) -> None:
        if position >= len(self._messages):
            self._messages.append(message)
        else:
            self._messages.insert(position, message)
        self._index(message)

    def _position(self, message: Message) -> int:
        # Searched from the end by identity: the message wanted is nearly always among the last.
        messages = self._messages
        for position in range(len(messages) - 1, -1, -1):
            if messages[position] is message:
                return position
        raise ValueError(f"message {message.id!r} is not in thread {self.id!r}")

    def _join_parts(self) -> None:
        for message_id in list(self._text_parts):
            self._join_text(message_id)
        for call_id in list(self._arg_parts):
            self._join_arguments(call_id)

    def _join_text(self, message_id: str) -> None:
        parts = self._text_parts[message_id]
        message = self._by_id.get(message_id)
        if parts and message is not None and not isinstance(message, ActivityMessage):
            before = message.content if isinstance(message.content, str) else ""
            message.content = before + "".join(parts)
        parts.clear()

    def _join_arguments(self, call_id: str) -> None:
        parts = self._arg_parts[call_id]
        call = self._calls.get(call_id)
        if parts and call is not None:
            call.function.arguments += "".join(parts)
        parts.clear()

    def __iter__(self) -> Iterator[Message]:
        return iter(self.messages)
