"""The run loop's own cost, with a scripted agent and no model in the way.

- Overhead per follow-up: from the moment a tool handler returns its result to the moment the next
  request to the agent leaves, the handler's own time excluded. Turns of 20 follow-ups each.
- Ten parallel tools of 200 ms each in one reply: the time from the first handler starting to the
  last result written (CopilotKit runs them one after another: 2 s).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import Any

from ag_ui.core import RunAgentInput

from copilot_ui.agents import ScriptedAgent
from copilot_ui.agents import scripts as s
from copilot_ui.core import LoopLimits, RunLoop, Thread, Toolbox, ToolExecutionEnded, ToolExecutionStarted, tool_from_function

FOLLOW_UPS_PER_TURN = 20
TURNS = 25


async def follow_up_overheads() -> list[float]:
    """Seconds from each handler's return to the next request, over many follow-ups."""
    returned: list[float] = []
    overheads: list[float] = []

    def step(n: int) -> str:
        """One step."""
        returned.append(time.perf_counter())
        return f"step {n} done"

    def next_reply(run_input: RunAgentInput) -> list[Any]:
        if returned:
            overheads.append(time.perf_counter() - returned[-1])
            returned.clear()
        done = sum(1 for message in run_input.messages if message.role == "tool")
        if done >= FOLLOW_UPS_PER_TURN:
            return s.text_reply("all steps done")
        return s.tool_calls_reply(("step", {"n": done}))

    for _ in range(TURNS):
        agent = ScriptedAgent(*[next_reply] * (FOLLOW_UPS_PER_TURN + 1))
        loop = RunLoop(agent, Toolbox([tool_from_function(step)]), limits=LoopLimits(max_follow_ups=FOLLOW_UPS_PER_TURN + 1))
        await loop.send(Thread(), "do the steps")
    return overheads


async def parallel_batch_seconds(count: int = 10, seconds: float = 0.2) -> float:
    """Seconds from the first of `count` handlers starting to the last result, each handler sleeping `seconds`."""
    marks: list[float] = []

    async def wait(n: int) -> str:
        """Wait."""
        await asyncio.sleep(seconds)
        return f"waited {n}"

    def record(event: Any) -> None:
        if isinstance(event, (ToolExecutionStarted, ToolExecutionEnded)):
            marks.append(time.perf_counter())

    calls = [("wait", {"n": n}) for n in range(count)]
    agent = ScriptedAgent(s.tool_calls_reply(*calls), s.text_reply("done"))
    loop = RunLoop(agent, Toolbox([tool_from_function(wait)]), emit=record)
    await loop.send(Thread(), "wait")
    return marks[-1] - marks[0]


def main() -> None:
    overheads = asyncio.run(follow_up_overheads())
    ordered = sorted(overheads)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    print(f"loop_follow_up_overhead_median: {statistics.median(overheads) * 1e3:.3f} ms")
    print(f"loop_follow_up_overhead_p99: {p99 * 1e3:.3f} ms")
    print(f"loop_follow_up_samples: {len(overheads)} runs")
    print(f"parallel_10_tools_of_200ms: {asyncio.run(parallel_batch_seconds()) * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
