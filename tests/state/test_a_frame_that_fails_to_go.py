"""A frame the tab's connection refuses costs the turn nothing: the words after it still go, the items still show, and
the turn ends. The sink is the one a turn uses; the tab's connection fails once, as a socket that breaks mid-reply.
"""

from __future__ import annotations

import asyncio
import json
import re

from ag_ui.core import AssistantMessage, TextMessageContentEvent, TextMessageStartEvent
from reflex.event import Event

from copilot_ui.agents import Scrubber
from copilot_ui.core import AgentRunStarted, Thread, TurnStarted, UserMessageAdded
from copilot_ui.state.sink import ViewSink, ViewUpdate
from copilot_ui.state.view import Conversation


class _BrokenOnceTab:
    """The pieces of text that reach the tab, its shows, and a connection that refuses the first frame of a reply."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.shows: list[bool] = []  # whether the turn still ran, at each show
        self.refused = 0

    async def show(self, view: ViewUpdate) -> None:
        self.shows.append(view.running)

    async def send(self, event: Event) -> None:
        script = str(event.payload["javascript_code"])
        if "__cuiA" in script and not self.refused:
            self.refused += 1
            raise ConnectionResetError("the socket broke")
        self.pieces += [json.loads(piece) for piece in re.findall(r'__cuiA\?\.\("[^"]*",\d+,("(?:[^"\\]|\\.)*")\)', script)]


def test_the_words_after_a_refused_frame_still_reach_the_tab_and_the_turn_ends():
    async def scenario() -> _BrokenOnceTab:
        tab = _BrokenOnceTab()
        thread = Thread()
        thread.add_user_message("hello", "u1")
        sink = ViewSink(tab.show, thread, Conversation.of(thread.id), scrubber=Scrubber(), send=tab.send, interval=0.0)
        sink.emit(TurnStarted(thread.id))
        sink.emit(UserMessageAdded("u1", "hello", False))
        sink.emit(AgentRunStarted("run-1", 0))
        thread.add_message(AssistantMessage(id="m1", content=""))
        sink.emit(TextMessageStartEvent(message_id="m1"))
        for words in ("Once ", "upon ", "a time"):
            thread.append_text("m1", words)
            sink.emit(TextMessageContentEvent(message_id="m1", delta=words))
            await sink.flush()
        sink.finish()
        await asyncio.wait_for(sink.close(), 5)
        return tab

    tab = asyncio.run(scenario())
    assert tab.refused == 1
    assert tab.pieces == ["upon ", "a time"]  # the frame after the refused one went, and the next
    assert tab.shows[-1] is False  # the turn's end showed
