"""ScriptedAgent: replays scripted AG-UI events, one script per run, and records every input.

It stands where a language model would, so that every behaviour of the run loop can be tested
without one. A script is a list of events (see copilot_ui.agents.scripts for builders), or a
function of the RunAgentInput returning one. A `Pause` in a script waits; an exception in a
script is raised at that point, as a failing agent would.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from typing import Union

from ag_ui.core import BaseEvent, RunAgentInput

from ..errors import AgentError
from ._base import Agent


@dataclass(frozen=True)
class Pause:
    """Wait this long before the next scripted event."""

    seconds: float


ScriptItem = Union[BaseEvent, Pause, BaseException]
Script = Union[Iterable[ScriptItem], Callable[[RunAgentInput], Iterable[ScriptItem]]]


class ScriptedAgent(Agent):
    """An agent whose runs are scripted in advance."""

    def __init__(self, *scripts: Script, agent_id: str = "default", description: str = "") -> None:
        super().__init__(agent_id, description)
        self.scripts: deque[Script] = deque(scripts)
        self.inputs: list[RunAgentInput] = []

    def add(self, *scripts: Script) -> None:
        """Scripts for later runs."""
        self.scripts.extend(scripts)

    async def _events(self, run_input: RunAgentInput) -> AsyncIterator[BaseEvent]:
        self.inputs.append(run_input)
        if not self.scripts:
            raise AgentError(f"the scripted agent has no script for run {len(self.inputs)}")
        script = self.scripts.popleft()
        items = script(run_input) if callable(script) else script
        for item in items:
            if isinstance(item, Pause):
                await asyncio.sleep(item.seconds)
            elif isinstance(item, BaseException):
                raise item
            else:
                yield item
