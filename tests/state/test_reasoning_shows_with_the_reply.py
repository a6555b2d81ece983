"""A reasoning model's thinking shows as a reply does: its start goes with its first words, and its end (the "Thought
for N s" line) with the reply's first words, in one change of the tab's state, not one of its own (each show is a
lock of the tab's state).

The sink is the one a turn uses; the agent's events come a few turns of the event loop apart, as a model streams them.
"""

from __future__ import annotations

import asyncio

import pytest
from ag_ui.core import (
    AssistantMessage,
    ReasoningMessage,
    ReasoningMessageContentEvent,
    ReasoningMessageEndEvent,
    ReasoningMessageStartEvent,
    TextMessageContentEvent,
    TextMessageStartEvent,
)

from copilot_ui.core import AgentRunStarted
from copilot_ui.state.sink import ViewUpdate
from copilot_ui.state.sink import _outgoing as outgoing

from ._opened_turn import a_turn_opens, the_agent_streams

Shown = tuple[str, ...]  # the kinds of the agent's items a show has, each with "*" while it streams


class _Tab:
    """The shows of items that reach the tab, at once."""

    def __init__(self) -> None:
        self.shows: list[Shown] = []
        self.shown = asyncio.Condition()

    async def show(self, view: ViewUpdate) -> None:
        if view.items is None:
            return
        async with self.shown:
            self.shows.append(tuple(item["k"] + ("*" if item.get("live") else "") for item in view.items if item["k"] in "ra"))
            self.shown.notify_all()

    async def until_shown(self, kind: str, since: int) -> None:
        """Until a show after the first `since` has an item of this kind."""
        async with self.shown:
            await asyncio.wait_for(self.shown.wait_for(lambda: any(kind in "".join(shown) for shown in self.shows[since:])), 5)


def test_the_reasonings_end_shows_with_the_replys_first_words(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(outgoing, "TEXT_WAIT", 1.0)  # (longer than a few turns of the loop, even on a busy machine)

    async def scenario() -> tuple[list[Shown], list[Shown]]:
        tab = _Tab()
        thread, sink = a_turn_opens(tab.show)
        sink.emit(AgentRunStarted("run-1", 0))
        thread.add_message(ReasoningMessage(id="r1", content=""))
        sink.emit(ReasoningMessageStartEvent(message_id="r1", role="reasoning"))
        await the_agent_streams()
        thread.append_text("r1", "Rayleigh scattering")
        sink.emit(ReasoningMessageContentEvent(message_id="r1", delta="Rayleigh scattering"))
        await tab.until_shown("r", 0)
        await asyncio.sleep(2 * outgoing.MIN_INTERVAL)  # (a flush may go at once from now)
        thinking = list(tab.shows)
        sink.emit(ReasoningMessageEndEvent(message_id="r1"))
        await the_agent_streams()
        thread.add_message(AssistantMessage(id="m1", content=""))
        sink.emit(TextMessageStartEvent(message_id="m1"))
        await the_agent_streams()
        thread.append_text("m1", "Because of")
        sink.emit(TextMessageContentEvent(message_id="m1", delta="Because of"))
        await tab.until_shown("a", len(thinking))
        sink.finish()
        await asyncio.wait_for(sink.close(), 5)
        return thinking, tab.shows[len(thinking) :]

    thinking, after = asyncio.run(scenario())
    assert [shown for shown in thinking if shown] == [("r*",)]  # the thinking shows live, with its first words
    assert after == [("r", "a*"), ("r", "a")]  # its end with the reply's first words in one show; then the turn's end
