"""Applying an event costs the size of the event, not the size of the thread.

The same 2,000 text deltas and 2,000 tool-argument deltas are applied to a thread holding 10
messages and to one holding 20,000 messages with a 1 MB reply among them; the time per event
should not grow with the thread.
"""

from __future__ import annotations

import time

from ag_ui.core import (
    AssistantMessage,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
    UserMessage,
)

from copilot_ui.protocol import AGUIThread, EventApplier

DELTAS = 2_000


def _thread(messages: int) -> AGUIThread:
    thread = AGUIThread()
    for n in range(messages // 2):
        thread.add_message(UserMessage(id=f"u{n}", content="question"))
        thread.add_message(AssistantMessage(id=f"a{n}", content="x" * (1_000_000 if n == 0 else 50)))
    return thread


def microseconds_per_event(messages: int) -> float:
    applier = EventApplier(_thread(messages))
    events = [TextMessageStartEvent(message_id="live", role="assistant")]
    events += [TextMessageContentEvent(message_id="live", delta="word ") for _ in range(DELTAS)]
    events += [
        TextMessageEndEvent(message_id="live"),
        ToolCallStartEvent(tool_call_id="c", tool_call_name="f", parent_message_id="live"),
    ]
    events += [ToolCallArgsEvent(tool_call_id="c", delta='"x",') for _ in range(DELTAS)]
    events.append(ToolCallEndEvent(tool_call_id="c"))
    best = float("inf")
    for _ in range(5):
        applier = EventApplier(_thread(messages))
        started = time.perf_counter()
        for event in events:
            applier.apply(event)
        best = min(best, time.perf_counter() - started)
    return best / len(events) * 1e6


def main() -> None:
    small, large = microseconds_per_event(10), microseconds_per_event(20_000)
    print(f"apply_event_small_thread: {small:.2f} us")
    print(f"apply_event_large_thread: {large:.2f} us")
    print(f"apply_event_large_over_small: {large / small:.2f} x")


if __name__ == "__main__":
    main()
