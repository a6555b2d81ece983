"""A turn's last show never cuts one in progress short: the sink lets a show that is writing the tab's state finish,
then shows how the turn ended.

With several workers the tab's state lives in Redis, and a show that is cancelled while it takes the state's lock can
leave the lock taken in Redis: the next show, the one that says the turn ended, then waited ten seconds (Reflex's lock
expiry) before the person saw the reply end. The sink is the one a turn uses; its show takes a while, as taking the
lock from Redis does, and records whether it was cut short.

A reply that ends as its turn ends is shown ended in the turn's last show, not in a show of its own (each show is a
lock of the tab's state); one that ends while the run goes on is shown ended within a moment.
"""

from __future__ import annotations

import asyncio

import pytest
from ag_ui.core import AssistantMessage, TextMessageContentEvent, TextMessageEndEvent, TextMessageStartEvent

from copilot_ui.core import AgentRunStarted, Thread
from copilot_ui.state.sink import ViewSink, ViewUpdate
from copilot_ui.state.sink import _outgoing as outgoing

from ._opened_turn import a_turn_opens, the_agent_streams

TAKES = 0.2  # seconds a show takes to write the tab's state


class _SlowTab:
    """The shows that reach the tab, each taking TAKES: whether it ran to its end, and whether the turn still ran."""

    def __init__(self) -> None:
        self.writing = asyncio.Event()
        self.shows: list[tuple[str, bool]] = []

    async def show(self, view: ViewUpdate) -> None:
        self.writing.set()
        try:
            await asyncio.sleep(TAKES)
        except asyncio.CancelledError:
            self.shows.append(("cut short", view.running))
            raise
        self.shows.append(("written", view.running))


def test_the_show_that_says_the_turn_ended_waits_for_the_one_in_progress():
    async def scenario() -> list[tuple[str, bool]]:
        tab = _SlowTab()
        thread, sink = a_turn_opens(tab.show)
        _a_reply_starts(thread, sink)
        await asyncio.wait_for(tab.writing.wait(), 5)  # a flush is writing the tab's state
        sink.finish()
        await asyncio.wait_for(sink.close(), 5)
        return tab.shows

    shows = asyncio.run(scenario())
    assert ("cut short", True) not in shows  # the show in progress was written
    assert shows[0] == ("written", True)
    assert shows[-1] == ("written", False)  # then the end of the turn


def _a_reply_starts(thread: Thread, sink: ViewSink) -> None:
    """The agent's run starts a reply, `m1`, and its first words arrive."""
    sink.emit(AgentRunStarted("run-1", 0))
    thread.add_message(AssistantMessage(id="m1", content=""))
    sink.emit(TextMessageStartEvent(message_id="m1"))
    thread.append_text("m1", "Hi there")
    sink.emit(TextMessageContentEvent(message_id="m1", delta="Hi there"))


def test_a_turn_cancelled_while_its_sink_closes_is_cancelled_and_the_show_in_progress_still_ends():
    async def scenario() -> tuple[bool, list[tuple[str, bool]]]:
        tab = _SlowTab()
        _thread, sink = a_turn_opens(tab.show)
        await asyncio.wait_for(tab.writing.wait(), 5)  # a flush is writing the tab's state
        sink.finish()
        closing = asyncio.ensure_future(sink.close())
        await asyncio.sleep(TAKES / 4)
        closing.cancel()  # the server stops while the turn closes
        cancelled = False
        try:
            await closing
        except asyncio.CancelledError:
            cancelled = True
        await asyncio.sleep(TAKES)  # (the show in progress goes on in its own task)
        return cancelled, tab.shows

    cancelled, shows = asyncio.run(scenario())
    assert cancelled  # the cancel reached the turn: it was not swallowed
    assert shows == [("written", True)]  # the show in progress ended, and nothing was cut short


class _Tab:
    """The shows that reach the tab, at once: whether the turn ran, and whether the reply `m1` was still live."""

    def __init__(self) -> None:
        self.shows: list[tuple[bool, bool | None]] = []
        self.shown = asyncio.Event()

    async def show(self, view: ViewUpdate) -> None:
        reply = next((item for item in view.items or () if item["k"] == "a"), None)
        self.shows.append((view.running, None if reply is None else bool(reply.get("live"))))
        self.shown.set()

    async def next_show(self) -> tuple[bool, bool | None]:
        self.shown.clear()
        await asyncio.wait_for(self.shown.wait(), 5)
        return self.shows[-1]


def test_a_reply_that_ends_with_its_turn_is_shown_ended_in_the_turns_last_show(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(outgoing, "TEXT_WAIT", 5.0)  # (what may wait like text waits longer than the test runs)

    async def scenario() -> list[tuple[bool, bool | None]]:
        tab = _Tab()
        thread, sink = a_turn_opens(tab.show)
        _a_reply_starts(thread, sink)
        assert await tab.next_show() == (True, True)  # the first words, live
        await asyncio.sleep(2 * outgoing.MIN_INTERVAL)  # (the reply streams on: a flush may go at once from now)
        sink.emit(TextMessageEndEvent(message_id="m1"))
        await the_agent_streams()  # the agent's run ends in a few turns of the event loop
        sink.finish()
        await asyncio.wait_for(sink.close(), 5)
        return tab.shows

    shows = asyncio.run(scenario())
    assert shows == [(True, True), (False, False)]  # one show for the reply's end and the turn's


def test_a_reply_that_ends_while_the_run_goes_on_is_shown_ended_without_waiting_for_the_run():
    async def scenario() -> tuple[bool, bool | None]:
        tab = _Tab()
        thread, sink = a_turn_opens(tab.show)
        _a_reply_starts(thread, sink)
        await tab.next_show()
        sink.emit(TextMessageEndEvent(message_id="m1"))
        shown = await tab.next_show()  # the run goes on (a tool call may follow): the reply's end shows anyway
        sink.finish()
        await sink.close()
        return shown

    assert asyncio.run(scenario()) == (True, False)
