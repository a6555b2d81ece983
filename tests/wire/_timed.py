"""Runs watched with a clock: when each event arrived, for the tests of pace (first word at once, state filling over time)."""

from __future__ import annotations

import time

from ag_ui.core import BaseEvent, RunAgentInput

from copilot_ui.agents import Agent
from copilot_ui.protocol import AGUIThread, EventPipeline

from ._runs import RUN_TIMEOUT


async def timed_run(agent: Agent, request: RunAgentInput, thread: AGUIThread) -> list[tuple[float, BaseEvent]]:
    """The run's events, applied to the thread, each with the seconds from asking for the run to its arrival."""
    pipeline, timed, start = EventPipeline(thread), [], time.perf_counter()
    async for event in agent.run(request):
        timed.append((time.perf_counter() - start, event))
        pipeline.feed(event)
        assert timed[-1][0] < RUN_TIMEOUT, "the run takes too long"
    pipeline.finish()
    return timed


async def first_arrival(agent: Agent, request: RunAgentInput, kind: str) -> float:
    """Seconds from asking for the run to its first event of this kind (e.g. "TEXT_MESSAGE_CONTENT"); the run stops there."""
    run, start = agent.run(request), time.perf_counter()
    try:
        async for event in run:
            if event.type.value == kind:
                return time.perf_counter() - start
    finally:
        await run.aclose()
    raise AssertionError(f"the run sent no {kind}")


def arrivals(timed: list[tuple[float, BaseEvent]], kind: str) -> list[float]:
    """When the events of one kind arrived."""
    return [at for at, event in timed if event.type.value == kind]
