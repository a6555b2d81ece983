"""Building and feeding AG-UI streams in the protocol tests: a run around some events, fed to a thread."""

from __future__ import annotations

from typing import Any

import pytest
from ag_ui.core import BaseEvent, RunFinishedEvent, RunStartedEvent

from copilot_ui.protocol import AGUIThread, EventPipeline, ProtocolError


def run_started(run_id="run-1", **fields):
    return RunStartedEvent(thread_id="thread-1", run_id=run_id, **fields)


def run_finished(run_id="run-1", **fields):
    return RunFinishedEvent(thread_id="thread-1", run_id=run_id, **fields)


def in_one_run(*events):
    """The events wrapped in RUN_STARTED ... RUN_FINISHED."""
    return [run_started(), *events, run_finished()]


def feed(events, thread=None):
    """Verify and apply a whole stream (events, camelCase dicts or JSON strings); returns the thread."""
    thread = thread if thread is not None else AGUIThread()
    pipeline = EventPipeline(thread)
    for event in events:
        if isinstance(event, BaseEvent):
            pipeline.feed(event)
        else:
            pipeline.feed_frame(event)
    pipeline.finish()
    return thread


def rejection(events) -> ProtocolError:
    """The ProtocolError the stream is rejected with."""
    with pytest.raises(ProtocolError) as caught:
        feed(events)
    return caught.value


def message_json(thread, message_id) -> dict[str, Any]:
    """One message of the thread as camelCase AG-UI JSON."""
    found = [message for message in thread.to_json()["messages"] if message["id"] == message_id]
    assert len(found) == 1, f"expected one message {message_id!r}, found {len(found)}"
    return found[0]
