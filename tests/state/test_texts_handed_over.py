"""What a tab that asks for a text gets while a turn writes it: what was sent of it, so that the pieces to come follow.

A tab asks for a text as soon as its item shows (a reply, a call's card), which can be before the
first piece of it was sent: it must get nothing yet, not the thread's text in another shape (a
call's arguments "" read as "{}"), or the pieces that follow land after that text.
"""

from __future__ import annotations

import asyncio
import json
import re

from ag_ui.core import (
    AssistantMessage,
    FunctionCall,
    TextMessageContentEvent,
    TextMessageStartEvent,
    ToolCall,
    ToolCallArgsEvent,
    ToolCallStartEvent,
)
from reflex.event import Event

from copilot_ui.agents import Scrubber
from copilot_ui.core import Thread
from copilot_ui.state import CopilotState, declarations
from copilot_ui.state._owner import owner_of_tab
from copilot_ui.state._tab import texts_handed_over
from copilot_ui.state.sink import ViewSink, ViewUpdate
from copilot_ui.state.turns import thread_runs
from copilot_ui.state.view import Conversation, handover
from copilot_ui.store import SQLThreadStore

from ._running_turn import a_running_turn


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


def test_a_reply_asked_for_while_its_turn_sends_its_last_pieces_shows_each_word_once(tmp_path):
    """The turn's work is over (a new click would wait for it) but its last pieces are not sent yet: a tab that asks
    for the reply then (a reconnect, a text mounting) gets it as far as sent, and the last pieces follow it once."""

    async def scenario() -> str:
        store = SQLThreadStore(f"sqlite:///{tmp_path / 'threads.db'}")
        thread = Thread(store.create("alice", agent="default").id)
        thread.add_message(AssistantMessage(id="msg-1", content=""))
        tab: dict[str, tuple[int, str]] = {}
        turn = a_running_turn(store, "alice", thread, send=lambda event: _run_in_tab(event, tab))
        turn.sink.emit(TextMessageStartEvent(message_id="msg-1"))
        tid = turn.sink.conversation.message_item("msg-1", "assistant")
        for words in ("Once ", "upon a time"):
            thread.append_text("msg-1", words)
            turn.sink.emit(TextMessageContentEvent(message_id="msg-1", delta=words))
            if words == "Once ":
                await turn.sink.flush()  # "Once " reaches the tab, "upon a time" waits for the next flush
        thread_runs.leave(turn)
        run_script(tab, texts_handed_over([tid], thread, turn.sink.conversation))
        await turn.sink.close()
        await thread_runs.hand_over(turn, None)
        return tab[tid][1]

    assert asyncio.run(scenario()) == "Once upon a time"


async def _run_in_tab(event: Event, tab: dict[str, tuple[int, str]]) -> None:
    if event.name == "_call_script":
        run_script(tab, event.payload["javascript_code"])


def run_script(tab: dict[str, tuple[int, str]], script: str) -> None:
    """What the tab's text store (cui_text.jsx) does with a script: a piece joins its text if it follows the last one
    held; a whole text replaces one held at a lower or equal count, or any when the script says to replace."""
    decode = json.JSONDecoder().raw_decode
    at = 0
    while (found := re.search(r"__cui([AS])\?\.\(", script[at:])) is not None:
        at += found.end()
        if found[1] == "A":
            tid, at = decode(script, at)
            seq, at = decode(script, at + 1)
            piece, at = decode(script, at + 1)
            held = tab.get(tid, (-1, ""))
            if seq == held[0] + 1:
                tab[tid] = (seq, held[1] + piece)
        else:
            wholes, at = decode(script, at)
            replace = script[at : at + 2] == ",1"
            for tid, (seq, text) in wholes.items():
                if replace or tid not in tab or seq >= tab[tid][0]:
                    tab[tid] = (seq, text)


def test_a_text_asked_for_after_a_restart_is_the_stores_not_the_one_the_old_server_left_in_the_tab(copilot):
    """A restarted server gets back the tab's state as the old one last wrote it (Reflex's state on disk); the store
    has the reply's last words (kept when it was asked to stop). A tab asking for the reply gets the store's, whole."""
    copilot.agent.says("Once upon a time")
    copilot.say("tell me a story")
    tab = copilot.state(CopilotState)
    thread, conversation = tab.get_value("_thread"), tab.get_value("_conversation")
    reply = conversation.items(thread)[-1]["id"]
    store = copilot._app.call(declarations.copilot.open_store())
    owner = copilot._app.call(owner_of_tab(tab))
    stored = store.load_with_notes(owner, thread.id)
    assert stored is not None
    stored.thread.messages[-1].content = "Once upon a time a lighthouse keeper"  # its last words, kept at the stop
    store.save(owner, stored.thread, notes=stored.notes)
    tab._worker = "1-gone"  # the state as the server before the restart left it

    copilot.click(CopilotState.need_texts([reply]))

    script = [payload["javascript_code"] for name, payload in copilot.browser_events if name == "_call_script"][-1]
    tab_texts: dict[str, tuple[int, str]] = {reply: (40, "Once upon a time")}  # (40: the pieces the old server sent)
    run_script(tab_texts, script)
    assert tab_texts[reply][1] == "Once upon a time a lighthouse keeper"
