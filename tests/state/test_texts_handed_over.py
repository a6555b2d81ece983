"""What a tab that asks for a text gets while a drive writes it: what was sent of it, so that the pieces to come follow.

A tab asks for a text as soon as its item shows (a reply, a call's card), which can be before the
first piece of it was sent: it must get nothing yet, not the thread's text in another shape (a
call's arguments "" read as "{}"), or the pieces that follow land after that text.
"""

from __future__ import annotations

import asyncio
import json

from ag_ui.core import (
    AssistantMessage,
    FunctionCall,
    TextMessageContentEvent,
    TextMessageStartEvent,
    ToolCall,
    ToolCallArgsEvent,
    ToolCallStartEvent,
)

from copilot_ui.agents import Scrubber
from copilot_ui.core import Thread
from copilot_ui.state.sink import ViewSink, ViewUpdate
from copilot_ui.state.view import Conversation, handover


async def _shown(_view: ViewUpdate) -> None:
    return None


def asked_for(sink: ViewSink, tid: str) -> list:
    """What a tab asking for `tid` now is handed: [the count of the last piece it holds, the text]."""
    script = handover([tid], sink.thread, sink.conversation, sink.text_so_far, Scrubber())
    return json.loads(script.removeprefix("window.__cuiS?.(").removesuffix(")"))[tid]


def test_a_calls_arguments_asked_for_before_they_stream_are_nothing_yet_then_their_pieces():
    async def scenario() -> tuple[list, list]:
        thread = Thread()
        call = ToolCall(id="call-1", function=FunctionCall(name="refund_order", arguments=""))
        thread.add_message(AssistantMessage(id="msg-1", tool_calls=[call]))
        sink = ViewSink(_shown, thread, Conversation.of(thread.id), scrubber=Scrubber(), interval=0.0)
        sink.emit(ToolCallStartEvent(tool_call_id="call-1", tool_call_name="refund_order", parent_message_id="msg-1"))
        tid = sink.conversation.call_item("call-1") + ".a"
        before = asked_for(sink, tid)
        thread.append_arguments("call-1", '{"order_')
        sink.emit(ToolCallArgsEvent(tool_call_id="call-1", delta='{"order_'))
        await sink.flush()
        after = asked_for(sink, tid)
        await sink.close()
        return before, after

    before, after = asyncio.run(scenario())
    assert before == [-1, ""]  # not "{}" at piece 0, which the first piece would then be taken for
    assert after == [0, '{"order_']


def test_a_reply_asked_for_before_its_first_words_is_nothing_yet():
    async def scenario() -> list:
        thread = Thread()
        thread.add_message(AssistantMessage(id="msg-1", content=""))
        sink = ViewSink(_shown, thread, Conversation.of(thread.id), scrubber=Scrubber(), interval=0.0)
        sink.emit(TextMessageStartEvent(message_id="msg-1"))
        asked = asked_for(sink, sink.conversation.message_item("msg-1", "assistant"))
        thread.append_text("msg-1", "Hello")
        sink.emit(TextMessageContentEvent(message_id="msg-1", delta="Hello"))
        await sink.close()
        return asked

    assert asyncio.run(scenario()) == [-1, ""]  # its first piece ("Hello", piece 0) is not taken as already held
