"""Tools the browser tests add to the demo app (COPILOT_EXTRA_MODULES): slow ones, to race clicks against them."""

from __future__ import annotations

import asyncio
import os
import re
import time
from collections import Counter
from collections.abc import AsyncIterator

import reflex as rx
from pydantic_ai import Agent as PydanticAgent
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, UserPromptPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

import copilot_ui as cui
from copilot_ui.agents import LocalAgent
from copilot_ui.copilot_ui import DashboardState
from copilot_ui.core import GO_ON

from ._story import STORY, STORY_WORD_SECONDS

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


async def _story(messages: list[ModelMessage], _info: AgentInfo) -> AsyncIterator[str]:
    """Tells STORY a word at a time; asked to go on with it after it was cut off, it goes on from where it ends."""
    asked = messages[-1].parts[-1] if isinstance(messages[-1], ModelRequest) and messages[-1].parts else None
    told = messages[-2].text or "" if len(messages) > 1 and isinstance(messages[-2], ModelResponse) else ""
    going_on = isinstance(asked, UserPromptPart) and asked.content == GO_ON and STORY.startswith(told)
    rest = STORY[len(told) :] if going_on else STORY
    for word in re.findall(r"\S+\s*|\s+", rest):
        yield word
        await asyncio.sleep(STORY_WORD_SECONDS)


# An agent whose reply takes a while, for the tests that stop the server while it streams.
cui.copilot.agents.register(
    LocalAgent(PydanticAgent(FunctionModel(stream_function=_story)), agent_id="story", description="Story agent")
)


@cui.frontend_tool(state=DashboardState)
async def slow_state_tool(state: DashboardState, seconds: float, note: str = "", until: str = "") -> str:
    """Change the dashboard after a while (it works on a copy of the state while it waits).

    Args:
        seconds: How long it takes.
        note: A label for the run.
        until: A file whose coming ends the wait early (a test's signal, however long its setup took).
    """
    RUNS[note] += 1
    await _wait(seconds, until)
    state.city = "Paris"
    return f"{note} ran {RUNS[note]} time(s)"


@cui.frontend_tool(approval="always")
async def slow_approval(note: str, seconds: float = 1.0, until: str = "") -> str:
    """Something that needs the person's approval, and takes a while once approved.

    Args:
        note: A label for the run.
        seconds: How long it takes.
        until: A file whose coming ends the wait early (a test's signal, however long its setup took).
    """
    RUNS[note] += 1
    await _wait(seconds, until)
    return f"{note} ran {RUNS[note]} time(s)"


async def _wait(seconds: float, until: str) -> None:
    """Wait this long, or until the file `until` names exists."""
    ends = time.monotonic() + seconds
    while time.monotonic() < ends and not (until and await asyncio.to_thread(os.path.exists, until)):
        await asyncio.sleep(min(0.2, max(0.0, ends - time.monotonic())))


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


def _budget_texts(arguments: dict, result: object) -> dict[str, str]:
    """The budget card's texts, written as the page writes money (made in Python, live while the arguments stream)."""
    amount = arguments.get("amount")
    texts = {"amount": f"€{amount:,}" if isinstance(amount, int) else "…"}
    if isinstance(result, dict):
        texts["left"] = f"€{result['left']:,} left"
    return texts


def _budget_card(call: cui.ToolCallView) -> rx.Component:
    return rx.el.section(
        rx.text("Budget for ", call.argument("trip", "")),
        rx.text(call.display_value("amount"), class_name="budget-amount"),
        rx.text(call.display_value("left"), class_name="budget-left"),
        aria_label="Budget",
    )


@cui.frontend_tool(render=_budget_card, display=_budget_texts)
async def set_budget(trip: str, amount: int, note: str = "") -> dict:
    """Set a trip's budget (the card shows the money as the page writes it).

    Args:
        trip: The trip.
        amount: Euros.
        note: Why.
    """
    return {"trip": trip, "amount": amount, "left": amount - 3400}
