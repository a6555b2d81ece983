"""How often the view sink updates the sidebar while a reply streams fast: at most 25 times a second, whatever the rate.

No browser and no Reflex app: the `ViewSink` of copilot_ui/state/_sink.py is driven directly, as a
turn drives it, with a stand-in for the tab's CopilotState. One turn: the person's message, a run,
a reply of 2,000 tokens (the hostile agent's `!tokens` reply, ~10 KB) emitted as TextDelta events
on a schedule of 1 ms and of 5 ms per token (token i at i·interval after the first; the thread
gets each token as the loop would apply it), then the end of the message, the run and the turn.

What is counted (each figure the median of RUNS turns, after one warm-up turn that is not counted):
- updates: what reaches the sidebar, each a websocket frame in the app: a browser event the sink
  sends (the `rx.call_script` of new pieces and whole texts; stamped as the tab's `send`, standing
  in for its connection, receives it), plus each write of items, status and running through the
  tab's `show` (stamped when called).
- updates_max_1s: the most updates stamped within any one second of the turn. Goal ≤ 25.
- flushes_max_1s: the most flush starts (calls of `ViewSink.flush`) within any one second.
- min_flush_gap: the shortest time between the starts of two flushes (MIN_INTERVAL is 40 ms).
- updates: all the updates of the turn.

The stand-in writes instantly (the app's takes the state's lock, ~1 ms), so these are the sink's
own pacing, not Reflex's.

Run from the project root: .venv/bin/python -m bench.sink_rate
"""

from __future__ import annotations

import asyncio
import itertools
import statistics
import time
from dataclasses import dataclass, field

from ag_ui.core import AssistantMessage, TextMessageContentEvent, TextMessageEndEvent, TextMessageStartEvent, UserMessage
from reflex.event import Event

from bench.stream_wire import most_in_one_second
from copilot_ui.agents import Scrubber
from copilot_ui.core import (
    AgentRunFinished,
    AgentRunStarted,
    Thread,
    TurnEnded,
    TurnStarted,
    UserMessageAdded,
)
from copilot_ui.state.sink import ViewSink, ViewUpdate
from copilot_ui.state.view import Conversation
from tests.hostile_agent import reply_tokens

INTERVALS_MS = (1.0, 5.0)
TOKENS = 2_000
RUNS = 3


@dataclass(frozen=True)
class TurnFigures:
    """How one turn reached the sidebar."""

    updates_max_1s: int
    flushes_max_1s: int
    min_flush_gap_ms: float
    updates: int


def main() -> None:
    asyncio.run(stream_turn(1.0))  # warm-up
    for interval in INTERVALS_MS:
        turns = [asyncio.run(stream_turn(interval)) for _ in range(RUNS)]
        name = f"sink_rate_{interval:g}ms"
        print(f"{name}_updates_max_1s: {statistics.median(turn.updates_max_1s for turn in turns):.0f} /s", flush=True)
        print(f"{name}_flushes_max_1s: {statistics.median(turn.flushes_max_1s for turn in turns):.0f} /s", flush=True)
        print(f"{name}_min_flush_gap: {statistics.median(turn.min_flush_gap_ms for turn in turns):.1f} ms", flush=True)
        print(f"{name}_updates: {statistics.median(turn.updates for turn in turns):.0f} updates", flush=True)


async def stream_turn(interval_ms: float) -> TurnFigures:
    """One turn whose reply streams a token every `interval_ms`, through a ViewSink; what reached the sidebar."""
    tab = TabStandIn()
    thread = Thread()
    sink = ViewSink(tab.show, thread, Conversation.of(thread.id), scrubber=Scrubber(), send=tab.send)
    flushes = _time_flushes(sink)

    sink.emit(TurnStarted(thread.id))
    thread.add_message(UserMessage(id="user-1", content="!tokens"))
    sink.emit(UserMessageAdded("user-1", "!tokens", queued=False))
    sink.emit(AgentRunStarted("run-1", follow_up=0))
    thread.add_message(AssistantMessage(id="reply-1", content=""))
    sink.emit(TextMessageStartEvent(message_id="reply-1"))
    started, seconds = time.perf_counter(), interval_ms / 1000
    for number, token in enumerate(reply_tokens(TOKENS)):
        await asyncio.sleep(max(0.0, started + number * seconds - time.perf_counter()))
        thread.append_text("reply-1", token)
        sink.emit(TextMessageContentEvent(message_id="reply-1", delta=token))
    thread.end_text("reply-1")
    sink.emit(TextMessageEndEvent(message_id="reply-1"))
    sink.emit(AgentRunFinished("run-1", "success"))
    sink.emit(TurnEnded(thread.id, "complete"))
    sink.finish()
    await sink.close()

    updates = sorted(tab.updates)
    gaps = [later - earlier for earlier, later in itertools.pairwise(flushes)]
    return TurnFigures(
        updates_max_1s=most_in_one_second(updates, second=1.0),
        flushes_max_1s=most_in_one_second(flushes, second=1.0),
        min_flush_gap_ms=min(gaps) * 1000 if gaps else float("nan"),
        updates=len(updates),
    )


@dataclass
class TabStandIn:
    """What the sink writes to and sends through, in place of the tab's CopilotState: it stamps each update."""

    updates: list[float] = field(default_factory=list)

    async def show(self, _shown: ViewUpdate) -> None:
        self.updates.append(time.perf_counter())

    async def send(self, _event: Event) -> None:
        """Take a browser event the sink sends, as the tab's connection does."""
        self.updates.append(time.perf_counter())


def _time_flushes(sink: ViewSink) -> list[float]:
    """Stamp the start of every flush of the sink; the stamps, as they come."""
    starts: list[float] = []
    flush = sink.flush

    async def timed() -> None:
        starts.append(time.perf_counter())
        await flush()

    sink.flush = timed  # type: ignore[method-assign]
    return starts


if __name__ == "__main__":
    main()
