"""Tools the browser tests add to the demo app (COPILOT_EXTRA_MODULES): slow ones, to race clicks against them."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator

from pydantic_ai import Agent as PydanticAgent
from pydantic_ai.messages import ModelMessage, ModelRequest, UserPromptPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

import copilot_ui as cui
from copilot_ui.agents import LocalAgent
from copilot_ui.copilot_ui import DashboardState

RUNS: Counter[str] = Counter()  # runs by note: a test checks that its own call ran once


async def _echo(messages: list[ModelMessage], _info: AgentInfo) -> AsyncIterator[str]:
    asked = next(
        (
            part.content
            for message in reversed(messages)
            if isinstance(message, ModelRequest)
            for part in message.parts
            if isinstance(part, UserPromptPart)
        ),
        "",
    )
    yield f"Echo agent here: {asked}"


# A second agent, so that the copilot offers a picker.
cui.copilot.agents.register(
    LocalAgent(PydanticAgent(FunctionModel(stream_function=_echo)), agent_id="echo", description="Echo agent")
)


@cui.frontend_tool(state=DashboardState)
async def slow_state_tool(state: DashboardState, seconds: float, note: str = "") -> str:
    """Change the dashboard after a while (it works on a copy of the state while it waits).

    Args:
        seconds: How long it takes.
        note: A label for the run.
    """
    RUNS[note] += 1
    await asyncio.sleep(seconds)
    state.city = "Paris"
    return f"{note} ran {RUNS[note]} time(s)"


@cui.frontend_tool(approval="always")
async def slow_approval(note: str, seconds: float = 1.0) -> str:
    """Something that needs the person's approval, and takes a while once approved.

    Args:
        note: A label for the run.
        seconds: How long it takes.
    """
    RUNS[note] += 1
    await asyncio.sleep(seconds)
    return f"{note} ran {RUNS[note]} time(s)"


@cui.frontend_tool
async def counted(n: int = 0) -> str:
    """A quick tool that says how often it was called.

    Args:
        n: Any number.
    """
    RUNS["counted"] += 1
    return f"counted {n}"


def _loud(arguments: dict) -> dict:
    return {**arguments, "label": str(arguments.get("label", "")).upper()}


@cui.frontend_tool(approval="always", editable=True, prepare_arguments=_loud)
async def announce(label: str) -> str:
    """Announce a label on the page, once approved (the app writes labels in capitals).

    Args:
        label: What to announce.
    """
    return f"announced {label}"
