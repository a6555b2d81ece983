"""A turn's first show waits a moment for the agent's first words, so that the person's message and those words reach
the tab in one change of its state; an agent that says nothing soon does not hold the person's message back longer.

The sink is the one a turn uses, its shows and its browser events (the texts) recorded as the tab would get them.
"""

from __future__ import annotations

import asyncio
import time

from ag_ui.core import AssistantMessage, TextMessageContentEvent, TextMessageStartEvent
from reflex.event import Event

from copilot_ui.core import AgentRunStarted, Thread
from copilot_ui.state.sink import ViewSink, ViewUpdate, _outgoing

from ._opened_turn import a_turn_opens


class _Tab:
    """The shows that reach the tab: each as the seconds after the turn began and the kinds of the items it shows."""

    def __init__(self) -> None:
        self.began = time.monotonic()
        self.shows: list[tuple[float, list[str]]] = []
        self.texts: list[str] = []  # the scripts that bring the texts

    async def show(self, view: ViewUpdate) -> None:
        if view.items is not None:
            self.shows.append((time.monotonic() - self.began, [item["k"] for item in view.items]))

    async def send(self, event: Event) -> None:
        self.texts.append(str(event.payload["javascript_code"]))


def _a_turn_opens(tab: _Tab) -> tuple[Thread, ViewSink]:
    thread, sink = a_turn_opens(tab.show, tab.send)
    sink.commit_soon()  # the commit before the turn's first run
    sink.emit(AgentRunStarted("run-1", 0))
    return thread, sink


WAIT = 0.5  # seconds the first show waits for the first words (longer than the default: a busy machine's sleeps overrun)


def test_the_persons_message_and_the_first_words_go_in_one_show(monkeypatch):
    monkeypatch.setattr(_outgoing, "FIRST_WORDS_WAIT", WAIT)

    async def scenario() -> tuple[list[tuple[float, list[str]]], list[str]]:
        tab = _Tab()
        thread, sink = _a_turn_opens(tab)
        await asyncio.sleep(0.05)  # the agent thinks a little
        thread.add_message(AssistantMessage(id="m1", content=""))
        sink.emit(TextMessageStartEvent(message_id="m1"))
        thread.append_text("m1", "Hi there")
        sink.emit(TextMessageContentEvent(message_id="m1", delta="Hi there"))
        await asyncio.sleep(0.05)  # (the show goes at once: it does not wait for the rest)
        first = list(tab.shows)
        sink.finish()
        await sink.close()
        return first, tab.texts

    first, texts = asyncio.run(scenario())
    assert len(first) == 1  # one show: the message with the first words, not one before them
    seconds, kinds = first[0]
    assert kinds == ["u", "a"]
    assert 0.05 <= seconds < WAIT  # with the words, as soon as they came
    assert '"hello"' in texts[0] and '"Hi there"' in texts[0]  # the texts too, in one frame


def test_an_agent_that_says_nothing_soon_does_not_hold_the_persons_message_back(monkeypatch):
    monkeypatch.setattr(_outgoing, "FIRST_WORDS_WAIT", WAIT)

    async def scenario() -> list[tuple[float, list[str]]]:
        tab = _Tab()
        _thread, sink = _a_turn_opens(tab)
        await asyncio.sleep(WAIT * 2)
        shows = list(tab.shows)
        await sink.close()
        assert '"hello"' in tab.texts[0]
        return shows

    shows = asyncio.run(scenario())
    assert len(shows) == 1
    seconds, kinds = shows[0]
    assert kinds == ["u"]
    assert WAIT * 0.9 <= seconds < WAIT * 2  # shown after the wait
